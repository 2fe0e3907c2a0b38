// Fair turns: under saturation the event loop comes back to its sockets and timers every few
// milliseconds, instead of serving every connection it has before it looks again.
//
// Why: libuv (Node 20 onwards) accepts one new connection per turn of the event loop, and a turn
// serves every request that is ready. On SQLite a request runs start to finish inside that turn
// (better-sqlite3 answers synchronously), so a busy process with 50 keep-alive clients spends
// 50 requests' time on each turn: the 30th new connection waited ~300 ms for its first answer,
// the 50th ~600 ms, while the process looked healthy (measured with tcpdump against wrk; the
// hand-written baseline has the same tail). Timers wait as long.
//
// How: a request starts at once while the current turn has spent less than TURN_BUDGET_MS on
// requests. Past that, it waits, first in first out, for a later turn: the loop polls in between
// (accepting a connection, reading sockets, running timers), then the next waiting requests start
// in the check phase, one at a time, until that turn's budget is spent. A request waits only for
// requests that arrived before it; what the line costs is one setImmediate per waiting request
// and turn. An idle or lightly loaded process never waits.
//
// Load shedding (src/pressure.ts) counts the wait for a turn as lag: once the oldest waiting
// request has waited longer than MAX_EVENT_LOOP_DELAY_MS, a new request skips the line, marked,
// so that the shedding answers it 503 at once instead of after its wait. A request that waited
// its turn is served.
import type { FastifyInstance, FastifyRequest } from 'fastify';

/**
 * How long one turn of the event loop starts requests before it polls again. At 2 ms, 50 SQLite
 * shows (~65 µs each, 3.2 ms) did not fit in one turn: those left over waited a turn more, and
 * the show's p99 went to 2.5-3.7× its p50 (five alternating pairs); at 3 ms 1.9-2.2×, and
 * creates gained ~10 %. A longer turn delays a new connection more (one is accepted per turn):
 * the SQLite list's p99 went from 1.3-1.7× its p50 to 1.6-2.2× at 3 ms, 2.4-2.6× at 4 ms.
 */
export const TURN_BUDGET_MS = 3;

export interface FairTurns {
  /** Requests waiting for a turn. */
  waiting(): number;
  /** How long the oldest waiting request has waited, in milliseconds (0 when none waits). */
  oldestWaitMs(): number;
  /** Whether the oldest waiting request has waited longer than maxWaitMs (never when it is 0). */
  overdue(): boolean;
  /** Whether this request arrived when the line had waited past maxWaitMs (it did not wait). */
  skippedLine(request: FastifyRequest): boolean;
}

export interface FairTurnsOptions {
  budgetMs?: number;
  /** Past this wait of the oldest waiting request, new ones skip the line (0: never). */
  maxWaitMs: number;
}

export function registerFairTurns(app: FastifyInstance, { budgetMs = TURN_BUDGET_MS, maxWaitMs }: FairTurnsOptions): FairTurns {
  const queue: Array<{ start: () => void; since: number }> = [];
  const skipped = new WeakSet<FastifyRequest>();
  let turnOpen = false;
  let turnStart = 0;
  const oldestWaitMs = (now: number) => (queue.length === 0 ? 0 : now - queue[0]!.since);
  const overdue = (now: number) => maxWaitMs > 0 && oldestWaitMs(now) > maxWaitMs;

  const closeTurn = () => {
    turnOpen = false;
  };
  /** Whether the current turn may start another request; the first request of a turn opens it. */
  const budgetLeft = (now: number) => {
    if (!turnOpen) {
      turnOpen = true;
      turnStart = now;
      // Runs in this turn's check phase (or, from there, in the next one's): the turn is over.
      setImmediate(closeTurn);
      return true;
    }
    return now - turnStart < budgetMs;
  };
  // One per waiting request, queued when it started waiting: Node runs the check phase's
  // immediates one by one with the microtasks in between, so each started request has run as far
  // as it can before the next one is considered. Past the budget, it tries again a turn later.
  const startNext = () => {
    if (queue.length === 0) return;
    if (budgetLeft(performance.now())) queue.shift()!.start();
    else setImmediate(startNext);
  };

  // A callback hook, added before any other onRequest hook: nothing else runs for a waiting request.
  app.addHook('onRequest', (request, _reply, done) => {
    const now = performance.now();
    if (queue.length === 0 && budgetLeft(now)) return done();
    if (overdue(now)) {
      skipped.add(request); // to be shed
      return done();
    }
    queue.push({ start: done as () => void, since: now });
    setImmediate(startNext);
  });

  return {
    waiting: () => queue.length,
    oldestWaitMs: () => oldestWaitMs(performance.now()),
    overdue: () => overdue(performance.now()),
    skippedLine: (request) => skipped.has(request),
  };
}
