// bcrypt hashes, readable by (and from) the original installation's users table. The work runs in
// libuv's thread pool (@node-rs/bcrypt, native), not on the event loop, and on all cores but one
// at most: a storm of logins takes CPU time but neither holds up the other requests of the
// process nor trips its load shedding.
import { availableParallelism } from 'node:os';
import { hash, verify } from '@node-rs/bcrypt';

const COST = 10;

export function hashPassword(password: string): Promise<string> {
  // $2y$, as PHP writes it (and as this library does): PHP reads $2b$ too, but names it an unknown
  // algorithm, and a Laravel that checks the algorithm refuses such a hash.
  return inTurn(() => hash(password, COST));
}

/** Whether the password matches; a stored value that is not a bcrypt hash matches nothing. */
export function verifyPassword(password: string, stored: string): Promise<boolean> {
  return inTurn(() => verify(password, stored));
}

let dummy: Promise<string> | undefined;
/** Compared against when the e-mail is unknown, so both login failures take the same time. */
export function dummyHash(): Promise<string> {
  dummy ??= hashPassword('not-a-password');
  return dummy;
}

// How many hashes run at once: one core and one thread of the pool (DNS lookups, files) stay
// free. Each hash keeps a core busy; with one on every core, the event loop's thread waits its
// turn for a core and the reads beside a wave of logins wait with it. The others queue here.
const POOL_SIZE = Number(process.env.UV_THREADPOOL_SIZE) || 4;
const AT_ONCE = Math.max(1, Math.min(availableParallelism(), POOL_SIZE) - 1);
let running = 0;
const waiting: Array<() => void> = [];

async function inTurn<T>(work: () => Promise<T>): Promise<T> {
  if (running < AT_ONCE) running++;
  else await new Promise<void>((resolve) => waiting.push(resolve)); // a finished one hands over its place
  try {
    return await work();
  } finally {
    const next = waiting.shift();
    if (next) next();
    else running--;
  }
}
