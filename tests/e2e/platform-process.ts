import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '@platform/testing';

const ROOT = path.resolve(__dirname, '../..');

export interface PlatformProcess {
  gatewayUrl: string;
  claimsUrl: string;
  evidenceUrl: string;
  readyLine: string;
  output(): string;
  stop(): Promise<number | null>;
}

const START_ATTEMPTS = 3;

/** The `ready:` line `pnpm start` prints, once `output()` holds it; rejects if the process exits first or after `timeoutMs`. */
export function waitForReadyLine(output: () => string, exited: Promise<number | null>, timeoutMs: number): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`platform not ready in ${timeoutMs} ms:\n${output()}`)), timeoutMs);
    const poll = setInterval(() => {
      const line = output()
        .split('\n')
        .find((l) => l.startsWith('ready:'));
      if (line) {
        clearInterval(poll);
        clearTimeout(timer);
        resolve(line);
      }
    }, 100);
    void exited.then((code) => {
      clearInterval(poll);
      clearTimeout(timer);
      reject(new Error(`platform exited with ${code} before it was ready:\n${output()}`));
    });
  });
}

/**
 * Runs `pnpm start`'s entry point as a separate process, as a newcomer would, and waits for its ready line.
 * A port found free can be taken by another test process before the platform binds it: a start that
 * fails with EADDRINUSE is tried again on new ports.
 */
export async function startPlatform(extraEnv: Record<string, string> = {}, timeoutMs = 90000): Promise<PlatformProcess> {
  for (let attempt = 1; ; attempt += 1) {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'platform-'));
    try {
      return await startPlatformIn(dataDir, extraEnv, timeoutMs);
    } catch (error) {
      rmSync(dataDir, { recursive: true, force: true });
      if (attempt >= START_ATTEMPTS || !String(error).includes('EADDRINUSE')) throw error;
    }
  }
}

async function startPlatformIn(dataDir: string, extraEnv: Record<string, string>, timeoutMs: number): Promise<PlatformProcess> {
  const [gatewayPort, claimsPort, evidencePort] = [await freePort(), await freePort(), await freePort()];
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    DATA_DIR: dataDir,
    GATEWAY_PORT: String(gatewayPort),
    CLAIMS_PORT: String(claimsPort),
    EVIDENCE_PORT: String(evidencePort),
    LOG_LEVEL: 'warn',
    ...extraEnv,
  };
  const child: ChildProcess = spawn(path.join(ROOT, 'node_modules/.bin/tsx'), ['scripts/start.ts'], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));

  const readyLine = await waitForReadyLine(() => output, exited, timeoutMs);

  return {
    gatewayUrl: `http://127.0.0.1:${gatewayPort}`,
    claimsUrl: `http://127.0.0.1:${claimsPort}`,
    evidenceUrl: `http://127.0.0.1:${evidencePort}`,
    readyLine,
    output: () => output,
    async stop() {
      child.kill('SIGTERM');
      const code = await exited;
      rmSync(dataDir, { recursive: true, force: true });
      return code;
    },
  };
}
