import net from 'node:net';
import type { AddressInfo } from 'node:net';

export interface TcpProxy {
  /** The local port the proxy listens on (127.0.0.1). */
  readonly port: number;
  readonly host: string;
  /** Whether connections are currently refused. */
  readonly isCut: boolean;
  /** `url` with its host and port replaced by the proxy's: `proxy.urlFor(testAmqpUrl())`. */
  urlFor(url: string): string;
  /** Simulates an outage: destroys every live connection and refuses new ones until restore(). */
  cut(): void;
  /** Ends the outage: new connections are forwarded again. */
  restore(): void;
  /** New connections go to host:port from now on (a Service whose endpoint moved to another pod). */
  pointAt(host: string, port: number): void;
  /** Destroys every connection and stops listening. */
  close(): Promise<void>;
}

/**
 * A TCP proxy on port 0 in front of a real dependency (PostgreSQL, RabbitMQ), for outage tests: point
 * the client at `urlFor(realUrl)`, then `cut()` and `restore()` the dependency without touching the
 * server that others share. While cut, the port stays bound and every new connection is closed at once.
 */
export async function createTcpProxy(targetHost: string, targetPort: number): Promise<TcpProxy> {
  let target = { host: targetHost, port: targetPort };
  const sockets = new Set<net.Socket>();
  let cut = false;

  const track = (socket: net.Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  };

  const server = net.createServer((client) => {
    track(client);
    if (cut) {
      client.destroy();
      return;
    }
    client.pause();
    const upstream = net.connect(target.port, target.host);
    track(upstream);
    upstream.once('connect', () => {
      client.pipe(upstream);
      upstream.pipe(client);
      client.resume();
    });
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host = '127.0.0.1';

  const destroyAll = () => {
    for (const socket of sockets) socket.destroy();
    sockets.clear();
  };

  return {
    port,
    host,
    get isCut() {
      return cut;
    },
    urlFor(url: string): string {
      const parsed = new URL(url);
      parsed.hostname = host;
      parsed.port = String(port);
      return parsed.toString();
    },
    cut() {
      cut = true;
      destroyAll();
    },
    restore() {
      cut = false;
    },
    pointAt(host: string, port: number) {
      target = { host, port };
    },
    close: () =>
      new Promise<void>((resolve) => {
        cut = true;
        destroyAll();
        server.close(() => resolve());
      }),
  };
}
