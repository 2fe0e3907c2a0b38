// The API reference, generated from the registry: the OpenAPI document, the serializer schemas
// the generated routes answer through, the Postman collection, the Markdown reference, the pages.
export { buildOpenApiDocument, conventions, type OpenApiDocument, type ServiceDocs, type DocumentOptions } from './openapi.ts';
export { registerResponseSchemas } from '../serialize/route-serializers.ts';
export { buildPostmanCollection, POSTMAN_SCHEMA, type PostmanCollection } from './postman.ts';
export { buildMarkdown, anchor } from './markdown.ts';
export { buildRouteSummary } from './route-summary.ts';
export { registerDocsRoutes } from './docs-routes.ts';
export { pageDocuments, type PageDocument } from './page-documents.ts';
export { IDEMPOTENCY_KEY, rateLimitHeaders } from './shared-components.ts';
export { ref as schemaRef, SHARED as SHARED_SCHEMAS } from '../serialize/response-schemas.ts';
export { resourceNames } from '../definition/names.ts';
