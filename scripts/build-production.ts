/**
 * `pnpm build:production [--out dist] [--only claims]`: one self-contained directory per process, as the production image
 * runs it — `<out>/<process>/main.js` (the workspace's TypeScript bundled to JavaScript by esbuild) and
 * `<out>/<process>/node_modules` (the process's production dependencies only, from the lockfile, by
 * `pnpm deploy --prod`). Run it in the repository root; deploy/Dockerfile runs exactly this.
 *
 * Third-party packages stay external: several find their own files at run time (swagger-ui-dist's assets,
 * PGlite's WebAssembly, pino's worker transports, knex's dialect drivers), so they are installed, not bundled.
 * Only the `@platform/*` workspace packages (whose `main` is TypeScript) are bundled in.
 *
 * The files a process reads at run time from beside its code (`__dirname`) are copied beside main.js, where
 * the bundle's `__dirname` points: the binders' offline verifier (evidence) and the web pages (gateway).
 * Without them the image built no binder and answered every page with a 503.
 */
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { build, type Plugin } from 'esbuild';
import { ensureWebBuilt } from './web-build';

const ROOT = resolve(__dirname, '..');

/**
 * Every process the image can run: its workspace package, its entry point, and the files it reads at run
 * time (`from` in the repository, `to` relative to main.js, where the code looks; `prepare` makes `from`
 * first when it is built). tests/deploy/production-build.test.ts runs the result: a binder and a page.
 */
export const productionProcesses = {
  gateway: {
    workspacePackage: '@platform/gateway',
    entry: 'gateway/src/main.ts',
    // gateway/src/web-pages.ts: WEB_DIST_DIR
    runtimeFiles: [{ from: 'web/dist', to: 'web', prepare: () => ensureWebBuilt() }],
  },
  claims: { workspacePackage: '@platform/claims', entry: 'services/claims/src/main.ts', runtimeFiles: [] },
  evidence: {
    workspacePackage: '@platform/evidence',
    entry: 'services/evidence/src/main.ts',
    // services/evidence/src/features/binders/binder-zip.ts: the verifier every binder carries
    runtimeFiles: [{ from: 'services/evidence/src/features/binders/verifier/verify.mjs', to: 'verifier/verify.mjs' }],
  },
} as const satisfies Record<string, ProductionProcessSpec>;

interface ProductionProcessSpec {
  workspacePackage: string;
  entry: string;
  runtimeFiles: readonly { from: string; to: string; prepare?: () => unknown }[];
}

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

/** Bundles one process into `<outDir>/<name>/main.js`; returns its path and the packages it imports (by name). */
export async function bundleProcess(name: ProductionProcess, outDir: string): Promise<{ entry: string; imported: Set<string> }> {
  const outfile = join(outDir, name, 'main.js');
  const { metafile } = await build({
    absWorkingDir: ROOT,
    entryPoints: [productionProcesses[name].entry],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: NODE_TARGET,
    sourcemap: 'linked',
    plugins: [thirdPartyExternal],
    logLevel: 'warning',
    metafile: true,
  });
  const spec: ProductionProcessSpec = productionProcesses[name];
  for (const file of spec.runtimeFiles) {
    file.prepare?.();
    const target = join(dirname(outfile), file.to);
    rmSync(target, { recursive: true, force: true });
    cpSync(resolve(ROOT, file.from), target, { recursive: true });
  }
  const imported = new Set<string>();
  for (const output of Object.values(metafile.outputs))
    for (const { path, external } of output.imports) if (external && !isBuiltin(path)) imported.add(packageNameOf(path));
  return { entry: outfile, imported };
}

/** `@scope/name/sub/path` → `@scope/name`; `name/sub` → `name`. */
function packageNameOf(specifier: string): string {
  return specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');
}

/**
 * Removes from a process's node_modules every package that what main.js imports does not need, directly or
 * through their dependencies (found as Node.js resolves them). `pnpm deploy` installs the whole dependency list
 * of every workspace package the process bundles, so the gateway, which bundles the services' event catalogs,
 * got their database drivers and object-store SDK too.
 */
