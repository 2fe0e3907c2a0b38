// Resolved definitions: what the engine works with after load → normalize → link.
import type { ActionFormat, DefaultSourceFormat, FieldFormat, FilterKind, Operation, RelationFormat, ScopeValue } from './format.ts';

export interface FieldDef extends FieldFormat {
  name: string;
  /** Human name used in validation messages: "The category id field is required." */
  label: string;
  nullable: boolean;
  /** false for computed fields, which have no column. */
  stored: boolean;
  /** Accepted in request bodies. */
  writable: boolean;
  /** Part of the response record. */
  output: boolean;
  /** Set from the column (TEXT): at most this many bytes of UTF-8. */
  maxBytes?: number;
  /** An action body's field: the column whose bounds it takes (its `like`), when not the resource's own. */
  column?: { table: string; name: string };
  /** An action body's `records` list: the fields of each entry. */
  entries?: FieldSet;
  /** `formula` (engine/keys/formula.ts): a stored number worked out from the record's own numbers. */
  formula?: { expression: string; round?: number };
  /** `template` (engine/keys/template.ts): a name made of the record's own values, written by the engine. */
  template?: TemplateDef;
  // The value rules (engine/keys/values/: their meta-schema, check, words and write).
  /** A stored copy of `relation.column`, kept in sync. */
  related?: string;
  /** A default read when the record is written; a list: the first that gives a value. */
  defaultFrom?: DefaultSourceFormat | DefaultSourceFormat[];
  defaultOnChange?: boolean;
  nullMeans?: 'default' | 'unsent';
  defaultRequired?: boolean | string;
  /** A boolean field whose turning true sets this time (cleared when it turns false). */
  stampedBy?: string;
  /** The referenced record is of the record's company, or of none. */
  checkCompany?: boolean;
  /** The 422 of a referenced record outside `referencesWhere`. */
  referencesMessage?: string;
  /** Required while the record has these values (sent, else stored). */
  requiredWhen?: { when: Record<string, Array<string | number | boolean>>; message?: string };
  /** `aggregate` (engine/keys/aggregate.ts): a count or sum over a hasMany relation, read with the row. */
  aggregate?: AggregateDef;
  /** `sequence` (engine/keys/sequence.ts): a document number, taken on create or when an action runs. */
  sequence?: SequenceDef;
  /** `append` (engine/keys/append.ts): a record created without it goes last, of its table or of its `per` group. */
  append?: boolean | { per: string };
  /** `totals` (engine/keys/totals.ts): what grouped totals offer of it, when not what its type allows; false: nothing. */
  totals?: false | { groupBy?: false; measures?: false | readonly string[] };
  /** What the rule keys (engine/keys/) say of it in the references, worked out at load. */
  keyWords?: readonly string[];
}

/** Fields validated together: an action's body, or the entries of one of its lists. */
export interface FieldSet {
  fields: ReadonlyMap<string, FieldDef>;
}

export interface RelationDef extends RelationFormat {
  name: string;
  /** `onDelete: restrict` (engine/keys/on-delete.ts): the owner is not removed for good while it has such records. */
  onDelete?: 'restrict';
  /** `createWith` (engine/keys/create-with.ts): the related records every new record gets. */
  createWith?: Array<Record<string, string | number | boolean | null>>;
  /** Set for belongsTo and hasMany (link.ts checks it); manyToMany uses `through`. */
  foreignKey: string;
  /** Key in the response: the snake_case form of the name (dueTerms → due_terms). */
  outputKey: string;
}

export interface FilterDef {
  name: string;
  kind: FilterKind;
  /** The field (column) the filter reads; `trashed` has none. */
  fieldName?: string;
  field?: FieldDef;
  values: ReadonlyArray<'with' | 'without' | 'only'>;
}

export interface SortDef {
  name: string;
  descending: boolean;
}

export interface ParentDef {
  resource: string;
  param: string;
  foreignKey: string;
}

export interface Messages {
  created: string;
  updated: string;
  deleted: string;
  restored: string;
  forceDeleted: string;
}

export interface Behaviours {
  beforeCreate: string[];
  afterCreate: string[];
  beforeUpdate: string[];
  afterUpdate: string[];
  beforeDelete: string[];
  /** Batch hooks: every record of one write at once (the lines of an order), instead of one by one. */
  beforeCreateMany: string[];
  beforeUpdateMany: string[];
}

export interface Walkthrough {
  after: string[];
  records: Array<{ actions: string[]; with: Record<string, string> }>;
  deleting: { values: Record<string, string | number | boolean>; actions: string[] };
  /** A nested resource: the parent's walk record (`walk1`) its requests work under. */
  under?: string;
}

