// What a resource's grouped totals (GET <list path>/aggregate) offer, worked out from its
// definition: the dimensions a request may group by and the measures it may ask for. The field
// types decide, as Odoo's read_group does: a field the API shows and stores groups (a text, a
// list, an id does not); a belongsTo relation groups by its name, keyed by the target's id and
// display name; a date or datetime by a calendar unit. Numbers sum and average; numbers and dates
// have a least and a greatest; what groups can be counted distinct.
import type { Registry } from '../definition/registry.ts';
import type { FieldDef, RelationDef, ResourceDef } from '../definition/types.ts';
import { displayField } from '../definition/display-field.ts';

export const DATE_UNITS = ['day', 'week', 'month', 'quarter', 'year'] as const;
export type DateUnit = (typeof DATE_UNITS)[number];
/** A date or datetime named without a unit groups by month (Odoo's default). */
export const DEFAULT_DATE_UNIT: DateUnit = 'month';

export const MEASURE_FUNCTIONS = ['sum', 'avg', 'min', 'max', 'count_distinct'] as const;
export type MeasureFunction = (typeof MEASURE_FUNCTIONS)[number];

export type Dimension =
  | { kind: 'field'; name: string; field: FieldDef }
  | { kind: 'date'; name: string; field: FieldDef }
  | { kind: 'relation'; name: string; relation: RelationDef; target: ResourceDef; display?: string };

export interface MeasureOffer {
  field: FieldDef;
  functions: readonly MeasureFunction[];
}

export interface AggregateOffer {
  /** By the name a request gives (`state`, `partner`, `date_order`). */
  dimensions: ReadonlyMap<string, Dimension>;
  /** By field name; `count` (the rows of a group) is always offered. */
  measures: ReadonlyMap<string, MeasureOffer>;
}

const NUMERIC = new Set(['integer', 'number', 'decimal']);
const GROUPABLE = new Set(['integer', 'string', 'boolean']);

const offers = new WeakMap<ResourceDef, AggregateOffer>();

/** The offer of `def` (worked out once per definition). */
export function aggregateOffer(def: ResourceDef, registry: Registry): AggregateOffer {
  let offer = offers.get(def);
  if (!offer) offers.set(def, (offer = buildOffer(def, registry)));
  return offer;
}

function buildOffer(def: ResourceDef, registry: Registry): AggregateOffer {
  const foreignKeys = new Map<string, RelationDef>();
  for (const relation of def.relations.values()) if (relation.kind === 'belongsTo') foreignKeys.set(relation.foreignKey, relation);
  const dimensions = new Map<string, Dimension>();
  const measures = new Map<string, MeasureOffer>();
  for (const field of def.fields.values()) {
    if (!field.stored || !field.output || field.name === 'id' || field.computed) continue;
    const relation = foreignKeys.get(field.name);
    if (relation) {
      const target = registry.get(relation.resource);
      dimensions.set(relation.name, { kind: 'relation', name: relation.name, relation, target, display: displayField(target) });
      measures.set(field.name, { field, functions: ['count_distinct'] });
      continue;
    }
    if (field.type === 'date' || field.type === 'datetime') {
      dimensions.set(field.name, { kind: 'date', name: field.name, field });
      measures.set(field.name, { field, functions: ['min', 'max', 'count_distinct'] });
    } else if (GROUPABLE.has(field.type) && !(field.type === 'string' && field.format === undefined && field.enum === undefined && (field.maxLength ?? 0) > 255)) {
      dimensions.set(field.name, { kind: 'field', name: field.name, field });
    }
    if (NUMERIC.has(field.type)) measures.set(field.name, { field, functions: MEASURE_FUNCTIONS });
    else if (GROUPABLE.has(field.type)) measures.set(field.name, { field, functions: ['count_distinct'] });
  }
  return { dimensions, measures };
}
