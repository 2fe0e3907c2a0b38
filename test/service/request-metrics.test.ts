import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { DURATION_BUCKETS, RequestMetrics } from '../../src/http/request-metrics.ts';

const test = suite('request metrics');

test('counts and latency buckets per method, route and status, in the text format', () => {
  const metrics = new RequestMetrics();
  metrics.record('GET', '/banks/:id', 200, 0.004);
  metrics.record('GET', '/banks/:id', 200, 0.005); // on a bound: counted in that bucket (le)
  metrics.record('GET', '/banks/:id', 200, 0.3);
  metrics.record('GET', '/banks/:id', 200, 7); // above the last bound: only in +Inf
  metrics.record('GET', '/banks/:id', 404, 0.02);
  metrics.record('PUT', '/banks/:id', 200, 0.02);
  const text = metrics.render();
  const ok = 'method="GET",route="/banks/:id",status_code="200"';
  assert.ok(text.startsWith('# HELP http_requests_total '));
  assert.match(text, /^# TYPE http_requests_total counter$/m);
  assert.match(text, /^# TYPE http_request_duration_seconds histogram$/m);
  assert.match(text, new RegExp(`^http_requests_total\\{${ok}\\} 4$`, 'm'));
  assert.match(text, /^http_requests_total\{method="GET",route="\/banks\/:id",status_code="404"\} 1$/m);
  assert.match(text, /^http_requests_total\{method="PUT",route="\/banks\/:id",status_code="200"\} 1$/m);
  const bucket = (le: string) => Number(new RegExp(`^http_request_duration_seconds_bucket\\{le="${le.replace('+', '\\+')}",${ok}\\} (\\d+)$`, 'm').exec(text)?.[1]);
  assert.equal(
    DURATION_BUCKETS.map((bound) => bucket(String(bound))),
    [2, 2, 2, 2, 2, 2, 3, 3, 3, 3],
    'cumulative',
  );
  assert.is(bucket('+Inf'), 4);
  assert.match(text, new RegExp(`^http_request_duration_seconds_count\\{${ok}\\} 4$`, 'm'));
  const sum = Number(new RegExp(`^http_request_duration_seconds_sum\\{${ok}\\} (\\S+)$`, 'm').exec(text)?.[1]);
  assert.ok(Math.abs(sum - 7.309) < 1e-9);
  assert.ok(text.endsWith('\n'));
});

test('label values are escaped', () => {
  const metrics = new RequestMetrics();
  metrics.record('GET', 'a"b\\c\nd', 200, 0.001);
  assert.match(metrics.render(), /route="a\\"b\\\\c\\nd"/);
});

test('nothing recorded: the two families with no series', () => {
  const text = new RequestMetrics().render();
  assert.is(text.split('\n').filter((line) => line && !line.startsWith('#')).length, 0);
});

test.run();
