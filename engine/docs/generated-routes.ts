// Every route the resources generate, as `METHOD path`: those of the route table, each list's
// export and grouped totals. What the references set apart from the service's own routes (login,
// health, the documents).
import type { Registry } from '../definition/registry.ts';
import { routeTable } from '../definition/route-table.ts';
import { aggregatePaths } from './aggregate-operation.ts';
import { exportPaths } from './export-operation.ts';

export function generatedRoutes(registry: Registry, prefix: string): Set<string> {
  return new Set(
    registry
      .all()
      .flatMap((def) => [
        ...routeTable(def, prefix).map((route) => `${route.method} ${route.path}`),
        ...[...exportPaths(def, prefix), ...aggregatePaths(def, prefix)].map((path) => `GET ${path}`),
      ]),
  );
}
