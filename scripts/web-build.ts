/**
 * The web pages are built by Vite into web/dist, which is not committed: `pnpm start` (and the browser
 * journeys) build it when it is missing or older than any of its sources.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..');
const WEB = path.join(ROOT, 'web');
const BUILT = path.join(WEB, 'dist', 'index.html');
/** What the bundle is made of: the app, its build settings and the workspace packages it bundles. */
const SOURCES = ['web/src', 'web/index.html', 'web/vite.config.ts', 'web/package.json', 'packages/claims-domain/src'].map((source) =>
  path.join(ROOT, source),
);

function newestChange(file: string): number {
  const stats = statSync(file);
  if (!stats.isDirectory()) return stats.mtimeMs;
  return Math.max(stats.mtimeMs, ...readdirSync(file).map((entry) => newestChange(path.join(file, entry))));
}

export function webBuildIsStale(): boolean {
  if (!existsSync(BUILT)) return true;
  const built = statSync(BUILT).mtimeMs;
  return SOURCES.some((source) => existsSync(source) && newestChange(source) > built);
}

/** Runs `vite build` in web/ when the build is missing or stale; returns whether it built. Throws when the build fails. */
export function ensureWebBuilt(log: (line: string) => void = console.log): boolean {
  if (!webBuildIsStale()) return false;
  log('building the web pages (vite build in web/)…');
  // Vite builds what NODE_ENV says: under jest (NODE_ENV=test) it would bundle React's development build,
  // half again as large and slower, so the pages are always built as production serves them.
  const result = spawnSync(path.join(WEB, 'node_modules', '.bin', 'vite'), ['build', '--logLevel', 'warn'], {
    cwd: WEB,
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (result.status !== 0) throw new Error(`vite build failed (exit ${result.status ?? result.signal})`);
  return true;
}
