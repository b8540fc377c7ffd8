import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { expectNoSeriousAccessibilityViolations, freePort, launchChromium } from '@platform/testing';
import { ensureWebBuilt } from '../../scripts/web-build';
import { readZip } from '../../services/evidence/src/features/binders/verifier/zip-reader';
import { JOURNEY_MODES, screenshotPath, startJourneyPlatform, type JourneyMode, type JourneyPlatform } from './journey-platform';
import { RESOURCE, signInThroughProvider, startOpenIdProvider } from './oidc-provider-process';
import { startPlatform } from './platform-process';

const DESKTOP = { width: 1280, height: 900 };
const CSV = 'user,reviewed\nann,yes\nbob,revoked\n';

/**
 * The default start exactly as `pnpm start` runs it (no secret configured, so the development sign-in is on);
 * as deployed, the platform trusts only the test OpenID provider, whose `preparer-*` accounts get
 * evidence:write and `approver-*` accounts evidence:approve audit:read.
 */
async function startDesk(
  mode: JourneyMode,
): Promise<{ gateway: string; signIn(page: Page, who: Person): Promise<void>; stop(): Promise<void> }> {
  if (mode === 'embedded') {
    const platform = await startPlatform({ NODE_ENV: 'test', PUBLIC_RATE_LIMIT: '0' });
    return {
      gateway: platform.gatewayUrl,
      signIn: (page, who) => signInForDevelopment(page, who),
      stop: async () => void (await platform.stop()),
    };
  }
  const providerPort = await freePort();
  const issuer = `http://127.0.0.1:${providerPort}`;
  const stack: JourneyPlatform = await startJourneyPlatform(mode, {
    AUTH_JWKS_URL: `${issuer}/jwks`,
    AUTH_ISSUER: issuer,
    AUTH_AUDIENCE: RESOURCE,
  });
  const provider = await startOpenIdProvider(providerPort, `${stack.gatewayUrl}/workbench/callback`);
  return {
    gateway: stack.gatewayUrl,
    signIn: (page, who) => signInThroughProvider(page, who.login),
    stop: async () => {
      await stack.stop();
      await provider.stop();
    },
  };
}

interface Person {
  login: string;
  scopes: string[];
}

/** The development sign-in on the sign-in page: a user and the scopes the real sign-in would give them. */
async function signInForDevelopment(page: Page, who: Person) {
  await page.getByRole('heading', { name: 'Sign in to the workbench' }).waitFor();
  await expectNoSeriousAccessibilityViolations(page);
  await page.getByLabel('User').fill(who.login);
  for (const box of await page.getByRole('group', { name: 'Scopes' }).getByRole('checkbox').all()) {
    const scope = (await box.getAttribute('value'))!;
    await box.setChecked(who.scopes.includes(scope));
  }
  // audit:read is offered by the development sign-in (the desk's audit page needs it).
  expect(await page.getByRole('checkbox', { name: 'audit:read' }).count()).toBe(1);
  await page.getByRole('button', { name: 'Sign in for development' }).click();
  await page.getByText(`Signed in as ${who.login}`).waitFor();
}

