import { sql } from 'drizzle-orm';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { rows } from '../../core/src/db/client';
import { API_KEY_CAP } from '../../shared/src/index';
import { bearer, useApi } from '../support/api';
import { type TestUser, useUsers } from '../support/factories';

/**
 * API keys (issue 13): made (with the current password, issue 24), listed and revoked in a
 * dashboard session; a key acts as its owner with the owner's role, by `X-API-Key` or
 * `Authorization: Bearer`; read-only keys only read; a revoked key stops at once; each key has its
 * own request budget.
 */
const h = useApi({ apiKeyRate: { max: 30, windowMs: 60_000 } });
const { member, admin, other, client, rival } = useUsers(() => h.database.db, {
  member: 'member',
  admin: 'admin',
  other: 'member',
  client: 'client',
  rival: 'client',
});
/** the key calls in `u`'s session (or with `token`, a key, in its place); a create sends `u`'s password */
const keys = (u: TestUser, token = u.token) => ({
  create: (body: object) =>
    request(h.app)
      .post('/api/admin/apikeys')
      .set(bearer(token))
      .send({ current_password: u.password, ...body }),
  list: () => request(h.app).get('/api/admin/apikeys').set(bearer(token)),
  revoke: (id: number) => request(h.app).delete(`/api/admin/apikeys/${id}`).set(bearer(token)),
});
const withKey = (key: string) => ({ 'X-API-Key': key });

