// Everything a resource's routes need, prepared once at boot.
import type { Models } from '../behaviours/types.ts';
import type { ChangeRecorder } from '../changes/record-changes.ts';
import type { EngineDeps } from '../contract/index.ts';
import type { ResourceDef } from '../definition/types.ts';
import type { Serialize } from '../serialize/record.ts';
import type { Columns } from '../sql/columns.ts';
import type { Statements } from '../sql/statements.ts';
import type { BodyValidator } from '../validation/body-validator.ts';
import type { WriteEnvironment } from '../write/unit.ts';

export interface ResourceRuntime {
  def: ResourceDef;
  parentDef?: ResourceDef;
  serialize: Serialize;
  validator: BodyValidator;
  statements: Statements;
  /** What reads select of a resource: its row and its subquery fields. */
  columns: Columns;
  /** The resource's columns whose LIKE already ignores case (engine/schema/column-bounds.ts). */
  likeIgnoresCase: ReadonlySet<string>;
  /** The runtime of another resource (the result of an action). */
  others(name: string): ResourceRuntime;
  /** The relations to load for the client's includes: those plus the ones the definition always embeds. */
  loaded(includes?: readonly string[]): string[];
  /** The resources' Objection models, for behaviours (engine/models). */
  models: Models;
  /** Writes a unit's changes to the change feed (engine/changes). */
  changes: ChangeRecorder;
  /** What every unit of writing of the service shares (engine/write/unit.ts). */
  writes: WriteEnvironment;
  deps: EngineDeps;
}
