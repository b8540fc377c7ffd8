import type { NextFunction, Request, Response } from 'express';

/** Prefixes of headers a client could use to pose as the gateway, a proxy in front of it, or an authenticated user. */
const SPOOFABLE_PREFIXES = ['x-forwarded-', 'x-user-', 'x-internal-'];
/**
 * Hop-by-hop headers (RFC 9110 §7.6.1) describe the client's connection to the gateway, not the
 * gateway's to the service: a forwarded `Connection: close` would make the service close the connection
 * mid-upload, and a forwarded `Upgrade` would invite h2c smuggling. `Expect` is dropped because Node
 * has already answered `100 Continue` to the client.
 */
const HOP_BY_HOP = ['connection', 'keep-alive', 'proxy-connection', 'proxy-authorization', 'te', 'trailer', 'upgrade', 'expect'];
const REMOVED = new Set(['forwarded', 'x-real-ip', 'x-client-ip', ...HOP_BY_HOP]);

/**
 * Runs once per request, before anything is forwarded. The client address, protocol and host are read
 * first (through Express's `trust proxy` setting, so a trusted load balancer's X-Forwarded-* count),
 * then every client-sent identity or forwarding header is removed and the gateway's own are set, with
 * the request id; hop-by-hop headers are dropped.
 */
export function forwardingHeaders(req: Request, res: Response, next: NextFunction): void {
  const { headers } = req;
  // Without X-Forwarded-For / -Proto, express's req.ip and req.protocol are the socket's whatever `trust
  // proxy` says; reading them straight skips proxy-addr's parsing, a visible cost on every request.
  const clientAddress = (headers['x-forwarded-for'] === undefined ? req.socket.remoteAddress : req.ip) ?? '';
  const protocol =
    headers['x-forwarded-proto'] === undefined ? ((req.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http') : req.protocol;
  const host = headers.host;
  res.locals.clientAddress = clientAddress;
  for (const name of Object.keys(headers)) {
    if (REMOVED.has(name) || (name.startsWith('x-') && SPOOFABLE_PREFIXES.some((prefix) => name.startsWith(prefix)))) delete headers[name];
  }
  headers['x-forwarded-for'] = clientAddress;
  headers['x-forwarded-proto'] = protocol;
  if (host) headers['x-forwarded-host'] = host;
  headers['x-request-id'] = req.id;
  next();
}
