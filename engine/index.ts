// The engine's public surface: load the registry, then register its routes on an app.
export { loadRegistry, Registry } from './definition/registry.ts';
export { DefinitionError } from './definition/definition-error.ts';
export { registerResources } from './routes/register-resources.ts';
export { createStatements, type Statements } from './sql/statements.ts';
export { quote } from './sql/quote.ts';
export { routeTable } from './routes/route-table.ts';
export { errorHandler, notFoundHandler } from './errors/error-handler.ts';
export { registerFormats } from './schema/formats.ts';
export { listTables, missingColumns, readSchemaBounds, type SchemaBounds } from './schema/column-bounds.ts';
export { generateMigration } from './schema/make-migration.ts';
export { actionNames, behaviourNames } from './behaviours/types.ts';
export type { Behaviours, AuthUser, Hook, BatchHook, HookContext, ComputedField, Subquery, Action, ActionContext, ActionResult } from './behaviours/types.ts';
export type { EngineDeps, Policy, AccessCheck, RowScope } from './routes/runtime.ts';
export { permissionCatalogue, permissionName, type PermissionEntry } from './definition/access.ts';
export type { ResourceDef, FieldDef } from './definition/types.ts';
export { ActionRefusedError, HttpError, NotFoundError, UnauthenticatedError, ForbiddenError, ValidationError, BadRequestError, type FieldErrors } from './errors/http-errors.ts';
export { nowTimestamp, formatTimestamp } from './serialize/formats.ts';
export * from './docs/index.ts';
