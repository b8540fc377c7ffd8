import { execFile } from 'node:child_process';
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { Writable } from 'node:stream';
import { promisify } from 'node:util';
import pino from 'pino';
import request from 'supertest';
import { createMetrics } from './observability';
import { problems } from './problem';
import { createServiceApp, finishApp } from './service-app';

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, '../../..');
const TSX = path.join(ROOT, 'node_modules/.bin/tsx');

/** An app whose logger writes JSON lines into `lines`. */
function appLoggingTo(lines: Record<string, unknown>[], level = 'info') {
  const sink = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  const logger = pino({ level }, sink);
  const app = createServiceApp({ logger, metrics: createMetrics('log-test'), readiness: {} });
  app.get('/hello', (_req, res) => {
    res.json({ hello: 'world' });
  });
  app.get('/busy', () => {
    throw problems.serviceUnavailable('Busy');
  });
  return finishApp(app, logger);
}

const accessLines = (lines: Record<string, unknown>[]) => lines.filter((line) => line.req !== undefined);

describe('access log', () => {
  it('writes one line per request with its request id, method, path without the query, status and milliseconds — no headers', async () => {
    const lines: Record<string, unknown>[] = [];
    await request(appLoggingTo(lines))
      .get('/hello?email=ana@example.com')
      .set('X-Request-Id', 'access-log-test-1')
      .set('Authorization', 'Bearer secret-token')
      .expect(200);
    const [line, ...others] = accessLines(lines);
    expect(others).toEqual([]);
    expect(line).toMatchObject({
      request_id: 'access-log-test-1',
      req: { method: 'GET', path: '/hello' },
      res: { status: 200 },
      msg: 'request completed',
    });
    expect(typeof line.ms).toBe('number');
    expect(JSON.stringify(line)).not.toMatch(/secret-token|ana@example\.com|headers/);
  });

  it('logs a 5xx answer without a made-up error (the error handler logs the real one)', async () => {
    const lines: Record<string, unknown>[] = [];
    const response = await request(appLoggingTo(lines)).get('/busy').expect(503);
    const [line] = accessLines(lines);
    expect(line).toMatchObject({ request_id: response.headers['x-request-id'], res: { status: 503 }, msg: 'request errored' });
    expect(line.err).toBeUndefined();
    expect(lines.filter((entry) => entry.err !== undefined).map((entry) => entry.msg)).toEqual(['Busy']);
  });

  it('still logs a 5xx answer at error level when only warnings are logged, and nothing for a 2xx', async () => {
    const lines: Record<string, unknown>[] = [];
    const app = appLoggingTo(lines, 'warn');
    await request(app).get('/hello').expect(200);
    await request(app).get('/busy').expect(503);
    expect(accessLines(lines)).toEqual([expect.objectContaining({ level: 50, res: { status: 503 }, msg: 'request errored' })]);
  });
});

describe('probes in the access log', () => {
  it('logs health and readiness probes and metric scrapes at debug, so an info log holds none of them', async () => {
    const atInfo: Record<string, unknown>[] = [];
    const info = appLoggingTo(atInfo, 'info');
    for (const path of ['/healthz', '/readyz', '/metrics']) await request(info).get(path).expect(200);
    await request(info).get('/hello').expect(200);
    expect(accessLines(atInfo).map((line) => (line.req as { path: string }).path)).toEqual(['/hello']);

    const atDebug: Record<string, unknown>[] = [];
    const debug = appLoggingTo(atDebug, 'debug');
    for (const path of ['/healthz', '/readyz', '/metrics']) await request(debug).get(path).expect(200);
    expect(accessLines(atDebug).map((line) => [(line.req as { path: string }).path, line.level])).toEqual([
      ['/healthz', 20],
      ['/readyz', 20],
      ['/metrics', 20],
    ]);
  });
});

describe('build_info', () => {
  it('names the version, commit and Node.js version of what runs', async () => {
    const saved = { version: process.env.BUILD_VERSION, commit: process.env.BUILD_COMMIT };
    process.env.BUILD_VERSION = '1.4.0';
    process.env.BUILD_COMMIT = 'abc1234';
    try {
      const app = createServiceApp({ logger: pino({ level: 'silent' }), metrics: createMetrics('build-test'), readiness: {} });
      const text = (await request(app).get('/metrics').expect(200)).text;
      expect(text).toContain(`build_info{version="1.4.0",commit="abc1234",node="${process.versions.node}",service="build-test"} 1`);
    } finally {
      for (const [name, value] of [
        ['BUILD_VERSION', saved.version],
        ['BUILD_COMMIT', saved.commit],
      ] as const)
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
    }
  });
});

describe('request metrics and the access log together', () => {
  it('count each finished response once, and log but do not count a request whose client went away', async () => {
    const lines: Record<string, unknown>[] = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
        done();
      },
    });
    const logger = pino({ level: 'debug' }, sink);
    const metrics = createMetrics('observe-test');
    const app = createServiceApp({ logger, metrics, readiness: {} });
    app.get('/never', () => undefined);
    const server = finishApp(app, logger).listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const port = (server.address() as AddressInfo).port;
      await request(server).get('/healthz').expect(200);
      await request(server).get('/healthz').expect(200);
      const abandoned = http.get({ port, host: '127.0.0.1', path: '/never' });
      abandoned.on('error', () => undefined);
      while (!lines.some((line) => (line.req as { path?: string } | undefined)?.path === '/never')) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        if (abandoned.writableFinished && !abandoned.destroyed) abandoned.destroy();
      }
      const text = await metrics.metrics();
      expect(text).toMatch(/^http_requests_total\{method="GET",route="\/healthz",status="200",service="observe-test"\} 2$/m);
      expect(text).toMatch(
        /^http_request_duration_seconds_count\{service="observe-test",method="GET",route="\/healthz",status="200"\} 2$/m,
      );
      expect(text).not.toContain('/never');
      expect(accessLines(lines).map((line) => (line.req as { path: string }).path)).toEqual(['/healthz', '/healthz', '/never']);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});

describe('createLogger output', () => {
  const script = `require(${JSON.stringify(path.join(__dirname, 'observability'))}).createLogger('probe').info({ claim: 7 }, 'hello')`;
  const env = (nodeEnv: string | undefined) => ({
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    LOG_LEVEL: 'info',
    ...(nodeEnv ? { NODE_ENV: nodeEnv } : {}),
  });
  /** Runs the script with stdout on a pseudo-terminal, as in a developer's shell (util-linux `script`). */
  const onTerminal = async (nodeEnv?: string) =>
    (await run('script', ['-qec', `${TSX} -e "${script.replace(/"/g, '\\"')}"`, '/dev/null'], { cwd: ROOT, env: env(nodeEnv) })).stdout;

  it('is pretty-printed when stdout is a terminal outside production', async () => {
    const output = await onTerminal();
    expect(output).toMatch(/INFO.*\(probe\):.*hello/);
    expect(output).toMatch(/claim.*7/);
    expect(output).not.toContain('{"level"');
  }, 30000);

  it('is JSON when stdout is a terminal in production', async () => {
    const output = await onTerminal('production');
    expect(JSON.parse(output.trim())).toMatchObject({ level: 30, name: 'probe', claim: 7, msg: 'hello' });
  }, 30000);

  it('is JSON when stdout is not a terminal (CI, tests, containers)', async () => {
    const { stdout } = await run(TSX, ['-e', script], { cwd: ROOT, env: env(undefined) });
    expect(JSON.parse(stdout.trim())).toMatchObject({ level: 30, name: 'probe', claim: 7, msg: 'hello' });
  }, 30000);
});
