import type { Knex } from '@platform/db';
import type { ScanOutcome, ScanStatus } from '@platform/files';

export interface PendingFileScan {
  evidence_id: string;
  run_id: string;
  sha256: string;
}

/** The scan status of file evidence (table evidence_file_scans, one row per file item). */
export function fileScansStore(db: Knex) {
  return {
    async insert(evidenceId: string, outcome: ScanOutcome): Promise<void> {
      const decided = outcome.status === 'clean' || outcome.status === 'infected';
      await db('evidence_file_scans').insert({
        evidence_id: evidenceId,
        scan_status: outcome.status,
        scan_signature: outcome.signature,
        scanned_at: decided ? db.raw('clock_timestamp()') : null,
      });
    },

    /** A file waiting for its scan, claimed for this transaction (other replicas skip it). */
    async claimPending(): Promise<PendingFileScan | undefined> {
      return db('evidence_file_scans as s')
        .join('evidence_items as e', 'e.evidence_id', 's.evidence_id')
        .where('s.scan_status', 'pending')
        .orderBy([{ column: 's.created_at' }, { column: 's.evidence_id' }])
        .forUpdate('s')
        .skipLocked()
        .first('e.evidence_id', 'e.run_id', 'e.sha256');
    },

    async record(evidenceId: string, outcome: ScanOutcome): Promise<void> {
      await db('evidence_file_scans')
        .where({ evidence_id: evidenceId })
        .update({ scan_status: outcome.status, scan_signature: outcome.signature, scanned_at: db.raw('clock_timestamp()') });
    },

    /** File items of the run that may not go into a binder: quarantined or not scanned yet. */
    async unservable(runId: string): Promise<{ evidence_id: string; scan_status: ScanStatus }[]> {
      return db('evidence_file_scans as s')
        .join('evidence_items as e', 'e.evidence_id', 's.evidence_id')
        .where('e.run_id', runId)
        .whereIn('s.scan_status', ['pending', 'infected'])
        .orderBy([{ column: 'e.submitted_at' }, { column: 'e.evidence_id' }])
        .select('e.evidence_id', 's.scan_status');
    },
  };
}
