import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import request from 'supertest';
import type { Browser, Page } from 'playwright-core';
import { binaryBody, createEvidenceRun, expectNoSeriousAccessibilityViolations } from '@platform/testing';
import { readZip } from '../../services/evidence/src/features/binders/verifier/zip-reader';
import { ownPolicyFnol, reportLoss } from './fnol';
import { JOURNEY_MODES, screenshotPath, type JourneyMode, type JourneyPlatform } from './journey-platform';
import { signInThroughProvider, startPlatformWithProvider } from './oidc-provider-process';

const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 375, height: 812 };
const VERIFY_MJS = path.resolve(__dirname, '../../services/evidence/src/features/binders/verifier/verify.mjs');
const responseTo = (page: Page, method: string, pathname: RegExp) =>
  page.waitForResponse((response) => response.request().method() === method && pathname.test(new URL(response.url()).pathname));

/**
 * An export's zip: its manifest names the claim, SHA256SUMS holds the true sum of every other entry, and the
 * claim file inside holds the claimant's personal data (the copy is of what is held about them).
 */
function expectExportOf(entries: Map<string, Buffer>, claimNumber: string, personal: string[]) {
  expect(entries.get('manifest.json')!.toString('utf8')).toContain(claimNumber);
  const sums = entries.get('SHA256SUMS')!.toString('utf8').trim().split('\n');
  expect(sums.length).toBe(entries.size - 1);
  for (const line of sums) {
    const [, sum, entry] = /^([0-9a-f]{64}) {2}(.+)$/.exec(line)!;
    expect(createHash('sha256').update(entries.get(entry)!).digest('hex')).toBe(sum);
  }
  const claimFile = entries.get(`claims/${claimNumber}/claim.json`)!.toString('utf8');
  for (const value of personal) expect(claimFile).toContain(value);
}

