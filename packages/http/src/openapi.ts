/**
 * Assembles a service's OpenAPI 3.1 document from the same JSON Schemas that validate its requests.
 *
 * The builder holds the conventions so route files cannot drift from them: every operation names an
 * `operationId` and one tag (its feature); every request body and JSON success response carries an example
 * and becomes a named schema under `components.schemas`; the problem answers every operation of a kind can
 * give (401/403 for scoped callers, 413/415 for bodies, 503 when the database is down…) are added from
 * one table, so a route lists only the answers particular to it.
 */
import { HttpProblem, PROBLEM_CONTENT_TYPE, problems } from './problem';

export type Security = 'public' | 'claimant' | { scope: string } | { anyScope: string[] };

export interface ResponseSpec {
  description: string;
  schema?: object;
  /** The name of `schema` under `components.schemas`; by default the operationId's, e.g. `CreateClaimResponse`. */
  schemaName?: string;
  contentType?: string;
  headers?: Record<string, string>;
  /** Required for a JSON success response. */
  example?: unknown;
}

export interface RequestBodySpec {
  contentType: string;
  schema: object;
  /** The name of `schema` under `components.schemas`; by default the operationId's, e.g. `CreateClaimRequest`. */
  schemaName?: string;
  example: unknown;
  description?: string;
  /** The same operation also accepts these media types (e.g. multipart/form-data beside JSON). */
  alternatives?: Record<string, { schema: object; example: unknown }>;
}

export interface OperationSpec {
  /** camelCase, verb first: `createClaim`, `getClaimStatus`, `listClaims`. */
  operationId: string;
  summary: string;
  description?: string;
  /** The feature the operation belongs to, one per feature folder. */
  tag: string;
  security: Security;
  parameters?: { name: string; in: 'path' | 'query' | 'header'; required?: boolean; schema: object; description?: string }[];
  requestBody?: RequestBodySpec;
  /** The answers particular to this operation; the common problem answers are added from COMMON_PROBLEMS. */
  responses: Record<number, ResponseSpec>;
}

export const PROBLEM_SCHEMA = {
  type: 'object',
  required: ['type', 'title', 'status'],
  properties: {
    type: { type: 'string', format: 'uri' },
    title: { type: 'string' },
    status: { type: 'integer' },
    detail: { type: 'string' },
    instance: { type: 'string' },
    request_id: { type: 'string' },
    errors: { type: 'array', items: { type: 'object', properties: { pointer: { type: 'string' }, message: { type: 'string' } } } },
    header: { type: 'string', description: 'The request header a 428 asks for' },
  },
};

const PROBLEM_REF = { $ref: '#/components/schemas/Problem' };
const RETRY_AFTER = { description: 'Seconds to wait before retrying', schema: { type: 'integer', minimum: 0 } };

/** A problem answer shared by many operations, kept once under `components.responses`. */
export interface CommonProblem {
  name: string;
  status: number;
  description: string;
  headers?: Record<string, object>;
  appliesTo(operation: { security: Security; hasBody: boolean; hasPathParams: boolean; method: string }): boolean;
}

/** The problem each status is answered with, for the examples (a status not listed gets a generic one). */
const PROBLEM_BY_STATUS: Record<number, HttpProblem> = Object.fromEntries(
  [
    problems.badRequest('loss.date must be a calendar date (YYYY-MM-DD)', [{ pointer: '/loss/date', message: 'must match format "date"' }]),
    problems.unauthorized(),
    problems.forbidden('The caller lacks the scope'),
    problems.notFound(),
    problems.requestTimeout('The client stopped sending its body'),
    problems.conflict('The resource is in a state that forbids this'),
    problems.payloadTooLarge('The body is over its limit'),
    problems.unsupportedMediaType('Content-Type must be application/json'),
    problems.unprocessable('The request is well-formed but cannot be carried out'),
    problems.preconditionRequired('Access-Purpose', 'This claim holds sensitive personal data: say why you read it in Access-Purpose'),
    problems.tooManyRequests(60),
    problems.badGateway('The service cannot be reached'),
    problems.serviceUnavailable('A dependency is unavailable; retry shortly'),
    problems.gatewayTimeout('The service did not answer in time'),
  ].map((problem) => [problem.status, problem]),
);

