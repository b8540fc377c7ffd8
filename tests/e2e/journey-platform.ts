import path from 'node:path';
import type { Page } from 'playwright-core';
import { startStack, TEST_JWT_SECRET } from '@platform/testing';
import { startPlatform } from './platform-process';

/**
 * The two shapes every journey runs on: the README's default start (`pnpm start`: one process, embedded
 * PGlite, the in-process bus) — what a newcomer judges the platform by — and the deployed shape (gateway,
 * claims and evidence processes on PostgreSQL and RabbitMQ).
 */
export type JourneyMode = 'embedded' | 'deployed';

export const JOURNEY_MODES: [string, JourneyMode][] = [
  ['on the default start (pnpm start: embedded PGlite, in-process bus)', 'embedded'],
  ['as deployed (three processes, PostgreSQL, RabbitMQ)', 'deployed'],
];

export interface JourneyPlatform {
  mode: JourneyMode;
  /** The gateway, the only address a person uses. */
  gatewayUrl: string;
  claimsUrl: string;
  evidenceUrl: string;
  /** What `pnpm start` printed so far (its log); null as deployed, where each service logs on its own. */
  output: (() => string) | null;
  stop(): Promise<void>;
}

/** The platform in `mode`, with `env` on top of each mode's test defaults (the test secret, no public rate limit). */
export async function startJourneyPlatform(mode: JourneyMode, env: Record<string, string> = {}): Promise<JourneyPlatform> {
  if (mode === 'deployed') {
    const stack = await startStack(env);
    return {
      mode,
      gatewayUrl: stack.gateway.url,
      claimsUrl: stack.claims.url,
      evidenceUrl: stack.evidence.url,
      output: null,
      stop: () => stack.stop(),
    };
  }
  const platform = await startPlatform({ NODE_ENV: 'test', AUTH_JWT_SECRET: TEST_JWT_SECRET, PUBLIC_RATE_LIMIT: '0', ...env });
  return {
    mode,
    gatewayUrl: platform.gatewayUrl,
    claimsUrl: platform.claimsUrl,
    evidenceUrl: platform.evidenceUrl,
    output: platform.output,
    async stop() {
      await platform.stop();
    },
  };
}

const SCREENSHOTS = path.resolve(__dirname, '../../docs/screenshots');

/** Where a journey keeps a screenshot: the README's images come from the deployed run, the embedded run's sit beside them. */
export function screenshotPath(mode: JourneyMode, name: string): string {
  return mode === 'deployed' ? path.join(SCREENSHOTS, name) : path.join(SCREENSHOTS, 'embedded', name);
}

/**
 * Answers the question the claim page asks before a sensitive claim's personal data shows (an injury or a
 * fraud indicator), by keyboard: the purpose goes to the claim's access log with the reader's name.
 */
export async function givePurpose(page: Page, purpose: string): Promise<void> {
  await page.getByRole('heading', { name: 'Why are you opening this claim?' }).waitFor();
  await page.getByLabel('Purpose').focus();
  await page.keyboard.type(purpose);
  await page.keyboard.press('Enter');
}
