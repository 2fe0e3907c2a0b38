// The meta-schema: what a resource definition (one YAML file under resources/) may say.
// Every object is closed (additionalProperties: false) so a typo stops the boot.
import { Type, type Static } from '@sinclair/typebox';

export const Name = Type.String({ pattern: '^[a-z][a-z0-9_]*$' });
export const RelationName = Type.String({ pattern: '^[a-z][A-Za-z0-9]*$' });
export const ActionName = Type.String({ pattern: '^[a-z][a-z]*(-[a-z]+)*$' });
const ResourceName = Type.String({ pattern: '^[a-z][a-z0-9-]*/[a-z][a-z0-9-]*$', description: 'module/name, e.g. support/banks' });
/** A value a lock or an action's `when` compares a column with. */
export const MatchValue = Type.Union([Type.String(), Type.Number(), Type.Boolean()]);

/** Any value but this one: `{'<>': null}`, a column that has a value (a document that has its number). */
export const NotValue = Type.Object(
  { '<>': Type.Union([MatchValue, Type.Null()]) },
  { additionalProperties: false, description: "any value but this one: {'<>': null} (the column has a value)" },
);
const BehaviourName = Type.String({ pattern: '^[a-z][A-Za-z0-9]*(\\.[a-z][A-Za-z0-9]*)+$', description: 'module.behaviourName' });

export const FieldTypes = ['integer', 'number', 'decimal', 'string', 'text', 'boolean', 'date', 'datetime', 'strings', 'ids', 'records'] as const;
export const FieldFormats = ['email', 'hex-color', 'url', 'time-zone'] as const;

/** Operators a scope may compare a column with, besides equality. */
export const ComparisonOperators = ['>', '>=', '<', '<=', '<>'] as const;

const Operand = Type.Optional(Type.Union([Type.String(), Type.Number()]));
const ComparisonFormat = Type.Object(
  { '>': Operand, '>=': Operand, '<': Operand, '<=': Operand, '<>': Operand },
  {
    minProperties: 1,
    maxProperties: 1,
    additionalProperties: false,
    description: "one comparison: {'>': 0}, {'<>': archived}",
  },
);
/** A scope's value: fixed (equality, written on create), or one comparison (`{'>': 0}`), which only limits. */
export const ScopeValueFormat = Type.Union([Type.String(), Type.Number(), Type.Boolean(), ComparisonFormat]);

/** A value of the record written: one of its fields (`uom_id`), or a column of the record one of its belongsTo relations names (`project.company_id`). */
const ValuePath = Type.String({ pattern: '^([a-z][a-z0-9_]*|[a-z][A-Za-z0-9]*\\.[a-z][a-z0-9_]*)$' });
export const RelatedPath = Type.String({ pattern: '^[a-z][A-Za-z0-9]*\\.[a-z][a-z0-9_]*$' });

/** One of the record's own values in a condition: `{field: project_id}`. */
const OwnValueFormat = Type.Object(
  {
    field: ValuePath,
    orNull: Type.Optional(Type.Boolean({ description: 'a null on either side passes (a record of no company goes with any)' })),
    missing: Type.Optional(Type.String({ minLength: 1, description: 'the 422 on the own field when it is empty while the reference is set' })),
  },
  { additionalProperties: false },
);

/** What a referenced (or first) record's column must be: a fixed value, a comparison, or one of the record's own values. */
export const ConditionFormat = Type.Union([Type.String(), Type.Number(), Type.Boolean(), ComparisonFormat, OwnValueFormat]);

/** Where a default comes from: a value of the record (a field, or `relation.column`), the acting user, the clock, or the first matching record. */
export const DefaultSource = Type.Union([
  ValuePath,
  Type.Object({ user: Type.Union([Type.Literal('id'), Type.Literal('company')]) }, { additionalProperties: false, description: "the acting user's id, or their default company" }),
  Type.Object({ now: Type.Literal(true) }, { additionalProperties: false, description: 'today (a date) or now (a datetime)' }),
  Type.Object(
    {
      first: ResourceName,
      column: Type.Optional(Name),
      where: Type.Optional(Type.Record(Type.String({ pattern: '^([a-z][A-Za-z0-9]*\\.)?[a-z][a-z0-9_]*$' }), ConditionFormat, { additionalProperties: false })),
      sort: Type.Optional(Type.String({ pattern: '^-?[a-z][a-z0-9_]*(,-?[a-z][a-z0-9_]*)*$' })),
    },
    { additionalProperties: false, description: 'the first live record of a resource (by `sort`, then id) matching `where`: its id, or its `column`' },
  ),
]);

