/**
 * The routes of the service: the contract's `/plants` (POST), and the extensions that follow the
 * public Plant Store API (GET /plants, GET and DELETE /plants/{id}). Named by their template: the
 * request log names a request by it, never by the path it came with.
 */
export type RouteName = '/plants' | '/plants/{id}';

export const ROUTE_METHODS: Readonly<Record<RouteName, readonly string[]>> = {
  '/plants': ['GET', 'POST'],
  '/plants/{id}': ['DELETE', 'GET'],
};

export interface RouteMatch {
  route: RouteName;
  /** The `{id}` segment, percent-decoded; not yet checked. */
  id?: string;
}

/** The route a request's target (path and query) names, if any. */
export function matchRoute(target: string): RouteMatch | undefined {
  const path = target.split('?', 1)[0] as string;
  if (path === '/plants') return { route: '/plants' };
  const segment = /^\/plants\/([^/]+)$/.exec(path)?.[1];
  if (segment === undefined) return undefined;
  try {
    return { route: '/plants/{id}', id: decodeURIComponent(segment) };
  } catch {
    // Not percent-encoding: no id at all, which the id check refuses.
    return { route: '/plants/{id}', id: segment };
  }
}
