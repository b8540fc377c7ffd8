import { readdirSync, readFileSync } from 'node:fs';
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
});
