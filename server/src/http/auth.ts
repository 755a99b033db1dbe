import type { Actor } from '@wa/core/actor';
import { AppError, unauthorized } from '@wa/core/errors';
import { type Ability, assertCan } from '@wa/core/policy';
import type { NextFunction, Request, Response } from 'express';
import { type AuthState, actorFromToken } from '../auth/tokens';

declare module 'express-serve-static-core' {
  interface Request {
    actor?: Actor;
  }
}

export function bearerToken(req: Request): string | null {
  const header = req.get('authorization');
  if (!header) return null;
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  return match ? match[1] : null;
}

/** The validator's uploaded file, which the list's Target File links to (§2). */
const VALIDATOR_FILE_PATH = /^\/api\/admin\/validator\/file\/[^/]+$/;

/**
 * A file download started by a plain link (GET …/export, GET …/validator/file/{id}) cannot carry
 * a bearer header, so those GETs alone may use the authToken cookie: the browser then streams the
 * file to disk, never holding a million rows in the page. Nothing else reads the cookie, so no
 * write is exposed to CSRF.
 */
function downloadCookieToken(req: Request): string | null {
  const download = req.path.endsWith('/export') || VALIDATOR_FILE_PATH.test(req.baseUrl + req.path);
  if (req.method !== 'GET' || !download) return null;
  const header = req.get('cookie');
  if (!header) return null;
  for (const part of header.split(';')) {
    const [name, ...rest] = part.trim().split('=');
    if (name === 'authToken') return decodeURIComponent(rest.join('='));
  }
  return null;
}

/** Requires a bearer token that is still good (see `actorFromToken`). */
export function authenticate(secret: string, load: (id: number) => Promise<AuthState | null>) {
  return async (req: Request, _res: Response, next: NextFunction) => {
    const token = bearerToken(req) ?? downloadCookieToken(req);
    if (!token) throw new AppError(401, 'Authorization token is missing');
    const actor = await actorFromToken(secret, token, load);
    if (!actor) throw unauthorized();
    req.actor = actor;
    next();
  };
}

/**
 * Lets through the roles the policy table gives `ability` (its 403 otherwise). It asks without a
 * resource: the service asks again with the row's owner once it has the row.
 */
export function allow(ability: Ability) {
  return (req: Request, _res: Response, next: NextFunction) => {
    assertCan(actorOf(req), ability);
    next();
  };
}

/** The caller of an authenticated route. */
export function actorOf(req: Request): Actor {
  if (!req.actor) throw unauthorized();
  return req.actor;
}
