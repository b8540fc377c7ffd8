import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const root = path.join(__dirname, '../../..');

/**
 * Type-checks `source` (imports of published type declarations, and object literals typed with them) as a
 * scratch module inside the repository, so packages resolve; returns TypeScript's messages with the line each
 * names. Object literals get excess-property checks at every depth: a field the declarations do not have fails.
 */
export function typeCheck(source: string): { line: number; message: string }[] {
  const dir = mkdtempSync(path.join(root, 'tests/deploy/.typed-'));
  try {
    const file = path.join(dir, 'objects.ts');
    writeFileSync(file, source);
    const program = ts.createProgram([file], {
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      module: ts.ModuleKind.CommonJS,
      moduleResolution: ts.ModuleResolutionKind.Node10,
      target: ts.ScriptTarget.ES2022,
      types: [],
    });
    const sourceFile = program.getSourceFile(file)!;
    return ts.getPreEmitDiagnostics(program).map((diagnostic) => ({
      line:
        diagnostic.file === sourceFile && diagnostic.start !== undefined
          ? sourceFile.getLineAndCharacterOfPosition(diagnostic.start).line
          : -1,
      message: ts.flattenDiagnosticMessageText(diagnostic.messageText, ' '),
    }));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