describe.each(JOURNEY_MODES)('examiner desk in Chromium, through the gateway, %s', (_shape: string, mode: JourneyMode) => {
  let desk: Awaited<ReturnType<typeof startDesk>>;
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  const work = mkdtempSync(path.join(tmpdir(), 'examiner-desk-'));

  beforeAll(async () => {
    ensureWebBuilt();
    desk = await startDesk(mode);
    browser = await launchChromium();
  }, 180000);
  afterAll(async () => {
    for (const context of contexts) await context.close();
    await browser?.close();
    await desk?.stop();
    rmSync(work, { recursive: true, force: true });
  });

  async function newPage() {
    const context = await browser.newContext({ viewport: DESKTOP, acceptDownloads: true });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: desk.gateway });
    contexts.push(context);
    return context.newPage();
  }

  /** axe on the page as it is now, and its screenshot as docs/screenshots/desk-<step>.png. */
  async function step(page: Page, name: string) {
    await expectNoSeriousAccessibilityViolations(page);
    await page.screenshot({ path: screenshotPath(mode, `desk-${name}.png`), fullPage: true });
  }

  it('a preparer creates a control and a run in the desk and adds a file, a note and a record that open from the run page; they submit after confirming; another person approves, builds the binder and verifies it offline with the key the page shows; the audit page proves a record in the browser', async () => {
    const suffix = Date.now().toString(36).toUpperCase();
    const key = `AC-${suffix}`;
    const preparer: Person = { login: `preparer-${suffix.toLowerCase()}`, scopes: ['evidence:write'] };
    const approver: Person = { login: `approver-${suffix.toLowerCase()}`, scopes: ['evidence:approve', 'audit:read'] };

    // Sign in through the page (no token put into storage by the test): the desk sends the person to sign in and back.
    const page = await newPage();
    await page.goto(`${desk.gateway}/workbench/examiner/controls`);
    await desk.signIn(page, preparer);
    await page.waitForURL(`${desk.gateway}/workbench/examiner/controls`);

    // The desk's header: the way back to the workbench and sign-out.
    const header = page.getByRole('banner');
    await header.getByRole('link', { name: 'Work queue' }).waitFor();
    await header.getByRole('button', { name: 'Sign out' }).waitFor();

    // Controls: an empty state with a create button; create a control, then a new version of it.
    await page.getByText('No control yet.').waitFor();
    await step(page, 'controls-empty');
    await page.getByRole('button', { name: 'Create a control' }).click();
    await page.getByLabel('Key (unique, e.g. AC-2)').fill(key);
    await page.getByLabel('Title').fill('Quarterly access review');
    await page.getByLabel('Frequency').selectOption('quarterly');
    await page.getByLabel('Evidence required (one per line)').fill('Sign-off by the system owner\nList of leavers');
    await step(page, 'control-create');
    await page.getByRole('button', { name: 'Create control' }).click();
    const controlButton = page.getByRole('button', { name: new RegExp(`^${key} — Quarterly access review \\(version 1, quarterly\\)`) });
    await controlButton.click();
    await page.getByRole('table', { name: `Versions of ${key}` }).waitFor();
    await page.getByRole('form', { name: 'New version' }).getByLabel('Title').fill('Quarterly access review, with leavers');
    await page.getByRole('button', { name: 'Save as a new version' }).click();
    const versions = page.getByRole('table', { name: `Versions of ${key}` });
    await versions.getByRole('row').filter({ hasText: 'Quarterly access review, with leavers' }).waitFor();
    expect(await versions.getByRole('row').count()).toBe(3); // the header and two versions
    await step(page, 'control-versions');

    // Runs: create a run for a period; it opens; the runs list opens it again.
    await page.getByRole('navigation', { name: 'Examiner desk' }).getByRole('link', { name: 'Runs' }).click();
    await page.getByLabel('Control', { exact: true }).selectOption({ label: `${key} — Quarterly access review, with leavers (v2)` });
    await page.getByLabel('Period start').fill('2026-07-01');
    await page.getByLabel('Period end (inclusive)').fill('2026-09-30');
    await step(page, 'run-create');
    await page.getByRole('button', { name: 'Create run' }).click();
    await page.getByRole('heading', { name: `Run of ${key} v2, 2026-07-01 – 2026-09-30` }).waitFor();
    const runUrl = page.url();
    expect(runUrl).toMatch(/\/workbench\/examiner\/runs\/[0-9a-f-]{36}$/);
    await page.getByRole('navigation', { name: 'Examiner desk' }).getByRole('link', { name: 'Runs' }).click();
    await page
      .getByRole('table', { name: 'Runs, newest first' })
      .getByRole('link', { name: `${key} v2` })
      .click();
    await page.waitForURL(runUrl);
    await step(page, 'run-open');

    // Evidence of each kind, added in the page.
    const addEvidence = async (kind: string, title: string, fill: () => Promise<void>) => {
      await page.getByLabel('Kind').selectOption({ label: kind });
      await page.getByLabel(/^Title/).fill(title);
      await fill();
      await page.getByRole('button', { name: 'Add evidence' }).click();
      await page.getByRole('table', { name: 'Evidence' }).getByRole('row').filter({ hasText: title }).waitFor();
    };
    await addEvidence('Note', 'Owner sign-off', () =>
      page.getByLabel('Description (optional)').fill('Every account was reviewed by its owner.'),
    );
    await addEvidence('Record (JSON)', 'Review counts', async () => {
      await page.getByLabel('Record (a JSON object)').fill('{"reviewed": 42, "revoked": 3}');
      await page.getByLabel('Collected at (optional)').fill('2026-10-04T09:00'); // after the period: flagged, still accepted
    });
    await addEvidence('File', 'Leavers list', () =>
      page.getByLabel(/^File \(/).setInputFiles({ name: 'leavers.csv', mimeType: 'text/csv', buffer: Buffer.from(CSV) }),
    );

    // Each opens from the run page: the file downloads (served as an attachment), the note and record show as text.
    const evidence = page.getByRole('table', { name: 'Evidence' });
    await evidence.getByRole('row').filter({ hasText: 'Review counts' }).getByText('Out of period').waitFor();
    expect(await evidence.getByRole('row').filter({ hasText: 'Owner sign-off' }).textContent()).not.toContain('Out of period');
    const [file] = await Promise.all([
      page.waitForEvent('download'),
      evidence.getByRole('button', { name: 'Download leavers.csv' }).click(),
    ]);
    expect(file.suggestedFilename()).toBe('leavers.csv');
    expect(readFileSync((await file.path())!, 'utf8')).toBe(CSV);
    await evidence.getByRole('button', { name: 'Show note “Owner sign-off”' }).click();
    await evidence.locator('pre').filter({ hasText: 'Every account was reviewed by its owner.' }).waitFor();
    await evidence.getByRole('button', { name: 'Show record “Review counts”' }).click();
    const record = JSON.parse((await evidence.locator('pre').filter({ hasText: '"revoked"' }).textContent())!);
    expect(record).toEqual({ reviewed: 42, revoked: 3 });
    await step(page, 'evidence-opened');

    // Submitting asks first, in a modal dialog; cancelling changes nothing.
    await page.getByRole('button', { name: 'Submit for review' }).click();
    const submitDialog = page.getByRole('dialog', { name: 'Submit this run for review?' });
    await submitDialog.waitFor();
    await step(page, 'submit-confirm');
    await submitDialog.getByRole('button', { name: 'Cancel' }).click();
    await submitDialog.waitFor({ state: 'hidden' });
    expect(await page.locator('.badge--open').count()).toBe(1);
    await page.getByRole('button', { name: 'Submit for review' }).click();
    await submitDialog.getByRole('button', { name: 'Submit' }).click();
    await page.locator('.badge--in_review').waitFor();
    // A preparer without evidence:approve reads a sentence, not a scope error.
    await page.getByText('An approver decides this run; your sign-in does not include approving').waitFor();
    expect(await page.getByText(/evidence:approve/).count()).toBe(0);
    await step(page, 'submitted');

    // Another person approves, after confirming.
    const other = await newPage();
    await other.goto(`${desk.gateway}/workbench/examiner`);
    await desk.signIn(other, approver);
    const queue = other.getByRole('table', { name: /Runs in review \(\d+ for you to decide\)/ });
    await queue.getByRole('link', { name: `Review and decide ${key}` }).click();
    await other.waitForURL(runUrl);
    await other.getByRole('radio', { name: 'Approve' }).check();
    await other.getByLabel('Rationale').fill('Owner sign-off covers every account; 3 leavers revoked.');
    await other.getByRole('button', { name: 'Record decision' }).click();
    const approveDialog = other.getByRole('dialog', { name: 'Approve this run?' });
    await approveDialog.waitFor();
    await step(other, 'approve-confirm');
    await approveDialog.getByRole('button', { name: 'Approve' }).click();
    await other.locator('.badge--approved').first().waitFor();
    await other.getByText(new RegExp(`Approved by ${approver.login} on \\d{4}-\\d{2}-\\d{2}`)).waitFor();

    // The approver (evidence:approve, no evidence:write) builds the binder of the run they decided.
    await other.getByRole('button', { name: 'Build a binder' }).click();
    const downloadButton = other.getByRole('button', { name: 'Download final binder' });
    await downloadButton.waitFor();
    const keyBox = other.getByRole('region', { name: 'The key to verify with' });
    /** The value shown beside a copy button of the key box. */
    const copyable = (box: typeof keyBox, button: string) =>
      box.locator('p', { has: other.getByRole('button', { name: button }) }).locator('code');
    const shownKey = (await copyable(keyBox, 'Copy service key').textContent())!;
    expect(shownKey).toMatch(/^\S+\+[0-9a-f]{8}\+[A-Za-z0-9+/=]+$/); // a C2SP verifier key: name+hash+key
    const command = (await copyable(keyBox, 'Copy command').textContent())!;
    await keyBox.getByRole('button', { name: 'Copy command' }).click();
    await keyBox.getByText('Copied.').first().waitFor();
    expect(await other.evaluate(() => navigator.clipboard.readText())).toBe(command);
    await step(other, 'binder');
    const [download] = await Promise.all([other.waitForEvent('download'), downloadButton.click()]);
    const zipName = download.suggestedFilename();
    expect(zipName).toMatch(/^binder-[0-9a-f-]+\.zip$/);
    expect(command.startsWith(`node verify.mjs ${zipName} --service-key ${shownKey}`)).toBe(true);

    // Offline: unpack verify.mjs beside the zip and run the page's command as it reads.
    const dir = mkdtempSync(path.join(work, 'binder-'));
    const zip = readFileSync((await download.path())!);
    writeFileSync(path.join(dir, zipName), zip);
    writeFileSync(path.join(dir, 'verify.mjs'), readZip(zip).get('verify.mjs')!);
    const [node, ...args] = command.split(' ');
    expect(node).toBe('node');
    const verified = spawnSync(process.execPath, args, { cwd: dir, encoding: 'utf8', env: { PATH: process.env.PATH } });
    expect(verified.stdout).toContain('Binder verified.');
    expect(verified.status).toBe(0);
    // Run without arguments, verify.mjs says it needs the pinned key and where to get it.
    const bare = spawnSync(process.execPath, ['verify.mjs'], { cwd: dir, encoding: 'utf8', env: { PATH: process.env.PATH } });
    expect(bare.status).toBe(2);
    expect(bare.stdout).toContain("needs the binder and the service's pinned verifier key");

    // The audit page: the same key, the records filtered on the server, one proven in the browser.
    await other.getByRole('navigation', { name: 'Examiner desk' }).getByRole('link', { name: 'Audit log' }).click();
    const auditKeys = other.getByRole('region', { name: 'The key to verify with' });
    expect(await copyable(auditKeys, 'Copy service key').textContent()).toBe(shownKey);
    await other.getByRole('button', { name: 'Verify the audit log' }).click();
    expect(await other.locator('.verdict').first().textContent()).toMatch(/^Valid: \d+ record\(s\) checked/);
    const runId = runUrl.split('/').pop()!;
    await other.getByLabel('Entity id').fill(runId);
    await other.getByLabel('Actor').fill(approver.login);
    await other.getByRole('button', { name: 'Filter records' }).click();
    const records = other.getByRole('table', { name: 'Audit records, oldest first' });
    await records.getByRole('row').filter({ hasText: 'evidence.run_decided' }).waitFor();
    const actions = await records.locator('tbody tr td:nth-child(2)').allTextContents();
    expect(actions).toContain('evidence.run_decided');
    expect(actions).not.toContain('evidence.run_created'); // the preparer's, filtered out by actor on the server
    await records.getByRole('row').filter({ hasText: 'evidence.run_decided' }).getByRole('button').click();
    await other.getByText(/^Included: checked in this browser/).waitFor({ timeout: 15000 });
    await step(other, 'audit');

    // The runs list filters by status: the run is approved.
    await other.getByRole('navigation', { name: 'Examiner desk' }).getByRole('link', { name: 'Runs' }).click();
    await other.getByLabel('Status').selectOption('approved');
    await other.getByRole('button', { name: 'Filter runs' }).click();
    await other
      .getByRole('table', { name: 'Runs, newest first' })
      .getByRole('link', { name: `${key} v2` })
      .waitFor();
    await expectNoSeriousAccessibilityViolations(other);

    // Signing out from the desk's header ends the session.
    await other.getByRole('banner').getByRole('button', { name: 'Sign out' }).click();
    await other.getByRole('heading', { name: 'Sign in to the workbench' }).waitFor();

    // Someone with none of the desk's scopes (an adjuster) reads a sentence, not a scope error.
    const adjuster = await newPage();
    await adjuster.goto(`${desk.gateway}/workbench/examiner`);
    await desk.signIn(adjuster, { login: `adjuster-${suffix.toLowerCase()}`, scopes: ['claims:read', 'claims:write'] });
    await adjuster.getByText('The examiner desk is for people who prepare evidence, approve runs or examine the audit log').waitFor();
    expect(await adjuster.getByText(/scope/).count()).toBe(0);
    await step(adjuster, 'no-access');
  }, 240000);
});
