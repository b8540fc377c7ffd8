import { readFileSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { bearer, createEvidenceRun, expectNoSeriousAccessibilityViolations, launchChromium } from '@platform/testing';
import { ensureWebBuilt } from '../../scripts/web-build';
import { JOURNEY_MODES, screenshotPath, startJourneyPlatform, type JourneyMode, type JourneyPlatform } from './journey-platform';

/** Where the workbench keeps the signed-in person's token (web/src/examiner/session.ts). */
const WORKBENCH_TOKEN_KEY = 'workbench-token';

describe.each(JOURNEY_MODES)('examiner desk in Chromium, through the gateway, %s', (_shape: string, mode: JourneyMode) => {
  let stack: JourneyPlatform;
  let browser: Browser;

  beforeAll(async () => {
    ensureWebBuilt();
    stack = await startJourneyPlatform(mode);
    browser = await launchChromium();
  }, 180000);
  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  /** A run of a new control over Q3 2026, with evidence, submitted for review — all by `sub` through the API. */
  async function preparedRun(sub: string, key: string, notes: { title: string; collected_at: string }[]) {
    return createEvidenceRun(stack.gatewayUrl, await bearer('evidence:write', sub), {
      control: { key, title: `${key} access reviews`, frequency: 'quarterly' },
      period: { start: '2026-07-01', end: '2026-09-30' },
      notes,
      submit: true,
    });
  }

  it('an examiner approves someone else’s run, builds and downloads its binder, and verifies the audit log — axe on every page', async () => {
    const gateway = stack.gatewayUrl;
    const suffix = Date.now().toString(36).toUpperCase();
    const theirs = await preparedRun('preparer-pat', `AC-${suffix}`, [
      { title: 'Q3 access review sign-off', collected_at: '2026-09-30T17:00:00Z' },
      { title: 'Leaver list from October', collected_at: '2026-10-04T09:00:00Z' },
    ]);
    // A run the examiner submitted themself: in review, but never theirs to decide.
    await preparedRun('examiner-eve', `BK-${suffix}`, [{ title: 'Backup restore test', collected_at: '2026-08-12T10:00:00Z' }]);

    const token = (await bearer('evidence:write evidence:approve audit:read', 'examiner-eve')).replace(/^Bearer /, '');
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, acceptDownloads: true });
    await context.addInitScript(([key, value]) => sessionStorage.setItem(key, value), [WORKBENCH_TOKEN_KEY, token] as const);
    const page = await context.newPage();

    await page.goto(`${gateway}/workbench/examiner`);
    const queue = page.getByRole('table', { name: /Runs in review/ });
    const row = (key: string) => queue.getByRole('row').filter({ hasText: key });
    await row(`BK-${suffix}`).getByText('You submitted this, someone else must decide.').waitFor();
    await expectNoSeriousAccessibilityViolations(page);
    await page.screenshot({ path: screenshotPath(mode, 'examiner-desk.png'), fullPage: true });

    await row(`AC-${suffix}`)
      .getByRole('link', { name: `Review and decide AC-${suffix}` })
      .click();
    await page.waitForURL(`${gateway}/workbench/examiner/runs/${theirs}`);
    const evidence = page.getByRole('table', { name: 'Evidence' });
    await evidence.getByRole('row').filter({ hasText: 'Leaver list from October' }).getByText('Out of period').waitFor();
    expect(await evidence.getByRole('row').filter({ hasText: 'Q3 access review sign-off' }).textContent()).not.toContain('Out of period');
    await expectNoSeriousAccessibilityViolations(page);

    await page
      .getByLabel('Rationale')
      .fill('Sign-off covers every account; the October leaver list is outside the period and not relied on.');
    await page.getByRole('button', { name: 'Record decision' }).click();
    await page.locator('.badge--approved').first().waitFor();
    await page.getByText(/Approved by examiner-eve on \d{4}-\d{2}-\d{2}/).waitFor();

    await page.getByRole('button', { name: 'Build a binder' }).click();
    const downloadButton = page.getByRole('button', { name: 'Download final binder' });
    await downloadButton.waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), downloadButton.click()]);
    const zip = readFileSync((await download.path())!);
    expect(zip.subarray(0, 2).toString()).toBe('PK');
    expect(zip.includes(Buffer.from('manifest.json'))).toBe(true);
    expect(download.suggestedFilename()).toMatch(/^binder-[0-9a-f-]+\.zip$/);
    await expectNoSeriousAccessibilityViolations(page);

    await page.getByRole('link', { name: 'Audit log' }).click();
    await page.getByRole('button', { name: 'Verify the audit log' }).click();
    const verdict = page.locator('.verdict');
    await verdict.waitFor();
    expect(await verdict.textContent()).toMatch(/^Valid: \d+ record\(s\) checked/);
    await expectNoSeriousAccessibilityViolations(page);

    await page.getByRole('link', { name: 'Runs' }).click();
    await page.getByLabel('Status').selectOption('approved');
    await page.getByRole('button', { name: 'Filter runs' }).click();
    await page
      .getByRole('table', { name: 'Runs, newest first' })
      .getByRole('link', { name: `AC-${suffix} v1` })
      .waitFor();
    await expectNoSeriousAccessibilityViolations(page);
    await page.getByRole('link', { name: 'Controls' }).click();
    await page.getByRole('button', { name: new RegExp(`^AC-${suffix} — `) }).click();
    await page.getByRole('table', { name: `Versions of AC-${suffix}` }).waitFor();
    await expectNoSeriousAccessibilityViolations(page);
    await context.close();
  }, 120000);
});
