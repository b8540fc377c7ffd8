import { connect, type Socket } from 'node:net';
import express from 'express';
import { JSON_LIMIT_BYTES, jsonBody } from './body';
import { createLogger } from './observability';
import { finishApp, listen, type RunningServer } from './service-app';

/** What a raw client sees: the answer's first line, and whether the server closed the connection. */
function rawExchange(port: number, head: string, keepSending: (socket: Socket) => void) {
  return new Promise<{ statusLine: string; closed: boolean; sentBytes: number }>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    let sentBytes = 0;
    const originalWrite = socket.write.bind(socket);
    socket.write = ((chunk: string | Buffer, ...rest: never[]) => {
      sentBytes += Buffer.byteLength(chunk);
      return originalWrite(chunk, ...rest);
    }) as typeof socket.write;
    socket.on('data', (chunk) => (answer += chunk.toString('latin1')));
    socket.on('error', () => undefined); // the server closing while we write is the point
    socket.on('close', () => resolve({ statusLine: answer.split('\r\n')[0], closed: true, sentBytes }));
    socket.write(head);
    keepSending(socket);
  });
}

describe('JSON bodies over the cap', () => {
  let server: RunningServer;
  beforeAll(async () => {
    const app = express();
    app.post('/items', jsonBody, (_req, res) => res.status(201).end());
    finishApp(app, createLogger('test'));
    server = await listen(app, 0, '127.0.0.1');
  });
  afterAll(async () => {
    await server?.close();
  });

  it('answer 413 at once to a declared 2 GiB body, without reading it, and close the connection', async () => {
    const started = Date.now();
    const result = await rawExchange(
      server.port,
      `POST /items HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${2 * 1024 ** 3}\r\n\r\n{"a":"`,
      () => undefined,
    );
    expect(result.statusLine).toBe('HTTP/1.1 413 Payload Too Large');
    expect(result.closed).toBe(true);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('answer 413 to a chunked body that never ends as soon as it passes the cap, and close the connection', async () => {
    const chunk = Buffer.alloc(64 * 1024, 'a');
    const result = await rawExchange(
      server.port,
      'POST /items HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n',
      (socket) => {
        const timer = setInterval(() => {
          if (socket.destroyed || socket.writableEnded) return clearInterval(timer);
          socket.write(`${chunk.length.toString(16)}\r\n`);
          socket.write(chunk);
          socket.write('\r\n');
        }, 2);
        socket.on('close', () => clearInterval(timer));
      },
    );
    expect(result.statusLine).toBe('HTTP/1.1 413 Payload Too Large');
    expect(result.closed).toBe(true);
    // Before, the body was read to its end (here: never). Now the answer comes within a few chunks of the cap.
    expect(result.sentBytes).toBeLessThan(JSON_LIMIT_BYTES * 8);
  });
});

describe('clients too slow to send a request', () => {
  let server: RunningServer;
  beforeAll(async () => {
    const app = express();
    app.post('/items', jsonBody, (_req, res) => res.status(201).end());
    finishApp(app, createLogger('test'));
    server = await listen(app, 0, '127.0.0.1', { headersTimeoutMs: 500, requestTimeoutMs: 1500, checkIntervalMs: 100 });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('get 408 problem+json and a closed connection when their headers never finish', async () => {
    const started = Date.now();
    const result = await rawExchange(server.port, 'POST /items HTTP/1.1\r\nHost: x\r\nX-Slow: ', () => undefined);
    expect(result.statusLine).toMatch(/^HTTP\/1.1 408 /);
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('get 408 and a closed connection when the body keeps trickling past the request timeout', async () => {
    const result = await rawExchange(
      server.port,
      'POST /items HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n',
      (socket) => {
        const timer = setInterval(() => (socket.destroyed ? clearInterval(timer) : socket.write('1\r\n \r\n')), 50);
        socket.on('close', () => clearInterval(timer));
      },
    );
    expect(result.statusLine).toMatch(/^HTTP\/1.1 408 /);
    expect(result.closed).toBe(true);
  });
});
