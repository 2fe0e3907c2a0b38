// bcrypt hashes, readable by (and from) the original installation's users table. The work runs in
// libuv's thread pool (@node-rs/bcrypt, native), not on the event loop: a storm of logins takes
// CPU time but never holds up the other requests of the process, nor trips its load shedding.
import { hash, verify } from '@node-rs/bcrypt';

const COST = 10;

export function hashPassword(password: string): Promise<string> {
  // $2y$, as PHP writes it: PHP reads $2b$ too, but names it an unknown algorithm (a Laravel that
  // checks the algorithm refuses such a hash).
  return hash(password, { cost: COST, version: '2y' });
}

/** Whether the password matches; a stored value that is not a bcrypt hash matches nothing. */
export function verifyPassword(password: string, stored: string): Promise<boolean> {
  return verify(password, stored);
}

let dummy: Promise<string> | undefined;
/** Compared against when the e-mail is unknown, so both login failures take the same time. */
export function dummyHash(): Promise<string> {
  dummy ??= hashPassword('not-a-password');
  return dummy;
}
