// The route table of this service (docs/routes.md), written beside the Markdown reference by
// `erp docs:markdown --write` and linked from the README; a test fails when it is stale.
import { buildRouteSummary, type Registry } from '../../engine/index.ts';
import { MARKDOWN_COMMAND } from './api-docs.ts';

export const ROUTES_FILE = 'docs/routes.md';

export function buildRouteTable(registry: Registry, prefix: string): string {
  return buildRouteSummary(registry, {
    prefix,
    title: 'Route table',
    preface: `Every resource of the API by module, generated from the resource definitions (\`resources/\`) by \`${MARKDOWN_COMMAND}\`; do not edit by hand (a test fails when this file is stale). Each resource links to its section of the [API reference](api.md), which has its fields, filters, sorts, includes and the permission of each route, and [the service's own routes](api.md#service-routes) (login, logout, health, metrics, the change feed, API tokens).`,
    reference: 'api.md',
  });
}
