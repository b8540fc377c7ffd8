import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * helmet's headers, worked out once: with these options none depends on the request, so every response
 * gets the recorded list in one step instead of through helmet's dozen middlewares on every request (the
 * gateway's profile showed them, and the bytes they write, on its hot path). Refuses options whose
 * headers would depend on the request (a CSP directive given as a function, e.g. a nonce).
 */
export function securityHeaders(options: HelmetOptions): RequestHandler {
  const set: [string, string | number | readonly string[]][] = [];
  const removed: string[] = [];
  const recorder = {
    setHeader: (name: string, value: string | number | readonly string[]) => void set.push([name, value]),
    removeHeader: (name: string) => void removed.push(name),
  };
  let done = false;
  const probe = {} as IncomingMessage;
  helmet(options)(probe, recorder as unknown as ServerResponse, (error?: unknown) => {
    if (error) throw error;
    done = true;
  });
  const directives = (options.contentSecurityPolicy as { directives?: Record<string, unknown> } | undefined)?.directives ?? {};
  const perRequest = Object.values(directives).some(
    (value) => typeof value === 'function' || (Array.isArray(value) && value.some((item) => typeof item === 'function')),
  );
  if (!done || perRequest) throw new Error('securityHeaders: these helmet options set headers per request; use helmet() itself');
  return (_req, res, next) => {
    for (const [name, value] of set) res.setHeader(name, value);
    for (const name of removed) res.removeHeader(name);
    next();
  };
}
