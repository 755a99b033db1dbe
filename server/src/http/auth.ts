import type { Actor } from '@wa/core/actor';
import { AppError, forbidden, unauthorized } from '@wa/core/errors';
import { type Ability, assertCan } from '@wa/core/policy';
import type { AttemptLimiter } from '@wa/core/rate-limit';
import { API_KEY_PREFIX, API_KEY_TEXTS, normalizeRole } from '@wa/shared';
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
/** An import's full skipped list, which the import card's download button links to. */
const IMPORT_SKIPPED_PATH = /^\/api\/admin\/(phonenumber|proxy|campaigns\/\d+\/targets)\/import\/skipped\/[^/]+$/;
/** The devs' queue dashboard: a page with its own scripts and API calls, all GETs (read-only). */
const QUEUE_BOARD_PATH = /^\/api\/dev\/queues(\/|$)/;

/**
 * A file download started by a plain link (GET …/export, GET …/validator/file/{id}, GET
 * …/import/skipped/{id}) cannot carry a bearer header, so those GETs alone may use the authToken
 * cookie: the browser then streams the file to disk, never holding a million rows in the page.
 * The devs' queue dashboard (GET /api/dev/queues/…, read-only) is a page opened by a link too.
 * Nothing else reads the cookie, and never for anything but GET, so no write is exposed to CSRF.
 */
function downloadCookieToken(req: Request): string | null {
  const full = req.baseUrl + req.path;
  const download =
    req.path.endsWith('/export') ||
    VALIDATOR_FILE_PATH.test(full) ||
    IMPORT_SKIPPED_PATH.test(full) ||
    QUEUE_BOARD_PATH.test(full);
  if (req.method !== 'GET' || !download) return null;
  const header = req.get('cookie');
  if (!header) return null;
  for (const part of header.split(';')) {
    const [name, ...rest] = part.trim().split('=');
    if (name === 'authToken') return decodeURIComponent(rest.join('='));
  }
  return null;
}

/** How `authenticate` checks an API key (ApiKeysService) and how often one key may be used. */
export interface KeyAuth {
  owner(key: string): Promise<{ keyId: number; userId: number; role: string; readOnly: boolean } | null>;
  touch(keyId: number): Promise<void>;
  limiter: AttemptLimiter;
}

/** An API key from `X-API-Key`, or a bearer token that is one (`wab_…`; a session token never is). */
function apiKeyOf(req: Request): string | null {
  const header = req.get('x-api-key')?.trim();
  if (header) return header;
  const bearer = bearerToken(req);
  return bearer?.startsWith(API_KEY_PREFIX) ? bearer : null;
}

/**
 * The caller of an API key: its owner, with the owner's role as it is now. A revoked key fails at
 * once (every request looks the key up); a read-only key may only read; each key has its own
 * request budget per window (429 past it).
 */
async function keyActor(req: Request, res: Response, key: string, keys: KeyAuth): Promise<Actor> {
  const owner = await keys.owner(key);
  const role = normalizeRole(owner?.role ?? null);
  if (!owner || !role) throw new AppError(401, API_KEY_TEXTS.invalid);
  const bucket = `key:${owner.keyId}`;
  const wait = keys.limiter.retryAfter(bucket);
  if (wait > 0) {
    res.setHeader('Retry-After', String(wait));
    throw new AppError(429, API_KEY_TEXTS.tooMany);
  }
  keys.limiter.hit(bucket);
  if (owner.readOnly && req.method !== 'GET' && req.method !== 'HEAD') throw forbidden(API_KEY_TEXTS.readOnly);
  await keys.touch(owner.keyId);
  return { id: owner.userId, role, apiKey: { id: owner.keyId, readOnly: owner.readOnly } };
}

/** Requires a bearer token that is still good (see `actorFromToken`), or an API key (see `keyActor`). */
export function authenticate(secret: string, load: (id: number) => Promise<AuthState | null>, keys?: KeyAuth) {
  return async (req: Request, res: Response, next: NextFunction) => {
    const key = keys ? apiKeyOf(req) : null;
    if (key && keys) {
      req.actor = await keyActor(req, res, key, keys);
      return next();
    }
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
  const guard = (req: Request, _res: Response, next: NextFunction) => {
    assertCan(actorOf(req), ability);
    next();
  };
  // named on the function, so a test can read which ability a bound route asks (openapi.test.ts)
  return Object.assign(guard, { ability });
}

/**
 * Refuses a caller that came with an API key (403 `refusal`): the route needs a dashboard session.
 * A leaked key must not reach what would outlive it or end its owner's sessions (`sessionOnly` in
 * the route's declaration; the binder puts it first, before the input is read).
 */
export function sessionOnly(refusal: string) {
  return (req: Request, _res: Response, next: NextFunction) => {
    if (actorOf(req).apiKey) throw forbidden(refusal);
    next();
  };
}

/** The caller of an authenticated route. */
export function actorOf(req: Request): Actor {
  if (!req.actor) throw unauthorized();
  return req.actor;
}
