import type { Request, Response } from 'express';
import type { ApiRoute } from './request-path';

/** A segment that names one thing (a UUID, a claim number, a hash, a token) rather than a kind of thing. */
const IDENTIFIER = /\d|^.{25,}$/;
const SEGMENT = /[^/]+/g;
/** Distinct templates kept as labels; past this, a path is labelled by its group alone (a metric series each costs memory). */
const MAX_TEMPLATES = 200;

/** `/api/claims/public/claims/8c1…/status` → `/api/claims/public/claims/:id/status`. */
export function routeTemplate(path: string): string {
  return path.replace(SEGMENT, (segment) => (IDENTIFIER.test(segment) ? ':id' : segment));
}

/** The template of an API route (its `http.route`). */
export function apiRouteTemplate(route: ApiRoute): string {
  return routeTemplate(route.path.replace(/\/$/, ''));
}

/**
 * The `route` label of a proxied request: its template, with bounded cardinality. A 404 names no route that
 * exists (anyone can send any path), so it and every template past the cap are labelled by the group only.
 */
export function proxiedRouteLabels() {
  const seen = new Set<string>();
  return (_req: Request, res: Response): string | undefined => {
    const route = res.locals.apiRoute as ApiRoute | undefined;
    if (!route) return undefined;
    const group = `/api/${route.upstream}${route.group === 'public' ? '/public' : ''}/*`;
    if (res.statusCode === 404) return group;
    const template = apiRouteTemplate(route);
    if (seen.has(template)) return template;
    if (seen.size >= MAX_TEMPLATES) return group;
    seen.add(template);
    return template;
  };
}