/** A workflow action: `POST {id}/<name>`. */
export interface ActionDef extends Omit<ActionFormat, 'body'> {
  name: string;
  /** `set` (engine/keys/set.ts): the values the action writes on its record. */
  set?: Record<string, string | number | boolean | null | Record<string, string>>;
  /** The body it takes (`body:`), resolved to fields (engine/definition/action-body.ts). */
  body?: FieldSet;
}

export interface ResourceDef {
  /** module/name, from the file's place under resources/. */
  name: string;
  module: string;
  file: string;
  table: string;
  label: string;
  description?: string;
  /** Path under /admin/api/v1 with {param} placeholders. */
  path: string;
  parent?: ParentDef;
  operations: ReadonlySet<Operation>;
  softDelete: boolean;
  timestamps: boolean;
  creator: boolean;
  /** Column values that limit every query: fixed ones are written on create, comparisons (`{'>': 0}`) only limit. */
  scope: Readonly<Record<string, ScopeValue>>;
  /** Relations always present in responses. */
  embed: readonly string[];
  fields: ReadonlyMap<string, FieldDef>;
  relations: ReadonlyMap<string, RelationDef>;
  filters: ReadonlyMap<string, FilterDef>;
  sorts: readonly string[];
  defaultSort: SortDef[];
  includes: readonly string[];
  /** Every include a client may name: the declared ones and their prefixes (`lines.product` allows `lines`). */
  allowedIncludes: ReadonlySet<string>;
  messages: Messages;
  behaviours: Behaviours;
  /** The application's invalidators a write to this resource calls, once per unit of writing (engine/write/invalidate.ts). */
  invalidates: readonly string[];
  actions: ReadonlyMap<string, ActionDef>;
  /** How the runnable Postman collection orders this resource and walks its actions (engine/docs/postman-plan.ts). */
  walkthrough: Walkthrough;
  /** What the stored state forbids (engine/keys/locks.ts). */
  locks: readonly LockDef[];
  /** Create with these columns equal to an existing record's updates it (a stock count). */
  upsertOn?: readonly string[];
  /** Indexes of several columns, each in its order (make:migration writes them; the definition-driven suite checks lists use them). */
  indexes: ReadonlyArray<readonly string[]>;
  /** Records under a parent, with a stored path and full name (engine/keys/tree.ts). */
  tree?: TreeDef;
  /** The fields `search=` finds its records by (engine/keys/search.ts); empty: no search. */
  search: readonly string[];
  /** The columns whose words its table stores: every definition on the table searches them (engine/keys/search.ts). */
  searchColumns: readonly string[];
  /** Permissions per operation and the row scopes of the authorization policy (access.ts). */
  access: AccessDef;
}

export interface AccessDef {
  /** Permissions are named `<ability>_<subject>`: view_any_inventory_tag. */
  subject: string;
  /** The resource whose permissions these are: this one, or the parent a nested resource authorizes against. */
  subjectResource: string;
  /** The permission names each declared operation and action (by name) needs (all of them). */
  permissions: Readonly<Record<string, readonly string[]>>;
  /** Rows belong to companies: a user sees and writes those of their companies (and rows without one). */
  companyScope?: { column: string; assign: boolean };
  /** The column naming the record's owner, or a manyToMany relation naming its owners: updates, deletes and restores check the user's record scope. */
  owner?: string;
  /** When `owner` is a manyToMany relation: its pivot, whose `to` column holds the owners' ids. */
  ownerThrough?: { table: string; from: string; to: string };
  /** Record scope on reads: a user whose record scope is not global sees only the rows that name them (or a team mate) in one of these. */
  visibleTo?: ReadonlyArray<{ column: string } | { through: { table: string; from: string; to: string } }>;
}

/** `{type}/{id}`: the record's values in the text's placeholders, a value put in other words by `values` (engine/keys/template.ts). */
/** A field's count or sum over related records (engine/keys/aggregate.ts). */
export interface AggregateDef {
  count?: string;
  sum?: string;
  where?: Record<string, ScopeValue>;
}

/** A document number's counter (engine/keys/sequence.ts). */
export interface SequenceDef {
  code: string;
  prefix?: string;
  padding?: number;
  perCompany?: boolean;
  year?: string;
  on?: string;
}

export interface TemplateDef {
  text: string;
  values?: Record<string, Record<string, string>>;
}

/** A lock (engine/keys/locks.ts): the stored values that lock a record, what they forbid, and the refusal. */
export interface LockDef {
  when: Record<string, Array<string | number | boolean> | { '<>': string | number | boolean | null }>;
  forbid?: Array<'update' | 'delete'>;
  fields?: string[];
  message: string;
}

export interface TreeDef {
  parent: string;
  path: { field: string; self: boolean };
  fullName?: { field: string; from: string; separator: string; nameOnlyWhere: Record<string, string | number | boolean> };
  cycleMessage?: string;
}
