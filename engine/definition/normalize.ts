// Fills the defaults a definition may leave out. No I/O and no cross-file checks (see link.ts).
import type { FieldFormat, WalkthroughFormat } from './format.ts';
import type { LoadedFile } from './load.ts';
import type { FieldDef, FilterDef, RelationDef, ResourceDef, SortDef } from './types.ts';
import type { DefinitionKey } from './rule-key.ts';

/** Columns the engine manages itself; a definition may declare them to document them, never to write them. */
export const MANAGED_FIELDS = new Set(['id', 'creator_id', 'created_at', 'updated_at', 'deleted_at']);

/** `walkthrough`: the resource's entry of resources/walkthroughs.yaml, if any. */
export function normalize(file: LoadedFile, keys: readonly DefinitionKey[], walkthrough?: WalkthroughFormat): ResourceDef {
  const raw = file.raw;
  const softDelete = raw.softDelete ?? false;
  const timestamps = raw.timestamps ?? true;
  const creator = raw.creator ?? false;

  const fields = new Map<string, FieldDef>();
  const add = (name: string, format: FieldFormat) => fields.set(name, toFieldDef(name, format));
  add('id', raw.fields.id ?? { type: 'integer', readOnly: true });
  for (const [name, format] of Object.entries(raw.fields)) if (name !== 'id') add(name, format);
  if (raw.parent && !fields.has(raw.parent.foreignKey)) add(raw.parent.foreignKey, { type: 'integer', readOnly: true });
  if (creator && !fields.has('creator_id')) add('creator_id', { type: 'integer', readOnly: true, nullable: true });
  if (timestamps) {
    for (const column of ['created_at', 'updated_at']) if (!fields.has(column)) add(column, { type: 'datetime', readOnly: true });
  }
  if (softDelete && !fields.has('deleted_at')) add('deleted_at', { type: 'datetime', readOnly: true, nullable: true });

  // A field key the engine writes (a template's name) takes the field out of the bodies; one worked
  // out when read (an aggregate) also has no column.
  for (const key of keys) {
    if (key.format.at !== 'field' || !(key.writtenByEngine || key.withoutColumn)) continue;
    for (const field of fields.values()) {
      if ((field as unknown as Record<string, unknown>)[key.key] === undefined) continue;
      field.writable = false;
      if (key.withoutColumn) field.stored = false;
    }
  }

  const relations = new Map<string, RelationDef>();
  for (const [name, relation] of Object.entries(raw.relations ?? {})) {
    relations.set(name, { ...relation, name, foreignKey: relation.foreignKey ?? '', outputKey: relation.key ?? snakeCase(name) });
  }
  if (creator && !relations.has('creator')) {
    relations.set('creator', { name: 'creator', outputKey: 'creator', kind: 'belongsTo', resource: 'support/users', foreignKey: 'creator_id' });
  }
  // A belongsTo relation names its foreign key: a field clients write as that key references the
  // relation's resource without saying so again (a field's own `references` still wins).
  for (const relation of relations.values()) {
    const field = fields.get(relation.foreignKey);
    if (relation.kind === 'belongsTo' && field?.writable && field.references === undefined) field.references = relation.resource;
  }

  const filters = new Map<string, FilterDef>();
  for (const [name, filter] of Object.entries(raw.filters ?? {})) {
    const fieldName = filter.kind === 'trashed' ? undefined : (filter.field ?? name);
    const field = fieldName === undefined ? undefined : fields.get(fieldName);
    filters.set(name, { name, kind: filter.kind, fieldName, field, values: filter.values ?? ['with', 'without', 'only'] });
  }

  const def: ResourceDef = {
    name: file.name,
    module: file.module,
    file: file.file,
    table: raw.table,
    label: raw.label,
    description: raw.description,
    path: raw.path,
    parent: raw.parent,
    operations: new Set(raw.operations),
    softDelete,
    timestamps,
    creator,
    scope: raw.scope ?? {},
    embed: raw.embed ?? [],
    fields,
    relations,
    filters,
    sorts: raw.sorts ?? ['id'],
    defaultSort: parseSort(raw.defaultSort ?? 'id'),
    includes: raw.includes ?? [],
    allowedIncludes: includePrefixes([...(raw.includes ?? []), ...(raw.embed ?? [])]),
    messages: {
      created: raw.messages?.created ?? `${raw.label} created successfully.`,
      updated: raw.messages?.updated ?? `${raw.label} updated successfully.`,
      deleted: raw.messages?.deleted ?? `${raw.label} deleted successfully.`,
      restored: raw.messages?.restored ?? `${raw.label} restored successfully.`,
      forceDeleted: raw.messages?.forceDeleted ?? `${raw.label} permanently deleted.`,
    },
    upsertOn: raw.upsertOn,
    indexes: [],
    // The rule keys' normal forms (engine/keys/), below.
    locks: [],
    walkthrough: {
      after: walkthrough?.after ?? [],
      records: (walkthrough?.records ?? []).map((record) => ({ actions: record.actions, with: record.with ?? {} })),
      deleting: { values: walkthrough?.deleting?.values ?? {}, actions: walkthrough?.deleting?.actions ?? [] },
      ...(walkthrough?.under && { under: walkthrough.under }),
    },
    // An action's body is resolved once every definition is normalized (`like` names other resources' fields: action-body.ts).
    actions: new Map(Object.entries(raw.actions ?? {}).map(([name, { body: _body, ...action }]) => [name, { ...action, name }])),
    // Filled by resolveAccess once every definition is linked (a nested one needs its parent's).
    access: { subject: '', subjectResource: file.name, permissions: {} },
    invalidates: raw.invalidates ?? [],
    behaviours: {
      beforeCreate: raw.behaviours?.beforeCreate ?? [],
      afterCreate: raw.behaviours?.afterCreate ?? [],
      beforeUpdate: raw.behaviours?.beforeUpdate ?? [],
      afterUpdate: raw.behaviours?.afterUpdate ?? [],
      beforeDelete: raw.behaviours?.beforeDelete ?? [],
      beforeCreateMany: raw.behaviours?.beforeCreateMany ?? [],
      beforeUpdateMany: raw.behaviours?.beforeUpdateMany ?? [],
    },
    // `search:`'s normal form, and the table's searched columns once every definition is normalized (engine/keys/search.ts).
    search: [],
    searchColumns: [],
  };
  for (const key of keys) if (key.format.at === 'resource') key.normalize?.((raw as Record<string, unknown>)[key.key], def);
  return def;
}

