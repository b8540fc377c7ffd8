import type { Browser } from 'playwright-core';
import request from 'supertest';
import { bearer, eventually, expectNoSeriousAccessibilityViolations, launchChromium, PHONE_VIEWPORT } from '@platform/testing';
import { startSmtpTestServer } from '../../services/claims/src/testing/smtp-test-server';
import { ensureWebBuilt } from '../../scripts/web-build';
import { ownPolicyFnol } from './fnol';
import { sendDocumentThroughPortal, sendTwoDocumentsThroughPortal } from './portal-steps';
import { JOURNEY_MODES, screenshotPath, startJourneyPlatform, type JourneyMode, type JourneyPlatform } from './journey-platform';

/** The adjuster's portal update that asks the claimant for the police report (what exactly: `need`). */
async function askForThePoliceReport(gateway: string, adjuster: string, claimId: string, portalPath: string, need: string) {
  await request(gateway)
    .post(`/api/claims/claims/${claimId}/status-updates`)
    .set('Authorization', adjuster)
    .send({
      channel: 'portal',
      stage: 'triage',
      what_happened: 'Your photos and estimate are with our reviewer.',
      what_happens_next: 'We decide who handles your claim.',
      what_we_need_from_you: need,
      expected_next_update_by: '2099-01-15',
      cta: { label: 'Send the police report', url: `https://portal.example${portalPath}` },
      contact: { phone: '+14155550111', email: 'sam@insurer.example' },
      portal_url: `https://portal.example${portalPath}`,
      language: 'en',
    })
    .expect(201);
}

