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
  /** the user's token version when the token was signed; tokens from before versions count as 0 */
  tv?: number;
}

/** §3/§9: the cookie lives 10 years; whether the token is still good is decided by its version. */
export const TOKEN_LIFETIME = '3650d';

export function signToken(secret: string, user: { id: number; role: string; tokenVersion?: number }): string {
  return jwt.sign({ sub: String(user.id), role: user.role, tv: user.tokenVersion ?? 0 }, secret, {
    expiresIn: TOKEN_LIFETIME,
  });
}

/** The user id and token version a token names, or null when it is malformed, expired or forged. */
export function verifyToken(secret: string, token: string): { id: number; tv: number } | null {
  try {
    const payload = jwt.verify(token, secret, { algorithms: ['HS256'] }) as TokenPayload;
    const id = Number(payload.sub);
    const tv = payload.tv === undefined ? 0 : Number(payload.tv);
    return Number.isInteger(id) && id > 0 && Number.isInteger(tv) ? { id, tv } : null;
  } catch {
    return null;
  }
}

/** What the server knows of a user when it checks a token: the current role and token version. */
export interface AuthState {
  role: string | null;
  tokenVersion: number;
}

/**
 * The caller a token names when it is still good: signed by us, its user exists and its version
 * is the user's current one (a password, e-mail or role change or "log out everywhere" bumps it).
 * The role is read fresh, so a changed role takes effect at once.
 */
export async function actorFromToken(
  secret: string,
  token: string,
  load: (id: number) => Promise<AuthState | null>,
): Promise<Actor | null> {
  const claims = verifyToken(secret, token);
  if (!claims) return null;
  const state = await load(claims.id);
  const role = normalizeRole(state?.role ?? null);
  if (!state || !role || state.tokenVersion !== claims.tv) return null;
  return { id: claims.id, role };
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
