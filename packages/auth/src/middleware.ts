import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { problems } from '@platform/http';
import type { Principal, VerifyToken } from './jwt';

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      principal?: Principal;
    }
  }
}

/** The token of an `Authorization: Bearer …` header, or undefined when there is none. */
export function bearerToken(req: Request): string | undefined {
  const header = req.get('authorization');
  if (!header) return undefined;
  const match = /^Bearer[ ]+([^ ]+)[ ]*$/i.exec(header);
  return match ? match[1] : '';
}

/**
 * Verifies the internal caller's JWT; the verified principal is `req.principal`. A token the verifier already
 * knows goes on at once: no promise and no wait for the microtask queue on a client's every request with the same token.
 */
export function authenticate(verify: VerifyToken): RequestHandler {
  return (req: Request, _res: Response, next: NextFunction) => {
    const token = bearerToken(req);
    if (!token)
      return next(
        problems.unauthorized(
          token === undefined ? 'Authorization: Bearer <token> is required' : 'The Authorization header is not a Bearer token',
        ),
      );
    const known = verify.known?.(token);
    if (known) {
      req.principal = known;
      return next();
    }
    // Returned, so that an error thrown by a later step reaches express's error handling as a rejection.
    return verify(token).then((principal) => {
      req.principal = principal;
      next();
    }, next);
  };
}

export function hasScope(principal: Principal | undefined, scope: string): boolean {
  return principal?.scopes.has(scope) ?? false;
}

/** 403 unless the authenticated caller holds `scope`. */
export function requireScope(scope: string): RequestHandler {
  return (req, _res, next) => {
    if (!req.principal) return next(problems.unauthorized());
    if (!hasScope(req.principal, scope)) return next(problems.forbidden(`This operation requires the ${scope} scope`));
    next();
  };
}

/** 403 unless the authenticated caller holds at least one of `scopes` (e.g. read access granted to several roles). */
export function requireAnyScope(...scopes: string[]): RequestHandler {
  return (req, _res, next) => {
    if (!req.principal) return next(problems.unauthorized());
    if (!scopes.some((scope) => hasScope(req.principal, scope)))
      return next(problems.forbidden(`This operation requires one of the scopes ${scopes.join(', ')}`));
    next();
  };
}

export function principalOf(req: Request): Principal {
  if (!req.principal) throw problems.unauthorized();
  return req.principal;
}
