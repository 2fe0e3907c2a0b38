// bcrypt hashes, readable by (and from) the original installation's users table.
import bcrypt from 'bcryptjs';

const COST = 10;

export function hashPassword(password: string): Promise<string> {
  return bcrypt.hash(password, COST);
}

export function verifyPassword(password: string, hash: string): Promise<boolean> {
  // PHP writes $2y$, which is the same algorithm as $2b$.
  return bcrypt.compare(password, hash.replace(/^\$2y\$/, '$2b$'));
}

let dummy: Promise<string> | undefined;
/** Compared against when the e-mail is unknown, so both login failures take the same time. */
export function dummyHash(): Promise<string> {
  dummy ??= hashPassword('not-a-password');
  return dummy;
}
