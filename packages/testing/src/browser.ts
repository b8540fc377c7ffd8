/// <reference lib="dom" />
// Browser tests hand functions to page.evaluate(), which run in the page: they need the DOM types.
import AxeBuilder from '@axe-core/playwright';
import { chromium, type Browser, type Page } from 'playwright-core';

/** Debian's Chromium (`apt-get install -y chromium`); Playwright never downloads a browser here. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Flags that keep Chromium off the network it has no business reaching (updates, sync, QUIC) and headless without a GPU. */
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** A fresh Chromium (Playwright gives it an empty user-data-dir of its own). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
}

/** A phone-sized viewport (375 px wide, as the smallest common phones). */
export const PHONE_VIEWPORT = { width: 375, height: 812 };

/** Runs axe on the page as it is now and throws, listing them, when it finds any serious or critical violation. */
export async function expectNoSeriousAccessibilityViolations(page: Page): Promise<void> {
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
  if (serious.length > 0) {
    const lines = serious.map(
      (violation) =>
        `${violation.impact} ${violation.id}: ${violation.help} — ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
    );
    throw new Error(`axe found ${serious.length} serious or critical violation(s) on ${page.url()}:\n${lines.join('\n')}`);
  }
}