/** The most entries a list field takes unless its definition says otherwise: bounded work per request. */
export const DEFAULT_MAX_ITEMS = 1000;

export function toFieldDef(name: string, format: FieldFormat): FieldDef {
  const managed = MANAGED_FIELDS.has(name);
  // A computed field is worked out from the row; a subquery field is read by SQL with it. Neither has a column.
  const computed = format.computed !== undefined || format.subquery !== undefined;
  // ids and records are written to other tables and shown through their relation's include.
  const throughRelation = format.type === 'ids' || format.type === 'records';
  const list = format.type === 'ids' || format.type === 'records' || format.type === 'strings';
  return {
    ...format,
    ...(list && { maxItems: format.maxItems ?? DEFAULT_MAX_ITEMS }),
    name,
    label: name.replace(/_/g, ' '),
    nullable: format.nullable ?? !format.required,
    stored: !computed && !throughRelation,
    // What a rule key writes (a copy, a stamp, a number) normalize() takes out (its writtenByEngine).
    writable: !managed && !computed && !format.readOnly,
    output: !format.hidden && !format.revealed && !throughRelation,
  };
}

function includePrefixes(includes: string[]): Set<string> {
  const allowed = new Set<string>();
  for (const include of includes) {
    const parts = include.split('.');
    for (let i = 1; i <= parts.length; i++) allowed.add(parts.slice(0, i).join('.'));
  }
  return allowed;
}

export function parseSort(value: string): SortDef[] {
  return value
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => (part.startsWith('-') ? { name: part.slice(1), descending: true } : { name: part, descending: false }));
}

export function snakeCase(name: string): string {
  return name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}
