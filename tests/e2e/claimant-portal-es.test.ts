import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import request from 'supertest';
import { eventually, expectNoSeriousAccessibilityViolations, launchChromium, PHONE_VIEWPORT } from '@platform/testing';
import { filesOutside } from '../../bench/harness/web-bundle';
import { ensureWebBuilt } from '../../scripts/web-build';
import { ownPolicyFnol } from './fnol';
import { JOURNEY_MODES, screenshotPath, startJourneyPlatform, type JourneyMode, type JourneyPlatform } from './journey-platform';

// the insurer, configured: its name, colour (rgb(122, 31, 31): 9.9:1 with white) and contact on every page and message
const BRAND = {
  BRAND_NAME: 'Aseguradora Sol',
  BRAND_PRIMARY_COLOR: '#7a1f1f',
  BRAND_CONTACT_PHONE: '+34900123456',
  BRAND_CONTACT_EMAIL: 'siniestros@sol.example',
};
const WEB_DIST = path.resolve(__dirname, '../../web/dist');
const SPANISH_DATE = /\d{1,2} de (enero|febrero|marzo|abril|mayo|junio|julio|agosto|septiembre|octubre|noviembre|diciembre) de \d{4}/;

/** Every /assets/ script a page asks for, from the moment it is watched. */
function scriptsRequested(page: Page): string[] {
  const scripts: string[] = [];
  page.on('request', (sent) => {
    const { pathname } = new URL(sent.url());
    if (pathname.startsWith('/assets/') && pathname.endsWith('.js')) scripts.push(pathname.slice(1));
  });
  return scripts;
}

/** The insurer's name, colour (from /brand.css, no inline style) and contact on the page, and its name in the title. */
async function expectBrand(page: Page, heading: string): Promise<void> {
  const bar = page.locator('.brand-bar');
  await bar.getByText('Aseguradora Sol').waitFor();
  await bar.getByRole('link', { name: '+34 900 123 456' }).waitFor();
  expect(await bar.textContent()).toContain('siniestros@sol.example');
  expect(await bar.evaluate((element) => getComputedStyle(element).backgroundColor)).toBe('rgb(122, 31, 31)');
  await page.waitForFunction((title) => document.title === title, `${heading} · Aseguradora Sol`, { timeout: 5000 });
}

