// The plan of the runnable Postman collection, from the registry: the order of the resources (a
// resource after those its requests point at), the collection variable that holds each one's
// record, and request bodies whose references name those variables and whose unique values carry
// the run's suffix, so that a run works on any installation and twice in a row.
import { underWalk } from '../definition/walkthroughs.ts';
import type { Registry } from '../definition/registry.ts';
import type { ActionDef, FieldDef, FieldSet, RelationDef, ResourceDef } from '../definition/types.ts';
import { writableFields } from '../schema/body-schemas.ts';
import { inputExample, updateExample } from './examples.ts';

/** The collection variable holding the id of the run's record of a resource: `support_uoms_id`. */
export function idVariable(def: ResourceDef, copy = ''): string {
  return `${def.name.replace(/[/-]/g, '_')}_id${copy && `_${copy}`}`;
}

/** The variable holding the `by` column of the run's record (a permission's name). */
export function keyVariable(def: ResourceDef, column: string): string {
  return `${def.name.replace(/[/-]/g, '_')}_${column}`;
}

/** The columns other resources name this one's records by (`security/permissions` → name). */
export function keyColumns(def: ResourceDef, registry: Registry): string[] {
  const columns = new Set<string>();
  for (const other of registry.all()) {
    for (const field of other.fields.values()) {
      if (field.type === 'ids' && field.by && field.writable && other.relations.get(field.relation!)?.resource === def.name) columns.add(field.by);
    }
  }
  return [...columns];
}

/** Every resource, each after the ones its requests need (parent, references, `walkthrough.after`). */
export function runOrder(registry: Registry): ResourceDef[] {
  const all = registry.all();
  const needs = new Map(all.map((def) => [def.name, dependencies(def, registry)]));
  const ordered: ResourceDef[] = [];
  const placed = new Set<string>();
  const visiting = new Set<string>();
  const visit = (def: ResourceDef) => {
    if (placed.has(def.name) || visiting.has(def.name)) return; // a cycle is broken where it closes
    visiting.add(def.name);
    for (const name of needs.get(def.name)!) visit(registry.get(name));
    visiting.delete(def.name);
    placed.add(def.name);
    ordered.push(def);
  };
  for (const def of all) visit(def);
  return ordered;
}

function dependencies(def: ResourceDef, registry: Registry): Set<string> {
  const names = new Set<string>(def.walkthrough.after);
  if (def.parent) names.add(def.parent.resource);
  if (def.parent && def.walkthrough.under) names.add(underWalk(def.walkthrough.under, def.parent.resource)[0]);
  for (const record of def.walkthrough.records) for (const name of Object.values(record.with)) names.add(name);
  const collect = (owner: ResourceDef, depth: number) => {
    for (const field of bodyFields(owner)) {
      if (field.references) names.add(field.references);
      const relation = field.relation ? owner.relations.get(field.relation) : undefined;
      if (field.type === 'ids' && relation) names.add(relation.resource);
      if (field.type === 'records' && relation && depth === 0) collect(registry.get(relation.resource), depth + 1);
    }
  };
  if (def.operations.has('create')) collect(def, 0);
  names.delete(def.name);
  return names;
}

/**
 * The fields a create body of the run sends: the required ones, those with an example, and one
 * nested record for each list of records (an operation's moves), so that workflows have lines to act on.
 */
function bodyFields(def: ResourceDef): FieldDef[] {
  return writableFields(def).filter((field) => field.required || (field.example !== undefined && !field.references) || field.type === 'records');
}

/** A reference to a collection variable inside a body; rendered unquoted (`{{support_uoms_id}}`). */
class VariableRef {
  constructor(readonly variable: string) {}
}

export interface BodyOptions {
  /** The suffix unique values get: `{{run}}` for the folder's record, `{{run}}-2` for the next. */
  suffix: string;
  /** Reference fields set to the run's record of the named resource. */
  with?: Record<string, string>;
  /** Fields set to these values. */
  values?: Record<string, unknown>;
}

/** A create body as the raw JSON text of the request, with `{{variables}}`. */
export function createBody(def: ResourceDef, registry: Registry, options: BodyOptions): string {
  return render(createValues(def, registry, options, 0));
}

