/**
 * `pnpm ops:backup --out <dir>`: everything the platform needs to come back, in one directory with a manifest
 * of SHA-256 sums — both databases (pg_dump, custom format), the file stores (attachments, kits, evidence
 * files, binders), and the public halves of the audit signing key and the witness key. Private keys are never
 * copied: they are secrets, restored from where secrets live.
 *
 * Order matters for a consistent point: claims is dumped before evidence, so every event claims had
 * confirmed is in the evidence dump; events still in the claims outbox are published again after a
 * restore, and the evidence consumer applies each once. Files are copied after both dumps: stored files
 * never change, so the copy holds every file the dumped rows refer to.
 *
 * Reads CLAIMS_DATABASE_URL, EVIDENCE_DATABASE_URL, DATA_DIR (or CLAIMS_DATA_DIR and EVIDENCE_DATA_DIR when the
 * two services keep their files apart), and AUDIT_SIGNING_KEY / WITNESS_KEY when the keys are configured.
 */
import { createPrivateKey, createPublicKey } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { backupLayout, copyTree, describeFile, pgTool, readArgs, type BackupManifest } from './ops-files';

async function main(): Promise<void> {
  const { out } = readArgs(process.argv.slice(2), ['out']);
  const env = process.env;
  const claimsUrl = required(env.CLAIMS_DATABASE_URL, 'CLAIMS_DATABASE_URL');
  const evidenceUrl = required(env.EVIDENCE_DATABASE_URL, 'EVIDENCE_DATABASE_URL');
  if (env.OBJECT_STORE_URL)
    throw new Error(
      'OBJECT_STORE_URL is set: back the bucket up with its own versioning or replication; this command copies local file stores',
    );
  const claimsData = env.CLAIMS_DATA_DIR ?? required(env.DATA_DIR, 'DATA_DIR');
  const evidenceData = env.EVIDENCE_DATA_DIR ?? required(env.DATA_DIR, 'DATA_DIR');
  if (existsSync(out) && readdirSync(out).length > 0) throw new Error(`${out} is not empty: a backup goes into a new directory`);
  const layout = backupLayout(out);
  mkdirSync(layout.keys, { recursive: true });

  const startedAt = new Date().toISOString();
  await pgTool('pg_dump', ['--format=custom', '--no-owner', '--no-privileges', `--file=${layout.claimsDump}`, claimsUrl]);
  await pgTool('pg_dump', ['--format=custom', '--no-owner', '--no-privileges', `--file=${layout.evidenceDump}`, evidenceUrl]);
  // only the services' own areas, never a private key or an upload in progress
  const skip = (relative: string) => /\.pem$/.test(relative) || /(^|\/)tmp(\/|$)/.test(relative);
  copyTree(path.join(claimsData, 'claims'), path.join(layout.files, 'claims'), skip);
  copyTree(path.join(evidenceData, 'evidence'), path.join(layout.files, 'evidence'), skip);
  writePublicKey(
    layout.keys,
    'audit-signing-key.pub.pem',
    env.AUDIT_SIGNING_KEY,
    path.join(evidenceData, 'evidence', 'audit-signing-key.pem'),
  );
  writePublicKey(layout.keys, 'witness-key.pub.pem', env.WITNESS_KEY, path.join(claimsData, 'witness', 'witness-key.pem'));

  const manifest: BackupManifest = {
    format: 1,
    started_at: startedAt,
    finished_at: new Date().toISOString(),
    files: listFiles(out).map((relative) => describeFile(out, relative)),
  };
  writeFileSync(layout.manifest, `${JSON.stringify(manifest, null, 2)}\n`);
  const bytes = manifest.files.reduce((sum, file) => sum + file.bytes, 0);
  console.log(`backup written to ${out}: ${manifest.files.length} files, ${bytes} bytes, manifest ${path.basename(layout.manifest)}`);
}

function required(value: string | undefined, name: string): string {
  if (!value) throw new Error(`${name} must be set`);
  return value;
}

function writePublicKey(dir: string, name: string, configured: string | undefined, devFile: string): void {
  const privateKey = configured ?? (existsSync(devFile) ? readFileSync(devFile, 'utf8') : undefined);
  if (!privateKey) return;
  const key = createPublicKey(
    privateKey.includes('-----BEGIN')
      ? createPrivateKey(privateKey.replace(/\\n/g, '\n'))
      : createPrivateKey({ key: Buffer.from(privateKey.trim(), 'base64'), format: 'der', type: 'pkcs8' }),
  );
  writeFileSync(path.join(dir, name), key.export({ type: 'spki', format: 'pem' }));
}

function listFiles(root: string, relative = ''): string[] {
  return readdirSync(path.join(root, relative), { withFileTypes: true }).flatMap((entry) => {
    const child = path.join(relative, entry.name);
    return entry.isDirectory() ? listFiles(root, child) : [child];
  });
}

main().catch((error: Error) => {
  console.error(`ops:backup failed: ${error.message}`);
  process.exit(1);
});
