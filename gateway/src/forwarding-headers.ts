import type { NextFunction, Request, Response } from 'express';

/** Headers a client could use to pose as the gateway, a proxy in front of it, or an authenticated user. */
const SPOOFABLE = /^(x-forwarded-|x-user-|x-internal-)/;
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
  const clientAddress = req.ip ?? req.socket.remoteAddress ?? '';
  const protocol = req.protocol;
  const host = req.get('host');
  res.locals.clientAddress = clientAddress;
  for (const name of Object.keys(req.headers)) {
    if (SPOOFABLE.test(name) || REMOVED.has(name)) delete req.headers[name];
  }
  req.headers['x-forwarded-for'] = clientAddress;
  req.headers['x-forwarded-proto'] = protocol;
  if (host) req.headers['x-forwarded-host'] = host;
  req.headers['x-request-id'] = req.id;
  next();
}