describe.each(JOURNEY_MODES)('claimant portal in Spanish, in Chromium, %s', (_shape: string, mode: JourneyMode) => {
  let stack: JourneyPlatform;
  let browser: Browser;

  beforeAll(async () => {
    ensureWebBuilt();
    // no SMTP_URL or SMS_WEBHOOK_URL: on the default start a new link is handed over in the log
    stack = await startJourneyPlatform(mode, BRAND);
    browser = await launchChromium();
  }, 180000);
  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  it('a claim filed in es reads in Spanish (document types, dates, contact), keeps the language across a reload, and loads only the portal’s code — at 375 px', async () => {
    const gateway = stack.gatewayUrl;
    const phone = '+34600123456';
    const created = await request(gateway)
      .post('/api/claims/public/claims')
      .send(
        ownPolicyFnol({
          language: 'es',
          claimant: { name: 'Lucía Gómez', email: `lucia.${Date.now()}@example.com`, phone },
          loss: { date: '2026-11-20', type: 'auto_collision', description: 'Me golpearon por detrás en un semáforo' },
        }),
      )
      .expect(201);
    const { claim_id: claimId, claim_number: claimNumber, access_token: token } = created.body;
    const portalPath = new URL(created.body.status.portal_url).pathname;

    // a browser in English: the claim's language decides until the claimant chooses
    const context = await browser.newContext({ viewport: PHONE_VIEWPORT, locale: 'en-US' });
    const page = await context.newPage();
    const scripts = scriptsRequested(page);
    await page.goto(`${gateway}${portalPath}#token=${token}`);
    await page.getByRole('heading', { level: 1, name: `Reclamación ${claimNumber}` }).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE_VIEWPORT.width);
    await expectBrand(page, `Reclamación ${claimNumber}`);

    // document types in Spanish, in the checklist and in the upload form
    const checklist = page.locator('.checklist-item', { hasText: 'denuncia policial' });
    await expect(checklist.textContent()).resolves.toContain('Falta');
    await expect(page.locator('.checklist-item', { hasText: 'fotos de los daños' }).count()).resolves.toBe(1);
    await expect(page.getByLabel('¿Qué es?').locator('option', { hasText: 'presupuesto de reparación' }).count()).resolves.toBe(1);
    // the platform's acknowledgement, written in Spanish, with its dates spelled the Spanish way
    const latest = page.getByRole('region', { name: 'Última novedad' });
    await latest.getByText(`Hemos recibido su reclamación ${claimNumber}.`).waitFor();
    const history = page.getByRole('heading', { level: 3, name: /^Enviada el / }).first();
    expect(await history.textContent()).toMatch(SPANISH_DATE);
    expect(await latest.textContent()).toMatch(SPANISH_DATE);
    // nobody is assigned yet: the contact is the claims team, named in Spanish
    await latest.getByText('A quién contactar').waitFor();
    expect(await latest.textContent()).toContain('Equipo de siniestros');
    // with no claims-desk contact configured, the acknowledgement gives the insurer's line (BRAND_CONTACT_*)
    await latest.getByRole('link', { name: '+34 900 123 456' }).waitFor();
    await expectNoSeriousAccessibilityViolations(page);
    await page.screenshot({ path: screenshotPath(mode, 'portal-es-claim.png'), fullPage: true });

    // the portal downloaded the portal's code only: no workbench or examiner desk chunk
    const foreign = filesOutside(WEB_DIST, 'portal');
    expect(foreign.size).toBeGreaterThan(0);
    expect(scripts.length).toBeGreaterThan(0);
    expect(scripts.filter((script) => foreign.has(script))).toEqual([]);

    // the claimant's choice survives a reload: English chosen, then Spanish again (the token stays in the tab's session)
    const languageSwitch = page.getByLabel('Idioma');
    await languageSwitch.selectOption('en');
    await page.getByRole('heading', { level: 1, name: `Claim ${claimNumber}` }).waitFor();
    await page.reload();
    await page.getByRole('heading', { level: 1, name: `Claim ${claimNumber}` }).waitFor();
    await page.getByLabel('Language').selectOption('es');
    await page.reload();
    await page.getByRole('heading', { level: 1, name: `Reclamación ${claimNumber}` }).waitFor();
    await expect(page.locator('.checklist-item', { hasText: 'denuncia policial' }).count()).resolves.toBe(1);
    await expectNoSeriousAccessibilityViolations(page);
    await page.screenshot({ path: screenshotPath(mode, 'portal-es-reloaded.png'), fullPage: true });

    // Lost link, in Spanish: a browser set to Spanish, no token.
    const lostContext = await browser.newContext({ viewport: PHONE_VIEWPORT, locale: 'es-ES' });
    const lost = await lostContext.newPage();
    await lost.goto(`${gateway}${portalPath}`);
    await lost.getByRole('heading', { name: '¿Perdió su enlace?' }).waitFor();
    await expectBrand(lost, 'Su reclamación');
    await expectNoSeriousAccessibilityViolations(lost);
    await lost.getByLabel('Número de reclamación').fill(claimNumber);
    await lost.getByLabel('Correo o teléfono').fill(phone);
    await lost.getByRole('button', { name: 'Enviarme un enlace nuevo' }).click();
    await lost.getByRole('status').filter({ hasText: 'le llegará un enlace nuevo' }).waitFor();
    await lost.screenshot({ path: screenshotPath(mode, 'portal-es-lost-link.png'), fullPage: true });

    if (stack.output) {
      // The default start with no SMTP or SMS provider prints the new link, in the claim's language, in its log.
      const output = stack.output;
      const linkPattern = new RegExp(`https?://[^\\s"\\\\]+/portal/claims/${claimId}#token=[A-Za-z0-9_-]+`);
      const line = await eventually(
        async () =>
          output()
            .split('\n')
            .find((entry) => linkPattern.test(entry)),
        20000,
      );
      expect(line).toContain('Ha pedido un nuevo enlace');
      expect(line).toContain('— Aseguradora Sol · +34900123456 · siniestros@sol.example'); // signed by the insurer
      const link = new URL(linkPattern.exec(line)![0]);
      const newToken = link.hash.slice('#token='.length);
      // stored once the (logged) hand-over is recorded, a moment after the line is printed
      await eventually(
        async () =>
          (await request(gateway).get(`/api/claims/public/claims/${claimId}/status`).set('Authorization', `Bearer ${newToken}`)).status ===
            200 || undefined,
        10000,
      );
      await lost.goto(`${gateway}${link.pathname}${link.hash}`);
      await lost.getByRole('heading', { level: 1, name: `Reclamación ${claimNumber}` }).waitFor();
      await expectNoSeriousAccessibilityViolations(lost);
      await lost.screenshot({ path: screenshotPath(mode, 'portal-es-new-link.png'), fullPage: true });
      // the first link stopped working when the new one was handed over
      await request(gateway).get(`/api/claims/public/claims/${claimId}/status`).set('Authorization', `Bearer ${token}`).expect(404);
    }
    await lostContext.close();
    await context.close();
  }, 120000);
});
