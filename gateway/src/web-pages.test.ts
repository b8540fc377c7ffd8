import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import express from 'express';
import request from 'supertest';
import { finishApp, createLogger } from '@platform/http';
import { TEST_JWT_SECRET } from '@platform/testing';
import { readGatewayConfig } from './config';
import { createGateway } from './gateway';
import { mountWebPages, PAGES_CONTENT_SECURITY_POLICY } from './web-pages';

function builtPages(): string {
  const dist = mkdtempSync(path.join(tmpdir(), 'web-dist-'));
  mkdirSync(path.join(dist, 'assets'));
  writeFileSync(
    path.join(dist, 'index.html'),
    '<!doctype html><div id="root"></div><script type="module" src="/assets/index-abc.js"></script>',
  );
  writeFileSync(path.join(dist, 'assets', 'index-abc.js'), 'console.log(1)');
  return dist;
}

function pagesApp(distDir: string) {
  const app = express();
  mountWebPages(app, distDir);
  finishApp(app, createLogger('test'));
  return app;
}

describe('web pages at the gateway', () => {
  it('answers index.html for every deep link under /portal and /workbench, with the strict policy', async () => {
    const app = pagesApp(builtPages());
    for (const page of [
      '/portal',
      '/portal/',
      '/portal/claims/6f1c0d4e-9a55-4f0e-8a55-1b2c3d4e5f60',
      '/workbench',
      '/workbench/claims/x',
      '/workbench/examiner/runs',
    ]) {
      const response = await request(app).get(page);
      expect(response.status).toBe(200);
      expect(response.type).toBe('text/html');
      expect(response.text).toContain('<div id="root">');
      expect(response.headers['content-security-policy']).toBe(PAGES_CONTENT_SECURITY_POLICY);
      expect(response.headers['cache-control']).toBe('no-cache');
    }
  });

  it('greets a newcomer at / with a page linking the portal, the workbench, the examiner desk and the API documents, under the pages’ policy', async () => {
    const app = pagesApp(builtPages());
    const response = await request(app).get('/').expect(200);
    expect(response.type).toBe('text/html');
    expect(response.headers['content-security-policy']).toBe(PAGES_CONTENT_SECURITY_POLICY);
    expect(response.text).toMatch(/<html lang="en">/);
    const links = [...response.text.matchAll(/href="([^"]+)"/g)].map((match) => match[1]);
    expect(links).toEqual(['/portal', '/workbench', '/workbench/examiner', '/docs', '/openapi.json', '/asyncapi.json']);
    expect(response.text).not.toMatch(/<script|style=/);
    for (const page of links.slice(0, 3)) await request(app).get(page).expect(200);
  });

  it('allows no inline script or style, no eval, and no framing by other sites', () => {
    expect(PAGES_CONTENT_SECURITY_POLICY).not.toMatch(/unsafe-inline|unsafe-eval|\*/);
    expect(PAGES_CONTENT_SECURITY_POLICY).toContain("script-src 'self'");
    expect(PAGES_CONTENT_SECURITY_POLICY).toContain("frame-ancestors 'none'");
  });

  it('serves the hashed bundles with a long immutable cache, and a 404 problem for a missing one', async () => {
    const app = pagesApp(builtPages());
    const bundle = await request(app).get('/assets/index-abc.js');
    expect(bundle.status).toBe(200);
    expect(bundle.headers['cache-control']).toContain('immutable');
    const missing = await request(app).get('/assets/nope.js');
    expect(missing.status).toBe(404);
    expect(missing.type).toBe('application/problem+json');
  });

  it('answers a 503 problem naming the build command when the pages are not built', async () => {
    const response = await request(pagesApp(path.join(tmpdir(), 'no-such-web-dist'))).get('/portal/claims/x');
    expect(response.status).toBe(503);
    expect(response.type).toBe('application/problem+json');
    expect(response.body.detail).toContain('pnpm start');
  });

  it('keeps helmet’s policy for Swagger UI at /docs and gives the pages their own', async () => {
    const gateway = createGateway(readGatewayConfig({ AUTH_JWT_SECRET: TEST_JWT_SECRET, PUBLIC_RATE_LIMIT: '0' }));
    const docs = await request(gateway.app).get('/docs/');
    expect(docs.headers['content-security-policy']).not.toBe(PAGES_CONTENT_SECURITY_POLICY);
    const page = await request(gateway.app).get('/portal/claims/x');
    expect([200, 503]).toContain(page.status);
    expect(page.headers['content-security-policy']).toBe(PAGES_CONTENT_SECURITY_POLICY);
    await gateway.close();
  });
});