describe('API keys', () => {
  it('are shown once, listed without the key, and stored only as a hash', async () => {
    const made = await keys(member).create({ name: 'CRM sync' });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ name: 'CRM sync', read_only: false, last_used_at: null });
    expect(made.body.key).toMatch(/^wab_[A-Za-z0-9_-]{43}$/);
    expect(made.body.key.startsWith(made.body.prefix)).toBe(true);
    const listed = await keys(member).list();
    expect(listed.body.data).toEqual([expect.objectContaining({ id: made.body.id, name: 'CRM sync' })]);
    expect(JSON.stringify(listed.body)).not.toContain(made.body.key);
    const stored = await rows<Record<string, unknown>>(
      h.database.db,
      sql`select * from api_keys where id = ${made.body.id}`,
    );
    expect(JSON.stringify(stored)).not.toContain(made.body.key);
    // another user's list does not show it
    expect((await keys(other).list()).body.data).toEqual([]);
  });

  it('act as their owner with the owner role, by X-API-Key or Bearer, and note when they were used', async () => {
    const { body } = await keys(member).create({ name: 'reader' });
    const me = await request(h.app).get(`/api/admin/users/${member.id}`).set(withKey(body.key));
    expect(me.status).toBe(200);
    expect(JSON.stringify(me.body)).toContain(member.email);
    // as the member: another user's profile is not theirs to read
    expect((await request(h.app).get(`/api/admin/users/${other.id}`).set(withKey(body.key))).status).toBe(403);
    const viaBearer = await request(h.app).get('/api/admin/whatsapp/list-per-page').set(bearer(body.key));
    expect(viaBearer.status).toBe(200);
    // a member's key opens no admin route
    expect((await request(h.app).get('/api/admin/users/members-per-page').set(withKey(body.key))).status).toBe(403);
    const adminKey = (await keys(admin).create({ name: 'ops' })).body.key;
    expect((await request(h.app).get('/api/admin/users/members-per-page').set(withKey(adminKey))).status).toBe(200);
    const used = (await keys(member).list()).body.data.find((k: { id: number }) => k.id === body.id);
    expect(used.last_used_at).not.toBeNull();
  });

  it('work for a client: their own campaigns only, and a read-only key only reads them (issue 22)', async () => {
    const key = (await keys(client).create({ name: 'agency' })).body.key as string;
    const readOnly = (await keys(client).create({ name: 'report', read_only: true })).body.key as string;
    const made = await request(h.app)
      .post('/api/admin/campaigns')
      .set(withKey(key))
      .send({ name: 'Promo lewat API', budget_messages: 100 });
    expect(made.status).toBe(201);
    expect(made.body.data).toMatchObject({ client_id: client.id, status: 'draft' });
    const id = made.body.data.id as number;
    const listed = await request(h.app).get('/api/admin/campaigns').set(withKey(readOnly));
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((c: { id: number }) => c.id)).toEqual([id]);
    expect((await request(h.app).get(`/api/admin/campaigns/${id}/report`).set(withKey(readOnly))).status).toBe(200);
    // a read-only key does not write; another client's key does not see it; no member route opens
    const write = await request(h.app)
      .post(`/api/admin/campaigns/${id}/status`)
      .set(withKey(readOnly))
      .send({ status: 'pending' });
    expect(write.status).toBe(403);
    const rivalKey = (await keys(rival).create({ name: 'rival' })).body.key as string;
    expect((await request(h.app).get(`/api/admin/campaigns/${id}`).set(withKey(rivalKey))).status).toBe(404);
    expect((await request(h.app).get('/api/admin/campaigns').set(withKey(rivalKey))).body.data).toEqual([]);
    expect((await request(h.app).get('/api/admin/whatsapp/list-per-page').set(withKey(key))).status).toBe(403);
    expect((await request(h.app).get('/api/admin/phonenumber/list-per-page').set(withKey(key))).status).toBe(403);
    const submitted = await request(h.app)
      .post(`/api/admin/campaigns/${id}/status`)
      .set(withKey(key))
      .send({ status: 'pending' });
    expect(submitted.status).toBe(200);
    // approval stays the operator's
    const approve = await request(h.app)
      .post(`/api/admin/campaigns/${id}/status`)
      .set(withKey(key))
      .send({ status: 'active' });
    expect(approve.status).toBe(403);
  });

  it('refuse writes when read-only, and every unknown or revoked key at once', async () => {
    const ro = (await keys(member).create({ name: 'dashboards', read_only: true })).body;
    expect(ro.read_only).toBe(true);
    expect((await request(h.app).get('/api/admin/whatsapp/list-per-page').set(withKey(ro.key))).status).toBe(200);
    const write = await request(h.app)
      .post('/api/admin/whatsapp/new-client')
      .set(withKey(ro.key))
      .send({ deviceId: `id-${Date.now()}-123` });
    expect(write.status).toBe(403);
    expect(write.body).toEqual({ msg: 'This API key is read-only.' });

    const rw = (await keys(member).create({ name: 'temp' })).body;
    expect((await request(h.app).get(`/api/admin/users/${member.id}`).set(withKey(rw.key))).status).toBe(200);
    expect((await keys(member).revoke(rw.id)).body).toEqual({ id: rw.id, revoked: true });
    const after = await request(h.app).get(`/api/admin/users/${member.id}`).set(withKey(rw.key));
    expect(after.status).toBe(401);
    expect(after.body.msg).toMatch(/not valid/);
    expect(
      (
        await request(h.app)
          .get(`/api/admin/users/${member.id}`)
          .set(withKey(`${rw.key}x`))
      ).status,
    ).toBe(401);
    expect((await request(h.app).get(`/api/admin/users/${member.id}`).set(bearer('wab_nope'))).status).toBe(401);
    // revoking twice, or another user's key, finds nothing
    expect((await keys(member).revoke(rw.id)).status).toBe(404);
    expect((await keys(other).revoke(ro.id)).status).toBe(404);
  });

  it('cannot make, list or revoke keys themselves; bad bodies are refused', async () => {
    const k = (await keys(member).create({ name: 'script' })).body;
    for (const res of [
      await keys(member, k.key).create({ name: 'x' }),
      await keys(member, k.key).list(),
      await keys(member, k.key).revoke(k.id),
    ]) {
      // keys(member, k.key) sends the key as a bearer: recognised as a key, refused for key management
      expect(res.status).toBe(403);
      expect(res.body.msg).toMatch(/API keys cannot manage API keys/);
    }
    expect((await keys(member).create({ name: '' })).status).toBe(400);
    expect((await keys(member).create({ name: 'x'.repeat(61) })).status).toBe(400);
    expect((await keys(member).create({ name: 'ok', read_only: 'yes' })).status).toBe(400);
    const nul = await keys(member).create({ name: 'bad\u0000name' });
    expect(nul.status).toBe(400);
    expect(nul.body.msg).toMatch(/name/);
    expect((await keys(member).create({ name: 42 })).status).toBe(400);
    expect((await request(h.app).post('/api/admin/apikeys').send({ name: 'anon' })).status).toBe(401);
    // and the current password (issue 24; tests/integration/auth-edges.test.ts has the rest)
    expect((await keys(member).create({ name: 'no password', current_password: undefined })).status).toBe(400);
  });

  it('are capped per user, and each key has its own request budget', async () => {
    const live = (await keys(other).list()).body.data.length;
    for (let i = live; i < API_KEY_CAP; i++) expect((await keys(other).create({ name: `k${i}` })).status).toBe(201);
    const over = await keys(other).create({ name: 'one too many' });
    expect(over.status).toBe(409);
    expect(over.body.msg).toMatch(/Revoke one/);

    const a = (await keys(admin).create({ name: 'busy' })).body.key;
    const b = (await keys(admin).create({ name: 'quiet' })).body.key;
    let limited = null;
    for (let i = 0; i < 31 && !limited; i++) {
      const res = await request(h.app).get(`/api/admin/users/${member.id}`).set(withKey(a));
      if (res.status === 429) limited = res;
    }
    expect(limited?.status).toBe(429);
    expect(Number(limited?.headers['retry-after'])).toBeGreaterThan(0);
    expect((await request(h.app).get(`/api/admin/users/${member.id}`).set(withKey(b))).status).toBe(200);
  });
});
