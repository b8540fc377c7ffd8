import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import net from 'node:net';
import { deleteTopology, startStack, type Stack } from '@platform/testing';

/** A stack started for one scenario, and everything it leaves behind removed afterwards. */
export interface ScenarioStack extends Stack {
  dataDir: string;
  cleanup(): Promise<void>;
}

/** Starts the stack for `scenario`; cleanup() keeps each process's output in .results/logs/ for diagnosis. */
export async function startScenarioStack(scenario: string, overrides: Record<string, string> = {}): Promise<ScenarioStack> {
  const stack = await startStack({ LOG_LEVEL: 'warn', ...overrides });
  return {
    ...stack,
    dataDir: stack.env.DATA_DIR,
    async cleanup() {
      await stack.stop().catch(() => undefined);
      const logs = path.resolve(__dirname, '../.results/logs');
      mkdirSync(logs, { recursive: true });
      for (const process of [stack.gateway, stack.claims, stack.evidence])
        writeFileSync(path.join(logs, `${scenario}.${process.name}.log`), process.output());
      const queue = stack.env.CLAIM_EVENTS_QUEUE;
      await deleteTopology([stack.env.CLAIMS_EXCHANGE, stack.env.EVIDENCE_EXCHANGE], [queue, `${queue}.dlq`]).catch(() => undefined);
      rmSync(stack.env.DATA_DIR, { recursive: true, force: true });
    },
  };
}

/** Resolves once something accepts TCP connections on host:port; throws after `timeoutMs`. */
export async function waitForPort(host: string, port: number, timeoutMs = 60000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, host);
      socket.setTimeout(1000);
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('timeout', () => {
        socket.destroy();
        resolve(false);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    if (Date.now() > deadline) throw new Error(`${host}:${port} did not answer within ${timeoutMs} ms`);
    await sleep(250);
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Polls until `probe` returns a truthy value, bounded in time; throws with `what` when it never does. */
export async function until<T>(
  what: string,
  probe: () => Promise<T | undefined | false | null>,
  timeoutMs: number,
  intervalMs = 250,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value) return value;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > deadline)
      throw new Error(`${what}: not reached within ${timeoutMs} ms${lastError ? ` (last error: ${String(lastError)})` : ''}`);
    await sleep(intervalMs);
  }
}

/** GET /readyz of a process: its status, or the network error code when it does not answer. */
export async function readiness(url: string): Promise<number | string> {
  try {
    const response = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(5000) });
    await response.arrayBuffer();
    return response.status;
  } catch (error) {
    return errorCode(error);
  }
}

export function errorCode(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } })?.cause;
  return cause?.code ?? (error as { name?: string })?.name ?? String(error);
}
