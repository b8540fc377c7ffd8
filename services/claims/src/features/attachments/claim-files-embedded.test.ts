import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import pino from 'pino';
import type { Knex } from '@platform/db';
import { rescanPending, type ScannedFile, type VirusScanner } from '@platform/files';
import { readAll } from '@platform/files/src/testing/s3-test-server';
import { messagingMigrations } from '@platform/messaging';
import { DATABASE_MODES, itPassesOnEmbeddedToo, openModeDatabase, type ModeDatabase } from '@platform/testing';
import { claimsMigrations } from '../../migrations';
import { insertTestClaim } from '../../testing/workflow-fixtures';
import { zipEntries } from '../../testing/zip-entries';
import { claimantPrivacyFor } from '../claimants';
import { openExportArchive } from '../exports/export-archive';
import { buildDueExports } from '../exports/export-builder';
import { exportStorage } from '../exports/export-storage';
import { exportsStore } from '../exports/exports-store';
import { pendingAttachmentScans } from './attachment-rescan';
import { attachmentsStore } from './attachments-store';
import { claimFiles, ClaimFileUnreadable } from './claim-files';
import type { ReceivedFile } from './multipart-upload';

const CASES = 3;
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const pdfWith = (marker: string) => Buffer.from(`%PDF-1.4\n${`% ${marker}\n`.repeat(9000)}%%EOF\n`);

/** Sealing, opening (every reader's way), the rescan and the export builder on both databases (PGlite: in a child jest). */
describe.each(DATABASE_MODES)('claim files encrypted at rest on %s', (mode) => {
  let db: Knex;
  let database: ModeDatabase | undefined;
  let dataDir: string;
  const config = { OBJECT_STORE_REGION: 'us-east-1', PRIVACY_ENCRYPTION: true, KEY_VAULT: 'local' };

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'claims-files-'));
    database = await openModeDatabase(mode, 'claimsfiles', [...messagingMigrations, ...claimsMigrations]);
    db = database.db;
  }, 120000);
  afterAll(async () => {
    await database?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** A claim whose claimant has a data key (as intake gives one with encryption on). */
  async function keyedClaim() {
    const privacy = claimantPrivacyFor({ db, dataDir }, config);
    const { claimantId } = await db.transaction((trx) =>
      privacy.claimantOf(trx, { email: `kim.${randomBytes(4).toString('hex')}@example.org`, phone: null }),
    );
    const claim = await insertTestClaim(db);
    await db('claims').where({ id: claim.claim_id }).update({ claimant_id: claimantId });
    return { ...claim, claimantId };
  }

  /** Files `bytes` on the claim as the upload path does: a temporary object, scanned, sealed, placed, its row inserted. */
  async function attach(claimId: string, bytes: Buffer, scanStatus: 'clean' | 'pending' = 'clean') {
    const files = claimFiles({ db, dataDir }, config);
    const temporaryId = await files.storage.writeTemporary(Readable.from([bytes]));
    const received = {
      temporaryId,
      sha256: sha256(bytes),
      sizeBytes: bytes.length,
      filename: 'a.pdf',
      contentType: 'application/pdf',
      scan: { status: scanStatus, signature: null },
    } as ScannedFile<ReceivedFile>;
    const sealed = await files.seal(claimId, (await files.sealingKey(claimId))!, received);
    await files.storage.place(sealed.temporaryId, sealed.storedAs!);
    await attachmentsStore(db).insertOnce({
      id: sealed.attachmentId!,
      claim_id: claimId,
      sha256: sealed.sha256,
      stored_sha256: sealed.storedAs!,
      size_bytes: bytes.length,
      content_type: 'application/pdf',
      filename: 'a.pdf',
      document_type: 'other',
      description: null,
      scan_status: scanStatus,
      scan_signature: null,
      scanned_at: null,
    });
    expect(await files.storage.list()).not.toContainEqual(expect.stringContaining(temporaryId)); // the plaintext is gone
    return { files, attachmentId: sealed.attachmentId!, storedSha256: sealed.storedAs! };
  }

  it('seals a file for its attachment and opens it again; the same ciphertext does not open as another attachment', async () => {
    const bytes = pdfWith(`embedded-${randomBytes(6).toString('hex')}`);
    const claim = await keyedClaim();
    const { files, attachmentId, storedSha256 } = await attach(claim.claim_id, bytes);
    const stored = await readAll(await files.storage.open(storedSha256));
    expect(stored.includes(bytes.subarray(0, 100))).toBe(false);
    expect((await readAll(await files.open(claim.claim_id, attachmentId))).equals(bytes)).toBe(true);

    // another attachment of the same claim pointed at this ciphertext: bound to its own id, it does not open
    const other = await attach(claim.claim_id, pdfWith('other'));
    await files.storage.remove(other.storedSha256);
    await files.storage.place(await files.storage.writeTemporary(Readable.from([stored])), other.storedSha256);
    await expect(readAll(await files.open(claim.claim_id, other.attachmentId))).rejects.toThrow(/does not open/);
    await expect(files.open(claim.claim_id, 'f'.repeat(8) + attachmentId.slice(8))).rejects.toBeInstanceOf(ClaimFileUnreadable);
  });

  it('the rescan reads a pending sealed file on its claiming transaction (the one connection of PGlite)', async () => {
    const bytes = pdfWith(`pending-${randomBytes(6).toString('hex')}`);
    const claim = await keyedClaim();
    const { files, attachmentId } = await attach(claim.claim_id, bytes, 'pending');
    const seen: Buffer[] = [];
    const scanner: VirusScanner = {
      async scanFile(open) {
        const chunks: Buffer[] = [];
        for await (const chunk of await open()) chunks.push(Buffer.from(chunk));
        seen.push(Buffer.concat(chunks));
        return { status: 'clean', signature: null };
      },
    };
    expect(await rescanPending(db, scanner, pendingAttachmentScans(files, 'claims.test'))).toBe(1);
    expect(seen.map((scanned) => scanned.equals(bytes))).toEqual([true]);
    expect(await db('attachments').where({ id: attachmentId }).first('scan_status')).toEqual({ scan_status: 'clean' });
  });

  it('an export copies the decrypted file into its archive, itself stored encrypted', async () => {
    const marker = `export-${randomBytes(6).toString('hex')}`;
    const bytes = pdfWith(marker);
    const claim = await keyedClaim();
    const { files, attachmentId } = await attach(claim.claim_id, bytes);
    const queued = await exportsStore(db).insert({
      claimantId: claim.claimantId,
      requestedBy: 'privacy-pat',
      viaClaimId: null,
      includeInternalNotes: false,
    });
    const exports = exportStorage(config, dataDir);
    const { keys } = claimantPrivacyFor({ db, dataDir }, config);
    expect(await buildDueExports(db, { attachments: files, exports, keys, afterReady: () => undefined }, pino({ level: 'silent' }))).toBe(
      1,
    );
    const row = (await exportsStore(db).find(queued.id))!;
    expect(row.archive_stored_sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(await exports.has(row.archive_sha256!)).toBe(false);
    const zip = await zipEntries(await readAll(await openExportArchive(exports, keys, row)));
    expect(sha256(zip.get(`claims/${claim.claim_number}/attachments/${attachmentId}-a.pdf`)!)).toBe(sha256(bytes));
  });

  if (mode === 'postgres') itPassesOnEmbeddedToo(__filename, 'claim files encrypted at rest on embedded', CASES);
});
