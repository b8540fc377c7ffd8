import { existsSync } from 'node:fs';
import path from 'node:path';
import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import { brandVariables, publicBrand, readConfig } from '@platform/config';
import { problems, sendProblem } from '@platform/http';

/**
 * The web app `vite build` made: index.html and the hashed bundles under assets/. In the workspace, web/dist;
 * in the production build, `web/` beside the gateway's main.js (scripts/build-production.ts copies it there).
 */
const BESIDE_BUNDLE = path.join(__dirname, 'web');
export const WEB_DIST_DIR = existsSync(path.join(BESIDE_BUNDLE, 'index.html')) ? BESIDE_BUNDLE : path.resolve(__dirname, '../../web/dist');

/**
 * The pages' policy, stricter than the one helmet gives the rest (Swagger UI at /docs keeps that one):
 * only the gateway's own scripts, styles and API; no inline script or style, no eval, no framing by others.
 * Images, PDFs and videos may come from the API or from blob: URLs of files the user picked (previews).
 * `connectOrigins` are the other origins the pages may call: the OpenID provider the workbench signs in
 * with (its discovery document and token endpoint).
 */
export function pagesContentSecurityPolicy(connectOrigins: readonly string[] = []): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' blob: data:",
    "media-src 'self' blob:",
    "frame-src 'self' blob:",
    ["connect-src 'self'", ...connectOrigins].join(' '),
    "font-src 'self'",
    "manifest-src 'self'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    "object-src 'none'",
  ].join('; ');
}

export const PAGES_CONTENT_SECURITY_POLICY = pagesContentSecurityPolicy();

/** What a newcomer opening the gateway's address finds: where each person works, and the API's documents. */
const LANDING_PAGE = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Claims and evidence platform</title></head>
<body>
<main>
<h1>Claims and evidence platform</h1>
<nav aria-label="Where to go">
<ul>
<li><a href="/portal">Claimant portal</a>: report a loss and follow a claim</li>
<li><a href="/workbench">Adjuster workbench</a>: the work queue, triage, updates and closing</li>
<li><a href="/workbench/examiner">Examiner desk</a>: controls, runs, approvals, binders and the audit log</li>
<li><a href="/docs">API documentation</a> (<a href="/openapi.json">OpenAPI</a>, <a href="/asyncapi.json">AsyncAPI events</a>)</li>
</ul>
</nav>
</main>
</body>
</html>
`;

/**
 * The claimant portal (/portal/…) and the workbench (/workbench/…, the examiner desk under
 * /workbench/examiner/…): every deep link answers the app's index.html (the router in the page decides),
 * the bundles are served from /assets/ with a year-long immutable cache (their names carry a content hash).
 * Without a build, the pages answer a 503 problem saying how to build them.
 */
export function mountWebPages(
  app: Express,
  distDir = WEB_DIST_DIR,
  connectOrigins: readonly string[] = [],
  brand: ReturnType<typeof publicBrand> = publicBrand(readConfig(brandVariables, {})),
): void {
  const policy = pagesContentSecurityPolicy(connectOrigins);
  const pagesPolicy = (_req: Request, res: Response, next: NextFunction) => {
    res.setHeader('Content-Security-Policy', policy);
    next();
  };
  const indexFile = path.join(distDir, 'index.html');
  app.use(
    '/assets',
    pagesPolicy,
    express.static(path.join(distDir, 'assets'), { index: false, immutable: true, maxAge: '365d', fallthrough: true }),
  );
  // The insurer's face (BRAND_*): its colour as a stylesheet of custom properties (style-src 'self' allows
  // a stylesheet from the gateway, never an inline style), its name, logo and contact for the pages to show.
  const brandCss = `:root { --brand-primary: ${brand.primary_color}; }\n`;
  app.get('/brand.css', pagesPolicy, (_req, res) => {
    res.setHeader('Cache-Control', 'no-cache');
    res.type('text/css').send(brandCss);
  });
  app.get('/brand.json', pagesPolicy, (_req, res) => {
    res.setHeader('Cache-Control', 'no-cache');
    res.json(brand);
  });
  app.get('/', pagesPolicy, (_req, res) => {
    res.setHeader('Cache-Control', 'no-cache');
    res.type('html').send(LANDING_PAGE);
  });
  app.get(['/portal', '/portal/{*page}', '/workbench', '/workbench/{*page}'], pagesPolicy, (req, res) => {
    if (!existsSync(indexFile)) {
      return sendProblem(
        req,
        res,
        problems.serviceUnavailable(
          'The web pages are not built: run `pnpm start` (it builds them) or `pnpm --filter @platform/web build`',
          60,
        ),
      );
    }
    res.setHeader('Cache-Control', 'no-cache');
    res.sendFile(indexFile);
  });
}
