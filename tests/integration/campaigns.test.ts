import { API_ROUTES, CAMPAIGN_TEXTS, type CampaignDto } from '@wa/shared';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { can } from '../../core/src/policy';
import { UsersRepo } from '../../server/src/modules/users/users.repo';
import { apiAs, bearer, useApiWithRoles } from '../support/api';
import { createUser, useUsers } from '../support/factories';

/**
 * Issue 22's campaigns, first part: the `client` role and the campaign records: who makes, sees,
 * changes, moves and deletes which, and everything a client is refused elsewhere.
 */
const { h, admin, dev, member, staff } = useApiWithRoles();
const { client, other } = useUsers(() => h.database.db, { client: 'client', other: 'client' });
const as = (u: Parameters<typeof apiAs>[1]) => apiAs(h, u, '/api/admin/campaigns');

const FUTURE = new Date(Date.now() + 7 * 86_400_000).toISOString();
const LATER = new Date(Date.now() + 14 * 86_400_000).toISOString();

async function draft(owner = client, body: Record<string, unknown> = {}): Promise<CampaignDto> {
  const res = await as(owner).post('', { name: `Promo ${Math.random().toString(36).slice(2, 7)}`, ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
}

describe('a client', () => {
  it('creates a draft for themselves, with its terms, and reads it back', async () => {
    const res = await as(client).post('', {
      name: 'Diskon Akhir Tahun',
      start_at: FUTURE,
      end_at: LATER,
      window_start: '09:00',
      window_end: '17:00',
      budget_messages: 1000,
      budget_amount: '250000',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const c = res.body.data as CampaignDto;
    expect(c).toMatchObject({
      name: 'Diskon Akhir Tahun',
      client_id: client.id,
      status: 'draft',
      stop_reason: null,
      priority: 0,
      start_at: FUTURE,
      end_at: LATER,
      window_start: '09:00',
      window_end: '17:00',
      budget_messages: 1000,
      budget_amount: 250000,
      price_per_delivered: 0,
      sent: 0,
      spent: 0,
    });
    expect(c.client_name).toContain(client.firstname);
    expect((await as(client).get(`/${c.id}`)).body.data).toEqual(c);
  });

  it('sees only their own campaigns; another client’s is not found, for every verb', async () => {
    const mine = await draft(client);
    const theirs = await draft(other);
    const list = await as(client).get('?page=1');
    expect(list.status).toBe(200);
    const ids = (list.body.data as CampaignDto[]).map((c) => c.id);
    expect(ids).toContain(mine.id);
    expect(ids).not.toContain(theirs.id);
    expect(list.body.data.every((c: CampaignDto) => c.client_id === client.id)).toBe(true);
    // asking for another client's list by id changes nothing
    const narrowed = await as(client).get(`?client_id=${other.id}`);
    expect(narrowed.body.data.every((c: CampaignDto) => c.client_id === client.id)).toBe(true);
    for (const res of [
      await as(client).get(`/${theirs.id}`),
      await as(client).put(`/${theirs.id}`, { name: 'Mine now' }),
      await as(client).post(`/${theirs.id}/status`, { status: 'pending' }),
      await as(client).del(`/${theirs.id}`),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ msg: CAMPAIGN_TEXTS.notFound });
    }
    expect((await as(other).get(`/${theirs.id}`)).body.data.name).toBe(theirs.name);
  });

  it('may not set the price or the priority, nor make a campaign for someone else', async () => {
    for (const body of [{ price_per_delivered: 150 }, { priority: 5 }]) {
      const res = await as(client).post('', { name: 'Cheap', ...body });
      expect(res.status).toBe(403);
      expect(res.body.msg).toBe('Only an admin or dev sets the price and the priority.');
    }
    const c = await draft(client);
    const res = await as(client).put(`/${c.id}`, { price_per_delivered: 1 });
    expect(res.status).toBe(403);
    const forOther = await as(client).post('', { name: 'Theirs', client_id: other.id });
    expect(forOther.status).toBe(400);
    expect((await as(client).post('', { name: 'Mine', client_id: client.id })).status).toBe(201);
  });

  it('submits, withdraws, pauses, resumes and finishes, but only an admin or dev approves', async () => {
    const c = await draft(client);
    const move = (u: typeof client, status: string) => as(u).post(`/${c.id}/status`, { status });
    expect((await move(client, 'pending')).body.data.status).toBe('pending');
    expect((await move(client, 'draft')).body.data.status).toBe('draft');
    expect((await move(client, 'pending')).body.data.status).toBe('pending');
    const approve = await move(client, 'active');
    expect(approve.status).toBe(403);
    expect(approve.body.msg).toBe('Only an admin or dev approves a campaign.');
    expect((await move(admin, 'active')).body.data.status).toBe('active');
    expect((await move(client, 'paused')).body.data.status).toBe('paused');
    expect((await move(client, 'active')).body.data.status).toBe('active');
    const finished = await move(client, 'finished');
    expect(finished.body.data).toMatchObject({ status: 'finished', stop_reason: 'manual' });
    for (const to of ['draft', 'pending', 'active', 'paused', 'finished']) {
      const res = await move(admin, to);
      expect(res.status).toBe(409);
      expect(res.body.msg).toBe(`A finished campaign cannot become ${to}.`);
    }
  });

  it('changes the terms only while draft, pending or paused; deletes only a draft or pending one', async () => {
    const c = await draft(client);
    expect((await as(client).put(`/${c.id}`, { name: 'Renamed', budget_messages: null })).body.data).toMatchObject({
      name: 'Renamed',
      budget_messages: null,
    });
    await as(client).post(`/${c.id}/status`, { status: 'pending' });
    await as(dev).post(`/${c.id}/status`, { status: 'active' });
    const live = await as(client).put(`/${c.id}`, { name: 'While live' });
    expect(live.status).toBe(409);
    expect(live.body.msg).toBe(CAMPAIGN_TEXTS.notEditable('active'));
    const del = await as(client).del(`/${c.id}`);
    expect(del.status).toBe(409);
    expect(del.body.msg).toBe(CAMPAIGN_TEXTS.notDeletable('active'));
    // the operator may still change a live campaign's terms
    expect((await as(admin).put(`/${c.id}`, { priority: 3 })).body.data.priority).toBe(3);
    await as(client).post(`/${c.id}/status`, { status: 'paused' });
    expect((await as(client).put(`/${c.id}`, { name: 'Paused edit' })).body.data.name).toBe('Paused edit');

    const gone = await draft(client);
    const res = await as(client).del(`/${gone.id}`);
    expect(res.body).toEqual({ id: gone.id, msg: CAMPAIGN_TEXTS.deleted });
    expect((await as(client).get(`/${gone.id}`)).status).toBe(404);
  });

  it('is refused, with 403, every route of the operators and the members', async () => {
    const asClient = { id: client.id, role: 'client' as const };
    const refused = API_ROUTES.filter(
      (r) => r.access !== 'public' && r.access !== 'signed-in' && !can(asClient, r.access),
    );
    expect(refused.length).toBeGreaterThan(50);
    for (const r of refused) {
      const path = `/api${r.path.replace(/\{[^}]+\}/g, '1')}`;
      const res = await request(h.app)[r.method](path).set(bearer(client.token)).send({});
      expect(res.status, `${r.method.toUpperCase()} ${r.path}`).toBe(403);
      expect(typeof res.body.msg, `${r.method.toUpperCase()} ${r.path}`).toBe('string');
    }
  });
});

describe('admins and devs', () => {
  it('make a campaign for a client, with its price and priority, and see everybody’s', async () => {
    const res = await as(admin).post('', {
      name: 'Operator made',
      client_id: other.id,
      price_per_delivered: 150,
      priority: 2,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data).toMatchObject({
      client_id: other.id,
      price_per_delivered: 150,
      priority: 2,
      status: 'draft',
    });
    const mine = await draft(client);
    for (const u of [admin, dev]) {
      const list = await as(u).get('');
      const ids = (list.body.data as CampaignDto[]).map((c) => c.id);
      expect(ids).toEqual(expect.arrayContaining([res.body.data.id, mine.id]));
      const one = await as(u).get(`?client_id=${other.id}&status=draft`);
      expect(one.body.data.every((c: CampaignDto) => c.client_id === other.id && c.status === 'draft')).toBe(true);
      expect(one.body.meta).toMatchObject({ page: 1 });
    }
  });

  it('must name a client, and a user who is a client', async () => {
    const none = await as(admin).post('', { name: 'For nobody' });
    expect(none.status).toBe(400);
    expect(none.body.msg).toBe(CAMPAIGN_TEXTS.clientIdNeeded);
    for (const id of [member.id, admin.id, 999_999]) {
      const res = await as(dev).post('', { name: 'For a member', client_id: id });
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual({ client_id: CAMPAIGN_TEXTS.notClient });
    }
  });

  it('list the clients a campaign may be made for; nobody else may', async () => {
    const listed = await as(admin).get('/clients');
    expect(listed.status).toBe(200);
    const ids = listed.body.data.map((c: { id: number }) => c.id);
    expect(ids).toEqual(expect.arrayContaining([client.id, other.id]));
    expect(ids).not.toContain(member.id);
    expect(listed.body.data.find((c: { id: number }) => c.id === client.id)).toEqual({
      id: client.id,
      name: expect.any(String),
      email: client.email,
    });
    expect((await as(dev).get('/clients')).status).toBe(200);
    for (const u of [client, member, staff]) {
      const refused = await as(u).get('/clients');
      expect(refused.status).toBe(403);
      expect(refused.body.msg).toBeTruthy();
    }
  });
});

describe('members and staff', () => {
  it('have no campaigns at all', async () => {
    const c = await draft(client);
    for (const u of [member, staff]) {
      for (const res of [
        await as(u).get(''),
        await as(u).post('', { name: 'x' }),
        await as(u).get(`/${c.id}`),
        await as(u).put(`/${c.id}`, { name: 'x' }),
        await as(u).del(`/${c.id}`),
        await as(u).post(`/${c.id}/status`, { status: 'pending' }),
      ]) {
        expect(res.status).toBe(403);
        expect(res.body.msg).toBe('Campaigns are for admins, devs and clients.');
      }
    }
    expect((await as(null).get('')).status).toBe(401);
  });

  it('are refused, with 403, every campaign route (targets, variants, report, replies, leads, top-ups, clients)', async () => {
    const c = await draft(client);
    const routes = API_ROUTES.filter((r) => r.path.startsWith('/admin/campaigns'));
    expect(routes.length).toBeGreaterThan(20);
    for (const u of [member, staff]) {
      for (const r of routes) {
        const path = `/api${r.path.replace('{id}', String(c.id)).replace(/\{[^}]+\}/g, '1')}`;
        const res = await request(h.app)[r.method](path).set(bearer(u.token)).send({});
        expect(res.status, `${u.role} ${r.method.toUpperCase()} ${r.path}`).toBe(403);
        expect(typeof res.body.msg, `${r.method.toUpperCase()} ${r.path}`).toBe('string');
      }
    }
  });
});

describe('bad input', () => {
  it('gets a 400 naming the field, never a 500', async () => {
    const c = await draft(client);
    const cases: [Record<string, unknown>, string][] = [
      [{}, 'name'],
      [{ name: 'x', start_at: 'tomorrow' }, 'start_at'],
      [{ name: 'x', start_at: LATER, end_at: FUTURE }, 'end_at'],
      [{ name: 'x', window_start: '09:00' }, 'window_start'],
      [{ name: 'x', window_start: '25:00', window_end: '10:00' }, 'window_start'],
      [{ name: 'x', budget_messages: 0 }, 'budget_messages'],
      [{ name: 'x', budget_amount: -5 }, 'budget_amount'],
      [{ name: 'x', budget_messages: 'many' }, 'budget_messages'],
      [{ name: 'x'.repeat(121) }, 'name'],
      [{ name: '   ' }, 'name'],
      [{ name: 123 }, 'name'],
      [{ name: 'Promo\u0000' }, 'name'],
    ];
    for (const [body, field] of cases) {
      const res = await as(client).post('', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(Object.keys(res.body.errors ?? {}), JSON.stringify(body)).toContain(field);
    }
    const past = await as(client).post('', { name: 'x', end_at: '2020-01-01T00:00:00Z' });
    expect(past.status).toBe(400);
    expect(past.body.msg).toBe(CAMPAIGN_TEXTS.endPassed);
    expect((await as(client).put(`/${c.id}`, {})).status).toBe(400);
    // a campaign keeps a name: an update cannot empty it
    for (const name of ['', '  ', null]) {
      const res = await as(client).put(`/${c.id}`, { name });
      expect(res.status, JSON.stringify(name)).toBe(400);
      expect(res.body.errors?.name).toBe('Name is required.');
    }
    expect((await as(client).get(`/${c.id}`)).body.data.name).toBe(c.name);
    expect((await as(client).put(`/${c.id}`, { start_at: LATER, end_at: FUTURE })).status).toBe(400);
    expect((await as(client).post(`/${c.id}/status`, { status: 'live' })).status).toBe(400);
    expect((await as(client).get('/abc')).status).toBe(400);
    expect((await as(client).get('?status=gone')).status).toBe(400);
  });

  it('a client is not counted as an admin (the start makes an admin when none exists)', async () => {
    const repo = new UsersRepo(h.database.db);
    const admins = await repo.countRole('admin');
    await createUser(h.database.db, { role: 'client' });
    expect(await repo.countRole('admin')).toBe(admins);
  });
});