/** A problem+json response object with an example body. */
export function problemResponse(description: string, status: number, headers?: Record<string, object>): object {
  const problem = PROBLEM_BY_STATUS[status] ?? new HttpProblem(status, 'error', description);
  return {
    description,
    ...(headers ? { headers } : {}),
    content: {
      [PROBLEM_CONTENT_TYPE]: {
        schema: PROBLEM_REF,
        example: new HttpProblem(status, problem.slug, problem.title, problem.detail, problem.extensions).body(
          undefined,
          'a3c5e0de-57c1-4a53-9f0c-2a4c1e0f7d11',
        ),
      },
    },
  };
}

/** The answers an operation gives by what it is, whatever its route says (the route's own description wins). */
export const COMMON_PROBLEMS: CommonProblem[] = [
  {
    name: 'BadRequest',
    status: 400,
    description: 'Malformed request: invalid JSON or body, an unknown or malformed parameter, a URL PostgreSQL cannot store (NUL)',
    appliesTo: () => true,
  },
  {
    name: 'Unauthorized',
    status: 401,
    description: 'No credentials, or credentials that do not verify',
    appliesTo: ({ security }) => security !== 'public',
  },
  { name: 'Forbidden', status: 403, description: 'The caller lacks the scope', appliesTo: ({ security }) => typeof security === 'object' },
  {
    name: 'NotFound',
    status: 404,
    description: 'No such resource (for a claimant token: also a token that does not open this claim)',
    appliesTo: ({ hasPathParams }) => hasPathParams,
  },
  {
    name: 'PayloadTooLarge',
    status: 413,
    description: 'The body or a file is over its limit (JSON bodies: 1 MiB)',
    appliesTo: ({ hasBody }) => hasBody,
  },
  {
    name: 'UnsupportedMediaType',
    status: 415,
    description: 'The Content-Type is not one the operation accepts',
    appliesTo: ({ hasBody, method }) => hasBody || method === 'post',
  },
  {
    name: 'ServiceUnavailable',
    status: 503,
    description: 'The database is unavailable, or the service is shutting down; retry after Retry-After',
    headers: { 'Retry-After': RETRY_AFTER },
    appliesTo: () => true,
  },
];

