import { createHash } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import express from 'express';
import { listen, type RunningServer } from '@platform/http';
import { readGatewayConfig } from './config';
import { TEST_JWT_SECRET } from '@platform/testing';

/** What a fake service received: the request exactly as the gateway forwarded it. */
export interface ReceivedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  bodySha256: string;
  bodyLength: number;
}

export interface FakeUpstream {
  url: string;
  received: ReceivedRequest[];
  /** Body bytes received so far, across requests, complete or not. */
  bodyBytes(): number;
  close(): Promise<void>;
}

/**
 * A tiny stand-in for a service, for the gateway's tests. It echoes what it received, except:
 * a path ending in `/conflict` answers a 409 problem of its own, a path ending in `/slow` never answers,
 * a path ending in `/reject-early` answers 413 before reading the body, one ending in `/stall-mid-body`
 * starts a 200 and stops halfway, one ending in `/delayed` answers after 1 s,
 * `/readyz` answers `readyStatus`, `/openapi.json` answers `document`.
 */
export async function startFakeUpstream(options: { document?: object; readyStatus?: number } = {}): Promise<FakeUpstream> {
  const received: ReceivedRequest[] = [];
  let bodyBytes = 0;
  const app = express();
  app.get('/readyz', (_req, res) => {
    res.status(options.readyStatus ?? 200).json({ status: 'ready' });
  });
  app.get('/openapi.json', (_req, res) => {
    res.json(options.document ?? { openapi: '3.1.0', paths: {} });
  });
  app.use((req, res, next) => {
    if (!req.path.endsWith('/reject-early')) return next();
    req.resume(); // as Node does for a kept-alive connection: the rest of the body is read and discarded
    res
      .status(413)
      .type('application/problem+json')
      .send(JSON.stringify({ type: 'https://errors.claims-platform.dev/payload-too-large', title: 'Payload too large', status: 413 }));
  });
  app.use((req, res) => {
    const hash = createHash('sha256');
    let length = 0;
    req.on('data', (chunk: Buffer) => {
      hash.update(chunk);
      length += chunk.length;
      bodyBytes += chunk.length;
    });
    req.on('end', () => {
      const request = { method: req.method, url: req.url, headers: req.headers, bodySha256: hash.digest('hex'), bodyLength: length };
      received.push(request);
      if (req.path.endsWith('/slow')) return;
      if (req.path.endsWith('/delayed')) {
        setTimeout(() => res.json(request), 1000);
        return;
      }
      if (req.path.endsWith('/stall-mid-body')) {
        res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': '1000' });
        res.write('{"partial":');
        return;
      }
      if (req.path.endsWith('/conflict')) {
        res
          .status(409)
          .type('application/problem+json')
          .send(
            JSON.stringify({
              type: 'https://errors.claims-platform.dev/conflict',
              title: 'Conflict',
              status: 409,
              detail: 'from the service',
            }),
          );
        return;
      }
      res.json(request);
    });
  });
  const server: RunningServer = await listen(app, 0, '127.0.0.1');
  return {
    url: server.url,
    received,
    bodyBytes: () => bodyBytes,
    close: async () => {
      server.server.closeAllConnections();
      await server.close();
    },
  };
}

/** A gateway configuration for tests: port 0, the test JWT secret, no rate limit unless overridden. */
export function testGatewayConfig(overrides: Record<string, string>) {
  return readGatewayConfig({
    NODE_ENV: 'test',
    PORT: '0',
    HOST: '127.0.0.1',
    AUTH_JWT_SECRET: TEST_JWT_SECRET,
    PUBLIC_RATE_LIMIT: '0',
    ...overrides,
  });
}
