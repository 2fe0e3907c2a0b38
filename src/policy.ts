// The authorization point every generated route passes before its handler. Every authenticated
// user may do everything today; roles and permissions plug in here without touching handlers.
import type { Authorize } from '../engine/index.ts';

export const authorize: Authorize = (_user, _def, _operation) => true;
