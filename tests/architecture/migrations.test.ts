import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const ROOT = path.resolve(__dirname, '../..');

/** Every migrations module of the services: a feature's `migrations.ts` and the service's ordered list. */
function migrationModules(): string[] {
  return ['claims', 'evidence'].flatMap((service) =>
    readdirSync(path.join(ROOT, 'services', service, 'src'), { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile() && entry.name === 'migrations.ts')
      .map((entry) => path.join(entry.parentPath, entry.name)),
  );
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

describe('a migration holds literal SQL only', () => {
  const modules = migrationModules();

  it('finds the migrations modules of both services', () => {
    expect(modules.length).toBeGreaterThanOrEqual(10);
  });

  // Code a migration called could be edited and so rewrite, unseen, a migration a database already ran
  // (the checksums catch it only once it happened). A migrations module imports types from @platform/db;
  // the one that lists a service's migrations in order also imports the other migrations modules.
  it('imports nothing that runs but other migrations modules (types from @platform/db only)', () => {
    const offenders = modules.flatMap((file) =>
      executedImports(file)
        .filter((specifier) => !(specifier.startsWith('.') && path.basename(specifier) === 'migrations'))
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