export const FieldFormat = Type.Object(
  {
    type: Type.Union(FieldTypes.map((t) => Type.Literal(t))),
    description: Type.Optional(Type.String()),
    required: Type.Optional(Type.Boolean({ description: 'required on create; may be left out on update but never null' })),
    nullable: Type.Optional(Type.Boolean({ description: 'defaults to true for optional fields' })),
    readOnly: Type.Optional(Type.Boolean({ description: 'output only: never taken from a request body' })),
    hidden: Type.Optional(Type.Boolean({ description: 'stored but never output' })),
    revealed: Type.Optional(
      Type.Boolean({
        description: 'stored, and output only in the answer to the create and to an action with `reveals` (a secret shown once): never in shows, lists or the change feed',
      }),
    ),
    maxLength: Type.Optional(Type.Integer({ minimum: 1 })),
    minLength: Type.Optional(Type.Integer({ minimum: 1, description: 'strings: the fewest characters (a password)' })),
    minimum: Type.Optional(Type.Number()),
    maximum: Type.Optional(Type.Number()),
    format: Type.Optional(Type.Union(FieldFormats.map((f) => Type.Literal(f)))),
    enum: Type.Optional(Type.Array(Type.String(), { minItems: 1 })),
    references: Type.Optional(ResourceName),
    referencesWhere: Type.Optional(
      Type.Record(Name, ConditionFormat, {
        additionalProperties: false,
        description:
          "references: the column values the referenced record must have (a stock quantity is at an internal location), or one of the record's own values ({field: project_id}: the milestone of the task's project)",
      }),
    ),
    numericString: Type.Optional(Type.Boolean({ description: 'an integer field that also accepts digits sent as a string' })),
    unique: Type.Optional(
      Type.Union([Type.Boolean(), Type.Literal('live')], {
        description: 'true: no other row, trashed ones included, has the value (a unique index); live: no other live row (a trashed one may share it)',
      }),
    ),
    scale: Type.Optional(Type.Integer({ minimum: 0, maximum: 12, description: 'decimal places shown in responses' })),
    default: Type.Optional(Type.Union([Type.String(), Type.Number(), Type.Boolean()])),
    computed: Type.Optional(BehaviourName),
    subquery: Type.Optional(BehaviourName),
    relation: Type.Optional(
      Type.String({ pattern: '^[a-z][A-Za-z0-9]*$', description: 'ids: the manyToMany relation they replace; records: the hasMany relation written with the record' }),
    ),
    minItems: Type.Optional(Type.Integer({ minimum: 0, description: 'strings, ids and records: fewest entries' })),
    maxItems: Type.Optional(Type.Integer({ minimum: 1, description: 'strings, ids and records: most entries (default 1000; repeated ids count once)' })),
    by: Type.Optional(Type.String({ pattern: '^[a-z][a-z0-9_]*$', description: 'ids: the column of the related record sent instead of its id (a role takes permission names)' })),
    excludes: Type.Optional(
      Type.String({ pattern: '^[a-z][a-z0-9_]*$', description: 'another field that may not be given with this one (a due date or a payment term): 422 when both are' }),
    ),
    until: Type.Optional(
      Type.String({
        pattern: '^[a-z][a-z0-9_]*$',
        description: 'a date range: this field is its start and the named field its end; they are sent together (422 on the one left out) and the start is not after the end',
      }),
    ),
    notBefore: Type.Optional(
      Type.String({
        pattern: '^[a-z][a-z0-9_]*$',
        description: 'a date field this one ends a range of: when both are sent, this one is not before it (422 on this field); either may be sent alone',
      }),
    ),
    example: Type.Optional(Type.Union([Type.String(), Type.Number(), Type.Boolean()])),
  },
  { additionalProperties: false },
);

/** What a field of an action's body may say: the keys of a resource's field that rule what a request sends. */
export const BODY_FIELD_KEYS = [
  'description',
  'required',
  'nullable',
  'maxLength',
  'minLength',
  'minimum',
  'maximum',
  'format',
  'enum',
  'references',
  'referencesWhere',
  'numericString',
  'minItems',
  'maxItems',
  'excludes',
  'until',
  'example',
] as const;

const bodyFieldProperties = {
  ...Type.Pick(FieldFormat, BODY_FIELD_KEYS).properties,
  type: Type.Optional(FieldFormat.properties.type),
  like: Type.Optional(
    Type.String({
      pattern: '^[a-z][a-z0-9-]*/[a-z][a-z0-9-]*\\.[a-z][a-z0-9_]*$',
      description:
        "module/name.field: the value rules of that resource's field (type, bounds, format, enum, references, description, example, and what its column stores), the keys given here winning; not whether it is required",
    }),
  ),
};

