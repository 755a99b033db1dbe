import { createHash, randomBytes } from 'node:crypto';
import type { Actor } from '@wa/core/actor';
import { AppError, forbidden, notFound } from '@wa/core/errors';
import { API_KEY_CAP, API_KEY_PREFIX, API_KEY_TEXTS, type ApiKeyDto, type CreatedApiKey } from '@wa/shared';
import type { ApiKeysRepo, KeyOwner } from './apikeys.repo';

/** The stored form of a key: its SHA-256 (a key is 256 random bits: nothing to brute-force). */
export function hashKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/**
 * A user's API keys (their profile): made, listed and revoked by the user in a dashboard session,
 * never with a key (a leaked key must not be able to make itself another one).
 */
export class ApiKeysService {
  constructor(private readonly repo: ApiKeysRepo) {}

  async create(actor: Actor, b: { name: string; read_only?: boolean }): Promise<CreatedApiKey> {
    this.assertSession(actor);
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
}
