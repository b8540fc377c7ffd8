import createClient from 'openapi-fetch';
import type { paths } from './schema';

/** The platform's API at the same origin, typed by the generated OpenAPI schema. */
export const api = createClient<paths>({ baseUrl: '' });

export type { paths, components } from './schema';

/** The JSON body an operation takes. */
export type JsonBody<Path extends keyof paths, Method extends 'post' | 'put'> = paths[Path][Method] extends {
  requestBody?: { content: { 'application/json': infer Body } };
}
  ? Body
  : never;
