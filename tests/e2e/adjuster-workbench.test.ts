import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { expectNoSeriousAccessibilityViolations, freePort, launchChromium } from '@platform/testing';
import { ensureWebBuilt } from '../../scripts/web-build';
import { fnolBody, reportLoss } from './fnol';
import { JOURNEY_MODES, screenshotPath, startJourneyPlatform, type JourneyMode, type JourneyPlatform } from './journey-platform';

const RESOURCE = 'urn:claims-platform:api';
const DESKTOP = { width: 1280, height: 900 };

/** The OpenID provider of tests/e2e/oidc-test-provider.ts as its own process; resolves once it listens. */
async function startOpenIdProvider(port: number, redirectUri: string): Promise<{ issuer: string; stop(): Promise<void> }> {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'tests/e2e/oidc-test-provider.ts'], {
    cwd: path.resolve(__dirname, '../..'),
    env: { PATH: process.env.PATH, HOME: process.env.HOME, PORT: String(port), REDIRECT_URI: redirectUri, RESOURCE },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const issuer = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the OpenID provider did not start:\n${output}`)), 30000);
    child.stdout!.on('data', (chunk) => {
      output += chunk;
      const ready = /ready (\S+)/.exec(output);
      if (ready) {
        clearTimeout(timer);
        resolve(ready[1]);
      }
    });
    child.stderr!.on('data', (chunk) => (output += chunk));
    child.on('exit', (code) => reject(new Error(`the OpenID provider exited (${code}):\n${output}`)));
  });
  return {
    issuer,
    stop: () =>
      new Promise((resolve) => (child.exitCode !== null ? resolve() : (child.once('exit', () => resolve()), child.kill('SIGTERM')))),
  };
}

/** From a workbench page that asks to sign in, through the provider's login page, back to where it started. */
async function signInThroughProvider(page: Page, login: string) {
  await page.getByRole('heading', { name: 'Sign in to the workbench' }).waitFor();
  await expectNoSeriousAccessibilityViolations(page);
  await page.getByRole('button', { name: 'Sign in with your organisation' }).click();
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill('any password');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  await page.getByText(`Signed in as ${login}`).waitFor();
}

describe.each(JOURNEY_MODES)(
  'adjuster workbench in Chromium, through the gateway, signing in with a real OpenID provider, %s',
  (_shape: string, mode: JourneyMode) => {
    let stack: JourneyPlatform;
    let provider: Awaited<ReturnType<typeof startOpenIdProvider>>;
    let browser: Browser;

    beforeAll(async () => {
      ensureWebBuilt();
      const providerPort = await freePort();
      const issuer = `http://127.0.0.1:${providerPort}`;
      // The platform trusts only the provider's keys (fetched when the first token arrives), for this issuer and audience.
      stack = await startJourneyPlatform(mode, { AUTH_JWKS_URL: `${issuer}/jwks`, AUTH_ISSUER: issuer, AUTH_AUDIENCE: RESOURCE });
      provider = await startOpenIdProvider(providerPort, `${stack.gatewayUrl}/workbench/callback`);
      browser = await launchChromium();
    }, 180000);
    afterAll(async () => {
      await browser?.close();
      await stack?.stop();
      await provider?.stop();
    });

    it('an adjuster signs in, finds a claim by a misspelt name, takes it and runs triage; a lead decides the escalation; the adjuster writes an update whose adequacy rises while typing; the lead closes the claim as a duplicate', async () => {
      const gateway = stack.gatewayUrl;
      const { claim_id: claimId, claim_number: claimNumber } = await reportLoss(
        gateway,
        fnolBody({
          claimant: { name: 'Marguerite Okonkwo', email: `marguerite.${Date.now()}@example.com`, phone: '+14155550123' },
          injuries: true,
        }),
      );

      const adjuster = await (await browser.newContext({ viewport: DESKTOP })).newPage();
      await adjuster.goto(`${gateway}/workbench`);
      await signInThroughProvider(adjuster, 'adjuster-ana');
      await adjuster.getByRole('heading', { level: 1, name: 'Work queue' }).waitFor();
      expect(await adjuster.evaluate(() => sessionStorage.getItem('workbench-token'))).toMatch(/^ey/);

      await adjuster.getByLabel('Search claims').fill('Margerite Okonkwo');
      await adjuster.getByRole('button', { name: 'Search', exact: true }).click();
      const row = adjuster.getByRole('row').filter({ hasText: 'Marguerite Okonkwo' });
      await row.getByRole('link', { name: claimNumber }).waitFor();
      expect(adjuster.url()).toContain('q=Margerite+Okonkwo');
      await adjuster.screenshot({ path: screenshotPath(mode, 'workbench-queue.png') });
      await expectNoSeriousAccessibilityViolations(adjuster);

      await row.getByRole('link', { name: claimNumber }).click();
      await adjuster.getByRole('heading', { level: 1, name: `Claim ${claimNumber}` }).waitFor();
      await adjuster.getByRole('button', { name: 'Take this claim' }).click();
      await adjuster.getByTestId('assignee').filter({ hasText: 'Assigned to you' }).waitFor();
      await adjuster.getByRole('button', { name: 'Run triage' }).click();
      await adjuster.getByTestId('triage-outcome').filter({ hasText: 'waiting for a lead to decide' }).waitFor();
      await adjuster.getByText('injury: The claim reports an injury').waitFor();
      // Only claims:decide sees the decision form; the adjuster sees that it waits.
      await adjuster.getByTestId('escalation-status').filter({ hasText: 'waiting for a lead' }).waitFor();
      expect(await adjuster.getByRole('button', { name: 'Record decision' }).count()).toBe(0);
      await expectNoSeriousAccessibilityViolations(adjuster);

      const lead = await (await browser.newContext({ viewport: DESKTOP })).newPage();
      await lead.goto(`${gateway}/workbench/claims/${claimId}`);
      await signInThroughProvider(lead, 'lead-bo');
      await lead.getByRole('heading', { level: 1, name: `Claim ${claimNumber}` }).waitFor();
      await expectNoSeriousAccessibilityViolations(lead);
      await lead.getByLabel('Decision').selectOption('accept');
      await lead.getByLabel('Rationale').fill('Injury confirmed with the claimant by phone');
      await lead.getByRole('button', { name: 'Record decision' }).click();
      await lead.getByTestId('escalation-decision').filter({ hasText: 'Injury confirmed with the claimant by phone' }).waitFor();

      await adjuster.reload();
      await adjuster.getByTestId('escalation-status').filter({ hasText: 'decided: accept' }).waitFor();
      const score = adjuster.getByTestId('adequacy-score');
      await adjuster
        .getByLabel('What happened', { exact: true })
        .fill('A lead confirmed the injury; your claim goes to our complex-claims team.');
      await adjuster.getByLabel('What happens next', { exact: true }).fill('Your adjuster will call you this week.');
      const before = await score.textContent();
      await adjuster.getByLabel('Contact phone').pressSequentially('+14155550111');
      await adjuster.getByLabel('Contact email').pressSequentially('ana@insurer.example');
      const middle = await score.textContent();
      await adjuster.getByLabel('Next update by').fill('2099-01-15');
      const after = await score.textContent();
      expect([before, middle, after]).toEqual(['17%', '50%', '100%']);
      await adjuster
        .getByRole('region', { name: 'Preview on email' })
        .getByText(/Your adjuster will call you this week/)
        .waitFor();
      await adjuster.getByRole('button', { name: 'Send update' }).click();
      await adjuster.getByRole('status').filter({ hasText: 'Update sent (adequacy 100%)' }).waitFor();
      await adjuster.getByRole('region', { name: 'Deliveries' }).getByText('status update by email').first().waitFor();
      await adjuster.screenshot({ path: screenshotPath(mode, 'workbench-claim.png'), fullPage: true });
      await expectNoSeriousAccessibilityViolations(adjuster);

      // Closing needs claims:decide (CONTRACT §2): the lead closes the claim as a duplicate (`paid` needs a payment, issue 36).
      await lead.reload();
      await lead.getByLabel('Stage').selectOption('closed');
      await lead.getByLabel('Closing reason').selectOption('duplicate');
      await lead.getByLabel('What happened', { exact: true }).fill('This loss is already handled under your earlier claim.');
      await lead.getByLabel('What happens next', { exact: true }).fill('Nothing more: your claim is closed.');
      // closing is its own operation (POST …/closing), not a status update carrying closing fields
      const closing = lead.waitForResponse((response) => response.request().method() === 'POST' && /\/closing$/.test(response.url()));
      await lead.getByRole('button', { name: 'Close the claim' }).click();
      expect((await closing).status()).toBe(201);
      await lead.getByRole('status').filter({ hasText: 'Claim closed as duplicate' }).waitFor();
      await lead.getByTestId('closing-reason').filter({ hasText: 'duplicate' }).waitFor();
      expect(await lead.getByTestId('claim-stage').textContent()).toBe('closed');
      await expectNoSeriousAccessibilityViolations(lead);
    }, 150000);
  },
);
