// What a read selects of a resource: its row, plus the fields the database works out with it
// (subquery and aggregate fields), written once per resource. Its bindings (an aggregate's
// constants) come before any other of the statement's, as the select list comes first.
import type { Behaviours } from '../behaviours/types.ts';
import type { ResourceDef } from '../definition/types.ts';
import type { Registry } from '../definition/registry.ts';
import { aggregateSql } from './aggregate.ts';
import { quote, type Condition } from './quote.ts';

/** The select list of a resource's reads, and its bindings. */
export type Columns = (def: ResourceDef) => Readonly<Condition>;

export function columnsOf(behaviours: Behaviours, registry: Registry): Columns {
  const lists = new Map<string, Condition>();
  return (def) => {
    let list = lists.get(def.name);
    if (list === undefined) {
      const table = quote(def.table);
      const sql = [`${table}.*`];
      const params: unknown[] = [];
      for (const field of def.fields.values()) {
        if (!field.subquery && !field.aggregate) continue;
        const subquery = field.aggregate ? aggregateSql(def, field, registry, table) : { sql: behaviours.subqueries[field.subquery!]!(table), params: [] };
        sql.push(`(${subquery.sql}) AS ${quote(field.name)}`);
        params.push(...subquery.params);
      }
      lists.set(def.name, (list = { sql: sql.join(', '), params }));
    }
    return list;
  };
}
