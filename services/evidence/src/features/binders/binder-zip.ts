import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { once } from 'node:events';
import { PassThrough, Readable, Transform } from 'node:stream';
import type { Archiver, ArchiverOptions } from 'archiver';
import { canonicalJson } from '@platform/canonical-json';
import { displayText } from '@platform/http';
import type { AuditRecord } from '../../shared/audit-chain';
import type { Manifest, ManifestCheckpoint, ManifestEvidence } from './manifest';
import type { BinderRecord } from './binders-store';

// archiver 7 at runtime (CommonJS, a factory function); @types/archiver describes 8's classes.
const archiver = require('archiver') as (format: 'zip', options?: ArchiverOptions) => Archiver;

/** The offline verifier every binder carries (bundled from ./verifier by scripts/bundle-binder-verifier.ts). */
let verifierScript: Buffer | undefined;
const verifier = () => (verifierScript ??= readFileSync(path.join(__dirname, 'verifier', 'verify.mjs')));

/** The manifest without its two large arrays (what the index and VERIFY.md are written from). */
export type BinderHead = Omit<Manifest, 'evidence' | 'audit'> & { audit: { checkpoint: ManifestCheckpoint | null } };

export interface EvidenceEntry {
  item: ManifestEvidence;
  /** The stored canonical JSON of an item that is not a file; a file is read with `openFile`. */
  content_json?: string | null;
}

/** Everything a binder's zip is written from, read a page at a time while it streams. */
export interface BinderContents {
  binder: BinderRecord;
  head: BinderHead;
  evidenceCount: number;
  auditCount: number;
  firstAuditSeq: number | undefined;
  manifestChunks(): AsyncIterable<string>;
  evidence(options: { content: boolean }): AsyncIterable<EvidenceEntry[]>;
  auditRecords(): AsyncIterable<AuditRecord[]>;
  openFile(sha256: string): Promise<Readable>;
}

/** Text for index.html: as a person may read it (displayText), then HTML-escaped. */
function escapeHtml(value: unknown): string {
  return displayText(String(value ?? '')).replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  );
}

function indexRow(item: ManifestEvidence): string {
  return (
    `<tr><td>${escapeHtml(item.title)}</td><td>${escapeHtml(item.kind)}</td><td>${escapeHtml(item.collected_at ?? '')}${item.out_of_period ? ' <strong>(outside the run period)</strong>' : ''}</td>` +
    `<td>${escapeHtml(item.submitted_by)}<br>${escapeHtml(item.submitted_at)}</td><td>${item.superseded_by ? `superseded by ${escapeHtml(item.superseded_by)}` : 'current'}${item.supersedes ? `<br>corrects ${escapeHtml(item.supersedes)}` : ''}</td>` +
    (item.redaction
      ? `<td>redacted ${escapeHtml(item.redaction.redacted_at)} by ${escapeHtml(item.redaction.redacted_by)}: ${escapeHtml(item.redaction.reason)}<br><code>${escapeHtml(item.sha256)}</code></td></tr>\n`
      : `<td><a href="${escapeHtml(item.path)}">${escapeHtml(item.path)}</a><br><code>${escapeHtml(item.sha256)}</code></td></tr>\n`)
  );
}

