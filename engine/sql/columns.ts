// What a read selects of a resource: its row, plus the fields the database works out with it
// (subquery fields), written once per resource.
import type { Behaviours } from '../behaviours/types.ts';
import type { ResourceDef } from '../definition/types.ts';
import { quote } from './quote.ts';

export type Columns = (def: ResourceDef) => string;

export function columnsOf(behaviours: Behaviours): Columns {
  const lists = new Map<string, string>();
  return (def) => {
    let list = lists.get(def.name);
    if (list === undefined) {
      const table = quote(def.table);
      const extra = [...def.fields.values()].filter((field) => field.subquery).map((field) => `(${behaviours.subqueries[field.subquery!]!(table)}) AS ${quote(field.name)}`);
      lists.set(def.name, (list = [`${table}.*`, ...extra].join(', ')));
    }
    return list;
  };
}
