import type { Browser } from 'playwright-core';
import { expectNoSeriousAccessibilityViolations } from '@platform/testing';
import { ownPolicyFnol, reportLoss } from './fnol';
import { givePurpose, JOURNEY_MODES, screenshotPath, type JourneyMode, type JourneyPlatform } from './journey-platform';
import { signInThroughProvider, startPlatformWithProvider } from './oidc-provider-process';

const DESKTOP = { width: 1440, height: 900 };

describe.each(JOURNEY_MODES)(
  'adjuster workbench in Chromium, through the gateway, signing in with a real OpenID provider, %s',
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

    it('an adjuster signs in, finds a claim by a misspelt name, takes it and runs triage; a lead decides the escalation; the adjuster sends an update from the pre-filled composer (refused before sending, then by the server next to its field, then sent); the lead denies with a rationale and reopens into a chosen stage', async () => {
      const gateway = stack.gatewayUrl;
      const { claim_id: claimId, claim_number: claimNumber } = await reportLoss(
        gateway,
        ownPolicyFnol({
          claimant: { name: 'Marguerite Okonkwo', email: `marguerite.${Date.now()}@example.com`, phone: '+14155550123' },
          loss: {
            date: '2026-11-20',
            type: 'auto_collision',
            description: 'Rear-ended at a junction',
            location: { address_line: '12 Harbour Road', city: 'Bristol', country: 'GB' },
          },
          estimated_amount: { amount: '4200.00', currency: 'EUR' },
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

      // A failed load says what failed and offers to retry (the page's first read: whether the claim needs a purpose).
      const claimUrl = `**/api/claims/claims/${claimId}/sensitivity`;
      await adjuster.route(claimUrl, (route) => route.abort('connectionrefused'));
      await row.getByRole('link', { name: claimNumber }).click();
      const failed = adjuster.getByRole('alert').filter({ hasText: 'The claim could not be loaded' });
      await failed.waitFor();
      await adjuster.screenshot({ path: screenshotPath(mode, 'workbench-claim-failed.png') });
      await expectNoSeriousAccessibilityViolations(adjuster);
      await adjuster.unroute(claimUrl);
      await failed.getByRole('button', { name: 'Retry' }).click();
      await adjuster.getByRole('heading', { level: 1, name: `Claim ${claimNumber}` }).waitFor();
      // An injury claim: the page asks why before it shows the claimant's personal data.
      await givePurpose(adjuster, 'Handling the claim');
      expect(await adjuster.getByTestId('first-contact-due').textContent()).not.toBe('Made');
      // The claim file is complete: location, injury, estimated amount, policy and the claimant's contact.
      expect(await adjuster.getByTestId('loss-location').textContent()).toBe('12 Harbour Road, Bristol, GB');
      expect(await adjuster.getByTestId('injury').textContent()).toBe('Yes, someone was injured');
      expect(await adjuster.getByTestId('estimated-amount').textContent()).toBe('4200.00 EUR');
      expect(await adjuster.getByTestId('claim-policy').textContent()).toMatch(/^POL-\d{6}$/);
      expect(await adjuster.getByTestId('claimant-contact').textContent()).toContain('+14155550123');
      await adjuster.getByRole('button', { name: 'Take this claim' }).click();
      await adjuster.getByTestId('assignee').filter({ hasText: 'Assigned to you' }).waitFor();
      // First contact made (a call) from the claim page: the first-contact deadline ends and its badge goes.
      await adjuster.getByLabel('How', { exact: true }).selectOption('call');
      await adjuster.getByLabel('Note (internal)').fill('Explained the next steps; photos to follow');
      await adjuster.getByRole('button', { name: 'Record first contact' }).click();
      await adjuster.getByRole('status').filter({ hasText: 'Phone call recorded' }).waitFor();
      await adjuster.getByTestId('first-contact-due').filter({ hasText: 'Made' }).waitFor();
      await adjuster
        .getByTestId('contacts')
        .getByText(/^Phone call on .+ — Explained the next steps/)
        .waitFor();
      await adjuster.getByRole('button', { name: 'Record a contact' }).waitFor();
      await adjuster.screenshot({ path: screenshotPath(mode, 'workbench-contact.png'), fullPage: true });
      await expectNoSeriousAccessibilityViolations(adjuster);
      await adjuster.getByRole('button', { name: 'Run triage' }).click();
      await adjuster.getByTestId('triage-outcome').filter({ hasText: 'waiting for a lead to decide' }).waitFor();
      await adjuster.getByText('injury: The claim reports an injury').waitFor();
      // "Queue: Not triaged" never shows after triage.
      await adjuster.getByTestId('claim-queue').filter({ hasText: 'Waiting for a lead' }).waitFor();
      // Only claims:decide sees the decision form; the adjuster sees that it waits.
      await adjuster.getByTestId('escalation-status').filter({ hasText: 'waiting for a lead' }).waitFor();
      expect(await adjuster.getByRole('button', { name: 'Record decision' }).count()).toBe(0);
      await adjuster.screenshot({ path: screenshotPath(mode, 'workbench-triage.png'), fullPage: true });
      await expectNoSeriousAccessibilityViolations(adjuster);

      const lead = await (await browser.newContext({ viewport: DESKTOP })).newPage();
      await lead.goto(`${gateway}/workbench/claims/${claimId}`);
      await signInThroughProvider(lead, 'lead-bo');
      await lead.getByRole('heading', { level: 1, name: `Claim ${claimNumber}` }).waitFor();
      await givePurpose(lead, 'Deciding the escalation');
      await expectNoSeriousAccessibilityViolations(lead);
      await lead.getByLabel('Decision').selectOption('accept');
      await lead.getByLabel('Rationale').fill('Injury confirmed with the claimant by phone');
      await lead.getByRole('button', { name: 'Record decision' }).click();
      await lead.getByTestId('escalation-decision').filter({ hasText: 'Injury confirmed with the claimant by phone' }).waitFor();
      await lead.screenshot({ path: screenshotPath(mode, 'workbench-decided.png'), fullPage: true });

      await adjuster.reload();
      await adjuster.getByTestId('escalation-status').filter({ hasText: 'decided: accept' }).waitFor();
      // The triage text follows the decision, and the queue is the decided one.
      await adjuster.getByTestId('triage-outcome').filter({ hasText: 'decided by lead-bo: accept' }).waitFor();
      expect(await adjuster.getByTestId('claim-queue').textContent()).not.toMatch(/Not triaged|Waiting/);

      // The composer starts from the claim: its language, the stage's template, the platform's own portal link.
      expect(await adjuster.getByLabel('Language').inputValue()).toBe('en');
      expect(await adjuster.getByLabel('What happens next', { exact: true }).inputValue()).not.toBe('');
      // The portal link is the one the platform handed out at intake (http on a development start: the API takes it back).
      const portalLink = new URL(await adjuster.getByLabel('Portal link').inputValue());
      expect(portalLink.pathname).toBe(`/portal/claims/${claimId}`);
      if (mode === 'embedded') expect(portalLink.protocol).toBe('http:');
      // The contact is the one the platform gave the claimant.
      expect(await adjuster.getByLabel('Contact phone').inputValue()).toMatch(/^\+[1-9]\d{6,14}$/);
      expect(await adjuster.getByLabel('Contact email').inputValue()).toContain('@');
      const score = adjuster.getByTestId('adequacy-score');
      // An empty "what happened" is listed as missing.
      await adjuster.getByRole('list', { name: 'Missing from this update' }).getByText('Missing: what happened').waitFor();
      await adjuster
        .getByLabel('What happened', { exact: true })
        .fill('A lead confirmed the injury; your claim goes to our complex-claims team.');
      await adjuster.getByLabel('What happens next', { exact: true }).fill('Your adjuster will call you this week.');
      const scores = [await score.textContent()];
      await adjuster.getByLabel('Next update by').fill('2001-01-15');
      scores.push(await score.textContent());
      // The meter is monotonic: asking something of the customer never lowers it (the call to action counts from the start).
      await adjuster.getByLabel('What we need from the customer').fill('Photos of the damage');
      scores.push(await score.textContent());
      await adjuster.getByLabel('What we need from the customer').fill('');
      await adjuster.getByLabel('Nothing needed from the customer now').check();
      scores.push(await score.textContent());
      // language (1) and contact (2) pre-filled of 8; the next-update date (3); "nothing needed" settles the call to action (2)
      expect(scores).toEqual(['38%', '75%', '75%', '100%']);
      await adjuster
        .getByRole('region', { name: 'Preview on email' })
        .getByText(/Your adjuster will call you this week/)
        .waitFor();

      // Refused before sending: a link the API would refuse (http, not the platform's own); no request leaves.
      let posted = 0;
      adjuster.on('request', (request) => {
        if (request.method() === 'POST' && request.url().endsWith('/status-updates')) posted += 1;
      });
      await adjuster.getByLabel('Call to action label').fill('See the repairers');
      await adjuster.getByLabel('Call to action link').fill('http://repairers.example/list');
      await adjuster.getByRole('button', { name: 'Send update' }).click();
      await adjuster.getByTestId('composer-cta_url-error').filter({ hasText: 'must start with https://' }).waitFor();
      expect(posted).toBe(0);
      await adjuster.getByLabel('Call to action label').fill('');
      await adjuster.getByLabel('Call to action link').fill('');
      // Refused before sending by the API's own schema, precompiled: a phone not in international form.
      const phone = await adjuster.getByLabel('Contact phone').inputValue();
      await adjuster.getByLabel('Contact phone').fill('+44 20 7946');
      await adjuster.getByRole('button', { name: 'Send update' }).click();
      await adjuster.getByTestId('composer-contact_phone-error').filter({ hasText: 'international form' }).waitFor();
      expect(posted).toBe(0);
      await adjuster.getByLabel('Contact phone').fill(phone);

      // Refused by the server (a date in the past): the refusal stands next to the field its pointer names.
      const refused = adjuster.waitForResponse(
        (response) => response.request().method() === 'POST' && /\/status-updates$/.test(response.url()),
      );
      await adjuster.getByRole('button', { name: 'Send update' }).click();
      const refusedResponse = await refused;
      expect(refusedResponse.status()).toBe(400);
      await adjuster.getByTestId('composer-expected_next_update_by-error').filter({ hasText: 'must be today or later' }).waitFor();
      expect(await adjuster.getByLabel('Next update by').getAttribute('aria-invalid')).toBe('true');
      await adjuster.screenshot({ path: screenshotPath(mode, 'workbench-update-refused.png'), fullPage: true });
      await expectNoSeriousAccessibilityViolations(adjuster);

      // With the portal link the platform gave (http on a development start), the update sends.
      await adjuster.getByLabel('Next update by').fill('2099-01-15');
      const sent = adjuster.waitForResponse(
        (response) => response.request().method() === 'POST' && /\/status-updates$/.test(response.url()),
      );
      await adjuster.getByRole('button', { name: 'Send update' }).click();
      expect((await sent).status()).toBe(201);
      await adjuster.getByRole('status').filter({ hasText: 'Update sent (adequacy 100%)' }).waitFor();
      await adjuster.getByRole('region', { name: 'Deliveries' }).getByText('status update by email').first().waitFor();
      await adjuster.screenshot({ path: screenshotPath(mode, 'workbench-claim.png'), fullPage: true });
      await expectNoSeriousAccessibilityViolations(adjuster);

      // Closing as denied needs claims:decide and asks for the rationale the API requires.
      await lead.reload();
      await lead.getByLabel('Stage').selectOption('closed');
      await lead.getByLabel('Closing reason').selectOption('denied');
      await lead.getByLabel('What happened', { exact: true }).fill('Your policy does not cover this loss.');
      await lead.getByLabel('What happens next', { exact: true }).fill('You can ask us to review this decision.');
      await lead.getByRole('button', { name: 'Close the claim' }).click();
      await lead.getByTestId('composer-closing_rationale-error').filter({ hasText: 'A denial needs its rationale' }).waitFor();
      await lead.getByLabel('Rationale (internal; required for a denial)').fill('Driver not named on the policy');
      const closing = lead.waitForResponse((response) => response.request().method() === 'POST' && /\/closing$/.test(response.url()));
      await lead.getByRole('button', { name: 'Close the claim' }).click();
      expect((await closing).status()).toBe(201);
      await lead.getByRole('status').filter({ hasText: 'Claim closed as denied' }).waitFor();
      await lead.getByTestId('closing-reason').filter({ hasText: 'denied — Driver not named on the policy' }).waitFor();
      expect(await lead.getByTestId('claim-stage').textContent()).toBe('closed');
      // The first-contact deadline ends with the claim.
      expect(await lead.getByTestId('first-contact-due').count()).toBe(0);
      await lead.screenshot({ path: screenshotPath(mode, 'workbench-denied.png'), fullPage: true });
      await expectNoSeriousAccessibilityViolations(lead);

      // A lead reopens the closed claim into a chosen stage, with a reason.
      await lead.getByLabel('Reopen into').selectOption('estimate');
      await lead.getByLabel('Reason (told to the claimant)').fill('The named-driver endorsement was found; we look at your claim again.');
      await lead.getByRole('button', { name: 'Reopen the claim' }).click();
      await lead.getByRole('status').filter({ hasText: 'Claim reopened into estimate' }).waitFor();
      await lead.getByTestId('claim-stage').filter({ hasText: 'estimate' }).waitFor();
      // The reopening's reason is stored with it, and the timeline says who reopened it into what, and why.
      await lead
        .getByRole('region', { name: 'Timeline' })
        .getByText('Reopened into estimate by lead-bo: The named-driver endorsement was found; we look at your claim again.')
        .waitFor();
      await lead.screenshot({ path: screenshotPath(mode, 'workbench-reopened.png'), fullPage: true });
      await expectNoSeriousAccessibilityViolations(lead);
    }, 300000);
  },
);
