import { existsSync, readFileSync } from 'node:fs';
import { readZip, ZipError } from './zip-reader';
import { verifyBinder, type PinnedKeys } from './verify-binder';

const USAGE = `Usage: verify-binder <binder.zip> --service-key <key or file> [--witness-key <key or file>]...

Verifies an evidence binder offline: every file against SHA256SUMS and the manifest, every audit record
against its inclusion proof, the checkpoint's signature by the service key (and by each witness key), and
the consistency with the previous binder's checkpoint. Keys are C2SP verifier keys
(<name>+<hash>+<base64 key>, as GET /api/evidence/audit/checkpoint's X-Audit-Verifier-Key gives), or files
holding one. BINDER_SERVICE_KEY and BINDER_WITNESS_KEYS (comma-separated) may be used instead of the flags.
Exit status: 0 verified, 1 a check failed, 2 usage error.`;

/** What a bare `node verify.mjs` says first: a binder is only verified against a key its reader pinned. */
const PINNED_KEY = `verify.mjs needs the binder and the service's pinned verifier key:

  node verify.mjs <binder>.zip --service-key <service verifier key> [--witness-key <witness verifier key>]...

The key is not taken from the binder (a forged binder would carry its own). Copy it once from the examiner
desk (the key next to each binder, or the audit page; GET /api/evidence/audit/verifier-keys), or from the
X-Audit-Verifier-Key header of GET /api/evidence/audit/public-key, keep it, and pass it every time.`;

/** A verifier key given inline, or the path of a file that holds one. */
function keyFrom(value: string): string {
  return existsSync(value) ? readFileSync(value, 'utf8').trim() : value.trim();
}

function parseArgs(argv: string[], env: NodeJS.ProcessEnv): { zip: string; keys: PinnedKeys } | string {
  const witnesses: string[] = (env.BINDER_WITNESS_KEYS ?? '').split(',').filter(Boolean);
  let service = env.BINDER_SERVICE_KEY;
  let zip: string | undefined;
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i];
    if (arg === '--help' || arg === '-h') return USAGE;
    if (arg === '--service-key' || arg === '--witness-key') {
      const value = argv[++i];
      if (!value) return `${arg} needs a value\n\n${USAGE}`;
      if (arg === '--service-key') service = value;
      else witnesses.push(value);
    } else if (arg.startsWith('-') || zip !== undefined) return `unexpected argument ${arg}\n\n${USAGE}`;
    else zip = arg;
  }
  if (!zip) return argv.length === 0 ? `${PINNED_KEY}\n\n${USAGE}` : USAGE;
  return { zip, keys: { service: service && keyFrom(service), witnesses: witnesses.map(keyFrom) } };
}

/** Runs the command; returns its exit status. */
export function main(argv: string[], env: NodeJS.ProcessEnv, out: (line: string) => void): number {
  const parsed = parseArgs(argv, env);
  if (typeof parsed === 'string') {
    out(parsed);
    return 2;
  }
  let files: Map<string, Buffer>;
  try {
    files = readZip(readFileSync(parsed.zip));
  } catch (error) {
    out(`FAIL  ${parsed.zip}: ${error instanceof ZipError ? error.message : (error as Error).message}`);
    out('Binder NOT verified.');
    return 1;
  }
  const report = verifyBinder(files, parsed.keys);
  out(`Verifying ${parsed.zip} (${files.size} files)`);
  for (const check of report.checks) out(`${check.ok ? 'OK  ' : 'FAIL'}  ${check.message}`);
  out(report.ok ? 'Binder verified.' : 'Binder NOT verified.');
  return report.ok ? 0 : 1;
}
