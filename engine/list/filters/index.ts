// The filter kinds a definition may name. Adding one is a new file plus one entry here.
import type { FilterKind as KindName } from '../../definition/format.ts';
import { boolean } from './boolean.ts';
import { date } from './date.ts';
import { exact } from './exact.ts';
import { list } from './comma-list.ts';
import { partial } from './partial.ts';
import { range } from './range.ts';
import { trashed } from './trashed.ts';
import type { FilterKind } from './types.ts';

export const filterKinds: Record<KindName, FilterKind<any>> = { exact, partial, list, boolean, date, range, trashed };
