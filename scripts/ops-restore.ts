/**
 * `pnpm ops:restore --from <dir>`: puts a backup made by `pnpm ops:backup` into EMPTY databases and file
 * stores — CLAIMS_DATABASE_URL, EVIDENCE_DATABASE_URL, DATA_DIR (or CLAIMS_DATA_DIR / EVIDENCE_DATA_DIR).
 * Every file is checked against the manifest's SHA-256 first; a database that already holds tables is
 * refused (a restore never merges). Then start the services: their migrations re-apply the runtime roles'
 * grants, and GET /api/evidence/audit/verify must answer valid with a valid signature.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { backupLayout, copyTree, describeFile, pgTool, readArgs, type BackupManifest } from './ops-files';

async function main(): Promise<void> {
  const { from } = readArgs(process.argv.slice(2), ['from']);
  const env = process.env;
  const claimsUrl = required(env.CLAIMS_DATABASE_URL, 'CLAIMS_DATABASE_URL');
  const evidenceUrl = required(env.EVIDENCE_DATABASE_URL, 'EVIDENCE_DATABASE_URL');
  const claimsData = env.CLAIMS_DATA_DIR ?? required(env.DATA_DIR, 'DATA_DIR');
  const evidenceData = env.EVIDENCE_DATA_DIR ?? required(env.DATA_DIR, 'DATA_DIR');
  const layout = backupLayout(from);
  const manifest = JSON.parse(readFileSync(layout.manifest, 'utf8')) as BackupManifest;
  const damaged = manifest.files.filter((file) => {
    try {
      return describeFile(from, file.path).sha256 !== file.sha256;
    } catch {
      return true;
    }
  });
  if (damaged.length > 0) throw new Error(`the backup does not match its manifest: ${damaged.map((file) => file.path).join(', ')}`);

  for (const url of [claimsUrl, evidenceUrl]) {
    const tables = await pgTool('psql', ['-Atc', "SELECT count(*) FROM pg_tables WHERE schemaname = 'public'", url]);
    if (Number(tables.trim()) > 0) throw new Error(`${redact(url)} already holds tables: restore into an empty database`);
  }
  await pgTool('pg_restore', ['--exit-on-error', '--no-owner', '--no-privileges', `--dbname=${claimsUrl}`, layout.claimsDump]);
  await pgTool('pg_restore', ['--exit-on-error', '--no-owner', '--no-privileges', `--dbname=${evidenceUrl}`, layout.evidenceDump]);
  const files =
    copyTree(path.join(layout.files, 'claims'), path.join(claimsData, 'claims')) +
    copyTree(path.join(layout.files, 'evidence'), path.join(evidenceData, 'evidence'));
  console.log(
    `restored from ${from} (taken ${manifest.started_at}): both databases and ${files} stored files; public keys in ${layout.keys} — ` +
      'start the services, then check GET /api/evidence/audit/verify',
  );
}

function required(value: string | undefined, name: string): string {
  if (!value) throw new Error(`${name} must be set`);
  return value;
}

function redact(url: string): string {
  const parsed = new URL(url);
  parsed.password = parsed.password ? '***' : '';
  return parsed.toString();
}

main().catch((error: Error) => {
  console.error(`ops:restore failed: ${error.message}`);
  process.exit(1);
});
