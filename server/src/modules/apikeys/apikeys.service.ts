import { createHash, randomBytes } from 'node:crypto';
import type { Actor } from '@wa/core/actor';
import { AppError, badRequest, forbidden, notFound } from '@wa/core/errors';
import { AttemptLimiter } from '@wa/core/rate-limit';
import {
  API_KEY_CAP,
  API_KEY_PREFIX,
  API_KEY_TEXTS,
  type ApiKeyDto,
  type CreatedApiKey,
  type createApiKeyBody,
} from '@wa/shared';
import type { z } from 'zod';
import { verifyPassword } from '../users/passwords';
import type { ApiKeysRepo, KeyOwner } from './apikeys.repo';

/** Wrong current passwords per user in 15 minutes before making a key answers 429 (a stolen session guessing). */
export const KEY_PASSWORD_FAILS = 5;

/** POST /api/admin/apikeys as the route hands it over, parsed with the shared schema. */
export type CreateApiKeyInput = z.output<typeof createApiKeyBody>;

/** The stored form of a key: its SHA-256 (a key is 256 random bits: nothing to brute-force). */
export function hashKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/**
 * A user's API keys (their profile): made, listed and revoked by the user in a dashboard session,
 * never with a key (a leaked key must not be able to make itself another one). Making one needs
 * the current password as well: a key outlives the session it was made in, so a stolen session
 * alone must not be able to leave keys behind.
 */
export class ApiKeysService {
  private readonly passwordFails = new AttemptLimiter(KEY_PASSWORD_FAILS, 15 * 60_000);

  constructor(private readonly repo: ApiKeysRepo) {}

  async create(actor: Actor, b: CreateApiKeyInput): Promise<CreatedApiKey> {
    this.assertSession(actor);
    await this.assertPassword(actor.id, b.current_password);
    const key = `${API_KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
    const made = await this.repo.insert({
      userId: actor.id,
      name: b.name,
      hash: hashKey(key),
      prefix: key.slice(0, API_KEY_PREFIX.length + 6),
      readOnly: b.read_only ?? false,
      cap: API_KEY_CAP,
    });
    if (!made) throw new AppError(409, API_KEY_TEXTS.cap(API_KEY_CAP));
    return { ...made, key };
  }

  async list(actor: Actor): Promise<ApiKeyDto[]> {
    this.assertSession(actor);
    return this.repo.list(actor.id);
  }

  async revoke(actor: Actor, id: number): Promise<{ id: number; revoked: true }> {
    this.assertSession(actor);
    if (!(await this.repo.revoke(actor.id, id))) throw notFound(API_KEY_TEXTS.notFound);
    return { id, revoked: true };
  }

  /** The owner of a key a request came with (null: no such live key). */
  owner(key: string): Promise<KeyOwner | null> {
    return this.repo.owner(hashKey(key));
  }

  touch(keyId: number): Promise<void> {
    return this.repo.touch(keyId);
  }

  private assertSession(actor: Actor): void {
    if (actor.apiKey) throw forbidden(API_KEY_TEXTS.noKeysWithKeys);
  }

  /**
   * The caller's current password, or a 400 on `current_password`. Each try counts as a wrong one
   * before the check (taken back when right), so a burst of guesses gets no more than
   * KEY_PASSWORD_FAILS checked; past them, 429.
   */
  private async assertPassword(userId: number, password: string): Promise<void> {
    const key = String(userId);
    const wait = this.passwordFails.take(key);
    if (wait) throw new AppError(429, API_KEY_TEXTS.tooManyWrong(wait));
    let ok: boolean;
    try {
      ok = await verifyPassword(password, await this.repo.passwordHash(userId));
    } catch (err) {
      this.passwordFails.release(key);
      throw err;
    }
    if (!ok) throw badRequest(API_KEY_TEXTS.passwordWrong, { current_password: API_KEY_TEXTS.passwordWrong });
    this.passwordFails.release(key);
  }
}
