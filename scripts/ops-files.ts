/** What ops:backup and ops:restore share: the backup's layout, its manifest, file copies and the PostgreSQL tools. */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface BackupManifest {
  format: 1;
  started_at: string;
  finished_at: string;
  /** Every file of the backup but the manifest, with its size and SHA-256. */
  files: { path: string; bytes: number; sha256: string }[];
}

export function backupLayout(dir: string) {
  return {
    manifest: path.join(dir, 'manifest.json'),
    claimsDump: path.join(dir, 'claims.dump'),
    evidenceDump: path.join(dir, 'evidence.dump'),
    files: path.join(dir, 'files'),
    keys: path.join(dir, 'keys'),
  };
}

export function describeFile(root: string, relative: string): BackupManifest['files'][number] {
  const bytes = readFileSync(path.join(root, relative));
  return { path: relative.split(path.sep).join('/'), bytes: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') };
}

/** Copies the files under `from` into `to`, keeping their relative paths, except those `skip` names. */
export function copyTree(from: string, to: string, skip: (relative: string) => boolean = () => false, relative = ''): number {
  if (!existsSync(path.join(from, relative))) return 0;
  let copied = 0;
  for (const entry of readdirSync(path.join(from, relative), { withFileTypes: true })) {
    const child = path.join(relative, entry.name);
    if (skip(child)) continue;
    if (entry.isDirectory()) copied += copyTree(from, to, skip, child);
    else if (statSync(path.join(from, child)).isFile()) {
      mkdirSync(path.dirname(path.join(to, child)), { recursive: true });
      copyFileSync(path.join(from, child), path.join(to, child));
      copied++;
    }
  }
  return copied;
}

/** Runs pg_dump / pg_restore / psql (PATH, then Debian's server binaries), failing with what it printed. */
export async function pgTool(tool: 'pg_dump' | 'pg_restore' | 'psql', args: string[]): Promise<string> {
  try {
    const { stdout } = await run(tool, args, { maxBuffer: 64 * 1024 * 1024 });
    return stdout;
  } catch (error) {
    const failure = error as { stderr?: string; message: string };
    throw new Error(`${tool} failed: ${(failure.stderr || failure.message).trim()}`);
  }
}

/** `--name value` pairs; every name in `required` must be given. */
export function readArgs(argv: string[], required: string[]): Record<string, string> {
  const args: Record<string, string> = {};
  for (let i = 0; i < argv.length; i++) {
    const match = /^--([a-z-]+)$/.exec(argv[i]);
    if (!match || argv[i + 1] === undefined) throw new Error(`unexpected argument ${argv[i]}`);
    args[match[1]] = argv[++i];
  }
  for (const name of required) if (!args[name]) throw new Error(`--${name} <dir> is required`);
  return args;
}