/** A field of an entry of an action body's `records` list (a return's `moves.0.quantity`). */
export const BodyEntryFieldFormat = Type.Object(bodyFieldProperties, { additionalProperties: false });

/** A field of an action's body: a resource field's vocabulary; a `records` list describes its entries with `fields`. */
export const BodyFieldFormat = Type.Object(
  {
    ...bodyFieldProperties,
    fields: Type.Optional(Type.Record(Name, BodyEntryFieldFormat, { additionalProperties: false, description: 'records: the fields of each entry of the list ({id, quantity})' })),
  },
  { additionalProperties: false },
);

export const RelationFormat = Type.Object(
  {
    kind: Type.Union([Type.Literal('belongsTo'), Type.Literal('hasMany'), Type.Literal('manyToMany')]),
    resource: ResourceName,
    foreignKey: Type.Optional(Name),
    through: Type.Optional(
      Type.Object(
        { table: Name, from: Name, to: Name },
        { additionalProperties: false, description: 'manyToMany: the pivot table, its column for this record and its column for the related one' },
      ),
    ),
    where: Type.Optional(
      Type.Record(Name, Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Array(Type.String(), { minItems: 1 })]), {
        additionalProperties: false,
        description: 'only related rows with these column values (a list means any of them)',
      }),
    ),
    key: Type.Optional(
      Type.String({
        pattern: '^[a-z][A-Za-z0-9_]*$',
        description: "the key in responses, when not the snake_case of the name (uomPO → uom_po; the original's camelCase keys such as countryGroup)",
      }),
    ),
  },
  { additionalProperties: false },
);

export const FilterKinds = ['exact', 'partial', 'list', 'boolean', 'date', 'range', 'trashed'] as const;

export const FilterFormat = Type.Object(
  {
    kind: Type.Union(FilterKinds.map((k) => Type.Literal(k))),
    field: Type.Optional(Name),
    values: Type.Optional(Type.Array(Type.Union([Type.Literal('with'), Type.Literal('without'), Type.Literal('only')]), { minItems: 1 })),
  },
  { additionalProperties: false },
);

export const Operations = ['list', 'create', 'show', 'update', 'delete', 'restore', 'forceDelete'] as const;

/** What a permission allows: `<ability>_<subject>`, e.g. view_any_inventory_tag. */
export const Abilities = ['view_any', 'view', 'create', 'update', 'delete', 'restore', 'force_delete'] as const;

const AbilityList = Type.Array(Type.Union(Abilities.map((a) => Type.Literal(a))), { minItems: 1, uniqueItems: true });

export const AbilitiesFormat = Type.Partial(Type.Object(Object.fromEntries(Operations.map((o) => [o, AbilityList])) as Record<(typeof Operations)[number], typeof AbilityList>), {
  additionalProperties: false,
  description: 'the abilities an operation needs, when not its own (a nested resource: of its parent)',
});

/** How the runnable Postman collection exercises a resource, where its dependencies and `to` do not tell. */
export const WalkthroughFormat = Type.Object(
  {
    after: Type.Optional(
      Type.Array(ResourceName, { uniqueItems: true, description: 'resources whose requests must come first (deliveries need the stock that validated receipts bring)' }),
    ),
    records: Type.Optional(
      Type.Array(
        Type.Object(
          {
            actions: Type.Array(Type.String({ pattern: '^[a-z][a-z]*(-[a-z]+)*$' }), { minItems: 1 }),
            with: Type.Optional(
              Type.Record(Name, ResourceName, { additionalProperties: false, description: 'reference fields set to the record the run created of that resource' }),
            ),
          },
          { additionalProperties: false },
        ),
        { description: 'the actions to call, in order, each list on a record of its own; actions left out are planned from `when` and `to`' },
      ),
    ),
    under: Type.Optional(
      Type.String({
        pattern: '^([a-z]+/[a-z]+(-[a-z]+)*\\.)?walk[1-9][0-9]*$',
        description:
          "a nested resource: the parent's record its requests work under, `walkN` for the record of the parent's N-th walk (a purchase order's receipts, under the order the walk confirmed), `<resource>.walkN` for that of another resource of the parent's table (a product made by accounts/products' walk); default: the parent's first record",
      }),
    ),
    deleting: Type.Optional(
      Type.Object(
        {
          values: Type.Optional(Type.Record(Name, Type.Union([Type.String(), Type.Number(), Type.Boolean()]), { additionalProperties: false })),
          actions: Type.Optional(Type.Array(Type.String({ pattern: '^[a-z][a-z]*(-[a-z]+)*$' }))),
        },
        { additionalProperties: false, description: 'the record the run deletes: values of its create body, and actions called before deleting it (a count of 0, applied)' },
      ),
    ),
  },
  { additionalProperties: false },
);

