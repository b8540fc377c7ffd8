import { execFile } from 'node:child_process';
import { existsSync, lstatSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import request from 'supertest';
import { createDatabase, pendingMigrations, type Migration } from '@platform/db';
import { messagingMigrations } from '@platform/messaging';
import { BUNDLE_NODE_FLAGS } from '@platform/runtime';
import {
  asRuntimeRole,
  bearer,
  binaryBody,
  createEmptyDatabase,
  createEvidenceRun,
  ensureRuntimeRole,
  eventually,
  startStack,
  testAmqpUrl,
  TEST_JWT_SECRET,
  type Stack,
} from '@platform/testing';
import { claimsMigrations } from '../../services/claims/src/migrations';
import { evidenceMigrations } from '../../services/evidence/src/migrations';
import { readZip } from '../../services/evidence/src/features/binders/verifier/zip-reader';
import {
  buildProduction,
  installedPackages,
  productionProcesses,
  WORKSPACE_PNPM,
  type ProductionProcess,
} from '../../scripts/build-production';
import { auditRecordsOfClaim, reportLoss } from '../e2e/fnol';

const ROOT = path.resolve(__dirname, '../..');
const execFileAsync = promisify(execFile);

/** Bytes of the files under `dir` (links not followed). */
function sizeOf(dir: string): number {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).reduce((total, entry) => {
    const stat = lstatSync(path.join(dir, entry));
    return total + (stat.isFile() ? stat.size : 0);
  }, 0);
}

