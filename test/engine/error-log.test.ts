// A server fault's log line names the failing statement without the values it was bound to
// (they may be personal data): knex and the drivers write those values into their messages.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { withoutValues } from '../../engine/routes/error-handler.ts';

test('quoted and numeric literals of a driver message become ?', () => {
  const error = Object.assign(
    new Error(
      "insert into `users` (`email`, `name`, `limit`) values ('ann@example.com', 'Ann O''Neil', 12.5) - ER_DUP_ENTRY: Duplicate entry 'ann@example.com' for key 'users_email_unique'",
    ),
    { code: 'ER_DUP_ENTRY', errno: 1062 },
  );
  const logged = withoutValues(error);
  assert.is(logged.message, 'insert into `users` (`email`, `name`, `limit`) values (?, ?, ?) - ER_DUP_ENTRY: Duplicate entry ? for key ?');
  assert.equal([logged.code, logged.errno, logged.type], ['ER_DUP_ENTRY', 1062, 'Error']);
  assert.not.match(logged.stack, /ann@example\.com/);
  assert.match(logged.stack, /^Error: insert into `users`/);
});

test.run();