export const ActionFormat = Type.Object(
  {
    behaviour: Type.Optional(BehaviourName),
    message: Type.String({ minLength: 1, description: 'the message of a 200: "Receipt validated successfully."' }),
    change: Type.Optional(
      Type.String({ pattern: '^[a-z][a-z_]*$', description: "the kind of change the action records in the change feed (validated); default: the action's name" }),
    ),
    permission: Type.Optional(
      Type.Union(
        Abilities.map((a) => Type.Literal(a)),
        { description: 'the ability it needs (default update)' },
      ),
    ),
    when: Type.Optional(
      Type.Record(Name, Type.Array(MatchValue, { minItems: 1 }), {
        additionalProperties: false,
        description: 'the column values the record must have (state: [draft]; a boolean column: [false]); otherwise a 422 with `refused`',
      }),
    ),
    refused: Type.Optional(Type.String({ minLength: 1, description: 'the message of that 422' })),
    to: Type.Optional(
      Type.Record(Name, Type.Array(Type.String(), { minItems: 1 }), {
        additionalProperties: false,
        description:
          'the values those columns can have afterwards (state: [done]); unchanged when absent. The runnable Postman collection plans its walk through the workflow with it',
      }),
    ),
    result: Type.Optional(ResourceName),
    reveals: Type.Optional(Type.Boolean({ description: 'its answer shows the fields marked `revealed` (a secret it renewed), as the create does' })),
    creates: Type.Optional(Type.Boolean({ description: "it creates the record it answers with (of `result`): the answer is a 201, as a create's (a reversal's credit note)" })),
    on: Type.Optional(
      Type.Literal('collection', {
        description:
          'POST on the collection of a nested resource (which then has no create): the behaviour runs on the parent record, and the answer is 200 {data: [every live record of the collection], message}',
      }),
    ),
    body: Type.Optional(
      Type.Record(Name, BodyFieldFormat, {
        additionalProperties: false,
        description:
          "the request body it takes, in a resource field's words: validated before the behaviour runs (422 {message, errors} naming each bad field, nothing changed); the behaviour gets the values as `input`",
      }),
    ),
    description: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);

export const CompanyScopeFormat = Type.Union([
  Type.Boolean(),
  Type.Object({ assign: Type.Optional(Type.Boolean({ description: "create fills company_id with the user's default company (default true)" })) }, { additionalProperties: false }),
]);

export const MessagesFormat = Type.Object(
  {
    created: Type.Optional(Type.String()),
    updated: Type.Optional(Type.String()),
    deleted: Type.Optional(Type.String()),
    restored: Type.Optional(Type.String()),
    forceDeleted: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);

export const ResourceFormat = Type.Object(
  {
    extends: Type.Optional(
      Type.String({
        pattern: ResourceName.pattern,
        description: 'module/name of a definition whose keys this one starts from: its own keys are merged over them, a null removes one (resources/README.md)',
      }),
    ),
    abstract: Type.Optional(Type.Boolean({ description: 'a base that other definitions extend: it serves no routes and needs no label, path or operations' })),
    table: Name,
    label: Type.String({ minLength: 1, description: 'used in messages: "<label> created successfully."' }),
    description: Type.Optional(Type.String()),
    path: Type.String({ pattern: '^(/[a-z0-9-]+|/\\{[a-z_]+\\})+$' }),
    parent: Type.Optional(
      Type.Object(
        {
          resource: ResourceName,
          param: Name,
          foreignKey: Name,
        },
        { additionalProperties: false },
      ),
    ),
    operations: Type.Array(Type.Union(Operations.map((o) => Type.Literal(o))), {
      uniqueItems: true,
      description: 'empty for records only written through their owner (order lines, moves)',
    }),
    scope: Type.Optional(
      Type.Record(Type.String({ pattern: '^([a-z][A-Za-z0-9]*\\.)?[a-z][a-z0-9_]*$' }), ScopeValueFormat, {
        additionalProperties: false,
        description:
          'fixed column values: every query is limited to them and create writes them (addresses are partners with account_type address); ' +
          "a comparison ({'>': 0}) only limits: create writes the field's default, which must satisfy it (customers are partners with customer_rank > 0); " +
          '`relation.column` limits through a belongsTo relation (receipts are operations whose operationType.type is incoming)',
      }),
    ),
    embed: Type.Optional(
      Type.Array(Type.String({ pattern: '^[a-z][A-Za-z0-9]*(\\.[a-z][A-Za-z0-9]*)*$' }), {
        uniqueItems: true,
        description: 'relations always present in responses, included or not',
      }),
    ),
    softDelete: Type.Optional(Type.Boolean()),
    permission: Type.Optional(Type.String({ pattern: '^[a-z][a-z0-9_]*(::[a-z0-9_]+)*$', description: 'the permission subject: view_any_<subject>, create_<subject>, ...' })),
    abilities: Type.Optional(AbilitiesFormat),
    companyScope: Type.Optional(CompanyScopeFormat),
    actions: Type.Optional(
      Type.Record(ActionName, ActionFormat, {
        additionalProperties: false,
        description: 'workflow actions: POST {id}/<name> runs the named behaviour on the record in one transaction',
      }),
    ),
    owner: Type.Optional(
      Type.String({
        pattern: '^[a-z][A-Za-z0-9_]*$',
        description: "the column naming the record's owner (user_id), or a manyToMany relation to users naming its owners (a task's assignees)",
      }),
    ),
    visibleTo: Type.Optional(
      Type.Array(Type.String({ pattern: '^[a-z][A-Za-z0-9_]*$' }), {
        minItems: 1,
        uniqueItems: true,
        description:
          'record scope on reads: columns naming a user (creator_id, user_id) or manyToMany relations to users; a user whose record scope is not global sees only the records that name them (group: them or a team mate)',
      }),
    ),
    timestamps: Type.Optional(Type.Boolean({ description: 'created_at and updated_at, set by the engine (default true)' })),
    creator: Type.Optional(Type.Boolean({ description: 'creator_id set from the authenticated user on create' })),
    fields: Type.Record(Name, FieldFormat, { additionalProperties: false }),
    relations: Type.Optional(Type.Record(RelationName, RelationFormat, { additionalProperties: false })),
    filters: Type.Optional(Type.Record(Name, FilterFormat, { additionalProperties: false })),
    sorts: Type.Optional(Type.Array(Name, { uniqueItems: true })),
    defaultSort: Type.Optional(Type.String({ pattern: '^-?[a-z][a-z0-9_]*$' })),
    includes: Type.Optional(Type.Array(Type.String({ pattern: '^[a-z][A-Za-z0-9]*(\\.[a-z][A-Za-z0-9]*)*$' }), { uniqueItems: true })),
    messages: Type.Optional(MessagesFormat),
    upsertOn: Type.Optional(
      Type.Array(Name, { minItems: 1, uniqueItems: true, description: 'create with the values of an existing record in these fields updates that record instead' }),
    ),
    invalidates: Type.Optional(
      Type.Array(Type.String({ pattern: '^[a-z][A-Za-z0-9]*$' }), {
        minItems: 1,
        uniqueItems: true,
        description: 'caches the app drops on any write to this resource: invalidators it registers by name, called once per unit of writing, in its transaction',
      }),
    ),
    behaviours: Type.Optional(
      Type.Object(
        {
          beforeCreate: Type.Optional(Type.Array(BehaviourName)),
          afterCreate: Type.Optional(Type.Array(BehaviourName)),
          beforeUpdate: Type.Optional(Type.Array(BehaviourName)),
          afterUpdate: Type.Optional(Type.Array(BehaviourName)),
          beforeDelete: Type.Optional(Type.Array(BehaviourName)),
          beforeCreateMany: Type.Optional(Type.Array(BehaviourName, { description: 'batch hooks: all the records written together (the lines of an order) at once' })),
          beforeUpdateMany: Type.Optional(Type.Array(BehaviourName)),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);

export type FieldFormat = Static<typeof FieldFormat>;
export type RelationFormat = Static<typeof RelationFormat>;
export type FilterFormat = Static<typeof FilterFormat>;
export type ResourceFormat = Static<typeof ResourceFormat>;
export type Operation = (typeof Operations)[number];
export type Ability = (typeof Abilities)[number];
export type ActionFormat = Static<typeof ActionFormat>;
export type BodyFieldFormat = Static<typeof BodyFieldFormat>;
export type BodyEntryFieldFormat = Static<typeof BodyEntryFieldFormat>;
export type WalkthroughFormat = Static<typeof WalkthroughFormat>;
export type FieldType = (typeof FieldTypes)[number];
export type FilterKind = (typeof FilterKinds)[number];
export type ComparisonOperator = (typeof ComparisonOperators)[number];
export type ScopeValue = Static<typeof ScopeValueFormat>;
export type ConditionValue = Static<typeof ConditionFormat>;
export type OwnValue = Static<typeof OwnValueFormat>;
export type DefaultSourceFormat = Static<typeof DefaultSource>;
