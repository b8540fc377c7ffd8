/**
 * Each operation declared once: `defineRoute` registers the Express route and the OpenAPI operation from the
 * same declaration, so the path, the callers it admits, its query and its body cannot disagree between them.
 */
import { Router, type Request, type RequestHandler, type Response } from 'express';
import { jsonBody, noBody } from './body';
import type { OpenApiDocument, OperationSpec, RequestBodySpec, Security } from './openapi';
import { assertValid, parseQuery } from './validation';

export type RouteMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** What the handler gets besides the request: the query and the body, validated against their schemas. */
export interface RouteInput {
  query?: unknown;
  body?: unknown;
}

/**
 * Who may call. `scopes`: an internal caller with a verified JWT holding at least one of them (401 without
 * one, 403 without the scope). `caller: 'claimant'`: the bearer of a claim's access token, which the handler
 * checks against the claim it opens. `caller: 'public'`: anyone.
 */
export type RouteCaller = { scopes: readonly string[]; caller?: never } | { caller: 'public' | 'claimant'; scopes?: never };

export type RouteSpec<I extends RouteInput = RouteInput> = Omit<OperationSpec, 'security' | 'requestBody' | 'tag'> &
  RouteCaller & {
    method: RouteMethod;
    /** In full and in OpenAPI form, `/api/claims/claims/{id}/notes`; Express is given `:id`. */
    path: string;
    /** Further paths served by the same handler, left out of the document: URLs handed out before the documented path. */
    aliases?: string[];
    /** The feature the operation belongs to; by default the route table's. */
    tag?: string;
    /** The query's JSON Schema: its properties are the documented query parameters, and the query is parsed and validated against it. */
    query?: { properties: Record<string, object>; required?: readonly string[] };
    /**
     * A JSON body (and nothing else) is read by jsonBody and validated against its schema before the handler runs;
     * any other body (multipart, or JSON beside an alternative) is the handler's to read. No body: one sent is refused (noBody).
     */
    body?: RequestBodySpec;
    /** Path parameters are `req.params` by the names in `path`. */
    handler(req: Request<Record<string, string>>, res: Response, input: Required<I>): unknown;
  };

/** The routes of a feature: one Express router, and the operations they add to the service's document. */
export interface RouteTable {
  router: Router;
  defineRoute<I extends RouteInput = RouteInput>(spec: RouteSpec<I>): void;
}

export interface RouteTableOptions {
  openapi: OpenApiDocument;
  /** The middleware that admits only a caller holding one of `scopes` (authentication, then the scope check). */
  requireScopes(scopes: readonly string[]): RequestHandler[];
  /** The tag of every operation that names none. */
  tag?: string;
}

const isJsonOnly = (body: RequestBodySpec) => body.contentType === 'application/json' && body.alternatives === undefined;

export function routeTable({ openapi, requireScopes, tag }: RouteTableOptions): RouteTable {
  const router = Router();
  return {
    router,
    defineRoute<I extends RouteInput>(spec: RouteSpec<I>) {
      const { method, path, aliases = [], scopes, caller, query, body, handler, tag: ownTag, parameters, ...operation } = spec;
      const operationTag = ownTag ?? tag;
      if (operationTag === undefined) throw new Error(`${method.toUpperCase()} ${path}: no tag`);
      if (scopes?.length === 0) throw new Error(`${method.toUpperCase()} ${path}: no scope admits a caller`);
      const security: Security = scopes ? (scopes.length === 1 ? { scope: scopes[0] } : { anyScope: [...scopes] }) : caller;
      const allParameters = [...(parameters ?? []), ...(query ? queryParameters(query) : [])];
      openapi.operation(method, path, {
        ...operation,
        tag: operationTag,
        security,
        parameters: allParameters,
        ...(body ? { requestBody: body } : {}),
      });

      const validatesBody = body !== undefined && isJsonOnly(body);
      const run: RequestHandler = (req, res) => {
        const input = {
          query: query ? parseQuery(query, req.query as Record<string, unknown>) : undefined,
          body: validatesBody ? assertValid(body.schema, req.body) : undefined,
        } as Required<I>;
        return handler(req as Request<Record<string, string>>, res, input);
      };
      const readBody: RequestHandler[] = body === undefined ? [noBody] : validatesBody ? [jsonBody] : [];
      router[method](
        aliases.length > 0 ? [path, ...aliases].map(expressPath) : expressPath(path),
        ...(scopes ? requireScopes(scopes) : []),
        ...readBody,
        run,
      );
    },
  };
}

/** `/claims/{id}` as Express writes it: `/claims/:id`. */
export const expressPath = (openApiPath: string) => openApiPath.replace(/\{(\w+)\}/g, ':$1');

/** The query parameters of an operation from its query's JSON Schema: each property, its description, required as the schema says. */
function queryParameters(schema: {
  properties: Record<string, object>;
  required?: readonly string[];
}): NonNullable<OperationSpec['parameters']> {
  return Object.entries(schema.properties).map(([name, property]) => ({
    name,
    in: 'query' as const,
    schema: property,
    ...('description' in property ? { description: String(property.description) } : {}),
    ...(schema.required?.includes(name) ? { required: true } : {}),
  }));
}
