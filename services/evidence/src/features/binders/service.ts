import { createHash, randomUUID } from 'node:crypto';
import { withTransactional, type Knex } from '@platform/db';
import { problems } from '@platform/http';
import { canonicalJson } from '../audit';
import { evidenceStore } from '../evidence/store';
import type { EvidenceFileStore } from '../evidence/file-store';
import { recordChange } from '../runs/record-change';
import { binderEntries, type BinderRecord, type ZipEntry } from './binder-zip';
import { buildManifest, type AuditKey, type Manifest } from './manifest';
import { bindersStore } from './store';

export interface BindersDeps {
  exchange: string;
  files: EvidenceFileStore;
  publicBaseUrl: string;
  auditKey: () => AuditKey | undefined;
}

export interface Binder {
  binder_id: string;
  run_id: string;
  final: boolean;
  created_at: string;
  sha256: string;
  manifest: Manifest;
  download_url: string;
}

/** Examiner-ready binders of runs: built from the run's state, stored immutable, packaged as a zip. */
export const bindersService = (deps: BindersDeps) => (db: Knex) => {
  const binders = bindersStore(db);
  const present = (record: BinderRecord): Binder => ({
    binder_id: record.binder_id,
    run_id: record.run_id,
    final: record.final,
    created_at: record.created_at,
    sha256: record.sha256,
    manifest: JSON.parse(record.manifest_json) as Manifest,
    download_url: `${deps.publicBaseUrl.replace(/\/+$/, '')}/api/evidence/binders/${record.binder_id}/download`,
  });

  async function find(binderId: string): Promise<BinderRecord> {
    const record = await binders.find(binderId);
    if (!record) throw problems.notFound(`No binder ${binderId}`);
    return record;
  }

  return {
    async build(runId: string, actor: string): Promise<Binder> {
      const manifest = await buildManifest(db, runId, deps.auditKey());
      if (!manifest) throw problems.notFound(`No run ${runId}`);
      const manifestJson = canonicalJson(manifest);
      const sha256 = createHash('sha256').update(manifestJson, 'utf8').digest('hex');
      const binderId = randomUUID();
      const record = await binders.insert({ binder_id: binderId, run_id: runId, final: manifest.final, sha256, manifest_json: manifestJson, created_by: actor });
      await recordChange(db, deps.exchange, {
        type: 'evidence.binder_built',
        entity_type: 'binder',
        entity_id: binderId,
        actor,
        data: { binder_id: binderId, run_id: runId, final: manifest.final, sha256, evidence_count: manifest.evidence.length },
      });
      return present(record);
    },

    get: async (binderId: string): Promise<Binder> => present(await find(binderId)),

    /** What the zip holds, checked before the first byte is sent (a missing file is an error, not a broken zip). */
    async zipEntries(binderId: string): Promise<{ binder: BinderRecord; entries: ZipEntry[] }> {
      const binder = await find(binderId);
      const manifest = JSON.parse(binder.manifest_json) as Manifest;
      const byPath = new Map(manifest.evidence.map((item) => [item.path, item]));
      const stored = new Map((await evidenceStore(db).listForRun(binder.run_id)).map((item) => [item.evidence_id, item]));
      for (const item of manifest.evidence) {
        if (item.kind === 'file' && !(await deps.files.has(item.sha256))) throw new Error(`evidence file ${item.sha256} of binder ${binderId} is missing from storage`);
      }
      const entries = binderEntries(binder, manifest, (path) => {
        const item = byPath.get(path) as Manifest['evidence'][number];
        if (item.kind === 'file') return { path, sha256: item.sha256, file: deps.files.pathOf(item.sha256) };
        const bytes = Buffer.from(stored.get(item.evidence_id)?.content_json as string, 'utf8');
        return { path, sha256: item.sha256, bytes };
      });
      return { binder, entries };
    },
  };
};

export function createBindersService(deps: BindersDeps, db: Knex) {
  return withTransactional(bindersService(deps), db);
}
