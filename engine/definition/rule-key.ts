// What the definitions' loader takes of a rule key of the vocabulary (engine/keys/: one module a
// key, each also holding its words for the references and its step in a write): where its
// meta-schema sits in a definition, its normal form, and its boot check. The loader is given the
// keys (engine/keys/registry.ts) rather than importing them: a key's module also writes, so it
// sits above this folder, as fastify's plugins sit above the hooks they register.
import type { TSchema } from '@sinclair/typebox';
import type { FieldDef, ResourceDef } from './types.ts';

export type Problem = (at: string, message: string) => void;

export interface DefinitionKey {
  /** The key as a definition writes it: `tree:` at the top level, `append:` on a field, `createWith:` on a relation. */
  key: string;
  /** Its meta-schema, at the top level of a definition, on a field, on a relation or on an action. */
  format: { at: 'resource' | 'field' | 'relation' | 'action'; schema: TSchema };
  /** A field with this key is the engine's to write: no body may send it (a field key). */
  writtenByEngine?: boolean;
  /** A field with this key has no column: it is worked out when read (a field key). */
  withoutColumn?: boolean;
  /** Its normal form on the definition (a field's value is kept as written unless this says otherwise). */
  normalize?(raw: unknown, def: ResourceDef): void;
  /** Boot check, once every definition is normalized; `at` is a place below the definition (`tree.parent`). */
  check?(def: ResourceDef, resources: ReadonlyMap<string, ResourceDef>, problem: Problem): void;
  /** What it works out across definitions once all are linked (the searched columns of a table several share). */
  resolve?(resources: ReadonlyMap<string, ResourceDef>): void;
  /** What it says of a field in the references (OpenAPI, Markdown): sentences, kept on the field at load. */
  describeField?(def: ResourceDef, field: FieldDef): string[];
}
