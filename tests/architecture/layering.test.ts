import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

/** Every relative import of a file, resolved to a path under the repository. */
function relativeImports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/from '(\.{1,2}\/[^']+)'/g)].map((match) => path.resolve(path.dirname(file), match[1]));
}

/** The feature a path lies in (its folder under `features/`), or undefined outside every feature. */
function featureOf(features: string, file: string): string | undefined {
  const relative = path.relative(features, file);
  return relative.startsWith('..') ? undefined : relative.split(path.sep)[0];
}

/** Feature → the features its code (not its tests) imports. */
function featureGraph(src: string): Map<string, Set<string>> {
  const features = path.join(src, 'features');
  const graph = new Map<string, Set<string>>();
  for (const file of sourceFiles(features).filter((file) => !file.endsWith('.test.ts'))) {
    const from = featureOf(features, file)!;
    for (const target of relativeImports(file)) {
      const to = featureOf(features, target);
      if (to && to !== from) graph.set(from, (graph.get(from) ?? new Set()).add(to));
    }
  }
  return graph;
}

/** Every cycle of the graph, each once, as its features from the alphabetically first (Johnson would be overkill: a depth-first walk per start). */
function cycles(graph: Map<string, Set<string>>): string[] {
  const found = new Set<string>();
  const walk = (start: string, at: string, trail: string[]) => {
    for (const next of graph.get(at) ?? []) {
      if (next === start) found.add([...trail, start].join(' → '));
      else if (next > start && !trail.includes(next)) walk(start, next, [...trail, next]);
    }
  };
  for (const start of [...graph.keys()].sort()) walk(start, start, [start]);
  return [...found].sort();
}

describe.each(['claims', 'evidence'])('the %s service keeps its layers', (service) => {
  const src = path.join(ROOT, 'services', service, 'src');
  const features = path.join(src, 'features');

  it('shared code never imports a feature', () => {
    const offenders = sourceFiles(path.join(src, 'shared'))
      .filter((file) => !file.endsWith('.test.ts'))
      .flatMap((file) =>
        relativeImports(file)
          .filter((target) => target.startsWith(features + path.sep))
          .map((target) => `${path.relative(ROOT, file)} → ${path.relative(ROOT, target)}`),
      );
    expect(offenders).toEqual([]);
  });

  it('feature code never imports the service root (only tests, src/testing, main.ts and index.ts may)', () => {
    const serviceRoot = path.join(src, 'service');
    const offenders = sourceFiles(features)
      .filter((file) => !file.endsWith('.test.ts'))
      .flatMap((file) =>
        relativeImports(file)
          .filter((target) => target === serviceRoot)
          .map(() => path.relative(ROOT, file)),
      );
    expect(offenders).toEqual([]);
  });

  it('no migration imports application code', () => {
    const migrations = path.join(src, 'migrations');
    const offenders = sourceFiles(migrations)
      .flatMap((file) => relativeImports(file).map((target) => ({ file, target })))
      .filter(({ target }) => path.dirname(target) !== migrations)
      .map(({ file, target }) => `${path.relative(ROOT, file)} → ${path.relative(ROOT, target)}`);
    expect(offenders).toEqual([]);
  });

  // A feature's index.ts is all another part of the service may use of it: the rest can change freely.
  it('code outside a feature imports it only through its index.ts', () => {
    const offenders = sourceFiles(src)
      .filter((file) => !file.endsWith('.test.ts'))
      .flatMap((file) =>
        relativeImports(file)
          .filter((target) => {
            const feature = featureOf(features, target);
            return (
              feature !== undefined && feature !== featureOf(features, file) && path.relative(path.join(features, feature), target) !== ''
            );
          })
          .map((target) => `${path.relative(ROOT, file)} → ${path.relative(ROOT, target)}`),
      );
    expect(offenders).toEqual([]);
  });

  it('every feature has its index.ts', () => {
    const folders = readdirSync(features, { withFileTypes: true }).filter((entry) => entry.isDirectory());
    expect(folders.filter((entry) => !existsSync(path.join(features, entry.name, 'index.ts'))).map((entry) => entry.name)).toEqual([]);
  });

  it('no two features import each other, directly or round a longer cycle', () => {
    expect(cycles(featureGraph(src))).toEqual([]);
  });
});
