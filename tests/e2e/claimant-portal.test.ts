import type { Browser } from 'playwright-core';
import request from 'supertest';
import { bearer, eventually, expectNoSeriousAccessibilityViolations, launchChromium, PHONE_VIEWPORT } from '@platform/testing';
import { startSmtpTestServer } from '../../services/claims/src/testing/smtp-test-server';
import { ensureWebBuilt } from '../../scripts/web-build';
import { fnolBody } from './fnol';
import { sendTwoDocumentsThroughPortal } from './portal-steps';
import { JOURNEY_MODES, screenshotPath, startJourneyPlatform, type JourneyMode, type JourneyPlatform } from './journey-platform';

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
        fnolBody({
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
    await request(gateway)
      .post(`/api/claims/claims/${claimId}/status-updates`)
      .set('Authorization', adjuster)
      .send({
        channel: 'portal',
        stage: 'triage',
        what_happened: 'Your photos and estimate are with our reviewer.',
        what_happens_next: 'We decide who handles your claim.',
        what_we_need_from_you: 'The police report number.',
        expected_next_update_by: '2099-01-15',
        cta: { label: 'Send the police report', url: `https://portal.example${portalPath}` },
        contact: { phone: '+14155550111', email: 'sam@insurer.example' },
        portal_url: `https://portal.example${portalPath}`,
        language: 'en',
      })
      .expect(201);
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
});
