import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { claimsMigrations } from '@platform/claims';
import { evidenceMigrations } from '@platform/evidence';

const ROOT = path.resolve(__dirname, '../..');

const SERVICES = { claims: claimsMigrations, evidence: evidenceMigrations };

/** The files of a service's migrations folder: one per migration, and `index.ts`, the ordered list. */
function migrationsFolder(service: string): string[] {
  const folder = path.join(ROOT, 'services', service, 'src', 'migrations');
  return readdirSync(folder).map((name) => path.join(folder, name));
}

/** Every migrations module of the services. */
function migrationModules(): string[] {
  return Object.keys(SERVICES).flatMap(migrationsFolder);
}

/** Every file under a service's src/ named like a migrations module outside its migrations folder. */
function strayMigrationModules(service: string): string[] {
  return readdirSync(path.join(ROOT, 'services', service, 'src'), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /^migrations?\.ts$|^\d{4}_\w+\.ts$/.test(entry.name))
    .map((entry) => path.join(entry.parentPath, entry.name))
    .filter((file) => path.basename(path.dirname(file)) !== 'migrations')
    .map((file) => path.relative(ROOT, file));
}

/**
 * What a module brings in that executes: a value import, `export … from`, `require` or `import()`. A
 * type-only import (`import type`, or `type` on every name) is erased at compile time and runs nothing.
 */
function executedImports(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const typeOnly =
        clause !== undefined &&
        (clause.isTypeOnly ||
          (!clause.name &&
            clause.namedBindings !== undefined &&
            ts.isNamedImports(clause.namedBindings) &&
            clause.namedBindings.elements.every((element) => element.isTypeOnly)));
      if (!typeOnly) found.push(node.moduleSpecifier.text);
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      if (!node.isTypeOnly) found.push(node.moduleSpecifier.text);
    } else if (ts.isCallExpression(node) && node.arguments.length > 0 && ts.isStringLiteral(node.arguments[0])) {
      const callee = node.expression;
      if (callee.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(callee) && callee.text === 'require'))
        found.push(node.arguments[0].text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe.each(Object.entries(SERVICES))('the %s migrations live in one ordered folder', (service, migrations) => {
  it('one file per migration, named for it, and the list in index.ts in the order of the names', () => {
    const files = migrationsFolder(service).map((file) => path.basename(file, '.ts'));
    const names = migrations.map((migration) => migration.name);
    expect(files.filter((name) => name !== 'index').sort()).toEqual(names);
    expect([...names].sort()).toEqual(names);
  });

  it('and nowhere else', () => {
    expect(strayMigrationModules(service)).toEqual([]);
  });
});

describe('a migration holds literal SQL only', () => {
  const modules = migrationModules();

  it('finds the migrations modules of both services', () => {
    expect(modules.length).toBeGreaterThanOrEqual(10);
  });

  // Code a migration called could be edited and so rewrite, unseen, a migration a database already ran
  // (the checksums catch it only once it happened). A migrations module imports types from @platform/db;
  // the one that lists a service's migrations in order (index.ts) also imports the others of its folder.
  it('imports nothing that runs but other migrations modules (types from @platform/db only)', () => {
    const offenders = modules.flatMap((file) =>
      executedImports(file)
        .filter((specifier) => !(path.basename(file) === 'index.ts' && /^\.\/\d{4}_\w+$/.test(specifier)))
        .map((specifier) => `${path.relative(ROOT, file)} → ${specifier}`),
    );
    expect(offenders).toEqual([]);
  });

  it('imports from no package but @platform/db, even types', () => {
    const offenders = modules.flatMap((file) => {
      const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
      return source.statements
        .filter(ts.isImportDeclaration)
        .map((node) => (node.moduleSpecifier as ts.StringLiteral).text)
        .filter((specifier) => !specifier.startsWith('.') && specifier !== '@platform/db')
        .map((specifier) => `${path.relative(ROOT, file)} → ${specifier}`);
    });
    expect(offenders).toEqual([]);
  });
});
