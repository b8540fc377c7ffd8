import express, { type RequestHandler } from 'express';
import helmet, { type HelmetOptions } from 'helmet';
import request from 'supertest';
import { securityHeaders } from './security-headers';

const appWith = (middleware: RequestHandler) =>
  express()
    .use(middleware)
    .get('/', (_req, res) => void res.json({ ok: true }));

const headersOf = async (middleware: RequestHandler) => {
  const { headers } = await request(appWith(middleware)).get('/');
  const { date: _date, ...rest } = headers;
  return rest;
};

describe('security headers worked out once', () => {
  it.each<[string, HelmetOptions]>([
    ['the gateway’s options', { contentSecurityPolicy: { directives: { upgradeInsecureRequests: null } } }],
    ['helmet’s defaults', {}],
  ])('are exactly the headers helmet sets, with %s (X-Powered-By removed too)', async (_what, options) => {
    const recorded = await headersOf(securityHeaders(options));
    expect(recorded).toEqual(await headersOf(helmet(options)));
    expect(recorded['x-powered-by']).toBeUndefined();
    expect(recorded['x-content-type-options']).toBe('nosniff');
  });

  it('refuses options whose headers depend on the request', () => {
    const nonce = (_req: unknown, res: unknown) => `'nonce-${String((res as { locals?: { nonce?: string } }).locals?.nonce)}'`;
    expect(() => securityHeaders({ contentSecurityPolicy: { directives: { scriptSrc: ["'self'", nonce] } } })).toThrow(/per request/);
  });
});
