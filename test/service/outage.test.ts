// A database outage, on MySQL/MariaDB through a TCP proxy the test can cut: /health answers 503
// within 2 s, API requests answer 503 {message} with Retry-After in bounded time (never a hang or
// a 500), and once the database is back the same process serves again without a restart.
import net from 'node:net';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { parseDatabaseUrl } from '../../src/app/config.ts';
import { API, startApp, type TestApp } from '../helpers/app.ts';
import { databaseTargets } from '../helpers/targets.ts';

/** A TCP proxy to the database that can be cut (every connection dropped, new ones refused) and restored. */
function databaseProxy(host: string, port: number) {
  const sockets = new Set<net.Socket>();
  let server: net.Server | undefined;
  let listenPort = 0;
  const listen = () =>
    new Promise<number>((resolve) => {
      server = net.createServer((client) => {
        const upstream = net.connect(port, host);
        for (const socket of [client, upstream]) {
          sockets.add(socket);
          socket.on('close', () => sockets.delete(socket));
          socket.on('error', () => socket.destroy());
        }
        client.pipe(upstream).pipe(client);
      });
      server.listen(listenPort, '127.0.0.1', () => resolve((listenPort = (server!.address() as net.AddressInfo).port)));
    });
  return {
    listen,
    async cut() {
      const closed = new Promise((resolve) => server!.close(resolve));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}

const mysql = databaseTargets().find((target) => target.name === 'mysql');
if (mysql) {
  const test = suite('database outage [mysql]');
  let app: TestApp;
  let proxy: ReturnType<typeof databaseProxy>;
  let token: string;

  test.before(async () => {
    const config = parseDatabaseUrl(mysql.databaseUrl);
    if (config.client !== 'mysql') throw new Error('a MySQL target');
    proxy = databaseProxy(config.host, config.port);
    const port = await proxy.listen();
    const url = new URL(mysql.databaseUrl);
    url.host = `127.0.0.1:${port}`;
    app = await startApp(mysql, { env: { DATABASE_URL: url.toString() }, minimalSeed: true });
    token = await app.login();
  });

  test.after(async () => {
    await app?.close().catch(() => undefined);
  });

  test('503 while the database is cut, never a hang; the same process serves again once it is back', async () => {
    // A hang fails at the client's timeout (far above the 2 and 3 s the service allows itself).
    const list = () => app.client.get(`${API}/support/banks`, { token, timeoutMs: 30_000 });
    assert.is((await list()).status, 200);
    await proxy.cut();

    const health = await app.client.get('/health', { timeoutMs: 30_000 });
    assert.is(health.status, 503);

    const refused = await list();
    assert.is(refused.status, 503, refused.text);
    assert.equal(refused.body, { message: 'The database is not available right now. Retry in a moment.' });
    assert.is(refused.headers['retry-after'], '5');

    await proxy.listen();
    let back = 0;
    for (let attempt = 0; attempt < 20 && back !== 200; attempt++) {
      back = (await list()).status;
      if (back !== 200) await new Promise((resolve) => setTimeout(resolve, 500));
    }
    assert.is(back, 200, 'serving again');
    assert.is((await app.client.get('/health')).status, 200);
  });

  test.run();
}