export function pruneToImported(processDir: string, imported: Set<string>): void {
  const nodeModules = join(processDir, 'node_modules');
  const resolvePackage = (fromDir: string, name: string): string | undefined => {
    for (let dir = fromDir; dir.startsWith(processDir); dir = dirname(dir)) {
      const candidate = join(dir, 'node_modules', name);
      if (existsSync(join(candidate, 'package.json'))) return candidate;
    }
    return undefined;
  };
  const kept = new Set<string>();
  const keep = (fromDir: string, name: string) => {
    const dir = resolvePackage(fromDir, name);
    if (!dir || kept.has(dir)) return;
    kept.add(dir);
    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Record<string, Record<string, string> | undefined>;
    for (const field of ['dependencies', 'optionalDependencies', 'peerDependencies'])
      for (const dependency of Object.keys(manifest[field] ?? {})) keep(dir, dependency);
  };
  for (const name of imported) keep(processDir, name);
  for (const dir of installedPackages(nodeModules)) if (!kept.has(dir)) rmSync(dir, { recursive: true, force: true });
  for (const scope of readdirSync(nodeModules).filter((entry) => entry.startsWith('@')))
    if (readdirSync(join(nodeModules, scope)).length === 0) rmSync(join(nodeModules, scope), { recursive: true });
}

/** The top-level package directories of a node_modules directory (scoped ones included). */
export function installedPackages(nodeModules: string): string[] {
  if (!existsSync(nodeModules)) return [];
  return readdirSync(nodeModules)
    .filter((entry) => !entry.startsWith('.'))
    .flatMap((entry) =>
      entry.startsWith('@')
        ? readdirSync(join(nodeModules, entry)).map((name) => join(nodeModules, entry, name))
        : [join(nodeModules, entry)],
    );
}

/**
 * Production dependencies of one process, from the lockfile. The hoisted (flat) layout puts the workspace
 * packages' own dependencies where the bundle's require() finds them, next to main.js.
 */
export async function installProductionDependencies(name: ProductionProcess, outDir: string, options: BuildOptions): Promise<void> {
  const target = join(outDir, name, 'deployment');
  rmSync(target, { recursive: true, force: true });
  // In the image the store was filled by `pnpm fetch`, so nothing is downloaded here.
  const store = options.storeDir ? ['--store-dir', options.storeDir, '--offline'] : [];
  const deploy = promisify(execFile)(
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
    { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 },
  );
  if (!options.quiet) {
    deploy.child.stdout?.pipe(process.stdout);
    deploy.child.stderr?.pipe(process.stderr);
  }
  await deploy;
  const nodeModules = join(outDir, name, 'node_modules');
  rmSync(nodeModules, { recursive: true, force: true });
  renameSync(join(target, 'node_modules'), nodeModules);
  // the workspace packages (TypeScript sources) are in main.js already
  rmSync(join(nodeModules, '@platform'), { recursive: true, force: true });
  rmSync(target, { recursive: true, force: true });
}

export interface BuildOptions {
  /** The pnpm executable (`pnpm deploy`). */
  pnpm: string;
  /** A filled store to install from offline (the image's build stage). */
  storeDir?: string;
  /** pnpm's output only when it fails (in the error), for tests and the benchmark. */
  quiet?: boolean;
}

/** Builds each process into `<outDir>/<process>`; returns the path of each process's main.js. */
export async function buildProduction(
  outDir: string,
  names: readonly ProductionProcess[],
  options: BuildOptions,
): Promise<Record<ProductionProcess, string>> {
  const unknown = names.filter((name) => !(name in productionProcesses));
  if (unknown.length > 0) throw new Error(`unknown process ${unknown.join(', ')}; one of ${Object.keys(productionProcesses).join(', ')}`);
  // one pnpm per process at once (each deploys into its own directory from the shared store)
  const entries = await Promise.all(
    names.map(async (name) => {
      mkdirSync(join(outDir, name), { recursive: true });
      const { entry, imported } = await bundleProcess(name, outDir);
      await installProductionDependencies(name, outDir, options);
      pruneToImported(join(outDir, name), imported);
      return [name, entry] as const;
    }),
  );
  return Object.fromEntries(entries) as Record<ProductionProcess, string>;
}

/** The workspace's own pnpm (a root devDependency, the version packageManager names). */
export const WORKSPACE_PNPM = join(ROOT, 'node_modules', '.bin', 'pnpm');

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
  const built = await buildProduction(outDir, names, { pnpm: values.pnpm!, storeDir: values['store-dir'] });
  for (const name of names) console.log(`built ${name}: ${dirname(built[name])}`);
}

if (require.main === module) {
  main().catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
