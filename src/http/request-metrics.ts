// The two per-request metric families of /metrics, http_requests_total and
// http_request_duration_seconds, counted in plain numbers and written in Prometheus' text format
// when scraped. prom-client (src/http/metrics.ts, which keeps the process and pool metrics) hashes the
// label set on every inc() and observe(), even through labels(): 1.3 µs a request, ~1.5 % of a
// SQLite show's CPU. Here a request adds to the numbers of its route, method and status (0.04 µs).

/** Upper bounds of the latency buckets, in seconds. */
export const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5] as const;

const REQUESTS = 'http_requests_total';
const DURATION = 'http_request_duration_seconds';
const HELP = {
  [REQUESTS]: 'Requests answered, by route template and status.',
  [DURATION]: 'Time to answer, by route template and status.',
};

interface Series {
  /** `method="GET",route="/x",status_code="200"`, written once. */
  labels: string;
  count: number;
  sum: number;
  /** Observations at or below each bound (not cumulative; summed when written). */
  buckets: number[];
}

export class RequestMetrics {
  /** route template → method → status → series. Bounded by the routes and the statuses they answer. */
  private readonly routes = new Map<string, Map<string, Map<number, Series>>>();

  record(method: string, route: string, status: number, seconds: number): void {
    const series = this.series(method, route, status);
    series.count++;
    series.sum += seconds;
    let bucket = 0;
    while (bucket < DURATION_BUCKETS.length && seconds > DURATION_BUCKETS[bucket]!) bucket++;
    if (bucket < DURATION_BUCKETS.length) series.buckets[bucket]!++;
  }

  /** Both families in the text exposition format. */
  render(): string {
    const all = [...this.routes.values()].flatMap((methods) => [...methods.values()].flatMap((statuses) => [...statuses.values()]));
    const lines = [`# HELP ${REQUESTS} ${HELP[REQUESTS]}`, `# TYPE ${REQUESTS} counter`];
    for (const series of all) lines.push(`${REQUESTS}{${series.labels}} ${series.count}`);
    lines.push(`# HELP ${DURATION} ${HELP[DURATION]}`, `# TYPE ${DURATION} histogram`);
    for (const series of all) {
      let cumulative = 0;
      DURATION_BUCKETS.forEach((bound, index) => {
        cumulative += series.buckets[index]!;
        lines.push(`${DURATION}_bucket{le="${bound}",${series.labels}} ${cumulative}`);
      });
      lines.push(`${DURATION}_bucket{le="+Inf",${series.labels}} ${series.count}`);
      lines.push(`${DURATION}_sum{${series.labels}} ${series.sum}`);
      lines.push(`${DURATION}_count{${series.labels}} ${series.count}`);
    }
    return `${lines.join('\n')}\n`;
  }

  private series(method: string, route: string, status: number): Series {
    let methods = this.routes.get(route);
    if (!methods) this.routes.set(route, (methods = new Map()));
    let statuses = methods.get(method);
    if (!statuses) methods.set(method, (statuses = new Map()));
    let series = statuses.get(status);
    if (!series) {
      const labels = `method="${labelValue(method)}",route="${labelValue(route)}",status_code="${status}"`;
      statuses.set(status, (series = { labels, count: 0, sum: 0, buckets: DURATION_BUCKETS.map(() => 0) }));
    }
    return series;
  }
}

/** A label value as the text format wants it: backslash, double quote and newline escaped. */
function labelValue(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
}