async function* indexHtml(contents: BinderContents): AsyncGenerator<string> {
  const { binder, head } = contents;
  const { control, run } = head;
  yield `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Evidence binder ${escapeHtml(control.key)} ${escapeHtml(run.period_start)}..${escapeHtml(run.period_end)}</title>
<style>body{font-family:sans-serif;margin:2em}table{border-collapse:collapse}td,th{border:1px solid #999;padding:.3em;vertical-align:top;text-align:left}code{font-size:.85em}</style></head>
<body>
<h1>${head.final ? 'Final' : 'Draft'} evidence binder</h1>
<p>Binder ${escapeHtml(binder.binder_id)}, built ${escapeHtml(binder.created_at)}. Manifest SHA-256: <code>${escapeHtml(binder.sha256)}</code>. See VERIFY.md to check every hash.</p>
<h2>Control ${escapeHtml(control.key)} (version ${escapeHtml(control.version)}): ${escapeHtml(control.title)}</h2>
<p>${escapeHtml(control.description ?? '')}</p>
<p>Owner: ${escapeHtml(control.owner ?? '—')}. Frequency: ${escapeHtml(control.frequency ?? '—')}.</p>
<p>Test procedure: ${escapeHtml(control.test_procedure ?? '—')}</p>
<ul>${control.evidence_requirements.map((r) => `<li>${escapeHtml(r)}</li>`).join('')}</ul>
<h2>Run ${escapeHtml(run.run_id)}</h2>
<p>Period ${escapeHtml(run.period_start)} to ${escapeHtml(run.period_end)}; status <strong>${escapeHtml(run.status)}</strong>; opened by ${escapeHtml(run.created_by)} at ${escapeHtml(run.created_at)}${run.submitted_by ? `; submitted by ${escapeHtml(run.submitted_by)} at ${escapeHtml(run.submitted_at)}` : ''}.</p>
<h2>Evidence (${contents.evidenceCount})</h2>
<table><tr><th>Title</th><th>Kind</th><th>Collected</th><th>Submitted</th><th>Status</th><th>File and SHA-256</th></tr>
`;
  yield* gathered(contents.evidence({ content: false }), (entry) => indexRow(entry.item));
  const decisions = head.decisions
    .map(
      (d) =>
        `<li><strong>${escapeHtml(d.decision)}</strong> by ${escapeHtml(d.decided_by)} at ${escapeHtml(d.decided_at)}: ${escapeHtml(d.rationale)}</li>`,
    )
    .join('\n');
  const checkpoint = head.audit.checkpoint;
  yield `</table>
<h2>Decisions</h2>
<ul>${decisions || '<li>None yet</li>'}</ul>
<h2>Audit trail</h2>
<p>${contents.auditCount} audit records in audit.jsonl. ${checkpoint ? `Anchored by the signed checkpoint at seq ${escapeHtml(checkpoint.seq)} (key ${escapeHtml(checkpoint.key_id)}, signed ${escapeHtml(checkpoint.signed_at)}).` : 'No signed checkpoint covered these records yet when the binder was built.'}</p>
</body></html>
`;
}

const auditJsonl = (contents: BinderContents) => gathered(contents.auditRecords(), (record) => `${canonicalJson(record)}\n`);

/**
 * Pages of items as text pieces of about 32 K characters: a whole page as one string would be large
 * enough for V8's large-object space, which only a full collection frees (memory would climb per zip).
 */
async function* gathered<Item>(pages: AsyncIterable<Item[]>, text: (item: Item) => string, size = 32 * 1024): AsyncGenerator<string> {
  let pending = '';
  for await (const page of pages) {
    for (const item of page) {
      pending += text(item);
      if (pending.length >= size) {
        yield pending;
        pending = '';
      }
    }
  }
  if (pending) yield pending;
}

const sha256 = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');

/** A text source as a byte stream that hashes what passes through; the digest is ready at its end. */
function hashedText(source: AsyncIterable<string>): { stream: Readable; digest: () => string } {
  const hash = createHash('sha256');
  let digest = '';
  const stream = Readable.from(source, { objectMode: false }).pipe(
    new PassThrough({
      transform(chunk: Buffer, _encoding, callback) {
        hash.update(chunk);
        callback(null, chunk);
      },
      flush(callback) {
        digest = hash.digest('hex');
        callback();
      },
    }),
  );
  return { stream, digest: () => digest };
}

