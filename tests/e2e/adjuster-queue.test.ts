import request from 'supertest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { expectNoSeriousAccessibilityViolations } from '@platform/testing';
import { ownPolicyFnol, reportLoss } from './fnol';
import { JOURNEY_MODES, screenshotPath, type JourneyMode, type JourneyPlatform } from './journey-platform';
import { signInThroughProvider, startPlatformWithProvider } from './oidc-provider-process';

const WIDE = { width: 1440, height: 900 };

describe.each(JOURNEY_MODES)('a lead works the queue at 1440 × 900, %s', (_shape: string, mode: JourneyMode) => {
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

  const shot = (page: Page, step: string) => page.screenshot({ path: screenshotPath(mode, `workbench-queue-${step}.png`), fullPage: true });
  const search = async (page: Page, q: string) => {
    await page.getByLabel('Search claims').fill(q);
    await page.getByRole('button', { name: 'Search', exact: true }).click();
  };
  /** The amounts of the queue's rows as numbers (— is no amount). */
  const amounts = async (page: Page) =>
    (await page.locator('table.queue tbody tr td:nth-child(5)').allTextContents()).map((text) =>
      text === '—' ? -1 : Number(text.replace(/[^0-9.]/g, '')),
    );

  it('sorts and saves a view, finds names with two typos, assigns through the picker, bulk assigns and releases (a closed claim fails on its own), stays signed in in a new tab, retries a failed load, and "/" searches', async () => {
    const gateway = stack.gatewayUrl;
    const tag = Date.now().toString(36).toUpperCase();
    const file = (name: string, amount: string, type: string, i: number) =>
      reportLoss(
        gateway,
        ownPolicyFnol({
          policy_number: `QJ${tag}-${i}`,
          claimant: { name, email: `q${i}.${tag.toLowerCase()}@example.com` },
          loss: { date: '2026-11-20', type, description: 'Filed for the queue journey' },
          estimated_amount: { amount, currency: 'USD' },
        }),
      );
    const smithson = await file('Jonathan Smithson', '1200.00', 'auto_glass', 1);
    const okafor = await file('Chidi Okafor', '18500.00', 'property_fire', 2);
    const third = await file('Lena Marsh', '640.00', 'auto_collision', 3);
    const closed = await file('Tomas Brevik', '3100.00', 'property_water', 4);
    await request(gateway)
      .post(`/api/claims/public/claims/${closed.claim_id}/withdraw`)
      .set('Authorization', `Bearer ${closed.access_token}`)
      .expect(200);

    // An adjuster signs in and opens the queue: the directory of adjusters learns them there.
    const adjusterContext = await browser.newContext({ viewport: WIDE });
    const adjuster = await adjusterContext.newPage();
    await adjuster.goto(`${gateway}/workbench`);
    // the directory learns them from their list request: wait for its answer before closing the page
    const listed = adjuster.waitForResponse(
      (response) => response.request().method() === 'GET' && /\/api\/claims\/claims(\?|$)/.test(response.url()),
    );
    await signInThroughProvider(adjuster, 'adjuster-kofi');
    await adjuster.getByRole('heading', { level: 1, name: 'Work queue' }).waitFor();
    expect((await listed).status()).toBe(200);
    await adjusterContext.close();

    // 1. The lead signs in through the page; the queue has the new columns.
    const context: BrowserContext = await browser.newContext({ viewport: WIDE });
    const lead = await context.newPage();
    await lead.goto(`${gateway}/workbench`);
    await signInThroughProvider(lead, 'lead-lin');
    await lead.getByRole('heading', { level: 1, name: 'Work queue' }).waitFor();
    for (const column of ['Loss type', 'Amount', 'Age', 'Severity'])
      await lead.getByRole('columnheader', { name: new RegExp(`^${column}`) }).waitFor();
    await lead.getByRole('row').filter({ hasText: okafor.claim_number }).getByText('$18,500.00').waitFor();
    await expectNoSeriousAccessibilityViolations(lead);
    await shot(lead, 'columns');

    // 2. Sorted by amount, largest first, by the server; saved as a view; the view's URL reproduces it.
    // the table is aria-busy while the server's sorted page is on its way
    await Promise.all([
      lead.waitForResponse((response) => new URL(response.url()).searchParams.get('sort') === '-estimated_amount'),
      lead.getByRole('button', { name: 'Amount' }).click(),
    ]);
    await lead.waitForURL(/sort=-estimated_amount/);
    await lead.locator('table.queue[aria-busy="false"]').waitFor();
    await lead
      .getByRole('columnheader', { name: /^Amount/ })
      .and(lead.locator('[aria-sort="descending"]'))
      .waitFor();
    const sorted = await amounts(lead);
    expect(sorted).toEqual([...sorted].sort((a, b) => b - a));
    await lead.getByLabel('Save this view as').fill('Largest first');
    await lead.getByRole('button', { name: 'Save view' }).click();
    const viewLink = lead.getByRole('region', { name: 'Saved views' }).getByRole('link', { name: 'Largest first' });
    expect(await viewLink.getAttribute('href')).toBe('/workbench?sort=-estimated_amount');
    const viewUrl = lead.url();
    await lead.goto(`${gateway}/workbench`);
    await lead.getByRole('columnheader', { name: /^Age/ }).and(lead.locator('[aria-sort="descending"]')).waitFor();
    await lead.goto(viewUrl);
    await lead
      .getByRole('columnheader', { name: /^Amount/ })
      .and(lead.locator('[aria-sort="descending"]'))
      .waitFor();
    await lead.locator('table.queue[aria-busy="false"] tbody tr').first().waitFor();
    expect(await amounts(lead)).toEqual(sorted);
    await expectNoSeriousAccessibilityViolations(lead);
    await shot(lead, 'saved-view');

    // 3. Names with two typos.
    await search(lead, 'Jonathon Smithsen');
    await lead.getByRole('row').filter({ hasText: 'Jonathan Smithson' }).getByRole('link', { name: smithson.claim_number }).waitFor();
    await shot(lead, 'search-two-typos');
    await search(lead, 'Okafur');
    const okaforRow = lead.getByRole('row').filter({ hasText: okafor.claim_number });
    await okaforRow.getByText('Chidi Okafor').waitFor();
    await expectNoSeriousAccessibilityViolations(lead);

    // 4. One claim to a named adjuster, chosen from the picker of people the service knows.
    await okaforRow.getByRole('checkbox', { name: `Select ${okafor.claim_number}` }).check();
    await lead.getByLabel('Adjuster', { exact: true }).selectOption('adjuster-kofi');
    await lead.getByRole('button', { name: 'Assign selected' }).click();
    const outcomes = lead.getByRole('list', { name: 'What happened to each claim' });
    await outcomes.getByText(`${okafor.claim_number}: assigned to adjuster-kofi`).waitFor();
    await okaforRow.getByRole('cell', { name: 'adjuster-kofi' }).waitFor();
    await shot(lead, 'assign-picker');

    // 5. Bulk: the run's four claims (found by their policy numbers' shared start); the closed one fails on its own.
    await search(lead, `QJ${tag}`);
    for (const claim of [smithson, okafor, third, closed]) await lead.getByRole('link', { name: claim.claim_number }).waitFor();
    await lead.getByRole('checkbox', { name: 'Select every claim on this page' }).check();
    await lead.getByLabel('Reason (kept on each claim)').fill('Rebalancing the week');
    await lead.getByRole('button', { name: 'Assign selected' }).click();
    for (const claim of [smithson, third]) await outcomes.getByText(`${claim.claim_number}: assigned to adjuster-kofi`).waitFor();
    await outcomes.getByText(`${closed.claim_number}: not changed: The claim is closed`).waitFor();
    // the failed claim stays selected, the others are cleared
    expect(await lead.getByRole('checkbox', { name: `Select ${closed.claim_number}` }).isChecked()).toBe(true);
    expect(await lead.getByRole('checkbox', { name: `Select ${third.claim_number}` }).isChecked()).toBe(false);
    await expectNoSeriousAccessibilityViolations(lead);
    await shot(lead, 'bulk-assign');

    await lead.getByRole('checkbox', { name: 'Select every claim on this page' }).check();
    await lead.getByRole('button', { name: 'Release selected' }).click();
    for (const claim of [smithson, okafor, third]) await outcomes.getByText(`${claim.claim_number}: released`).waitFor();
    await outcomes.getByText(`${closed.claim_number}: not changed: The claim is closed`).waitFor();
    for (const claim of [smithson, okafor, third])
      await lead.getByRole('row').filter({ hasText: claim.claim_number }).getByRole('cell', { name: 'Unassigned' }).waitFor();
    await shot(lead, 'bulk-release');
    // 6. A claim opened in a new tab is still signed in: the token is handed over between tabs, never in the URL.
    const tab = await context.newPage();
    await tab.goto(`${gateway}/workbench/claims/${third.claim_id}`);
    await tab.getByRole('heading', { level: 1, name: `Claim ${third.claim_number}` }).waitFor();
    await tab.getByText('Signed in as lead-lin').waitFor();
    // who and why of each change are on the claim's timeline
    const timeline = tab.getByRole('region', { name: 'Timeline' });
    await timeline.getByText(/claim\.assignee_changed by lead-lin — Assigned to adjuster-kofi: Rebalancing the week/).waitFor();
    await timeline.getByText(/claim\.assignee_changed by lead-lin — Released by adjuster-kofi: Rebalancing the week/).waitFor();
    expect(tab.url()).not.toMatch(/token|ey[A-Za-z0-9_-]{20,}/);
    expect(await tab.evaluate(() => JSON.stringify({ ...localStorage }))).not.toMatch(/ey[A-Za-z0-9_-]{20,}\./);
    // on a wide screen the claim file and the timeline sit side by side (tops level, the timeline right of the file)
    await tab.waitForFunction(() => {
      const box = (id: string) => document.querySelector(`section[aria-labelledby="${id}"]`)!.getBoundingClientRect();
      const [file, timeline] = [box('claim-summary'), box('timeline')];
      return timeline.left >= file.right && Math.abs(timeline.top - file.top) < 40;
    });
    await expectNoSeriousAccessibilityViolations(tab);
    await shot(tab, 'new-tab-claim');

    // 7. "/" from the claim page opens the queue with the search focused.
    await tab.locator('body').press('/');
    await tab.getByRole('heading', { level: 1, name: 'Work queue' }).waitFor();
    await tab.waitForFunction(() => document.activeElement?.id === 'queue-search');
    await shot(tab, 'slash-search');

    // 8. A failed load says what failed and offers to retry; Retry works.
    await lead.route(
      (url) => url.pathname === '/api/claims/claims',
      (route) => route.abort('connectionrefused'),
      { times: 1 },
    );
    await lead.goto(`${gateway}/workbench?ownership=unassigned`);
    const failure = lead.getByRole('alert').filter({ hasText: 'The work queue could not be loaded' });
    await failure.waitFor();
    await expectNoSeriousAccessibilityViolations(lead);
    await shot(lead, 'failed-retry');
    await failure.getByRole('button', { name: 'Retry' }).click();
    await lead.getByRole('link', { name: third.claim_number }).waitFor();
    expect(await failure.count()).toBe(0);
    // and "/" on the queue itself
    await lead.locator('h1').click();
    await lead.keyboard.press('/');
    expect(await lead.evaluate(() => document.activeElement?.id)).toBe('queue-search');

    // 9. Signing out in one tab signs out every tab.
    await tab.getByRole('button', { name: 'Sign out' }).click();
    await lead.getByRole('heading', { name: 'Sign in to the workbench' }).waitFor();
    expect(await lead.evaluate(() => sessionStorage.getItem('workbench-token'))).toBeNull();
    await shot(lead, 'signed-out-everywhere');
    await context.close();
  }, 300000);
});
