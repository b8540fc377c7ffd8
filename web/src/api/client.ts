import createClient from 'openapi-fetch';
import type { paths } from './schema';

/** The platform's API at the same origin, typed by the generated OpenAPI schema. */
export const api = createClient<paths>({ baseUrl: '' });

export type { paths, components } from './schema';