function verifyMd(binder: BinderRecord, head: BinderHead, firstAuditSeq: number | undefined, hasKey: boolean): string {
  const checkpoint = head.audit.checkpoint;
  return `# Verifying this binder offline

Binder \`${binder.binder_id}\` of run \`${binder.run_id}\`, built ${binder.created_at} (${head.final ? 'final: the run is approved' : 'draft: the run is not approved'}).

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
\`out_of_period: true\` flags evidence collected outside the run period. A redacted item keeps its
\`sha256\` (its audit record still proves it) and names its \`redaction\` (reason, who, when); its bytes were
destroyed, so it has no file here, and \`superseded_by\` names the redacted version that is.

## 4. Everything at once, offline

\`verify.mjs\` checks all of this binder with Node.js 20 or later and nothing else (no \`npm install\`):

    node verify.mjs <this-binder>.zip --service-key <service verifier key> [--witness-key <witness verifier key>]

It reads the zip itself and checks every file against SHA256SUMS and the manifest, every audit record
against its canonical bytes and its inclusion proof, the checkpoint's signatures by the keys you pin, and
the consistency proof from the previous binder of the control. It prints one line per check and exits
non-zero when any fails. Pin the keys yourself (a key shipped inside the binder proves nothing): the
service's verifier key is the \`X-Audit-Verifier-Key\` header of \`GET /api/evidence/audit/checkpoint\`
(\`<name>+<hash>+<base64 key>\`); a key may also be given as a file holding it, or as
\`BINDER_SERVICE_KEY\` / \`BINDER_WITNESS_KEYS\`.

## 5. The audit records

\`audit.jsonl\` holds the run's audit records, one canonical JSON object per line, oldest first (the same as
\`manifest.audit.records\`). \`manifest.audit.proofs\` gives, for each, its canonical bytes (\`leaf\`: the
RFC 8785 JSON of every field but \`hash\`, as stored when it was appended) and its RFC 9162 inclusion proof.
Each record's \`hash\` is \`SHA-256(prev_hash ‖ leaf)\`, which standard tools check:

    jq -c '.audit.proofs[]' manifest.json | while IFS= read -r p; do
      seq=$(jq -r .seq <<<"$p"); prev=$(jq -r --argjson s "$seq" 'select(.seq == $s) | .prev_hash' audit.jsonl)
      { printf '%s' "$prev"; jq -j .leaf <<<"$p"; } | sha256sum | cut -d' ' -f1   # equals that record's hash
    done

The inclusion proofs (Merkle hashing with 0x00/0x01 prefixes) have no standard command: \`verify.mjs\`
checks them.

## 6. The signed checkpoint

${
  checkpoint
    ? `The checkpoint at seq ${checkpoint.seq} (hash \`${checkpoint.hash}\`, signed ${checkpoint.signed_at} by key \`${checkpoint.key_id}\`) covers every record above.
${
  checkpoint.note
    ? `\`checkpoint.note\` is its Merkle tree head as a C2SP signed note (origin, tree size ${checkpoint.seq}, base64 root hash, then one
signature line per signer: the service and any witness that cosigned it). The note's text is its first three lines;
each signature is the base64 after the signer's name, without its first 4 bytes (the key hash).${
        hasKey
          ? ` The service's
signature, with OpenSSL 3:

    head -n 3 checkpoint.note > checkpoint-note.txt
    grep -F "— ${checkpoint.note.split('\n')[0]} " checkpoint.note | cut -d' ' -f3 | base64 -d | tail -c 64 > checkpoint-note.sig
    openssl pkeyutl -verify -pubin -inkey audit-public-key.pem -rawin -in checkpoint-note.txt -sigfile checkpoint-note.sig`
          : ''
      }

`
    : ''
}\`checkpoint-message.bin\` holds the bytes of the chain checkpoint's signature (the canonical JSON \`{"hash":…,"seq":…}\`), \`checkpoint.sig\`
the raw Ed25519 signature${hasKey ? ' and `audit-public-key.pem` the public key' : ''}. With OpenSSL 3:

    openssl pkeyutl -verify -pubin -inkey audit-public-key.pem -rawin -in checkpoint-message.bin -sigfile checkpoint.sig

It prints \`Signature Verified Successfully\`.${hasKey ? ' Compare the key with the one the service publishes at `GET /api/evidence/audit/public-key` (or one you pinned) before trusting it.' : ' The signing key has since been rotated: fetch the public key with id `' + checkpoint.key_id + '` from the operator.'}
To check online the chain between the run's first record and the checkpoint (records of other work included),
call \`GET /api/evidence/audit/verify?from_seq=${firstAuditSeq ?? 1}&to_seq=${checkpoint.seq}\`.`
    : 'No signed checkpoint covered these records when the binder was built (checkpoints are taken periodically). Build the binder again later to include one, or verify online with `GET /api/evidence/audit/verify`.'
}
`;
}

/**
 * Writes the binder's zip into `archive` one entry at a time, each only when the one before it has
 * been taken by the reader: memory holds a page of parts and one entry's buffers, however large the
 * run. SHA256SUMS comes last, listing every entry before it: stored bytes (manifest, evidence files)
 * under the hash recorded for them, so damage on disk shows up offline; generated ones under the hash
 * of the bytes written.
 */
async function writeEntries(archive: Archiver, contents: BinderContents, date: Date, signal: AbortSignal): Promise<void> {
  const sums: string[] = [];
  const add = async (name: string, source: Buffer | Readable, hash: string | (() => string)) => {
    archive.append(source, { name, date });
    await once(archive, 'entry', { signal });
    sums.push(`${typeof hash === 'string' ? hash : hash()}  ${name}\n`);
  };
  const text = (value: string) => Buffer.from(value, 'utf8');

  await add('manifest.json', Readable.from(contents.manifestChunks(), { objectMode: false }), contents.binder.sha256);
  const written = new Set<string>();
  for await (const page of contents.evidence({ content: true })) {
    for (const { item, content_json } of page) {
      if (item.redaction || written.has(item.path)) continue;
      written.add(item.path);
      await add(item.path, item.kind === 'file' ? await contents.openFile(item.sha256) : text(content_json as string), item.sha256);
    }
  }
  const audit = hashedText(auditJsonl(contents));
  await add('audit.jsonl', audit.stream, audit.digest);
  const checkpoint = contents.head.audit.checkpoint;
  const hasKey = Boolean(checkpoint?.public_key_pem);
  if (checkpoint) {
    await add('checkpoint-message.bin', text(checkpoint.message), sha256(checkpoint.message));
    const signature = Buffer.from(checkpoint.signature, 'base64');
    await add('checkpoint.sig', signature, sha256(signature));
    if (hasKey) await add('audit-public-key.pem', text(checkpoint.public_key_pem as string), sha256(checkpoint.public_key_pem as string));
    if (checkpoint.note) await add('checkpoint.note', text(checkpoint.note), sha256(checkpoint.note));
  }
  await add('verify.mjs', verifier(), sha256(verifier()));
  const index = hashedText(indexHtml(contents));
  await add('index.html', index.stream, index.digest);
  const verify = verifyMd(contents.binder, contents.head, contents.firstAuditSeq, hasKey);
  await add('VERIFY.md', text(verify), sha256(verify));
  archive.append(text(sums.join('')), { name: 'SHA256SUMS', date });
  await archive.finalize();
}

/**
 * Gathers a stream's small writes into chunks of at least `size` bytes. A zip is written as many small
 * pieces (a header, a data descriptor, a short JSON entry); sent to the socket one by one they made the
 * system calls the bulk of a binder download's time.
 */
export function coalesce(size = 64 * 1024): Transform {
  let pending: Buffer[] = [];
  let length = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      pending.push(chunk);
      length += chunk.length;
      if (length < size) return callback();
      const joined = Buffer.concat(pending, length);
      pending = [];
      length = 0;
      callback(null, joined);
    },
    flush(callback) {
      callback(null, length > 0 ? Buffer.concat(pending, length) : undefined);
    },
  });
}

/**
 * Streams a binder's zip: the caller pipes the result to the response, and aborts it (or the reader
 * goes away) to stop reading the database and files. Failures arrive as the archive's `error`.
 */
export function streamZip(contents: BinderContents): { archive: Archiver; abort: () => void } {
  const archive = archiver('zip', { zlib: { level: 6 } });
  const stop = new AbortController();
  let archiveFailed = false;
  archive.once('error', () => {
    archiveFailed = true;
  });
  writeEntries(archive, contents, new Date(contents.binder.created_at), stop.signal).catch((error: unknown) => {
    // A reader gone away is not a failure; an error the archive already reported is not reported twice.
    if (!stop.signal.aborted && !archiveFailed) archive.emit('error', error);
  });
  return {
    archive,
    abort: () => {
      stop.abort();
      archive.abort();
    },
  };
}