describe('the production build (scripts/build-production.ts, what deploy/Dockerfile copies into each image), run as the image runs it', () => {
  let outDir: string;
  let built: Record<ProductionProcess, string>;
  let stack: Stack;

  beforeAll(async () => {
    outDir = mkdtempSync(path.join(tmpdir(), 'production-build-'));
    built = await buildProduction(outDir, Object.keys(productionProcesses) as ProductionProcess[], { pnpm: WORKSPACE_PNPM, quiet: true });
    stack = await startStack({}, built);
  }, 240000);
  afterAll(async () => {
    await stack?.stop();
    if (outDir) rmSync(outDir, { recursive: true, force: true });
  });

  it('runs each process from its main.js with the image’s command line, with no workspace TypeScript beside it', () => {
    for (const [name, service] of [
      ['gateway', stack.gateway],
      ['claims', stack.claims],
      ['evidence', stack.evidence],
    ] as const) {
      const args = readFileSync(`/proc/${service.pid()}/cmdline`, 'utf8').split('\0').filter(Boolean);
      expect(args.slice(1)).toEqual([...BUNDLE_NODE_FLAGS, 'main.js']);
      expect(readFileSync(`/proc/${service.pid()}/cwd/main.js`).equals(readFileSync(built[name]))).toBe(true);
      expect(existsSync(path.join(path.dirname(built[name]), 'node_modules', '@platform'))).toBe(false);
    }
  });

  it('holds in each image only the packages its process imports: no database drivers in the gateway, no pino-pretty anywhere', () => {
    // Measured (main.js + node_modules, bytes of the files; packages counted at every depth), before → after the pruning
    // and without pino-pretty: gateway 115 MB / 381 packages → 55 MB / 201, claims 91 MB / 297 → 89 MB / 280,
    // evidence 97 MB / 343 → 96 MB / 326. The bounds leave room for ordinary upgrades, not for a database driver.
    const limitsMb: Record<ProductionProcess, number> = { gateway: 70, claims: 110, evidence: 120 };
    for (const name of Object.keys(productionProcesses) as ProductionProcess[]) {
      const dir = path.dirname(built[name]);
      const packages = installedPackages(path.join(dir, 'node_modules')).map((pkg) => path.relative(path.join(dir, 'node_modules'), pkg));
      expect({ name, pinoPretty: packages.includes('pino-pretty') }).toEqual({ name, pinoPretty: false });
      expect({ name, mb: sizeOf(dir) / 2 ** 20 < limitsMb[name] }).toEqual({ name, mb: true });
      if (name === 'gateway')
        expect(
          packages.filter((pkg) => /^(knex|knex-pglite|pg|amqplib|multer|@electric-sql\/pglite|@aws-sdk\/client-s3)$/.test(pkg)),
        ).toEqual([]);
      else expect(packages).toEqual(expect.arrayContaining(['knex', 'pg', 'amqplib', '@aws-sdk/client-s3']));
    }
  });

  it('serves the claimant portal and its assets (the web build beside the gateway’s bundle)', async () => {
    const page = await request(stack.gateway.url)
      .get('/portal/claims/new')
      .expect(200)
      .expect('Content-Type', /text\/html/);
    const script = /<script[^>]+src="(\/assets\/[^"]+\.js)"/.exec(page.text)?.[1];
    expect(script).toBeDefined();
    const asset = await request(stack.gateway.url).get(script!).buffer(true).parse(binaryBody).expect(200);
    expect(asset.body).toEqual(readFileSync(path.join(ROOT, 'web', 'dist', script!)));
  });

  it('records a claim reported through the gateway in the audit log', async () => {
    const claim = await reportLoss(stack.gateway.url);
    const auditor = await bearer('audit:read', 'examiner');
    const records = await eventually(async () => {
      const found = await auditRecordsOfClaim(stack.gateway.url, auditor, claim.claim_id);
      return found.length > 0 && found;
    }, 15000);
    expect(records.map((record) => record.action)).toContain('claim.created');
  });

  it('builds a binder that carries the offline verifier, byte for byte the committed verify.mjs', async () => {
    const gateway = stack.gateway.url;
    const writer = await bearer('evidence:write', 'preparer-pat');
    const runId = await createEvidenceRun(gateway, writer, {
      control: { key: `PB-${Date.now().toString(36).toUpperCase()}`, title: 'Backups' },
      period: { start: '2026-10-01', end: '2026-10-31' },
      notes: [{ title: 'Restore log' }],
    });
    const binder = await request(gateway).post(`/api/evidence/binders/run/${runId}`).set('Authorization', writer).expect(201);
    const zip = await request(gateway)
      .get(`/api/evidence/binder-archives/${binder.body.binder_id}`)
      .set('Authorization', await bearer('audit:read', 'examiner'))
      .buffer(true)
      .parse(binaryBody)
      .expect(200);
    const entries = readZip(zip.body as Buffer);
    expect(entries.get('verify.mjs')).toEqual(readFileSync(path.join(ROOT, 'services/evidence/src/features/binders/verifier/verify.mjs')));
    expect([...entries.keys()]).toEqual(expect.arrayContaining(['manifest.json', 'audit.jsonl']));
  });

  it.each([
    ['claims', claimsMigrations, 'claims'],
    ['evidence', evidenceMigrations, 'audit_log'],
  ] as const)(
    'migrates an empty %s database with the Kubernetes job’s command (main.js migrate) and grants the runtime role',
    async (name, migrations: Migration[], table) => {
      const database = await createEmptyDatabase(`production_migrate_${name}`);
      await ensureRuntimeRole();
      const owner = createDatabase({ url: database.url, poolMax: 1 });
      const runtime = createDatabase({ url: asRuntimeRole(database.url), poolMax: 1 });
      try {
        // deploy/k8s/base/migrations.yaml: node --enable-source-maps main.js migrate, in the image's directory
        await execFileAsync(process.execPath, ['--enable-source-maps', 'main.js', 'migrate'], {
          cwd: path.dirname(built[name]),
          env: {
            PATH: process.env.PATH,
            NODE_ENV: 'test',
            LOG_LEVEL: 'warn',
            MIGRATION_DATABASE_URL: database.url,
            DATABASE_URL: asRuntimeRole(database.url),
            AMQP_URL: testAmqpUrl(),
            AUTH_JWT_SECRET: TEST_JWT_SECRET,
            DATA_DIR: path.join(outDir, `${name}-data`),
          },
        });
        expect(await pendingMigrations(owner, [...messagingMigrations, ...migrations])).toEqual([]);
        await runtime.raw(`SELECT 1 FROM ${table} LIMIT 1`);
      } finally {
        await Promise.all([owner.destroy(), runtime.destroy()]);
        await database.drop();
      }
    },
    60000,
  );
});