describe.each(JOURNEY_MODES)('claimant portal in Chromium, through the gateway, %s', (_shape: string, mode: JourneyMode) => {
  let stack: JourneyPlatform;
  let smtp: Awaited<ReturnType<typeof startSmtpTestServer>>;
  let browser: Browser;

  beforeAll(async () => {
    ensureWebBuilt();
    smtp = await startSmtpTestServer();
    stack = await startJourneyPlatform(mode, { SMTP_URL: smtp.url });
    browser = await launchChromium();
  }, 180000);
  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
    await smtp?.close();
  });

  it('a claimant opens the acknowledgement link, sends two documents, reads an update, loses the link and gets a new one — at 375 px, keyboard-only for a form', async () => {
    const gateway = stack.gatewayUrl;
    const email = `ana.${Date.now()}@example.com`;
    const created = await request(gateway)
      .post('/api/claims/public/claims')
      .send(
        ownPolicyFnol({
          claimant: { name: 'Ana Ruiz', email },
          loss: { date: '2026-11-20', type: 'auto_collision', description: 'Rear-ended at a light' },
        }),
      )
      .expect(201);
    const { claim_id: claimId, claim_number: claimNumber, access_token: token } = created.body;
    const portalPath = new URL(created.body.status.portal_url).pathname;
    expect(portalPath).toBe(`/portal/claims/${claimId}`);

    const context = await browser.newContext({ viewport: PHONE_VIEWPORT });
    const page = await context.newPage();
    await page.goto(`${gateway}${portalPath}#token=${token}`);
    await page.getByRole('heading', { level: 1, name: `Claim ${claimNumber}` }).waitFor();
    expect(page.url()).toBe(`${gateway}${portalPath}`); // the token left the address bar
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE_VIEWPORT.width);
    await expectNoSeriousAccessibilityViolations(page);

    const checklistItem = (type: string) => page.locator('.checklist-item', { hasText: type });
    await expect(checklistItem('photos of damage').textContent()).resolves.toContain('Missing');
    await sendTwoDocumentsThroughPortal(page);
    await expect(checklistItem('police report').textContent()).resolves.toContain('Missing');
    await expectNoSeriousAccessibilityViolations(page);

    // the portal names the contact person from the claim's assignee, not from the StatusUpdate (contact: phone and email)
    const adjuster = await bearer('claims:read claims:write', 'Sam Lee');
    await request(gateway)
      .put(`/api/claims/claims/${claimId}/assignee`)
      .set('Authorization', adjuster)
      .send({ assignee: 'Sam Lee' })
      .expect(200);
    await askForThePoliceReport(gateway, adjuster, claimId, portalPath, 'The police report number.');
    await page.reload();
    const latest = page.getByRole('region', { name: 'Latest update' });
    await latest.getByText('Your photos and estimate are with our reviewer.').waitFor();
    await latest.getByText('Sam Lee').waitFor();
    expect(await page.locator('.timeline-step--current').textContent()).toContain('Review');
    await page.screenshot({ path: screenshotPath(mode, 'portal-phone.png'), fullPage: true });
    await expectNoSeriousAccessibilityViolations(page);

    // The link is lost: a new tab has no token. The claimant asks for a new link with the keyboard only.
    const lost = await (await browser.newContext({ viewport: PHONE_VIEWPORT })).newPage();
    await lost.goto(`${gateway}${portalPath}`);
    await lost.getByRole('heading', { name: 'Lost your link?' }).waitFor();
    await expectNoSeriousAccessibilityViolations(lost);
    await lost.keyboard.press('Tab'); // from the focused page heading into the language switch
    await lost.keyboard.press('Tab');
    expect(await lost.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('claim_number');
    await lost.keyboard.type(claimNumber);
    await lost.keyboard.press('Tab');
    await lost.keyboard.type(email);
    await lost.keyboard.press('Enter');
    await lost.getByRole('status').filter({ hasText: 'a new link is on its way' }).waitFor();

    const mail = await eventually(
      async () => smtp.received.find((message) => message.to.includes(email) && /#token=/.test(message.text)),
      20000,
    );
    const link = mail.text.match(/https?:\/\/\S+\/portal\/claims\/[0-9a-f-]+#token=[A-Za-z0-9_-]+/)![0];
    // The new token is stored once the mail server has accepted the message (a failed send keeps the old
    // link working), a moment after the mail arrives: a person clicking the link never sees the gap, a test does.
    const newToken = new URL(link).hash.slice('#token='.length);
    await eventually(
      async () =>
        (await request(gateway).get(`/api/claims/public/claims/${claimId}/status`).set('Authorization', `Bearer ${newToken}`)).status ===
          200 || undefined,
      10000,
    );
    await lost.goto(`${gateway}${new URL(link).pathname}${new URL(link).hash}`);
    await lost.getByRole('heading', { level: 1, name: `Claim ${claimNumber}` }).waitFor();
    await lost.getByRole('region', { name: 'Latest update' }).getByText('Your photos and estimate are with our reviewer.').waitFor();
    await expectNoSeriousAccessibilityViolations(lost);
    // The first link stopped working when the new one was sent.
    await request(gateway).get(`/api/claims/public/claims/${claimId}/status`).set('Authorization', `Bearer ${token}`).expect(404);
  }, 120000);

  it('a claimant reports a loss in the portal (one claim for a double submit), sends documents, follows an update and withdraws — at 375 px, axe on every page', async () => {
    const gateway = stack.gatewayUrl;
    const context = await browser.newContext({ viewport: PHONE_VIEWPORT });
    const page = await context.newPage();
    const fitsThePhone = async () =>
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE_VIEWPORT.width);

    // Report: from the portal's entry to the form.
    await page.goto(`${gateway}/portal`);
    await page.getByRole('link', { name: 'Report a new loss' }).click();
    await page.getByRole('heading', { level: 1, name: 'Report a loss' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/portal/report');
    await expectNoSeriousAccessibilityViolations(page);

    // Validated in the browser with the API's schema: an empty form and a malformed email are refused without a request.
    const intakeRequests: { key: string | null }[] = [];
    page.on('request', (sent) => {
      if (sent.method() === 'POST' && new URL(sent.url()).pathname === '/api/claims/public/claims')
        intakeRequests.push({ key: sent.headers()['idempotency-key'] ?? null });
    });
    await page.getByRole('button', { name: 'Report the loss' }).click();
    await page.getByRole('alert').filter({ hasText: 'Please check the highlighted fields.' }).waitFor();
    expect(await page.getByLabel('Your full name').getAttribute('aria-invalid')).toBe('true');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('name'); // focus on the first error
    const policyNumber = `POL-${Date.now()}`;
    const email = `rosa.${Date.now()}@example.com`;
    await page.getByLabel('Your full name').fill('Rosa Díaz');
    await page.getByLabel('Policy number').fill(policyNumber);
    await page.getByLabel('What kind of loss?').selectOption('auto_collision');
    await page.getByLabel('What happened?').fill('A van reversed into my parked car.');
    await page.getByLabel('When did it happen?').fill('2026-11-20');
    await page.getByLabel('Where did it happen? (street and number)').fill('12 Calle Mayor');
    await page.getByLabel('Town or city').fill('Madrid');
    await page.getByLabel('Email').fill('rosa@');
    await page.getByRole('button', { name: 'Report the loss' }).click();
    await page.locator('.field-error').filter({ hasText: 'This does not look right.' }).waitFor();
    expect(await page.getByLabel('Email').getAttribute('aria-invalid')).toBe('true');
    expect(intakeRequests).toEqual([]);
    await page.getByLabel('Email').fill(email);
    await fitsThePhone();
    await expectNoSeriousAccessibilityViolations(page);
    await page.screenshot({ path: screenshotPath(mode, 'portal-report.png'), fullPage: true });

    // Double submit: the first answer is lost on the way back (the claim was created), the claimant presses again.
    let firstAnswer: { claim_number: string } | undefined;
    await page.route('**/api/claims/public/claims', async (route) => {
      const response = await route.fetch();
      if (firstAnswer) return route.fulfill({ response });
      firstAnswer = await response.json();
      return route.abort('connectionreset');
    });
    await page.getByRole('button', { name: 'Report the loss' }).click();
    await page.getByRole('alert').filter({ hasText: 'We could not reach us' }).waitFor();
    await page.getByRole('button', { name: 'Report the loss' }).click();
    const heading = page.getByRole('heading', { level: 1, name: /^Claim CLM-/ });
    await heading.waitFor();
    const claimNumber = (await heading.textContent())!.replace('Claim ', '');
    expect(claimNumber).toBe(firstAnswer!.claim_number); // the second submit was answered with the first claim
    expect(intakeRequests).toHaveLength(2);
    expect(intakeRequests[0].key).toMatch(/^[0-9a-f-]{36}$/);
    expect(intakeRequests[1].key).toBe(intakeRequests[0].key);
    const adjuster = await bearer('claims:read claims:write', 'Sam Lee');
    const found = await request(gateway).get('/api/claims/claims').query({ q: policyNumber }).set('Authorization', adjuster).expect(200);
    expect(found.body.items.filter((item: { policy_number: string }) => item.policy_number === policyNumber)).toHaveLength(1);
    const portalPath = new URL(page.url()).pathname;
    const claimId = portalPath.split('/').at(-1)!;
    expect(page.url()).toBe(`${gateway}/portal/claims/${claimId}`); // the token is in no URL
    await fitsThePhone();
    await expectNoSeriousAccessibilityViolations(page);

    // Upload: the photos and the estimate.
    await sendTwoDocumentsThroughPortal(page);
    const checklistItem = (type: string) => page.locator('.checklist-item', { hasText: type });
    await expect(checklistItem('police report').textContent()).resolves.toContain('Missing');
    await page.screenshot({ path: screenshotPath(mode, 'portal-claim.png'), fullPage: true });
    await expectNoSeriousAccessibilityViolations(page);

    // Follow: the adjuster asks for the police report; once it arrives the page stops asking for it.
    await askForThePoliceReport(gateway, adjuster, claimId, portalPath, 'The police report.');
    await page.reload();
    const latest = page.getByRole('region', { name: 'Latest update' });
    await latest.getByText('Your photos and estimate are with our reviewer.').waitFor();
    expect(await latest.getByRole('link', { name: 'Send the police report' }).count()).toBe(1);
    await sendDocumentThroughPortal(page, 'police_report');
    await latest.getByText('Received since: police report. Thank you.').waitFor();
    expect(await latest.getByRole('link', { name: 'Send the police report' }).count()).toBe(0);
    expect(await page.locator('.checklist-item--missing').count()).toBe(0);
    await page.screenshot({ path: screenshotPath(mode, 'portal-followed.png'), fullPage: true });
    await expectNoSeriousAccessibilityViolations(page);

    // Withdraw: the timeline shows the stages actually passed and "Closed — withdrawn"; the page asks for nothing.
    await page.getByRole('button', { name: 'Withdraw claim' }).click();
    await page.getByRole('button', { name: 'Yes, withdraw' }).click();
    await page.locator('.timeline-step--current').filter({ hasText: 'Closed — withdrawn' }).waitFor();
    const status = await request(gateway)
      .get(`/api/claims/public/claims/${claimId}/status`)
      .set('Authorization', `Bearer ${await page.evaluate((id) => sessionStorage.getItem(`claim-access:${id}`), claimId)}`)
      .expect(200);
    expect(status.body).toMatchObject({ stage: 'closed', closing_reason: 'withdrawn', stages_passed: ['intake', 'triage'] });
    expect(await page.locator('.timeline-step').allTextContents()).toEqual([
      'Received (done)',
      'Review (done)',
      'Closed — withdrawn (current step)',
    ]);
    await page.getByText('This claim is closed. We need nothing more from you.').waitFor();
    expect(await page.getByText('Documents we need').count()).toBe(0);
    expect(await page.getByLabel('Choose files').count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Send the police report' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Withdraw claim' }).count()).toBe(0);
    await fitsThePhone();
    await page.screenshot({ path: screenshotPath(mode, 'portal-withdrawn.png'), fullPage: true });
    await expectNoSeriousAccessibilityViolations(page);
    await context.close();
  }, 180000);
});