describe.each(JOURNEY_MODES)(
  'the privacy lifecycle in Chromium, through the gateway, signing in with a real OpenID provider, %s',
  (_shape: string, mode: JourneyMode) => {
    let stack: JourneyPlatform;
    let browser: Browser;
    let platform: Awaited<ReturnType<typeof startPlatformWithProvider>> | undefined;
    const work = mkdtempSync(path.join(tmpdir(), 'privacy-lifecycle-'));

    beforeAll(async () => {
      platform = await startPlatformWithProvider(mode);
      ({ stack, browser } = platform);
    }, 180000);
    afterAll(async () => {
      await platform?.stop();
      rmSync(work, { recursive: true, force: true });
    });

    /** A person signed in through the provider in their own browser context, and the access token the sign-in gave them. */
    async function signedIn(login: string, at: string, viewport = DESKTOP) {
      const context = await browser.newContext({ viewport, acceptDownloads: true });
      const page = await context.newPage();
      await page.goto(`${stack.gatewayUrl}${at}`);
      await signInThroughProvider(page, login);
      const token = await page.evaluate(() => sessionStorage.getItem('workbench-token'));
      return { page, authorization: `Bearer ${token}` };
    }

    /** axe on the page as it is now, and its screenshot as docs/screenshots/privacy-<name>.png. */
    async function step(page: Page, name: string) {
      await expectNoSeriousAccessibilityViolations(page);
      await page.screenshot({ path: screenshotPath(mode, `privacy-${name}.png`), fullPage: true });
    }

    it('a claimant downloads a copy of their data from the portal by keyboard and a privacy officer exports it too; the officer is refused erasure while the claim is open; a lead opens the injury claim (asked why) and closes it; the access log shows who read it and why; once retention allows the officer erases the claimant by keyboard; the workbench shows the tombstone, the portal link no longer opens, and the audit log and an earlier binder still verify', async () => {
      const gateway = stack.gatewayUrl;
      const suffix = Date.now().toString(36);
      const name = `Greta Lindqvist ${suffix}`;
      const email = `greta.${suffix}@example.com`;
      const phone = '+14155550142';
      const description = `Rear-ended at a junction; whiplash ${suffix}`;
      // An injury claim: its personal data is sensitive, so the workbench asks why it is opened.
      const {
        claim_id: claimId,
        claim_number: claimNumber,
        access_token: claimantToken,
      } = await reportLoss(
        gateway,
        ownPolicyFnol({
          claimant: { name, email, phone },
          injuries: true,
          preferred_channel: 'portal',
          loss: { date: '2026-11-20', type: 'auto_collision', description },
        }),
      );
      const portalLink = `${gateway}/portal/claims/${claimId}#token=${claimantToken}`;

      // An evidence binder built before the erasure (a preparer collects and builds, an approver decides).
      const preparer = await signedIn(`preparer-${suffix}`, '/workbench/examiner');
      const approver = await signedIn(`approver-${suffix}`, '/workbench/examiner');
      const runId = await createEvidenceRun(gateway, preparer.authorization, {
        control: { key: `PRIV-${suffix}`, title: 'Privacy requests handled' },
        period: { start: '2026-11-01', end: '2026-11-30' },
        notes: [{ title: 'Subject access requests reviewed' }],
        submit: true,
      });
      await request(gateway)
        .post(`/api/evidence/runs/${runId}/decision`)
        .set('Authorization', approver.authorization)
        .send({ decision: 'approved', rationale: 'Complete' })
        .expect(201);
      const binder = await request(gateway)
        .post(`/api/evidence/binders/run/${runId}`)
        .set('Authorization', preparer.authorization)
        .expect(201);
      const binderZip = (
        await request(gateway)
          .get(`/api/evidence/binder-archives/${binder.body.binder_id}`)
          .set('Authorization', approver.authorization)
          .buffer(true)
          .parse(binaryBody)
          .expect(200)
      ).body as Buffer;

      // The claimant, on a phone and by keyboard, asks for a copy of their data and downloads it once it is ready.
      const claimant = await (await browser.newContext({ viewport: PHONE, acceptDownloads: true })).newPage();
      await claimant.goto(portalLink);
      await claimant.getByRole('heading', { level: 1, name: `Claim ${claimNumber}` }).waitFor();
      const dataCopy = claimant.getByRole('region', { name: 'A copy of your data' });
      await dataCopy.getByRole('button', { name: 'Request a copy of my data' }).focus();
      await claimant.keyboard.press('Enter');
      const confirm = claimant.getByRole('dialog');
      await confirm.getByText('We will prepare a copy of all the personal data we hold about you').waitFor();
      await step(claimant, 'portal-confirm');
      const requested = responseTo(claimant, 'POST', /\/exports$/);
      await confirm.getByRole('button', { name: 'Yes, request it' }).focus();
      await claimant.keyboard.press('Enter');
      expect((await requested).status()).toBe(202);
      const download = dataCopy.getByRole('button', { name: 'Download my data' });
      await download.waitFor({ timeout: 60000 });
      await dataCopy.getByTestId('data-copy-status').filter({ hasText: 'Your copy is ready. The download works once.' }).waitFor();
      expect(await claimant.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
      await step(claimant, 'portal-ready');
      await download.focus();
      const [file] = await Promise.all([claimant.waitForEvent('download'), claimant.keyboard.press('Enter')]);
      expectExportOf(readZip(readFileSync((await file.path())!)), claimNumber, [name, email, description]);

      // A privacy officer (privacy:manage from the provider) finds the claimant; erasure is refused while the claim is open.
      const officer = await signedIn(`privacy-${suffix}`, '/workbench/privacy');
      const page = officer.page;
      await page.getByRole('heading', { level: 1, name: 'Privacy' }).waitFor();
      await page.getByLabel('Claim number').fill(claimNumber);
      await page.keyboard.press('Enter');
      const claims = page.getByRole('list', { name: 'Claims of this claimant' });
      await claims.getByRole('link', { name: `Claim ${claimNumber}` }).waitFor();
      await claims.getByTestId('retention').filter({ hasText: 'Open: kept while the claim is open' }).waitFor();
      // The officer exports everything held about the claimant and downloads it (recorded in the access log with why).
      const exporting = page.getByRole('region', { name: 'Export their data' });
      const officerRequested = responseTo(page, 'POST', /\/exports$/);
      await exporting.getByRole('button', { name: 'Request an export' }).click();
      expect((await officerRequested).status()).toBe(202);
      const officerDownload = exporting.getByRole('button', { name: 'Download the export' });
      await officerDownload.waitFor({ timeout: 60000 });
      await exporting.getByTestId('export-status').filter({ hasText: 'The export is ready.' }).waitFor();
      await step(page, 'export-ready');
      const [officerFile] = await Promise.all([page.waitForEvent('download'), officerDownload.click()]);
      expectExportOf(readZip(readFileSync((await officerFile.path())!)), claimNumber, [name, email, description]);

      const erasureForm = page.getByRole('form', { name: 'Erase the claimant' });
      await erasureForm.getByLabel('Reason', { exact: true }).fill('The claimant asked to be forgotten');
      await erasureForm.getByLabel('Legal basis').selectOption('consent_withdrawn');
      await erasureForm.getByRole('button', { name: 'Erase…' }).click();
      const refusedErasure = responseTo(page, 'POST', /\/erasure$/);
      await page.getByRole('dialog', { name: 'Erase this claimant?' }).getByRole('button', { name: 'Erase', exact: true }).click();
      expect((await refusedErasure).status()).toBe(409);
      await page.getByTestId('erasure-refused').filter({ hasText: /open/i }).waitFor();
      await step(page, 'erasure-refused');

      // A lead opens the injury claim: asked why before any personal data leaves the service (the page reads only the
      // claim's flags first); the answer goes with each read of the file.
      const lead = await signedIn(`lead-${suffix}`, '/workbench');
      const leadReads: (string | null)[] = [];
      lead.page.on('request', (sent) => {
        if (sent.method() === 'GET' && new URL(sent.url()).pathname === `/api/claims/claims/${claimId}`)
          leadReads.push(sent.headers()['access-purpose'] ?? null);
      });
      await lead.page.goto(`${gateway}/workbench/claims/${claimId}`);
      await lead.page.getByRole('heading', { name: 'Why are you opening this claim?' }).waitFor();
      expect(await lead.page.locator('main').textContent()).not.toContain(name);
      expect(leadReads).toEqual([]);
      await step(lead.page, 'purpose');
      const purpose = 'Closing a duplicate notice';
      const purposeRead = lead.page.waitForRequest(
        (sent) =>
          sent.method() === 'GET' &&
          new URL(sent.url()).pathname === `/api/claims/claims/${claimId}` &&
          Boolean(sent.headers()['access-purpose']),
      );
      await lead.page.getByLabel('Purpose').focus();
      await lead.page.keyboard.type(purpose);
      await lead.page.keyboard.press('Enter');
      expect((await purposeRead).headers()['access-purpose']).toBe(purpose);
      await lead.page.getByTestId('claimant-contact').filter({ hasText: name }).waitFor();
      expect(await lead.page.getByRole('navigation', { name: 'Workbench' }).getByRole('link', { name: 'Privacy' }).count()).toBe(0);
      await lead.page.getByLabel('Stage').selectOption('closed');
      await lead.page.getByLabel('Closing reason').selectOption('duplicate');
      await lead.page.getByLabel('What happened', { exact: true }).fill('This notice repeats a claim you already made.');
      await lead.page.getByLabel('What happens next', { exact: true }).fill('We handle your loss under the other claim.');
      const closing = responseTo(lead.page, 'POST', /\/closing$/);
      await lead.page.getByRole('button', { name: 'Close the claim' }).click();
      expect((await closing).status()).toBe(201);
      await lead.page.getByRole('status').filter({ hasText: 'Claim closed as duplicate' }).waitFor();
      await lead.page.waitForLoadState('networkidle');

      // The access log: each of the lead's reads of the claim file, all with the purpose they gave, and the privacy
      // page's own reads with its purpose.
      await page.reload();
      await claims.getByTestId('retention').filter({ hasText: 'Kept until' }).waitFor();
      const claimItem = claims.getByTestId('claimant-claim').filter({ has: page.getByRole('link', { name: `Claim ${claimNumber}` }) });
      await claimItem.getByText('Who read its personal data').click();
      const reads = claimItem.getByRole('table', { name: `Reads of claim ${claimNumber}'s personal data, newest first` });
      const readsBy = (who: string, why: string, what = 'claim file') =>
        reads
          .getByTestId('access')
          .filter({ has: page.getByRole('cell', { name: who, exact: true }) })
          .filter({ has: page.getByRole('cell', { name: what, exact: true }) })
          .filter({ has: page.getByRole('cell', { name: why, exact: true }) });
      const withPurpose = leadReads.length;
      expect(withPurpose).toBeGreaterThan(0);
      expect(leadReads.filter((given) => given !== purpose)).toEqual([]);
      await readsBy(`lead-${suffix}`, purpose)
        .nth(withPurpose - 1)
        .waitFor();
      expect(await readsBy(`lead-${suffix}`, purpose).count()).toBe(withPurpose);
      expect(await readsBy(`lead-${suffix}`, 'No purpose given (sensitive claim)').count()).toBe(0);
      expect(
        await reads
          .getByTestId('access')
          .filter({ hasText: `lead-${suffix}` })
          .count(),
      ).toBe(leadReads.length);
      await readsBy(`privacy-${suffix}`, "Privacy officer: handling the claimant's data request").first().waitFor();
      await readsBy(`privacy-${suffix}`, "Privacy officer: handling the claimant's data request", 'export').waitFor();
      await step(page, 'access-log');

      // The officer publishes a retention of 0 days for duplicates, then erases the claimant, by keyboard.
      const policy = page.getByRole('form', { name: 'Publish a new retention policy version' });
      await policy.getByLabel('Duplicate').fill('0');
      await policy.getByLabel('Why this version').fill('Duplicates hold nothing the original claim does not');
      const published = responseTo(page, 'PUT', /\/retention-policy$/);
      await policy.getByRole('button', { name: 'Publish new version' }).click();
      expect((await published).status()).toBe(200);
      await claims.getByTestId('retention').filter({ hasText: 'Retention passed: may be erased' }).waitFor();
      await erasureForm.getByLabel('Reason', { exact: true }).focus();
      await page.keyboard.type('The claimant asked to be forgotten');
      await page.keyboard.press('Tab');
      await erasureForm.getByLabel('Legal basis').selectOption('consent_withdrawn');
      await page.keyboard.press('Tab');
      expect(await erasureForm.getByRole('button', { name: 'Erase…' }).evaluate((button) => button === document.activeElement)).toBe(true);
      await page.keyboard.press('Enter');
      const dialog = page.getByRole('dialog', { name: 'Erase this claimant?' });
      await dialog.getByRole('button', { name: 'Erase', exact: true }).focus();
      const erasure = responseTo(page, 'POST', /\/erasure$/);
      await page.keyboard.press('Enter');
      expect((await erasure).status()).toBe(201);
      await page.getByTestId('claimant-erased').waitFor();
      expect(await page.getByRole('form', { name: 'Erase the claimant' }).count()).toBe(0);
      await step(page, 'erased');

      // The workbench shows the tombstone and no personal data; the claimant's link no longer opens the claim.
      await claims.getByRole('link', { name: `Claim ${claimNumber}` }).click();
      await page.getByTestId('claim-tombstone').filter({ hasText: 'Erased claimant' }).waitFor();
      const claimPage = (await page.locator('main').textContent())!;
      for (const personal of [name, email, phone, description]) expect(claimPage).not.toContain(personal);
      await step(page, 'tombstone');
      const portal = await (await browser.newContext({ viewport: PHONE })).newPage();
      const portalRead = responseTo(portal, 'GET', new RegExp(`/public/claims/${claimId}/status$`));
      await portal.goto(portalLink);
      expect((await portalRead).status()).toBe(404);
      await portal.getByText('This link does not open a claim.').waitFor();
      expect(await portal.locator('main').textContent()).not.toContain(name);
      expect(await portal.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
      await step(portal, 'portal-link-gone');

      // The audit log verifies, and so does the binder built before the erasure, offline against the service's key.
      const verified = await request(gateway).get('/api/evidence/audit/verify').set('Authorization', approver.authorization).expect(200);
      expect(verified.body.valid).toBe(true);
      const serviceKey = (
        await request(gateway).get('/api/evidence/audit/public-key').set('Authorization', approver.authorization).expect(200)
      ).headers['x-audit-verifier-key'];
      writeFileSync(path.join(work, 'binder.zip'), binderZip);
      const offline = spawnSync(process.execPath, [VERIFY_MJS, 'binder.zip', '--service-key', serviceKey], { cwd: work, encoding: 'utf8' });
      expect(offline.stdout).toContain('Binder verified.');
      expect(offline.status).toBe(0);
    }, 300000);
  },
);
