// What a resource's grouped totals (GET <list path>/aggregate) offer, worked out from its
// definition: the dimensions a request may group by and the measures it may ask for. The field
// types decide, as Odoo's read_group does: a field the API shows and stores groups (a text, a
// list, an id does not); a belongsTo relation groups by its name, keyed by the target's id and
// display name; a date or datetime by a calendar unit. Numbers sum and average; numbers and dates
// have a least and a greatest; what groups can be counted distinct; an id of another record is
// counted distinct, never summed. A field's `totals:` narrows this (engine/keys/totals.ts).
import type { Registry } from '../definition/registry.ts';
import type { FieldDef, RelationDef, ResourceDef } from '../definition/types.ts';
import { displayField } from '../definition/display-field.ts';
import { perDefinition } from '../definition/per-definition.ts';

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

/** The offer of `def` (worked out once per definition). */
export const aggregateOffer: (def: ResourceDef, registry: Registry) => AggregateOffer = perDefinition(buildOffer);

/** What a field's `totals` (engine/keys/totals.ts) takes away or names. */
export interface NarrowedTotals {
  groupBy?: false;
  measures?: false | readonly MeasureFunction[];
}

const NOTHING: NarrowedTotals = { groupBy: false, measures: false };

/** A field's `totals` in full: `false` turns off both. */
export function narrowedTotals(field: FieldDef): NarrowedTotals | undefined {
  return field.totals === false ? NOTHING : (field.totals as NarrowedTotals | undefined);
}

/** The belongsTo relation whose key the field is. */
function relationOf(def: ResourceDef, field: FieldDef): RelationDef | undefined {
  for (const relation of def.relations.values()) if (relation.kind === 'belongsTo' && relation.foreignKey === field.name) return relation;
  return undefined;
}

/** Offered at all: stored, shown, not the record's own id nor worked out when read. */
const considered = (field: FieldDef) => field.stored && field.output && field.name !== 'id' && !field.computed;

/**
 * The id of another record: a belongsTo relation's key, a `references:` field, or an integer named
 * `*_id` (the API's names for ids). It is counted distinct, never summed.
 */
const isRecordId = (def: ResourceDef, field: FieldDef) =>
  relationOf(def, field) !== undefined || field.references !== undefined || (field.type === 'integer' && field.name.endsWith('_id'));

/**
 * Whether the field's type makes it a dimension: a belongsTo key (by its relation), a date or
 * datetime, an integer, a boolean, a text of at most 255 characters (or of a format or a list).
 */
export function typeGroups(def: ResourceDef, field: FieldDef): boolean {
  if (!considered(field)) return false;
  if (relationOf(def, field) || field.type === 'date' || field.type === 'datetime') return true;
  return GROUPABLE.has(field.type) && !(field.type === 'string' && field.format === undefined && field.enum === undefined && (field.maxLength ?? 0) > 255);
}

/** The measures the field's type allows: numbers all of them, ids and what groups a distinct count, dates also a least and a greatest. */
export function typeMeasures(def: ResourceDef, field: FieldDef): readonly MeasureFunction[] {
  if (!considered(field)) return [];
  if (field.type === 'date' || field.type === 'datetime') return ['min', 'max', 'count_distinct'];
  if (isRecordId(def, field)) return ['count_distinct'];
  if (NUMERIC.has(field.type)) return MEASURE_FUNCTIONS;
  return GROUPABLE.has(field.type) ? ['count_distinct'] : [];
}

function buildOffer(def: ResourceDef, registry: Registry): AggregateOffer {
  const dimensions = new Map<string, Dimension>();
  const measures = new Map<string, MeasureOffer>();
  for (const field of def.fields.values()) {
    // A position among siblings (`append`) is an order, not a quantity: nothing, unless its `totals` says so.
    const totals = narrowedTotals(field) ?? (field.append ? NOTHING : undefined);
    const functions = totals?.measures === false ? [] : (totals?.measures ?? typeMeasures(def, field));
    if (functions.length > 0) measures.set(field.name, { field, functions });
    if (totals?.groupBy === false || !typeGroups(def, field)) continue;
    const relation = relationOf(def, field);
    if (relation) {
      const target = registry.get(relation.resource);
      dimensions.set(relation.name, { kind: 'relation', name: relation.name, relation, target, display: displayField(target) });
    } else if (field.type === 'date' || field.type === 'datetime') dimensions.set(field.name, { kind: 'date', name: field.name, field });
    else dimensions.set(field.name, { kind: 'field', name: field.name, field });
  }
  return { dimensions, measures };
}