/** An update body (a few fields, as the reference's example), with the same suffix as the create. */
export function updateBody(def: ResourceDef, registry: Registry, options: BodyOptions): string {
  // A reference to the resource itself (a category's parent) would point the record at itself.
  const names = Object.keys(updateExample(def, registry)).filter((name) => def.fields.get(name)!.references !== def.name);
  const values: Record<string, unknown> = {};
  for (const name of names) values[name] = fieldValue(def.fields.get(name)!, def, registry, options, 0);
  return render(values);
}

function createValues(def: ResourceDef, registry: Registry, options: BodyOptions, depth: number): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const field of bodyFields(def)) {
    if (field.type === 'records' && depth > 0) continue;
    values[field.name] = fieldValue(field, def, registry, options, depth);
  }
  if (depth === 0) {
    for (const [name, resource] of Object.entries(options.with ?? {})) values[name] = new VariableRef(idVariable(registry.get(resource)));
    Object.assign(values, options.values);
  }
  return values;
}

function fieldValue(field: FieldDef, def: ResourceDef, registry: Registry, options: BodyOptions, depth: number): unknown {
  if (field.references) return new VariableRef(idVariable(registry.get(field.references)));
  const relation = field.relation ? def.relations.get(field.relation) : undefined;
  if (field.type === 'ids' && relation) {
    const target = registry.get(relation.resource);
    return [field.by ? `{{${keyVariable(target, field.by)}}}` : new VariableRef(idVariable(target))];
  }
  if (field.type === 'records' && relation) {
    const child = registry.get(relation.resource);
    return Array.from({ length: Math.max(1, field.minItems ?? 1) }, () => createValues(child, registry, options, depth + 1));
  }
  const value = inputExample(field, def, registry, depth);
  return field.unique && typeof value === 'string' ? uniqueValue(field, value, options.suffix) : value;
}

/** The example made unique to the run: `Fragile {{run}}`, `ann.{{run}}@example.com`. */
function uniqueValue(field: FieldDef, value: string, suffix: string): string {
  if (field.format === 'email') return value.replace('@', `.${suffix}@`);
  // The suffix expands to at most 12 characters; the example gives way to it within maxLength.
  const room = field.maxLength === undefined ? value.length : Math.max(0, field.maxLength - 13);
  return `${value.slice(0, room)} ${suffix}`.trim();
}

/** The body the run sends to an action, with the relations whose first record it names (a return's moves). */
export interface ActionBodyPlan {
  text: string;
  children: RelationDef[];
}

/**
 * The body of an action on the run's record `copy`: its required fields, those with an example and
 * one entry of each list, as in the reference's example. A reference to one of the record's own
 * children (a return's `moves.0.id`) names the first of them, which the record's create stores
 * (childVariable); another reference names the run's record of its resource.
 */
export function actionBody(def: ResourceDef, action: ActionDef, registry: Registry, copy: string): ActionBodyPlan | undefined {
  if (!action.body) return undefined;
  const children = new Set<RelationDef>();
  const valuesOf = (body: FieldSet): Record<string, unknown> => {
    const values: Record<string, unknown> = {};
    for (const field of body.fields.values()) {
      if (field.entries) values[field.name] = [valuesOf(field.entries)];
      else if (field.required || field.example !== undefined) values[field.name] = referenceOrExample(field);
    }
    return values;
  };
  const referenceOrExample = (field: FieldDef): unknown => {
    const child = field.references ? childRelation(def, field.references) : undefined;
    if (child) children.add(child);
    if (child) return new VariableRef(childVariable(def, copy, child));
    if (field.references && field.example === undefined) return new VariableRef(idVariable(registry.get(field.references)));
    return inputExample(field, def, registry);
  };
  const values = valuesOf(action.body);
  return { text: render(values), children: [...children] };
}

/** The hasMany relation of the record through which a body names one of its own records (an operation's moves). */
function childRelation(def: ResourceDef, resource: string): RelationDef | undefined {
  return [...def.relations.values()].find((relation) => relation.kind === 'hasMany' && relation.resource === resource && def.allowedIncludes.has(relation.name));
}

/** The variable holding the id of the first record of a relation of the run's record `copy`. */
export function childVariable(def: ResourceDef, copy: string, relation: RelationDef): string {
  return `${idVariable(def, copy)}_first_${relation.outputKey}`;
}

function render(values: Record<string, unknown>): string {
  const text = JSON.stringify(values, (_key, value) => (value instanceof VariableRef ? `\u0000${value.variable}\u0000` : value), 2);
  return text.replace(/"\\u0000([A-Za-z0-9_]+)\\u0000"/g, '{{$1}}');
}
