// What a read selects of a resource: its row, plus the fields the database works out with it
// (subquery and aggregate fields), written once per resource.
import type { Behaviours } from '../behaviours/types.ts';
import type { ResourceDef } from '../definition/types.ts';
import type { Registry } from '../definition/registry.ts';
import { aggregateSql } from './aggregate.ts';
import { quote } from './quote.ts';

export type Columns = (def: ResourceDef) => string;

export function columnsOf(behaviours: Behaviours, registry: Registry): Columns {
  const lists = new Map<string, string>();
  return (def) => {
    let list = lists.get(def.name);
    if (list === undefined) {
      const table = quote(def.table);
      const extra = [...def.fields.values()]
        .filter((field) => field.subquery || field.aggregate)
        .map((field) => `(${field.aggregate ? aggregateSql(def, field, registry, table) : behaviours.subqueries[field.subquery!]!(table)}) AS ${quote(field.name)}`);
      lists.set(def.name, (list = [`${table}.*`, ...extra].join(', ')));
    }
    return list;
  };
}
