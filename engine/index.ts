// The engine's public surface: load the registry, then register its routes on an app.
export { loadRegistry } from './keys/registry.ts';
export { Registry } from './definition/registry.ts';
export { DefinitionError } from './definition/definition-error.ts';
export { registerResources } from './routes/register-resources.ts';
export { DEFAULT_IMPORT_LIMITS, registerImports } from './routes/import-route.ts';
export { buildModels } from './models/build-models.ts';
export { ChangeSet, type ChangeKind } from './behaviours/change-set.ts';
export { recordsOf } from './write/records-of.ts';
export { assignPositions } from './changes/sequencer.ts';
export { purgeChanges } from './changes/retention.ts';
export { feedResources, mayReadChanges, newestCursor, oldestCursor, readChanges, type FeedChange, type FeedPage } from './changes/read-changes.ts';
export { addressKind, checkTarget, guardedLookup, mayReach, TargetRefused, type AddressKind, type TargetScope } from './webhooks/target-guard.ts';
export { leaseSeconds, webhookWorker, type WebhookWorker, type WebhookWorkerOptions } from './webhooks/worker.ts';
export { discardOnNodeError, isDatabaseUnavailable, isDiscarded, isNodeUnavailable, isWriteConflict } from './sql/database-errors.ts';
export { DatabaseBusyError, DEFAULT_RETRY, inTransaction, retryConflicts, retryCounts, type RetryPolicy } from './sql/retry.ts';
export { breathe, SLICE_MS, turnTaken } from './sql/breather.ts';
export { createStatements, OPENS_REQUEST, SQLITE_PAGE_CACHE_KIB, type Row, type StatementOptions, type Statements } from './sql/statements.ts';
export { AUTH_COLUMN_PREFIX, checkAlone, type AuthenticationCheck } from './sql/authentication-check.ts';
export type { PendingAuthentication } from './sql/pending-authentication.ts';
export { quote, whereClause } from './sql/quote.ts';
export { updateEach } from './sql/update-each.ts';
export { databaseNow, dialectOf, isMariaDb, plusProposed, supportsInsertReturning, tableOptions, type Dialect } from './sql/dialect.ts';
export { timeLimitedReads, type TimeLimitedReads } from './sql/time-limited-reads.ts';
export { routeTable } from './definition/route-table.ts';
export { errorHandler, notFoundHandler } from './routes/error-handler.ts';
export { registerFormats } from './schema/string-formats.ts';
export { listTables, missingColumns, readSchemaBounds, type SchemaBounds } from './schema/column-bounds.ts';
export { generateMigration, readMigratedSchema, type MigratedSchema } from './schema/make-migration.ts';
export { hasIndex, readSchemaIndexes, type SchemaIndexes } from './schema/schema-indexes.ts';
export { indexName } from './definition/indexes.ts';
export { actionNames, behaviourNames, invalidatorNames } from './behaviours/types.ts';
export type {
  Behaviours,
  Models,
  AuthUser,
  Hook,
  BatchHook,
  HookContext,
  ComputedField,
  Subquery,
  Invalidator,
  Action,
  ActionContext,
  ActionResult,
  Records,
  RecordWriter,
  WriteOptions,
} from './behaviours/types.ts';
export type { EngineDeps, Policy, AccessCheck, RowScope } from './contract/index.ts';
export { permissionCatalogue, permissionName, type PermissionEntry } from './definition/access.ts';
export type { ResourceDef, FieldDef } from './definition/types.ts';
export { ERROR_MESSAGES } from './errors/messages.ts';
export {
  ActionRefusedError,
  HttpError,
  NotFoundError,
  UnauthenticatedError,
  ForbiddenError,
  ValidationError,
  BadRequestError,
  TimeLimitError,
  type FieldErrors,
} from './errors/http-errors.ts';
export { nowTimestamp, formatTimestamp, today } from './serialize/value-formats.ts';
export { nextInSequence, type SequenceKey } from './keys/sequence.ts';
export { dayFor, todayFor, type CompanyTimeZone } from './keys/company-today.ts';
export { MAX_SORT } from './keys/append.ts';
export * from './docs/index.ts';
export { exportResource, type ExportResourceOptions } from './transfer/export/export-resource.ts';
export { EXPORT_FORMATS, type ExportFormat } from './transfer/export/export-formats.ts';
export { MAX_GROUPS_PER_PAGE, parseAggregateQuery, type AggregateQuery } from './aggregate/parse-aggregate-query.ts';
export { everyGroup, runAggregate, type Group } from './aggregate/run-aggregate.ts';
export { csvReport, measureValue } from './aggregate/groups-csv.ts';
export { listConditions } from './list/list-conditions.ts';
export type { RawQuery } from './list/parse-list-query.ts';
export { resourceRows } from './sql/resource-rows.ts';
export {
  addSearchIndex,
  addWordPairs,
  dropSearchIndex,
  fillSearchWords,
  fillWordPairs,
  readSearchColumns,
  recordSearchColumns,
  SEARCH_COLUMNS_TABLE,
} from './sql/search-index.ts';
export { storedWords } from './definition/search-words.ts';
export { fillMissingWords } from './keys/search.ts';
