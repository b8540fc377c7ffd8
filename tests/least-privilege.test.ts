import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import request from 'supertest';
import { createDatabase, type Knex, type Migration } from '@platform/db';
import { runService, type RunningService } from '@platform/runtime';
import { bearer, deleteTopology, eventually, testServiceEnv, uniqueName } from '@platform/testing';
import { readClaimsConfig } from '../services/claims/src/config';
import { fileClaim } from '../services/claims/src/testing/claims-test-service';
import { claimsMigrations } from '../services/claims/src/migrations';
import { claimsService } from '../services/claims/src/service';
import { readEvidenceConfig } from '../services/evidence/src/config';
import { newSigningKey } from '../services/evidence/src/testing/audit-test-service';
import { evidenceMigrations } from '../services/evidence/src/migrations';
import { evidenceService } from '../services/evidence/src/service';

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, '..');

/**
 * The production shape: `main.ts migrate` (the one-shot job) migrates as the owner and grants; the
 * service then runs on the runtime role alone, with no migration credentials, and does its work.
 */
async function migratedAndServing(
  service: 'claims' | 'evidence',
  migrations: Migration[],
  start: (env: Record<string, string>) => Promise<RunningService>,
) {
  const testEnv = await testServiceEnv(service, migrations);
  const names = {
    CLAIMS_EXCHANGE: uniqueName('claims'),
    EVIDENCE_EXCHANGE: uniqueName('evidence'),
    CLAIM_EVENTS_QUEUE: uniqueName('claim-events'),
  };
  const env: Record<string, string> = { ...testEnv.env, ...names, AUDIT_SIGNING_KEY: newSigningKey() };
  await run(process.execPath, ['--import', 'tsx', `services/${service}/src/main.ts`, 'migrate'], {
    cwd: ROOT,
    env: { ...process.env, ...env },
  });
  const { MIGRATION_DATABASE_URL: _owner, ...runtimeOnly } = env;
  const running = await start(runtimeOnly);
  const owner = createDatabase({ url: testEnv.databaseUrl, poolMax: 1 });
  const runtime = createDatabase({ url: testEnv.env.DATABASE_URL, poolMax: 1 });
  return {
    running,
    owner,
    runtime,
    async stop() {
      await running.close();
      await runtime.destroy();
      await owner.destroy();
      await testEnv.cleanup();
      await deleteTopology([names.CLAIMS_EXCHANGE, names.EVIDENCE_EXCHANGE], [names.CLAIM_EVENTS_QUEUE, `${names.CLAIM_EVENTS_QUEUE}.dlq`]);
    },
  };
}

/** The tables appendOnlySql protected, as the catalog lists them. */
async function appendOnlyTables(db: Knex): Promise<string[]> {
  const { rows } = await db.raw(
    "SELECT c.relname AS name FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid WHERE t.tgname = c.relname || '_no_update_delete' ORDER BY 1",
  );
  return rows.map((row: { name: string }) => row.name);
}

/** Everything that would let the runtime role rewrite `table` is refused with insufficient_privilege. */
async function expectRewritesRefused(runtime: Knex, table: string): Promise<void> {
  const { rows } = await runtime.raw('SELECT attname AS name FROM pg_attribute WHERE attrelid = ?::regclass AND attnum = 1', [table]);
  const column = rows[0].name;
  const statements = [
    `UPDATE ${table} SET ${column} = ${column}`,
    `DELETE FROM ${table}`,
    `TRUNCATE ${table}`,
    `ALTER TABLE ${table} ADD COLUMN forged text`,
    `ALTER TABLE ${table} DISABLE TRIGGER ALL`,
    `ALTER TABLE ${table} DISABLE TRIGGER ${table}_no_update_delete`,
    `DROP TABLE ${table}`,
  ];
  for (const sql of statements) {
    await expect(runtime.raw(sql)).rejects.toMatchObject({ code: '42501' });
  }
  await expect(runtime(table).count({ n: '*' })).resolves.toHaveLength(1);
}

describe('the services run on a database role that owns nothing', () => {
  describe('claims', () => {
    let kit: Awaited<ReturnType<typeof migratedAndServing>>;
    beforeAll(async () => {
      kit = await migratedAndServing('claims', claimsMigrations, (env) => {
        const config = readClaimsConfig({ ...env, OVERDUE_SWEEP_INTERVAL_MS: '3600000' });
        return runService(claimsService(config), config);
      });
    }, 60000);
    afterAll(() => kit?.stop());

    it('takes a claim and triages it on the runtime role, appending to its audit tables', async () => {
      const claim = await fileClaim(kit.running.url);
      const writer = await bearer('claims:read claims:write', 'adjuster-ann');
      await request(kit.running.url).post(`/api/claims/claims/${claim.claim_id}/run-triage`).set('Authorization', writer).expect(201);
      expect(Number((await kit.runtime('claim_audit').where({ claim_id: claim.claim_id }).count({ n: '*' }))[0].n)).toBeGreaterThan(0);
      expect(await kit.runtime('triage_runs').where({ claim_id: claim.claim_id }).first()).toBeDefined();
    });

    it('refuses the runtime role UPDATE, DELETE, TRUNCATE, ALTER TABLE and trigger control on every append-only table', async () => {
      const tables = await appendOnlyTables(kit.owner);
      expect(tables).toEqual(expect.arrayContaining(['claim_audit', 'triage_runs', 'adjuster_kits']));
      for (const table of tables) await expectRewritesRefused(kit.runtime, table);
    });
  });

  describe('evidence', () => {
    let kit: Awaited<ReturnType<typeof migratedAndServing>>;
    beforeAll(async () => {
      kit = await migratedAndServing('evidence', evidenceMigrations, (env) => {
        const config = readEvidenceConfig({ ...env, AUDIT_CHECKPOINT_EVERY: '1', AUDIT_CHECKPOINT_INTERVAL_MS: '100' });
        return runService(evidenceService(config), config);
      });
    }, 60000);
    afterAll(() => kit?.stop());

    it('records a change in the audit log, signs a checkpoint and verifies the chain on the runtime role', async () => {
      const writer = await bearer('evidence:write', 'ann-writer');
      const examiner = await bearer('audit:read', 'ed-examiner');
      await request(kit.running.url)
        .post('/api/evidence/controls')
        .set('Authorization', writer)
        .send({
          key: uniqueName('AC')
            .replace(/[^A-Za-z0-9._:-]/g, '')
            .slice(-30),
          title: 'Access reviews',
        })
        .expect(201);
      await eventually(async () => Number((await kit.runtime('audit_checkpoints').count({ n: '*' }))[0].n) > 0);
      const verify = await request(kit.running.url).get('/api/evidence/audit/verify').set('Authorization', examiner).expect(200);
      expect(verify.body).toMatchObject({ valid: true, first_invalid: null });
      expect(verify.body.checkpoint).not.toBeNull();
    });

    it('refuses the runtime role UPDATE, DELETE, TRUNCATE, ALTER TABLE and trigger control on every append-only table', async () => {
      const tables = await appendOnlyTables(kit.owner);
      expect(tables).toEqual(
        expect.arrayContaining([
          'audit_log',
          'audit_checkpoints',
          'evidence_controls',
          'evidence_control_versions',
          'evidence_items',
          'evidence_binders',
        ]),
      );
      for (const table of tables) await expectRewritesRefused(kit.runtime, table);
    });
  });
});
