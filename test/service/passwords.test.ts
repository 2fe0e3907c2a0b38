// Passwords (src/auth/passwords.ts): the hashes the original installation's PHP wrote ($2y$, made
// with password_hash() of PHP 8.2) verify, so its users log in with the passwords they had; new
// hashes are written the way PHP writes them, so the original reads them back as bcrypt.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { dummyHash, hashPassword, verifyPassword } from '../../src/auth/passwords.ts';

const test = suite('passwords');

/** Made by PHP 8.2: password_hash($password, PASSWORD_BCRYPT, ['cost' => ...]). */
const PHP_HASHES = [
  { password: 'correct-horse-9', hash: '$2y$10$k7TMyEH.LXmzXgxuqqGyi.tGPpz4g/bigmBNkK6I2ONuKfzmAMYUO' },
  { password: 'Pässwörd 🔑', hash: '$2y$10$ivKdJbIP5bZ3Pj7yEvRxRO1WD8GcvI3IOPTDXpOREQir7oitt/xbm' },
  // 112 bytes at cost 12: bcrypt reads the first 72, as PHP does.
  { password: 'long-password-'.repeat(8), hash: '$2y$12$OXXcyK/k3.WiFk8C5/wGKuFeMVQeD.Tau4MWGdcZ09W2r1TX/NkwW' },
];

test('hashes written by PHP verify with their password, and only with it', async () => {
  for (const { password, hash } of PHP_HASHES) {
    assert.ok(await verifyPassword(password, hash), password);
    assert.not.ok(await verifyPassword(`${password}x`.slice(1), hash), `${password}: another password`);
  }
  // Past 72 bytes bcrypt reads nothing more, in PHP as here.
  assert.ok(await verifyPassword(`${'long-password-'.repeat(8)}-ignored`, PHP_HASHES[2]!.hash));
});

test('new hashes are $2y$ at cost 10, salted, and verify', async () => {
  const [first, second] = await Promise.all([hashPassword('correct-horse-9'), hashPassword('correct-horse-9')]);
  assert.match(first, /^\$2y\$10\$[./A-Za-z0-9]{53}$/);
  assert.is.not(first, second, 'each hash has its own salt');
  assert.ok(await verifyPassword('correct-horse-9', first));
  assert.not.ok(await verifyPassword('correct-horse-8', first));
});

test('hashes of other bcrypt writers ($2a$, $2b$) verify too', async () => {
  // Written by this service before it wrote $2y$ (bcryptjs), and by other bcrypt libraries.
  assert.ok(await verifyPassword('correct-horse-9', '$2b$10$KsNafXd9PTWcvKXZ5AIb2OEgBNVZH7.hzjsTZUV25EBViCOW9Bkc2'));
  assert.ok(await verifyPassword('correct-horse-9', '$2a$10$KsNafXd9PTWcvKXZ5AIb2OEgBNVZH7.hzjsTZUV25EBViCOW9Bkc2'));
});

test('a stored value that is not a bcrypt hash matches nothing', async () => {
  for (const stored of ['', 'correct-horse-9', '$2y$10$short', '$argon2id$v=19$m=65536,t=4,p=1$c2FsdA$aGFzaA']) {
    assert.is(await verifyPassword('correct-horse-9', stored), false, stored);
  }
});

test('the stand-in for unknown e-mails is a real hash of the same cost', async () => {
  const dummy = await dummyHash();
  assert.match(dummy, /^\$2y\$10\$/);
  assert.is(await dummyHash(), dummy, 'made once');
  assert.not.ok(await verifyPassword('correct-horse-9', dummy));
});

test.run();
