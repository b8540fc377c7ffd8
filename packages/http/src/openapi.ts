/** Assembles a service's OpenAPI 3.1 document from the same JSON Schemas that validate its requests. */
export type Security = 'public' | 'claimant' | { scope: string } | { anyScope: string[] };

export interface OperationSpec {
  summary: string;
  description?: string;
  tags?: string[];
  security: Security;
  parameters?: { name: string; in: 'path' | 'query' | 'header'; required?: boolean; schema: object; description?: string }[];
  /** `alternatives`: the same operation also accepts these media types (e.g. JSON or multipart/form-data). */
  requestBody?: { contentType: string; schema: object; description?: string; alternatives?: Record<string, object> };
  responses: Record<number, { description: string; schema?: object; contentType?: string; headers?: Record<string, string> }>;
}

const PROBLEM_SCHEMA = {
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
  },
};

export class OpenApiDocument {
  private readonly paths: Record<string, Record<string, unknown>> = {};

  constructor(private readonly info: { title: string; version: string; description: string }, private readonly serverUrl: string) {}

  /** `path` may be given in full (`/api/claims/claims`) or relative to the server URL (`/claims`). */
  operation(method: string, fullOrRelativePath: string, spec: OperationSpec): void {
    const path = fullOrRelativePath.startsWith(`${this.serverUrl}/`) ? fullOrRelativePath.slice(this.serverUrl.length) : fullOrRelativePath;
    const security =
      spec.security === 'public'
        ? []
        : spec.security === 'claimant'
          ? [{ claimantToken: [] }]
          : 'anyScope' in spec.security
            ? spec.security.anyScope.map((scope) => ({ bearerJwt: [scope] }))
            : [{ bearerJwt: [spec.security.scope] }];
    const responses: Record<string, unknown> = {};
    for (const [status, response] of Object.entries(spec.responses)) {
      const contentType = response.contentType ?? (Number(status) >= 400 ? 'application/problem+json' : 'application/json');
      responses[status] = {
        description: response.description,
        ...(response.headers ? { headers: Object.fromEntries(Object.entries(response.headers).map(([name, description]) => [name, { description, schema: { type: 'string' } }])) } : {}),
        content: { [contentType]: { schema: response.schema ?? (Number(status) >= 400 ? { $ref: '#/components/schemas/Problem' } : {}) } },
      };
    }
    const pathParams = [...path.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({ name, in: 'path', required: true, schema: { type: 'string' } }));
    this.paths[path] ??= {};
    this.paths[path][method.toLowerCase()] = {
      summary: spec.summary,
      ...(spec.description ? { description: spec.description } : {}),
      tags: spec.tags,
      security,
      parameters: [...pathParams, ...(spec.parameters ?? [])],
      ...(spec.requestBody
        ? {
            requestBody: {
              required: true,
              description: spec.requestBody.description,
              content: {
                [spec.requestBody.contentType]: { schema: spec.requestBody.schema },
                ...Object.fromEntries(Object.entries(spec.requestBody.alternatives ?? {}).map(([type, schema]) => [type, { schema }])),
              },
            },
          }
        : {}),
      responses,
    };
  }

  toJSON(): object {
    return {
      openapi: '3.1.0',
      jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
      info: this.info,
      servers: [{ url: this.serverUrl }],
      paths: this.paths,
      components: {
        schemas: { Problem: PROBLEM_SCHEMA },
        securitySchemes: {
          bearerJwt: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'Internal caller: a JWT with `sub`, `exp` and space-separated `scope`' },
          claimantToken: { type: 'http', scheme: 'bearer', description: 'The access_token returned when the claim was created' },
        },
      },
    };
  }
}
