import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { expectNoSeriousAccessibilityViolations, freePort, launchChromium } from '@platform/testing';
import { ensureWebBuilt } from '../../scripts/web-build';
import { startJourneyPlatform, type JourneyMode, type JourneyPlatform } from './journey-platform';

/** The resource (audience) the test provider issues access tokens for. */
export const RESOURCE = 'urn:claims-platform:api';

/** The OpenID provider of tests/e2e/oidc-test-provider.ts as its own process; resolves once it listens. */
export async function startOpenIdProvider(port: number, redirectUri: string): Promise<{ issuer: string; stop(): Promise<void> }> {
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
export async function signInThroughProvider(page: Page, login: string) {
  await page.getByRole('heading', { name: 'Sign in to the workbench' }).waitFor();
  await expectNoSeriousAccessibilityViolations(page);
  await page.getByRole('button', { name: 'Sign in with your organisation' }).click();
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill('any password');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  await page.getByText(`Signed in as ${login}`).waitFor();
}

/**
 * The platform in `mode` trusting only the test OpenID provider (its keys, issuer and audience), the provider
 * redirecting back to the workbench, and Chromium: what a journey that signs in through the page needs.
 */
export async function startPlatformWithProvider(
  mode: JourneyMode,
): Promise<{ stack: JourneyPlatform; browser: Browser; stop(): Promise<void> }> {
  ensureWebBuilt();
  const providerPort = await freePort();
  const issuer = `http://127.0.0.1:${providerPort}`;
  const stack = await startJourneyPlatform(mode, { AUTH_JWKS_URL: `${issuer}/jwks`, AUTH_ISSUER: issuer, AUTH_AUDIENCE: RESOURCE });
  const provider = await startOpenIdProvider(providerPort, `${stack.gatewayUrl}/workbench/callback`).catch(async (error) => {
    await stack.stop();
    throw error;
  });
  const browser = await launchChromium();
  return {
    stack,
    browser,
    async stop() {
      await browser.close();
      await stack.stop();
      await provider.stop();
    },
  };
}
