import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from './processes';

/** The EICAR anti-virus test string: harmless, and what the test signature database detects. */
export const EICAR = 'X5O!P%@AP[4\\PZX54(P^)7CC)7}$EICAR-STANDARD-ANTIVIRUS-TEST-FILE!$H+H*';
/** The name of the test signature (clamd reports unofficial signatures with a `.UNOFFICIAL` suffix). */
export const EICAR_SIGNATURE = 'Platform.Test.EICAR';

function findClamd(): string {
  const candidates = [...(process.env.PATH ?? '').split(path.delimiter), '/usr/sbin', '/usr/local/sbin'].map((dir) =>
    path.join(dir, 'clamd'),
  );
  const found = candidates.find((candidate) => existsSync(candidate));
  if (!found) {
    throw new Error(
      'clamd (ClamAV daemon) is not installed: the virus-scanning tests run a real one. Install it with `apt-get install -y clamav-daemon` (.ci/run does).',
    );
  }
  return found;
}

/** PING → PONG on a fresh connection: clamd has loaded its database and answers. */
function pings(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    let reply = '';
    socket.setTimeout(1000, () => socket.destroy());
    socket.on('connect', () => socket.write('zPING\0'));
    socket.on('data', (chunk) => (reply += chunk.toString()));
    socket.on('error', () => resolve(false));
    socket.on('close', () => resolve(reply.replace(/\0/g, '').trim() === 'PONG'));
  });
}

export interface TestClamd {
  /** tcp://127.0.0.1:<port>, for CLAMD_URL; the same while stopped, so a service can find it down. */
  readonly url: string;
  /** Starts (again) and waits for PING → PONG. */
  start(): Promise<void>;
  /** Stops the daemon (the port then refuses connections); the harness stays usable. */
  stop(): Promise<void>;
  /** Stops and removes the temporary configuration and database. */
  close(): Promise<void>;
}

/**
 * A real clamd on a loopback port with a temporary configuration and a one-line signature database
 * that detects the EICAR string anywhere in a file (no signature download; freshclam never runs).
 */
export async function startTestClamd(): Promise<TestClamd> {
  const clamd = findClamd();
  const port = await freePort();
  const dir = mkdtempSync(path.join(tmpdir(), 'clamd-'));
  const databaseDir = path.join(dir, 'db');
  mkdirSync(databaseDir);
  writeFileSync(path.join(databaseDir, 'platform-test.ndb'), `${EICAR_SIGNATURE}:0:*:${Buffer.from(EICAR).toString('hex')}\n`);
  const configFile = path.join(dir, 'clamd.conf');
  writeFileSync(
    configFile,
    [
      `Foreground yes`,
      `TCPSocket ${port}`,
      `TCPAddr 127.0.0.1`,
      `DatabaseDirectory ${databaseDir}`,
      `StreamMaxLength 64M`,
      `LogTime no`,
      '',
    ].join('\n'),
  );
  let child: ChildProcess | undefined;
  let log = '';

  const harness: TestClamd = {
    url: `tcp://127.0.0.1:${port}`,
    async start() {
      if (child) return;
      const current = spawn(clamd, ['--config-file', configFile], { stdio: ['ignore', 'pipe', 'pipe'] });
      child = current;
      current.stdout!.on('data', (chunk) => (log = (log + chunk).slice(-20000)));
      current.stderr!.on('data', (chunk) => (log = (log + chunk).slice(-20000)));
      const deadline = Date.now() + 30000;
      while (!(await pings(port))) {
        if (current.exitCode !== null) throw new Error(`clamd exited with ${current.exitCode}:\n${log}`);
        if (Date.now() > deadline) throw new Error(`clamd did not answer PING within 30 s:\n${log}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    async stop() {
      const current = child;
      child = undefined;
      if (!current || current.exitCode !== null) return;
      await new Promise((resolve) => {
        current.on('exit', resolve);
        current.kill('SIGTERM');
      });
    },
    async close() {
      await harness.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  await harness.start();
  return harness;
}