/** The documents' licence: an internal API, not licensed to anyone outside the insurer (SPDX LicenseRef). */
export const API_LICENSE = { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' };

/** Who answers for the API: the team that runs the platform (no address of its own in the document). */
export const API_CONTACT = { name: 'Claims platform team' };

/** What each JWT scope grants (CONTRACT.md, "Internal group"); an operation requiring a scope not here is refused. */
const SCOPES: Record<string, string> = {
  'claims:read': 'List claims, read a claim, read kits',
  'claims:write': 'Run triage, post status updates, generate adjuster kits',
  'claims:decide': 'Decide escalations; status updates into settlement or closed; reopen',
  'evidence:write': 'Create controls and versions, create runs, add evidence, submit runs, build binders',
  'evidence:approve': 'Approve or reject a submitted run (never one the same `sub` created or added evidence to)',
  'audit:read': 'Verify the audit log, read audit records and checkpoints, download binders',
  'audit:witness': 'Countersign the audit log as an independent witness',
  'privacy:manage':
    "Export and erase a claimant's personal data, set the retention policy and legal holds, read who accessed a claim, redact evidence files",
};

/**
 * The internal callers' JWTs are OAuth 2 access tokens issued by the deployment's OpenID provider (its JWKS is
 * AUTH_JWKS_URL): people sign in with the authorization code flow and PKCE, as the workbench does, services with
 * client credentials. Declared as an `oauth2` scheme so each operation's requirement names the scopes it checks
 * and every scope is listed with what it grants (an `http` bearer scheme has nowhere to list them). The
 * provider's real endpoints are in its `/.well-known/openid-configuration`; the document cannot know them, so
 * the flows name them on the reserved `.example` domain. Every scope is listed in every document, so the
 * gateway's merged document holds one `bearerJwt`.
 */
function securitySchemes() {
  const provider = 'https://openid-provider.example';
  return {
    bearerJwt: {
      type: 'oauth2',
      description:
        'Internal caller: `Authorization: Bearer <JWT>` with `sub`, `exp` and space-separated `scope`, issued by the ' +
        "deployment's OpenID provider (the flows' URLs stand for its endpoints) and verified by the gateway and again by the service",
      flows: {
        authorizationCode: { authorizationUrl: `${provider}/authorize`, tokenUrl: `${provider}/token`, scopes: SCOPES },
        clientCredentials: { tokenUrl: `${provider}/token`, scopes: SCOPES },
      },
    },
    claimantToken: { type: 'http', scheme: 'bearer', description: 'The access_token returned when the claim was created' },
  };
}

const pascalCase = (operationId: string) => operationId[0].toUpperCase() + operationId.slice(1);
const isJson = (contentType: string) => contentType === 'application/json' || contentType.endsWith('+json');
const OPERATION_ID = /^[a-z][a-zA-Z0-9]*$/;

export class OpenApiDocument {
  private readonly paths: Record<string, Record<string, unknown>> = {};
  private readonly schemas = new Map<string, object>();
  private readonly operationIds = new Set<string>();
  private readonly usedProblems = new Set<CommonProblem>();
  private readonly usedSchemes = new Set<string>();

  constructor(
    private readonly info: { title: string; version: string; description: string },
    private readonly serverUrl: string,
    /** What each tag covers; a tag without one is listed without (and Redocly's tag-description refuses it). */
    private readonly tagDescriptions: Record<string, string> = {},
  ) {}

  /** `path` may be given in full (`/api/claims/claims`) or relative to the server URL (`/claims`). Throws when a convention is broken. */
  operation(method: string, fullOrRelativePath: string, spec: OperationSpec): void {
    const path = fullOrRelativePath.startsWith(`${this.serverUrl}/`) ? fullOrRelativePath.slice(this.serverUrl.length) : fullOrRelativePath;
    const where = `${method.toUpperCase()} ${path}`;
    if (!OPERATION_ID.test(spec.operationId)) throw new Error(`${where}: operationId "${spec.operationId}" is not camelCase`);
    if (this.operationIds.has(spec.operationId)) throw new Error(`${where}: operationId "${spec.operationId}" is used twice`);
    const name = pascalCase(spec.operationId);
    const verb = method.toLowerCase();
    const pathParams = [...path.matchAll(/\{(\w+)\}/g)].map(([, param]) => ({
      name: param,
      in: 'path',
      required: true,
      schema: { type: 'string' },
    }));

    const responses: Record<string, unknown> = {};
    for (const [status, response] of Object.entries(spec.responses)) {
      const code = Number(status);
      if (code >= 400) {
        // a route's own wording of a common answer keeps the common headers (Retry-After on 503)
        const headers = {
          ...COMMON_PROBLEMS.find((common) => common.status === code)?.headers,
          ...(response.headers && this.headers(response.headers)),
        };
        responses[status] = problemResponse(response.description, code, Object.keys(headers).length > 0 ? headers : undefined);
        continue;
      }
      const contentType = response.contentType ?? 'application/json';
      if (isJson(contentType) && response.example === undefined) throw new Error(`${where}: the ${status} response has no example`);
      const schema =
        response.schema &&
        (isJson(contentType) ? this.named(response.schemaName ?? `${name}Response`, response.schema, where) : response.schema);
      responses[status] = {
        description: response.description,
        ...(response.headers ? { headers: this.headers(response.headers) } : {}),
        content: { [contentType]: { schema: schema ?? {}, ...(response.example === undefined ? {} : { example: response.example }) } },
      };
    }
    const facts = { security: spec.security, hasBody: spec.requestBody !== undefined, hasPathParams: pathParams.length > 0, method: verb };
    for (const common of COMMON_PROBLEMS) {
      if (common.status in responses || !common.appliesTo(facts)) continue;
      responses[common.status] = { $ref: `#/components/responses/${common.name}` };
      this.usedProblems.add(common);
    }

    let requestBody: object | undefined;
    if (spec.requestBody) {
      const body = spec.requestBody;
      if (body.example === undefined) throw new Error(`${where}: the request body has no example`);
      requestBody = {
        required: true,
        ...(body.description ? { description: body.description } : {}),
        content: {
          [body.contentType]: { schema: this.named(body.schemaName ?? `${name}Request`, body.schema, where), example: body.example },
          ...Object.fromEntries(
            Object.entries(body.alternatives ?? {}).map(([type, alternative]) => {
              if (alternative.example === undefined) throw new Error(`${where}: the ${type} request body has no example`);
              return [type, { schema: alternative.schema, example: alternative.example }];
            }),
          ),
        },
      };
    }

    this.operationIds.add(spec.operationId);
    this.paths[path] ??= {};
    this.paths[path][verb] = {
      operationId: spec.operationId,
      summary: spec.summary,
      // every operation has a description (Spectral's operation-description): its summary when it needs no more
      description: spec.description ?? spec.summary,
      tags: [spec.tag],
      security: this.security(spec.security),
      // a path parameter the route declares itself (with a narrower schema) replaces the generic string one
      parameters: [
        ...pathParams.filter(
          (param) =>
            !(spec.parameters ?? []).some(
              (own) => (own as { in?: string }).in === 'path' && (own as { name?: string }).name === param.name,
            ),
        ),
        ...(spec.parameters ?? []),
      ],
      ...(requestBody ? { requestBody } : {}),
      responses,
    };
  }

  /** The schema under `components.schemas`, referenced; one name per schema, one schema per name. */
  private named(name: string, schema: object, where: string): object {
    const existing = this.schemas.get(name);
    if (existing !== undefined && existing !== schema) throw new Error(`${where}: the schema name ${name} already names another schema`);
    this.schemas.set(name, schema);
    return { $ref: `#/components/schemas/${name}` };
  }

  private headers(headers: Record<string, string>): Record<string, object> {
    return Object.fromEntries(
      Object.entries(headers).map(([header, description]) => [
        header,
        header === 'Retry-After' ? { ...RETRY_AFTER, description } : { description, schema: { type: 'string' } },
      ]),
    );
  }

  private security(security: Security): object[] {
    if (security === 'public') return [];
    this.usedSchemes.add(security === 'claimant' ? 'claimantToken' : 'bearerJwt');
    if (security === 'claimant') return [{ claimantToken: [] }];
    const scopes = 'anyScope' in security ? security.anyScope : [security.scope];
    const unknown = scopes.find((scope) => !(scope in SCOPES));
    if (unknown) throw new Error(`scope ${unknown} is not one of the platform's (${Object.keys(SCOPES).join(', ')})`);
    return scopes.map((scope) => ({ bearerJwt: [scope] }));
  }

  toJSON(): object {
    // No `jsonSchemaDialect`: OpenAPI 3.1's default dialect (JSON Schema 2020-12 plus the OAS vocabulary) is
    // what these schemas are, and Swagger UI refuses documents that state one.
    return {
      openapi: '3.1.0',
      info: { ...this.info, contact: API_CONTACT, license: API_LICENSE },
      servers: [{ url: this.serverUrl }],
      // every tag an operation uses, declared once (Spectral's operation-tag-defined)
      tags: [...new Set(Object.values(this.paths).flatMap((item) => Object.values(item).flatMap((op) => (op as { tags: string[] }).tags)))]
        .sort()
        .map((name) => (this.tagDescriptions[name] ? { name, description: this.tagDescriptions[name] } : { name })),
      paths: this.paths,
      components: {
        schemas: {
          Problem: PROBLEM_SCHEMA,
          ...Object.fromEntries(
            [...this.schemas]
              .sort(([a], [b]) => a.localeCompare(b))
              .map(([name, schema]) => [name, asComponent(schema, `#/components/schemas/${name}`)]),
          ),
        },
        responses: Object.fromEntries(
          COMMON_PROBLEMS.filter((common) => this.usedProblems.has(common)).map((common) => [
            common.name,
            problemResponse(common.description, common.status, common.headers),
          ]),
        ),
        securitySchemes: Object.fromEntries(Object.entries(securitySchemes()).filter(([scheme]) => this.usedSchemes.has(scheme))),
      },
    };
  }
}

/**
 * A schema resolves its own references (`#/$defs/condition`) against itself. Under `components.schemas` it
 * becomes part of the document, where `#` is the document: its references are re-anchored at the schema's
 * place in it, and an `$id` (which would make it a resource of its own again; openapi-typescript does not
 * follow it) goes.
 */
function asComponent(schema: object, base: string): unknown {
  const { $id: _id, ...rest } = schema as Record<string, unknown>;
  return anchorLocalRefs(rest, base);
}

function anchorLocalRefs(value: unknown, base: string): unknown {
  if (Array.isArray(value)) return value.map((item) => anchorLocalRefs(item, base));
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [
      key,
      key === '$ref' && typeof item === 'string' && item.startsWith('#/') && !item.startsWith('#/components/')
        ? `${base}${item.slice(1)}`
        : anchorLocalRefs(item, base),
    ]),
  );
}
