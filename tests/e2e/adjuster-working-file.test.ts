import type { Browser, Page } from 'playwright-core';
import { expectNoSeriousAccessibilityViolations } from '@platform/testing';
import { ownPolicyFnol, reportLoss } from './fnol';
import { JOURNEY_MODES, screenshotPath, type JourneyMode, type JourneyPlatform } from './journey-platform';
import { signInThroughProvider, startPlatformWithProvider } from './oidc-provider-process';

const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 375, height: 812 };
const responseTo = (page: Page, method: string, path: RegExp) =>
  page.waitForResponse((response) => response.request().method() === method && path.test(new URL(response.url()).pathname));

describe.each(JOURNEY_MODES)(
  "the adjuster's working file in Chromium, through the gateway, signing in with a real OpenID provider, %s",
  (_shape: string, mode: JourneyMode) => {
    let stack: JourneyPlatform;
    let browser: Browser;
    let platform: Awaited<ReturnType<typeof startPlatformWithProvider>> | undefined;

    beforeAll(async () => {
      platform = await startPlatformWithProvider(mode);
      ({ stack, browser } = platform);
    }, 180000);
    afterAll(async () => {
      await platform?.stop();
    });

    it('an adjuster (claims:write, limit 5000 by the default PAYMENT_AUTHORITY_LIMITS) sets a reserve by keyboard, notes and diarises the claim, requests a payment above their limit and sees it wait; a lead (claims:decide, limit 50000) approves it from the approval queue only with a rationale; the claimant sees the payment in the portal, and no reserve', async () => {
      const gateway = stack.gatewayUrl;
      const memo = `Repair settlement ${Date.now()}`;
      const {
        claim_id: claimId,
        claim_number: claimNumber,
        access_token: claimantToken,
      } = await reportLoss(
        gateway,
        ownPolicyFnol({ claimant: { name: 'Ines Navarro', email: `ines.${Date.now()}@example.com`, phone: '+14155550123' } }),
      );

      const adjuster = await (await browser.newContext({ viewport: DESKTOP })).newPage();
      await adjuster.goto(`${gateway}/workbench/claims/${claimId}`);
      await signInThroughProvider(adjuster, 'adjuster-ana');
      await adjuster.getByRole('heading', { level: 1, name: `Claim ${claimNumber}` }).waitFor();
      const financials = adjuster.getByRole('region', { name: 'Financials' });
      await financials.getByText('Your authority limit: 5000.00 USD').waitFor();

      // The reserve, keyboard only: into the amount, type, Tab to the reason, type, Enter submits.
      await financials.getByLabel('Open reserve (USD)').focus();
      await adjuster.keyboard.type('12000.00');
      await adjuster.keyboard.press('Tab');
      await adjuster.keyboard.type('Repair estimate received');
      const reserved = responseTo(adjuster, 'POST', /\/reserves$/);
      await adjuster.keyboard.press('Enter');
      expect((await reserved).status()).toBe(201);
      await financials.getByRole('status').filter({ hasText: 'Reserve set.' }).waitFor();
      const reserveRow = financials.getByRole('row', { name: /^Reserve/ });
      await reserveRow.getByRole('cell').first().filter({ hasText: '12000.00 USD' }).waitFor();
      await adjuster.screenshot({ path: screenshotPath(mode, 'working-file-reserve.png'), fullPage: true });
      await expectNoSeriousAccessibilityViolations(adjuster);

      // A note and an activity due today on the claim.
      await adjuster.getByLabel('Note', { exact: true }).fill('Called the body shop: estimate at https://shop.example/est/77');
      await adjuster.getByRole('button', { name: 'Add note' }).click();
      await adjuster.getByTestId('note').getByRole('link', { name: 'https://shop.example/est/77' }).waitFor();
      await adjuster.getByLabel('Subject').fill('Chase the repair invoice');
      await adjuster.getByRole('button', { name: 'Add activity' }).click();
      await adjuster.getByTestId('activity').filter({ hasText: 'Chase the repair invoice' }).waitFor();

      // A payment above the adjuster's limit: the form says so before sending, and the payment waits.
      const paymentForm = adjuster.getByRole('form', { name: 'Request a payment' });
      await paymentForm.getByLabel('Amount (USD)').fill('7500.00');
      await paymentForm.getByText('Above your limit: someone with a higher limit must approve.').waitFor();
      await paymentForm.getByLabel('Payee', { exact: true }).fill('Ines Navarro');
      await paymentForm.getByLabel('Memo').fill(memo);
      const requested = responseTo(adjuster, 'POST', /\/payments$/);
      await paymentForm.getByRole('button', { name: 'Request payment' }).click();
      const payment = await requested;
      expect(payment.status()).toBe(201);
      expect((await payment.json()).status).toBe('awaiting_approval');
      await adjuster
        .getByTestId('payment-state')
        .filter({ hasText: 'Awaiting approval: above your limit of 5000.00 USD, someone with a higher limit must approve' })
        .waitFor();
      await financials
        .getByRole('row', { name: /^Awaiting approval/ })
        .getByRole('cell')
        .first()
        .filter({ hasText: '7500.00 USD' })
        .waitFor();
      await adjuster.screenshot({ path: screenshotPath(mode, 'working-file-payment-waiting.png'), fullPage: true });
      await expectNoSeriousAccessibilityViolations(adjuster);

      // My diary, from the navigation: the activity is due today; complete it from the list.
      await adjuster.getByRole('navigation', { name: 'Workbench' }).getByRole('link', { name: 'My diary' }).click();
      await adjuster.getByRole('heading', { level: 1, name: 'My diary' }).waitFor();
      const dueToday = adjuster
        .getByRole('list', { name: 'Due today' })
        .getByTestId('activity')
        .filter({ hasText: 'Chase the repair invoice' });
      await dueToday.waitFor();
      await adjuster.screenshot({ path: screenshotPath(mode, 'working-file-diary.png'), fullPage: true });
      await expectNoSeriousAccessibilityViolations(adjuster);
      await dueToday.getByRole('button', { name: 'Complete' }).click();
      await dueToday.waitFor({ state: 'detached' });

      // The requester may not decide their own payment: the queue says why.
      await adjuster.getByRole('link', { name: 'Payment approvals' }).click();
      const ownItem = adjuster.getByTestId('approval').filter({ hasText: memo });
      await ownItem.getByTestId('why-not').waitFor();
      expect(await ownItem.getByRole('button', { name: 'Approve' }).count()).toBe(0);

      // A lead signs in to the approval queue and approves it, but only with a rationale.
      const lead = await (await browser.newContext({ viewport: DESKTOP })).newPage();
      await lead.goto(`${gateway}/workbench/approvals`);
      await signInThroughProvider(lead, 'lead-bo');
      await lead.getByRole('heading', { level: 1, name: 'Payment approvals' }).waitFor();
      const item = lead.getByTestId('approval').filter({ hasText: memo });
      await item.getByText('requested by adjuster-ana (limit 5000.00 USD)').waitFor();
      await item
        .getByTestId('reserve-position')
        .filter({ hasText: 'indemnity reserve 12000.00 USD: paid 0.00 USD, awaiting approval 7500.00 USD, outstanding 4500.00 USD' })
        .waitFor();
      await expectNoSeriousAccessibilityViolations(lead);
      let decisions = 0;
      lead.on('request', (request) => {
        if (request.method() === 'POST' && request.url().endsWith('/decision')) decisions += 1;
      });
      await item.getByRole('button', { name: 'Approve' }).click();
      await item.getByRole('alert').filter({ hasText: 'Give the rationale for your decision.' }).waitFor();
      expect(decisions).toBe(0);
      await lead.screenshot({ path: screenshotPath(mode, 'working-file-approval-refused.png'), fullPage: true });
      await item.getByLabel('Rationale (required)').fill('Matches the body shop invoice');
      const decided = responseTo(lead, 'POST', /\/decision$/);
      await item.getByRole('button', { name: 'Approve' }).click();
      expect((await decided).status()).toBe(200);
      await item.waitFor({ state: 'detached' });
      await lead.screenshot({ path: screenshotPath(mode, 'working-file-approved.png'), fullPage: true });
      await expectNoSeriousAccessibilityViolations(lead);

      await adjuster.goto(`${gateway}/workbench/claims/${claimId}`);
      await adjuster.getByTestId('payment-state').filter({ hasText: 'Approved by lead-bo: Matches the body shop invoice' }).waitFor();
      await financials.getByRole('row', { name: /^Paid/ }).getByRole('cell').first().filter({ hasText: '7500.00 USD' }).waitFor();

      // The claimant, on a phone, sees what was paid to them and never a reserve.
      const claimant = await (await browser.newContext({ viewport: PHONE })).newPage();
      await claimant.goto(`${gateway}/portal/claims/${claimId}#token=${claimantToken}`);
      await claimant.getByRole('heading', { level: 1, name: `Claim ${claimNumber}` }).waitFor();
      const paid = claimant.getByTestId('payment-to-you');
      await paid.filter({ hasText: '$7,500.00' }).filter({ hasText: 'by bank transfer' }).waitFor();
      expect(await paid.textContent()).toContain(new Date().getUTCFullYear().toString());
      expect(await claimant.locator('main').textContent()).not.toMatch(/reserve/i);
      expect(await claimant.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
      await claimant.screenshot({ path: screenshotPath(mode, 'working-file-portal-payment.png'), fullPage: true });
      await expectNoSeriousAccessibilityViolations(claimant);
    }, 240000);
  },
);
