import { normalizeRole, type Role } from '@wa/shared';
import type { NextFunction, Request, Response } from 'express';
import jwt from 'jsonwebtoken';
import { AppError, forbidden, unauthorized } from './errors';

/** Who is calling: set by `authenticate` from a valid bearer token. */
export interface Actor {
  id: number;
  role: Role;
}

declare module 'express-serve-static-core' {
  interface Request {
    actor?: Actor;
  }
}

export interface TokenPayload {
  sub: string;
  role: string;
}

export const TOKEN_LIFETIME = '3650d';

export function signToken(secret: string, user: { id: number; role: string }): string {
  return jwt.sign({ sub: String(user.id), role: user.role }, secret, { expiresIn: TOKEN_LIFETIME });
}

/** The user id a token names, or null when it is missing, malformed, expired or forged. */
export function verifyToken(secret: string, token: string): number | null {
  try {
    const payload = jwt.verify(token, secret, { algorithms: ['HS256'] }) as TokenPayload;
    const id = Number(payload.sub);
    return Number.isInteger(id) && id > 0 ? id : null;
  } catch {
    return null;
  }
}

export function bearerToken(req: Request): string | null {
  const header = req.get('authorization');
  if (!header) return null;
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  return match ? match[1] : null;
}

/**
 * A file download started by a plain link (GET …/export) cannot carry a bearer header, so those
 * GETs alone may use the authToken cookie: the browser then streams the file to disk, never
 * holding a million rows in the page. Nothing else reads the cookie, so no write is exposed to CSRF.
 */
function downloadCookieToken(req: Request): string | null {
  if (req.method !== 'GET' || !req.path.endsWith('/export')) return null;
  const header = req.get('cookie');
  if (!header) return null;
  for (const part of header.split(';')) {
    const [name, ...rest] = part.trim().split('=');
    if (name === 'authToken') return decodeURIComponent(rest.join('='));
  }
  return null;
}

/**
 * Requires a valid bearer token whose user still exists; the role is read fresh from the
 * database so a changed role takes effect at once.
 */
export function authenticate(secret: string, loadRole: (id: number) => Promise<string | null>) {
  return async (req: Request, _res: Response, next: NextFunction) => {
    const token = bearerToken(req) ?? downloadCookieToken(req);
    if (!token) throw new AppError(401, 'Authorization token is missing');
    const id = verifyToken(secret, token);
    if (id === null) throw unauthorized();
    const role = normalizeRole(await loadRole(id));
    if (!role) throw unauthorized('User no longer exists');
    req.actor = { id, role };
    next();
  };
}

/** Lets only the given roles through (403 otherwise). */
export function requireRoles(...roles: Role[]) {
  return (req: Request, _res: Response, next: NextFunction) => {
    if (!req.actor) throw unauthorized();
    if (!roles.includes(req.actor.role)) throw forbidden();
    next();
  };
}

/** The caller of an authenticated route. */
export function actorOf(req: Request): Actor {
  if (!req.actor) throw unauthorized();
  return req.actor;
}

/** Admin and dev may act on anyone; everybody else only on themselves. */
export function assertSelfOrStaff(actor: Actor, userId: number, staffRoles: Role[] = ['admin', 'dev']): void {
  if (actor.id !== userId && !staffRoles.includes(actor.role)) throw forbidden();
}
