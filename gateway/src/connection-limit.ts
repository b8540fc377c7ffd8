import type { Server } from 'node:http';
import { HttpProblem, PROBLEM_CONTENT_TYPE } from '@platform/http';

/**
 * At most `limit` open connections per client address (0: no limit): one client holding hundreds of slow
 * connections cannot starve everyone else. A connection over the limit is answered 429 problem+json and
 * closed before its request is read. Behind a load balancer every connection comes from its address: raise
 * the limit there, or set 0 and let the balancer limit clients.
 */
export function limitConnectionsPerClient(server: Server, limit: number, onRefused: () => void = () => undefined): void {
  if (limit === 0) return;
  const open = new Map<string, number>();
  const problem = new HttpProblem(429, 'rate-limited', 'Too many requests', `More than ${limit} open connections from one client address`);
  const body = JSON.stringify(problem.body());
  const answer = `HTTP/1.1 429 Too Many Requests\r\nContent-Type: ${PROBLEM_CONTENT_TYPE}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nRetry-After: 1\r\nConnection: close\r\n\r\n${body}`;
  server.prependListener('connection', (socket) => {
    const client = socket.remoteAddress ?? 'unknown';
    const count = (open.get(client) ?? 0) + 1;
    if (count > limit) {
      onRefused();
      socket.end(answer);
      socket.destroySoon();
      return;
    }
    open.set(client, count);
    socket.once('close', () => {
      const left = (open.get(client) ?? 1) - 1;
      if (left === 0) open.delete(client);
      else open.set(client, left);
    });
  });
}
