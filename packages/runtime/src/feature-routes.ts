import { authenticate, requireAnyScope, requireScope } from '@platform/auth';
import { routeTable, type RouteTable } from '@platform/http';
import type { ServiceDeps } from './run-service';

/**
 * A feature's route table: `defineRoute` adds each operation to the service's router and OpenAPI document,
 * a scoped operation behind the service's JWT verification. `tag` is the feature's, for every operation that names none.
 */
export function featureRoutes(deps: Pick<ServiceDeps, 'openapi' | 'verifyToken'>, tag?: string): RouteTable {
  const verified = authenticate(deps.verifyToken);
  return routeTable({
    openapi: deps.openapi,
    tag,
    requireScopes: (scopes) => [verified, scopes.length === 1 ? requireScope(scopes[0]) : requireAnyScope(...scopes)],
  });
}
