import { createHash } from 'node:crypto';
import type { Archiver, ArchiverOptions } from 'archiver';
import { canonicalJson } from '../audit';
import type { Manifest } from './manifest';

// archiver 7 at runtime (CommonJS, a factory function); @types/archiver describes 8's classes.
const archiver = require('archiver') as (format: 'zip', options?: ArchiverOptions) => Archiver;

export interface BinderRecord {
  binder_id: string;
  run_id: string;
  final: boolean;
  sha256: string;
  created_at: string;
  manifest_json: string;
}

/** One entry of the zip: small ones as bytes, evidence files by their stored path (their hash is known). */
export interface ZipEntry {
  path: string;
  sha256: string;
  bytes?: Buffer;
  /** A stored file, opened only when the archive reaches it (one open file at a time). */
  file?: string;
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const entry = (path: string, bytes: Buffer | string): ZipEntry => {
  const buffer = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes, 'utf8');
  return { path, bytes: buffer, sha256: sha256(buffer) };
};

function escapeHtml(value: unknown): string {
  return String(value ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);
}

function indexHtml(binder: BinderRecord, manifest: Manifest): string {
  const { control, run } = manifest;
  const rows = manifest.evidence
    .map(
      (item) => `<tr><td>${escapeHtml(item.title)}</td><td>${escapeHtml(item.kind)}</td><td>${escapeHtml(item.collected_at ?? '')}${item.out_of_period ? ' <strong>(outside the run period)</strong>' : ''}</td>` +
        `<td>${escapeHtml(item.submitted_by)}<br>${escapeHtml(item.submitted_at)}</td><td>${item.superseded_by ? `superseded by ${escapeHtml(item.superseded_by)}` : 'current'}${item.supersedes ? `<br>corrects ${escapeHtml(item.supersedes)}` : ''}</td>` +
        `<td><a href="${escapeHtml(item.path)}">${escapeHtml(item.path)}</a><br><code>${escapeHtml(item.sha256)}</code></td></tr>`,
    )
    .join('\n');
  const decisions = manifest.decisions.map((d) => `<li><strong>${escapeHtml(d.decision)}</strong> by ${escapeHtml(d.decided_by)} at ${escapeHtml(d.decided_at)}: ${escapeHtml(d.rationale)}</li>`).join('\n');
  const checkpoint = manifest.audit.checkpoint;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Evidence binder ${escapeHtml(control.key)} ${escapeHtml(run.period_start)}..${escapeHtml(run.period_end)}</title>
<style>body{font-family:sans-serif;margin:2em}table{border-collapse:collapse}td,th{border:1px solid #999;padding:.3em;vertical-align:top;text-align:left}code{font-size:.85em}</style></head>
<body>
<h1>${manifest.final ? 'Final' : 'Draft'} evidence binder</h1>
<p>Binder ${escapeHtml(binder.binder_id)}, built ${escapeHtml(binder.created_at)}. Manifest SHA-256: <code>${escapeHtml(binder.sha256)}</code>. See VERIFY.md to check every hash.</p>
<h2>Control ${escapeHtml(control.key)} (version ${escapeHtml(control.version)}): ${escapeHtml(control.title)}</h2>
<p>${escapeHtml(control.description ?? '')}</p>
<p>Owner: ${escapeHtml(control.owner ?? '—')}. Frequency: ${escapeHtml(control.frequency ?? '—')}.</p>
<p>Test procedure: ${escapeHtml(control.test_procedure ?? '—')}</p>
<ul>${control.evidence_requirements.map((r) => `<li>${escapeHtml(r)}</li>`).join('')}</ul>
<h2>Run ${escapeHtml(run.run_id)}</h2>
<p>Period ${escapeHtml(run.period_start)} to ${escapeHtml(run.period_end)}; status <strong>${escapeHtml(run.status)}</strong>; opened by ${escapeHtml(run.created_by)} at ${escapeHtml(run.created_at)}${run.submitted_by ? `; submitted by ${escapeHtml(run.submitted_by)} at ${escapeHtml(run.submitted_at)}` : ''}.</p>
<h2>Evidence (${manifest.evidence.length})</h2>
<table><tr><th>Title</th><th>Kind</th><th>Collected</th><th>Submitted</th><th>Status</th><th>File and SHA-256</th></tr>
${rows}
</table>
<h2>Decisions</h2>
<ul>${decisions || '<li>None yet</li>'}</ul>
<h2>Audit trail</h2>
<p>${manifest.audit.records.length} audit records in audit.jsonl. ${checkpoint ? `Anchored by the signed checkpoint at seq ${escapeHtml(checkpoint.seq)} (key ${escapeHtml(checkpoint.key_id)}, signed ${escapeHtml(checkpoint.signed_at)}).` : 'No signed checkpoint covered these records yet when the binder was built.'}</p>
</body></html>
`;
}

function verifyMd(binder: BinderRecord, manifest: Manifest, hasKey: boolean): string {
  const checkpoint = manifest.audit.checkpoint;
  return `# Verifying this binder offline

Binder \`${binder.binder_id}\` of run \`${binder.run_id}\`, built ${binder.created_at} (${manifest.final ? 'final: the run is approved' : 'draft: the run is not approved'}).

## 1. Every file

From the directory this zip was unpacked into:

    sha256sum -c SHA256SUMS

Every line must say \`OK\`. SHA256SUMS lists every file of the binder except itself.

## 2. The manifest

\`manifest.json\` is the binder's manifest as RFC 8785 (JCS) canonical JSON, exactly the bytes that were
hashed. Its SHA-256 is the binder's \`sha256\`:

    sha256sum manifest.json
    # ${binder.sha256}

The manifest is built only from the run's state (control version, run, evidence, decisions, audit records,
checkpoint); building a binder of the same state again gives the same bytes. The binder id and build time
are not part of it.

## 3. The evidence

Each item of \`manifest.evidence\` names its \`sha256\` and its \`path\` in this zip
(\`evidence/<sha256>-<name>\`): \`sha256sum <path>\` prints the same value. A file's hash is over its bytes
as uploaded. A note, link or record is stored as the RFC 8785 canonical JSON of what was submitted, and that
JSON is the file. Superseded items stay in the binder; \`superseded_by\` names their correction, and
\`out_of_period: true\` flags evidence collected outside the run period.

## 4. The audit records

\`audit.jsonl\` holds the run's audit records, one canonical JSON object per line, oldest first (the same as
\`manifest.audit.records\`). Each record's \`hash\` is
\`SHA-256(prev_hash ‖ canonical JSON of the record without "hash")\`, where prev_hash is the 64 hex
characters of the previous record of the platform-wide chain. For example, with Node.js and the
\`canonicalize\` package:

    node -e 'const c=require("canonicalize"),h=require("crypto");for(const l of require("fs").readFileSync("audit.jsonl","utf8").split("\\n").filter(Boolean)){const{hash,...r}=JSON.parse(l);console.log(r.seq,h.createHash("sha256").update(r.prev_hash+c(r)).digest("hex")===hash?"OK":"MISMATCH")}'

## 5. The signed checkpoint

${checkpoint ? `The checkpoint at seq ${checkpoint.seq} (hash \`${checkpoint.hash}\`, signed ${checkpoint.signed_at} by key \`${checkpoint.key_id}\`) covers every record above.
\`checkpoint-message.bin\` holds the signed bytes (the canonical JSON \`{"hash":…,"seq":…}\`), \`checkpoint.sig\`
the raw Ed25519 signature${hasKey ? ' and `audit-public-key.pem` the public key' : ''}. With OpenSSL 3:

    openssl pkeyutl -verify -pubin -inkey audit-public-key.pem -rawin -in checkpoint-message.bin -sigfile checkpoint.sig

It prints \`Signature Verified Successfully\`.${hasKey ? ' Compare the key with the one the service publishes at `GET /api/evidence/audit/public-key` (or one you pinned) before trusting it.' : ' The signing key has since been rotated: fetch the public key with id `' + checkpoint.key_id + '` from the operator.'}
The records between the run's last record and seq ${checkpoint.seq} belong to other work; to check the chain
between them online, call \`GET /api/evidence/audit/verify?from_seq=${manifest.audit.records[0]?.seq ?? 1}&to_seq=${checkpoint.seq}\`.` : 'No signed checkpoint covered these records when the binder was built (checkpoints are taken periodically). Build the binder again later to include one, or verify online with `GET /api/evidence/audit/verify`.'}
`;
}

/**
 * Everything the zip holds, with each file's SHA-256, and the SHA256SUMS over them. `evidenceBytes`
 * gives the bytes of an evidence path (a stored file, or canonical JSON).
 */
export function binderEntries(binder: BinderRecord, manifest: Manifest, evidenceBytes: (path: string) => ZipEntry): ZipEntry[] {
  const entries: ZipEntry[] = [entry('manifest.json', binder.manifest_json)];
  const seen = new Set<string>();
  for (const item of manifest.evidence) {
    if (seen.has(item.path)) continue;
    seen.add(item.path);
    entries.push(evidenceBytes(item.path));
  }
  entries.push(entry('audit.jsonl', manifest.audit.records.map((record) => `${canonicalJson(record)}\n`).join('')));
  const checkpoint = manifest.audit.checkpoint;
  const hasKey = Boolean(checkpoint?.public_key_pem);
  if (checkpoint) {
    entries.push(entry('checkpoint-message.bin', checkpoint.message));
    entries.push(entry('checkpoint.sig', Buffer.from(checkpoint.signature, 'base64')));
    if (hasKey) entries.push(entry('audit-public-key.pem', checkpoint.public_key_pem as string));
  }
  entries.push(entry('index.html', indexHtml(binder, manifest)));
  entries.push(entry('VERIFY.md', verifyMd(binder, manifest, hasKey)));
  entries.push(entry('SHA256SUMS', entries.map((e) => `${e.sha256}  ${e.path}\n`).join('')));
  return entries;
}

/** Streams the zip: the caller pipes it to the response. Files are read from disk as they are written. */
export function streamZip(entries: ZipEntry[], date: Date): Archiver {
  const archive = archiver('zip', { zlib: { level: 6 } });
  for (const item of entries) {
    if (item.bytes) archive.append(item.bytes, { name: item.path, date });
    else archive.file(item.file as string, { name: item.path, date });
  }
  void archive.finalize();
  return archive;
}
