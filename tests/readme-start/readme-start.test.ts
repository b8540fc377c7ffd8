import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { callApi, createEvidenceRun, eventually, fnolBody, launchChromium, PHONE_VIEWPORT } from '@platform/testing';
import { waitForReadyLine } from '../e2e/platform-process';
import { sendTwoDocumentsThroughPortal } from '../e2e/portal-steps';

const ROOT = path.resolve(__dirname, '../..');
const DATA = path.join(ROOT, 'data');
/** A developer's own ./data, kept aside while the test starts from none and put back after it. */
const KEPT_DATA = path.join(ROOT, `data.kept-by-readme-start-${process.pid}`);

/**
 * The README's first command, literally: `npx pnpm start` in the checkout, with nothing but PATH and HOME and
 * a data directory that does not exist yet, on the README's ports. Then what a newcomer does first: report a
 * claim, send a photo and a PDF in the portal (Chromium, phone width), and follow an evidence run to a binder
 * that verifies. Any 5xx anywhere fails it.
 */
describe('the README’s start, as a newcomer runs it', () => {
  let platform: ChildProcess;
  let output = '';
  let readyLine = '';
  let browser: Browser | undefined;
  const serverErrors: string[] = [];
  const gateway = 'http://localhost:8080';

  beforeAll(async () => {
    if (existsSync(DATA)) renameSync(DATA, KEPT_DATA);
    platform = spawn('npx', ['pnpm', 'start'], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, HOME: process.env.HOME },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    platform.stdout!.on('data', (chunk) => (output += chunk));
    platform.stderr!.on('data', (chunk) => (output += chunk));
    const exited = new Promise<number | null>((resolve) => platform.on('exit', resolve));
    readyLine = await waitForReadyLine(() => output, exited, 240000);
    browser = await launchChromium();
  }, 300000);

  afterAll(async () => {
    await browser?.close();
    if (platform?.pid && platform.exitCode === null) {
      const exited = new Promise((resolve) => platform.once('exit', resolve));
      process.kill(-platform.pid, 'SIGTERM');
      await exited;
      // npx can exit before the platform under it has: wait for the whole process group, which may still write to ./data
      const groupGone = async () => {
        try {
          process.kill(-platform.pid!, 0);
          return false;
        } catch {
          return true;
        }
      };
      await eventually(groupGone, 20000, 100);
    }
    platform?.stdout?.destroy();
    platform?.stderr?.destroy();
    rmSync(DATA, { recursive: true, force: true });
    if (existsSync(KEPT_DATA)) renameSync(KEPT_DATA, DATA);
  });

  /** fetch through the gateway, remembering any 5xx. */
  async function api(method: string, route: string, authorization: string, body?: unknown, expected?: number) {
    try {
      return await callApi(gateway, method, route, authorization, body, expected);
    } catch (error) {
      if (/answered 5\d\d/.test(String(error))) serverErrors.push(String(error));
      throw error;
    }
  }

  async function devToken(sub: string, scope: string): Promise<string> {
    const minted = await api('POST', '/workbench/dev-token', '', { sub, scope }, 200);
    return `Bearer ${minted.access_token}`;
  }

  it('prints its ready line naming the gateway, the pages, the embedded databases and the witness', () => {
    expect(readyLine).toContain(`gateway ${gateway}`);
    expect(readyLine).toMatch(/· witness \S+ ·/);
    expect(readyLine).toMatch(/embedded PGlite/);
  });

  it('reports a claim, and the claimant sends a photo and a PDF through the portal in Chromium at phone width', async () => {
    const response = await fetch(`${gateway}/api/claims/public/claims`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Idempotency-Key': randomUUID() },
      body: JSON.stringify(fnolBody()),
    });
    expect(response.status).toBe(201);
    const claim = await response.json();
    const page = await (await browser!.newContext({ viewport: PHONE_VIEWPORT })).newPage();
    page.on('response', (answer) => {
      if (answer.status() >= 500) serverErrors.push(`${answer.status()} ${answer.url()}`);
    });
    await page.goto(`${claim.status.portal_url}#token=${claim.access_token}`);
    await page.getByRole('heading', { level: 1, name: `Claim ${claim.claim_number}` }).waitFor();
    await sendTwoDocumentsThroughPortal(page);
    expect(serverErrors).toEqual([]);
  });

  it('follows an evidence run from its first note to an approved binder that verifies against the service and witness keys', async () => {
    const preparer = await devToken('preparer-pat', 'evidence:write');
    const examiner = await devToken('examiner-eve', 'evidence:approve audit:read');
    const runId = await createEvidenceRun(gateway, preparer, {
      control: { key: 'README-1', title: 'Backups are restored quarterly' },
      period: { start: '2026-07-01', end: '2026-09-30' },
      notes: [{ title: 'Restore test passed', collected_at: '2026-08-12T10:00:00Z' }],
      submit: true,
    });
    await api(
      'POST',
      `/api/evidence/runs/${runId}/decision`,
      examiner,
      { decision: 'approved', rationale: 'Restore evidence is complete' },
      201,
    );
    const binder = await api('POST', `/api/evidence/binders/run/${runId}`, preparer, undefined, 201);
    expect(binder.download_url).toBe(`${gateway}/api/evidence/binder-archives/${binder.binder_id}`);
    const zip = await fetch(binder.download_url, { headers: { authorization: examiner } });
    expect(zip.status).toBe(200);
    const keys = await fetch(`${gateway}/api/evidence/audit/public-key`, { headers: { authorization: examiner } });
    const serviceKey = keys.headers.get('x-audit-verifier-key')!;
    const witnessKey = /· witness (\S+) ·/.exec(readyLine)![1];
    const dir = mkdtempSync(path.join(tmpdir(), 'readme-binder-'));
    try {
      writeFileSync(path.join(dir, 'binder.zip'), Buffer.from(await zip.arrayBuffer()));
      const result = spawnSync(
        process.execPath,
        [
          path.join(ROOT, 'services/evidence/src/features/binders/verifier/verify.mjs'),
          'binder.zip',
          '--service-key',
          serviceKey,
          '--witness-key',
          witnessKey,
        ],
        { cwd: dir, encoding: 'utf8' },
      );
      expect(result.stdout).toContain('Binder verified.');
      expect(result.status).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    expect(serverErrors).toEqual([]);
  });

  it('logged no server error while it ran', () => {
    expect(output).not.toMatch(/"level":50|"statusCode":5\d\d/);
  });
});
