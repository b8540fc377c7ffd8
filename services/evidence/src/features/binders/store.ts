import type { Knex } from '@platform/db';
import type { BinderRecord } from './binder-zip';

interface BinderRow extends Omit<BinderRecord, 'created_at'> {
  created_at: Date;
}

const toRecord = (row: BinderRow): BinderRecord => ({
  binder_id: row.binder_id,
  run_id: row.run_id,
  final: row.final,
  sha256: row.sha256,
  created_at: row.created_at.toISOString(),
  manifest_json: row.manifest_json,
});

export function bindersStore(db: Knex) {
  return {
    async insert(binder: Omit<BinderRecord, 'created_at'> & { created_by: string }): Promise<BinderRecord> {
      const [row] = await db('evidence_binders').insert(binder).returning('*');
      return toRecord(row);
    },

    async find(binderId: string): Promise<BinderRecord | undefined> {
      const row = await db('evidence_binders').where({ binder_id: binderId }).first();
      return row ? toRecord(row) : undefined;
    },
  };
}
