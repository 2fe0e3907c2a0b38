// Grouped totals as CSV (GET <list path>/aggregate?format=csv, `npm run erp -- aggregate
// --format csv`): a header row, then a row per group, written by the export's CSV writer.
import { csvLine } from '../transfer/csv-write.ts';
import type { AggregateQuery } from './parse-aggregate-query.ts';
import type { Group } from './run-aggregate.ts';

/** A measure's value in a group: `count`, or `field:fn` under `measures[field][fn]`. */
export function measureValue(group: Group, key: string): unknown {
  if (key === 'count') return group.measures.count;
  const [field, fn] = key.split(':') as [string, string];
  return (group.measures[field] as Record<string, unknown> | undefined)?.[fn];
}

/** CSV (RFC 4180, the export's writer): a header row, then a row per group; a relation key as two columns, its id (`partner_id`) and its name (`partner`). */
export function csvReport(asked: Pick<AggregateQuery, 'groupBy' | 'measures'>, groups: readonly Group[], { header = true } = {}): string {
  const names: string[] = [];
  for (const { key, dimension } of asked.groupBy) {
    if (dimension.kind === 'relation') names.push(dimension.relation.foreignKey);
    names.push(key);
  }
  names.push(...asked.measures.map((measure) => measure.key));
  const rows = groups.map((group) => [
    ...asked.groupBy.flatMap(({ key, dimension }) => {
      const value = group.key[key];
      if (dimension.kind !== 'relation') return [value];
      const related = value as { id: number; label: unknown } | null;
      return [related?.id ?? null, related?.label ?? null];
    }),
    ...asked.measures.map((measure) => measureValue(group, measure.key)),
  ]);
  return [...(header ? [names] : []), ...rows].map((row) => csvLine(row)).join('');
}
