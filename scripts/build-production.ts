/**
 * `pnpm build:production [--out dist] [--only claims]`: one self-contained directory per process, as the production image
 * runs it — `<out>/<process>/main.js` (the workspace's TypeScript bundled to JavaScript by esbuild) and
 * `<out>/<process>/node_modules` (the process's production dependencies only, from the lockfile, by
 * `pnpm deploy --prod`). Run it in the repository root; deploy/Dockerfile runs exactly this.
 *
 * Third-party packages stay external: several find their own files at run time (swagger-ui-dist's assets,
 * PGlite's WebAssembly, pino's worker transports, knex's dialect drivers), so they are installed, not bundled.
 * Only the `@platform/*` workspace packages (whose `main` is TypeScript) are bundled in.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, renameSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { build, type Plugin } from 'esbuild';

/** Every process the image can run: its workspace package and its entry point. */
export const productionProcesses = {
  gateway: { workspacePackage: '@platform/gateway', entry: 'gateway/src/main.ts' },
  claims: { workspacePackage: '@platform/claims', entry: 'services/claims/src/main.ts' },
  evidence: { workspacePackage: '@platform/evidence', entry: 'services/evidence/src/main.ts' },
} as const;

export type ProductionProcess = keyof typeof productionProcesses;

/** Node.js version the bundles are compiled for: the oldest the platform supports (package.json engines). */
const NODE_TARGET = 'node20.19';

/** Bare imports that are not workspace packages are left to node_modules. */
const thirdPartyExternal: Plugin = {
  name: 'third-party-external',
  setup(builder) {
    builder.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith('@platform/') ? undefined : { path: args.path, external: true },
    );
  },
};

export async function bundleProcess(name: ProductionProcess, outDir: string): Promise<string> {
  const outfile = join(outDir, name, 'main.js');
  await build({
    entryPoints: [productionProcesses[name].entry],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: NODE_TARGET,
    sourcemap: 'linked',
    plugins: [thirdPartyExternal],
    logLevel: 'warning',
  });
  return outfile;
}

/**
 * Production dependencies of one process, from the lockfile. The hoisted (flat) layout puts the workspace
 * packages' own dependencies where the bundle's require() finds them, next to main.js.
 */
export function installProductionDependencies(name: ProductionProcess, outDir: string, options: { pnpm: string; storeDir?: string }): void {
  const target = join(outDir, name, 'deployment');
  rmSync(target, { recursive: true, force: true });
  // In the image the store was filled by `pnpm fetch`, so nothing is downloaded here.
  const store = options.storeDir ? ['--store-dir', options.storeDir, '--offline'] : [];
  execFileSync(
    options.pnpm,
    [
      '--filter',
      productionProcesses[name].workspacePackage,
      'deploy',
      '--prod',
      '--frozen-lockfile',
      '--config.inject-workspace-packages=true',
      '--config.node-linker=hoisted',
      ...store,
      target,
    ],
    { stdio: 'inherit' },
  );
  const nodeModules = join(outDir, name, 'node_modules');
  rmSync(nodeModules, { recursive: true, force: true });
  renameSync(join(target, 'node_modules'), nodeModules);
  // the workspace packages (TypeScript sources) are in main.js already
  rmSync(join(nodeModules, '@platform'), { recursive: true, force: true });
  rmSync(target, { recursive: true, force: true });
}

async function main() {
  const { values } = parseArgs({
    options: {
      out: { type: 'string', default: 'dist' },
      only: { type: 'string', multiple: true },
      pnpm: { type: 'string', default: 'pnpm' },
      'store-dir': { type: 'string' },
    },
  });
  const outDir = resolve(values.out!);
  const names = (values.only ?? Object.keys(productionProcesses)) as ProductionProcess[];
  for (const name of names) {
    if (!(name in productionProcesses)) throw new Error(`unknown process ${name}; one of ${Object.keys(productionProcesses).join(', ')}`);
    mkdirSync(join(outDir, name), { recursive: true });
    await bundleProcess(name, outDir);
    installProductionDependencies(name, outDir, { pnpm: values.pnpm!, storeDir: values['store-dir'] });
    console.log(`built ${name}: ${join(outDir, name)}`);
  }
}

if (require.main === module) {
  main().catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
