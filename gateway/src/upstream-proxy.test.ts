import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import pino from 'pino';
import { Registry } from 'prom-client';
import { createUpstreamProxy, UPSTREAM_IDLE_SOCKET_MS, upstreamDurationHistogram } from './upstream-proxy';

const SERVICE_KEEP_ALIVE_MS = 5000;

async function listening(server: http.Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('upstream keep-alive', () => {
  it('closes an idle socket to a service before the service would (no ECONNRESET race, so no 502)', async () => {
    const openSockets = new Set<unknown>();
    const service = http.createServer((_req, res) => res.end('ok'));
    service.keepAliveTimeout = SERVICE_KEEP_ALIVE_MS;
    service.on('connection', (socket) => {
      openSockets.add(socket);
      socket.on('close', () => openSockets.delete(socket));
    });
    const upstream = createUpstreamProxy({
      name: 'claims',
      target: await listening(service),
      timeoutMs: 10000,
      logger: pino({ level: 'silent' }),
      duration: upstreamDurationHistogram(new Registry()),
    });
    const app = express();
    app.use(upstream.handler);
    const gateway = http.createServer(app);
    const url = await listening(gateway);
    try {
      expect(UPSTREAM_IDLE_SOCKET_MS).toBeLessThan(SERVICE_KEEP_ALIVE_MS - 500);
      const response = await fetch(`${url}/api/claims/x`);
      expect(await response.text()).toBe('ok');
      expect(openSockets.size).toBe(1);
      await new Promise((resolve) => setTimeout(resolve, UPSTREAM_IDLE_SOCKET_MS + 400));
      expect(openSockets.size).toBe(0);
    } finally {
      upstream.close();
      await new Promise((resolve) => gateway.close(resolve));
      gateway.closeAllConnections();
      service.closeAllConnections();
      await new Promise((resolve) => service.close(resolve));
    }
  }, 15000);
});
