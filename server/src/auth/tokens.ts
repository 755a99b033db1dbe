import type { Actor } from '@wa/core/actor';
import { normalizeRole } from '@wa/shared';
import jwt from 'jsonwebtoken';

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
  return (await sessionFromToken(secret, token, load))?.actor ?? null;
}

/** actorFromToken, with the token version the token was checked at (the hub keeps it per socket). */
export async function sessionFromToken(
  secret: string,
  token: string,
  load: (id: number) => Promise<AuthState | null>,
): Promise<{ actor: Actor; tokenVersion: number } | null> {
  const claims = verifyToken(secret, token);
  if (!claims) return null;
  const state = await load(claims.id);
  const role = normalizeRole(state?.role ?? null);
  if (!state || !role || state.tokenVersion !== claims.tv) return null;
  return { actor: { id: claims.id, role }, tokenVersion: claims.tv };
}
