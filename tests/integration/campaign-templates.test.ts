import { readdirSync } from 'node:fs';
import path from 'node:path';
import {
  CAMPAIGN_TEMPLATE_TEXTS,
  CAMPAIGN_TEMPLATES_MAX,
  CAMPAIGN_TEXTS,
  type CampaignDto,
  type CampaignTemplateDto,
} from '@wa/shared';
import { sql } from 'drizzle-orm';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { rows } from '../../core/src/db/client';
import { apiAs, bearer, type FormFile, multipart, useApiWithRoles } from '../support/api';
import { type TestUser, TINY_PNG, useUsers } from '../support/factories';
import { BUTTON } from '../support/templates';

/**
 * Issue 22: a campaign's message variants. A client adds them to their own campaign with the
 * template form and a weight, and they wait for an admin's or dev's approval; an operator's are
 * approved at once. Nobody reaches another client's campaign, and the template screens
 * (/admin/message/…) never show, change or delete a variant.
 */
const { h, admin, dev, member, staff } = useApiWithRoles();
const { client, other } = useUsers(() => h.database.db, { client: 'client', other: 'client' });
const as = (u: TestUser | null) => apiAs(h, u, '/api/admin/campaigns');

async function campaign(owner: TestUser = client): Promise<CampaignDto> {
  const res = await as(owner).post('', { name: `Promo ${Math.random().toString(36).slice(2, 7)}` });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
}

/** POST /admin/campaigns/{id}/templates as the portal's form sends it. */
const addVariant = (u: TestUser, campaignId: number, fields: Record<string, string | number>, file?: FormFile) =>
  multipart(request(h.app).post(`/api/admin/campaigns/${campaignId}/templates`).set(bearer(u.token)), fields, file);

async function variant(u: TestUser, campaignId: number, fields: Record<string, string | number> = { text: 'Halo' }) {
  const res = await addVariant(u, campaignId, fields);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data as CampaignTemplateDto;
}

const approve = (u: TestUser, campaignId: number, id: number) =>
  as(u).post(`/${campaignId}/templates/${id}/approve`, {});

async function approver(id: number): Promise<number | null> {
  const [r] = await rows<{ approved_by: number | null }>(
    h.database.db,
    sql`select approved_by from message_templates where id = ${id}`,
  );
  return r.approved_by;
}

describe('a client', () => {
  it('adds a variant with media, a sanitised caption, buttons and a weight; it waits for approval', async () => {
    const c = await campaign();
    const res = await addVariant(
      client,
      c.id,
      { text: '<p>Halo <b>{name}</b><script>alert(1)</script></p>', button: JSON.stringify([BUTTON]), weight: '3' },
      { name: 'Promo.PNG', data: TINY_PNG },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.msg).toBe(CAMPAIGN_TEMPLATE_TEXTS.awaitingApproval);
    const v = res.body.data as CampaignTemplateDto;
    expect(v).toMatchObject({
      campaign_id: c.id,
      text: '<p>Halo <b>{name}</b></p>',
      text_wa: 'Halo *{name}*',
      button: [BUTTON],
      status: 'active',
      weight: 3,
      approved: false,
      approved_at: null,
    });
    expect(v.media).toMatch(/^\/uploads\/templates\/\d+-[0-9a-f]{12}\.png$/);
    const media = await request(h.app).get(v.media as string);
    expect(media.status).toBe(200);
    expect(Buffer.compare(media.body as Buffer, TINY_PNG)).toBe(0);
    expect(await approver(v.id)).toBeNull();

    const list = await as(client).get(`/${c.id}/templates`);
    expect(list.status).toBe(200);
    expect(list.body).toEqual({ data: [v] });
  });

  it('changes the weight and status of a variant, which keeps its approval, and deletes one with its media', async () => {
    const c = await campaign();
    const made = (await addVariant(client, c.id, { text: 'Lama' }, { name: 'a.png', data: TINY_PNG })).body.data;
    const approved = (await approve(admin, c.id, made.id)).body.data as CampaignTemplateDto;
    expect(approved.approved).toBe(true);
    const res = await as(client).put(`/${c.id}/templates/${made.id}`, { weight: 7, status: 'nonactive' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({
      data: { ...approved, weight: 7, status: 'nonactive' },
      msg: CAMPAIGN_TEMPLATE_TEXTS.updated,
    });
    expect((await as(client).put(`/${c.id}/templates/${made.id}`, { status: 'active' })).body.data).toMatchObject({
      weight: 7,
      status: 'active',
      approved: true,
      approved_at: approved.approved_at,
    });

    const del = await as(client).del(`/${c.id}/templates/${made.id}`);
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ id: made.id, msg: CAMPAIGN_TEMPLATE_TEXTS.deleted });
    expect((await request(h.app).get(made.media)).status).toBe(404);
    expect((await as(client).get(`/${c.id}/templates`)).body.data).toEqual([]);
    const again = await as(client).del(`/${c.id}/templates/${made.id}`);
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ msg: CAMPAIGN_TEMPLATE_TEXTS.notFound });
  });

  it('may not approve, not even their own variant', async () => {
    const c = await campaign();
    const v = await variant(client, c.id);
    const res = await approve(client, c.id, v.id);
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ msg: 'Only an admin or dev approves a campaign.' });
    expect((await as(client).get(`/${c.id}/templates`)).body.data[0].approved).toBe(false);
  });

  it('reaches no other client’s campaign: its variants are not found, for every verb', async () => {
    const theirs = await campaign(other);
    const v = await variant(other, theirs.id);
    for (const res of [
      await as(client).get(`/${theirs.id}/templates`),
      await addVariant(client, theirs.id, { text: 'Mine now' }, { name: 'x.png', data: TINY_PNG }),
      await as(client).put(`/${theirs.id}/templates/${v.id}`, { weight: 9 }),
      await as(client).del(`/${theirs.id}/templates/${v.id}`),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ msg: CAMPAIGN_TEXTS.notFound });
    }
    // approval is an operator's whoever's campaign it is
    expect((await approve(client, theirs.id, v.id)).status).toBe(403);
    // nor through their own campaign's path
    const mine = await campaign(client);
    for (const res of [
      await as(client).put(`/${mine.id}/templates/${v.id}`, { weight: 9 }),
      await as(client).del(`/${mine.id}/templates/${v.id}`),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ msg: CAMPAIGN_TEMPLATE_TEXTS.notFound });
    }
    expect((await as(other).get(`/${theirs.id}/templates`)).body.data).toEqual([v]);
  });
});

describe('admins and devs', () => {
  it('add a variant to a client’s campaign approved at once, by them', async () => {
    const c = await campaign();
    const before = Date.now();
    const res = await addVariant(admin, c.id, { text: 'Dari admin' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.msg).toBe(CAMPAIGN_TEMPLATE_TEXTS.saved);
    const v = res.body.data as CampaignTemplateDto;
    expect(v).toMatchObject({ weight: 1, approved: true, status: 'active', media: null, text_wa: 'Dari admin' });
    expect(Date.parse(v.approved_at as string)).toBeGreaterThanOrEqual(before - 1000);
    expect(await approver(v.id)).toBe(admin.id);
    const byDev = await variant(dev, c.id, { text: 'Dari dev', weight: 1000 });
    expect(byDev).toMatchObject({ weight: 1000, approved: true });
    expect(await approver(byDev.id)).toBe(dev.id);
    // the client sees what the operator added to their campaign
    expect((await as(client).get(`/${c.id}/templates`)).body.data.map((t: CampaignTemplateDto) => t.id)).toEqual([
      v.id,
      byDev.id,
    ]);
  });

  it('approve a client’s variant; approving again keeps the first approval', async () => {
    const c = await campaign();
    const v = await variant(client, c.id);
    const first = await approve(admin, c.id, v.id);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.msg).toBe(CAMPAIGN_TEMPLATE_TEXTS.approved);
    expect(first.body.data).toMatchObject({ id: v.id, approved: true });
    expect(first.body.data.approved_at).toEqual(expect.any(String));
    expect(await approver(v.id)).toBe(admin.id);
    const second = await approve(dev, c.id, v.id);
    expect(second.status).toBe(200);
    expect(second.body.data).toEqual(first.body.data);
    expect(await approver(v.id)).toBe(admin.id);
  });

  it('approve only a variant of that campaign: another’s, a pool template or none is not found', async () => {
    const c = await campaign();
    const elsewhere = await variant(client, (await campaign()).id);
    const pool = await multipart(request(h.app).post('/api/admin/message/create').set(bearer(admin.token)), {
      text: 'Pool',
    });
    expect(pool.status).toBe(201);
    for (const id of [elsewhere.id, pool.body.message.id, 999_999]) {
      const res = await approve(dev, c.id, id);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ msg: CAMPAIGN_TEMPLATE_TEXTS.notFound });
    }
    const gone = await approve(dev, 999_999, elsewhere.id);
    expect(gone.status).toBe(404);
    expect(gone.body).toEqual({ msg: CAMPAIGN_TEXTS.notFound });
  });
});

describe('members and staff', () => {
  it('have no variants at all', async () => {
    const c = await campaign();
    const v = await variant(client, c.id);
    for (const u of [member, staff]) {
      for (const res of [
        await as(u).get(`/${c.id}/templates`),
        await addVariant(u, c.id, { text: 'x' }),
        await as(u).put(`/${c.id}/templates/${v.id}`, { weight: 2 }),
        await as(u).del(`/${c.id}/templates/${v.id}`),
      ]) {
        expect(res.status).toBe(403);
        expect(res.body).toEqual({ msg: 'Campaigns are for admins, devs and clients.' });
      }
      const res = await approve(u, c.id, v.id);
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ msg: 'Only an admin or dev approves a campaign.' });
    }
    expect((await as(null).get(`/${c.id}/templates`)).status).toBe(401);
    expect((await as(client).get(`/${c.id}/templates`)).body.data).toEqual([v]);
  });
});

describe('the template screens', () => {
  it('list, page, count and export the pool’s templates only, and a variant is not found there', async () => {
    const m = apiAs(h, admin, '/api/admin/message');
    const pool = await multipart(request(h.app).post('/api/admin/message/create').set(bearer(admin.token)), {
      text: 'Pool template',
    });
    expect(pool.status).toBe(201);
    const c = await campaign();
    const v = await variant(admin, c.id, { text: 'Campaign variant' });
    const texts = (list: { text: string }[]) => list.map((t) => t.text);

    const list = await m.get('/list');
    expect(texts(list.body.list)).toContain('Pool template');
    expect(texts(list.body.list)).not.toContain('Campaign variant');
    const page = await m.get('/list-per-page?page=1');
    expect(page.body.meta.total).toBe(list.body.list.length);
    expect(page.body.data.map((t: { id: number }) => t.id)).not.toContain(v.id);
    const [{ n }] = await rows<{ n: number }>(
      h.database.db,
      sql`select count(*)::int as n from message_templates where campaign_id is null`,
    );
    expect(page.body.meta.total).toBe(Number(n));
    const exported = await m.get('/export');
    expect(texts(exported.body)).not.toContain('Campaign variant');
    const csv = await m.get('/export?format=csv');
    expect(csv.text).not.toContain('Campaign variant');

    for (const res of [
      await m.get(`/${v.id}`),
      await multipart(request(h.app).put(`/api/admin/message/${v.id}`).set(bearer(admin.token)), { text: 'Hijacked' }),
      await m.del(`/${v.id}`),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ msg: 'Template not found' });
    }
    // the variant is as it was
    expect((await as(admin).get(`/${c.id}/templates`)).body.data).toEqual([v]);
    // the first-run checklist counts the pool's active templates only
    const firstRun = await apiAs(h, admin, '/api/admin/first-run').get('');
    const [{ active }] = await rows<{ active: number }>(
      h.database.db,
      sql`select count(*)::int as active from message_templates where campaign_id is null and status = 'active'`,
    );
    expect(firstRun.body.templates).toBe(active);
  });
});

describe('bad input', () => {
  const uploads = () => readdirSync(path.join(h.dataDir, 'tmp', 'uploads'));

  it('gets a 4xx with a msg, never a 500, and leaves no upload behind', async () => {
    const c = await campaign();
    const weights: [string, string][] = [
      ['0', 'weight must be at least 1.'],
      ['abc', 'weight must be a number.'],
      ['1001', 'weight is too large.'],
      ['1.5', 'weight must be a whole number.'],
    ];
    for (const [weight, msg] of weights) {
      const res = await addVariant(client, c.id, { text: 'x', weight }, { name: 'a.png', data: TINY_PNG });
      expect(res.status, weight).toBe(400);
      expect(res.body.errors?.weight, weight).toBe(msg);
    }
    // what POST /admin/message/create refuses, this refuses too
    const empty = await addVariant(client, c.id, { text: '<script>only</script>' });
    expect(empty.status).toBe(400);
    expect(empty.body.msg).toBe('Isi caption atau pilih media.');
    const noFields = await addVariant(client, c.id, { text: '', weight: 2 });
    expect(noFields.status).toBe(400);
    expect(noFields.body.msg).toBe('Isi caption atau pilih media.');
    const button = await addVariant(client, c.id, {
      text: 'x',
      button: JSON.stringify([{ id: '1', title: 'Beli', url: '', type: 'url_button' }]),
    });
    expect(button.body.msg).toBe('Judul button : "Beli" belum mempunyai URL.');
    expect((await addVariant(client, c.id, { text: 'x', status: 'maybe' })).body.msg).toBe(
      'Status must be active or nonactive.',
    );
    const exe = await addVariant(client, c.id, { text: 'x' }, { name: 'evil.exe', data: Buffer.from('MZ') });
    expect(exe.status).toBe(400);
    expect(exe.body.msg).toBe('File type not allowed: .exe');
    const json = await as(client).post(`/${c.id}/templates`, { text: 'x' });
    expect(json.status).toBe(400);
    expect(json.body.msg).toBe('Send the template as multipart/form-data.');
    expect((await as(client).get('/abc/templates')).status).toBe(400);
    expect((await as(client).get(`/${c.id}/templates`)).body.data).toEqual([]);

    const v = await variant(client, c.id);
    for (const body of [
      {},
      { weight: 0 },
      { weight: 'abc' },
      { weight: 1001 },
      { status: 'maybe' },
      { weight: null },
    ]) {
      const res = await as(client).put(`/${c.id}/templates/${v.id}`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(typeof res.body.msg, JSON.stringify(body)).toBe('string');
    }
    expect((await as(client).put(`/${c.id}/templates/${v.id}`, {})).body.msg).toBe(
      CAMPAIGN_TEMPLATE_TEXTS.nothingToUpdate,
    );
    expect((await as(client).put(`/${c.id}/templates/abc`, { weight: 2 })).status).toBe(400);
    expect((await as(client).del(`/${c.id}/templates/0`)).status).toBe(400);
    expect((await approve(admin, c.id, -1)).status).toBe(400);
    expect(uploads()).toEqual([]);
  });

  it('a finished campaign’s variants stay as they are (409)', async () => {
    const c = await campaign();
    const v = await variant(client, c.id);
    expect((await as(client).post(`/${c.id}/status`, { status: 'finished' })).body.data.status).toBe('finished');
    for (const res of [
      await addVariant(client, c.id, { text: 'Late' }, { name: 'late.png', data: TINY_PNG }),
      await addVariant(admin, c.id, { text: 'Late' }),
      await as(client).put(`/${c.id}/templates/${v.id}`, { weight: 2 }),
      await as(client).del(`/${c.id}/templates/${v.id}`),
      await approve(admin, c.id, v.id),
    ]) {
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ msg: CAMPAIGN_TEXTS.finished });
    }
    // still readable: the report of a finished campaign names its variants
    expect((await as(client).get(`/${c.id}/templates`)).body.data).toEqual([v]);
    expect(uploads()).toEqual([]);
  });

  it(`a campaign has at most ${CAMPAIGN_TEMPLATES_MAX} variants`, async () => {
    const c = await campaign();
    await h.database.db.execute(
      sql`insert into message_templates (campaign_id, text, text_wa)
          select ${c.id}, 'v' || g, 'v' || g from generate_series(1, ${CAMPAIGN_TEMPLATES_MAX}) g`,
    );
    const res = await addVariant(client, c.id, { text: 'One more' }, { name: 'more.png', data: TINY_PNG });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ msg: CAMPAIGN_TEMPLATE_TEXTS.tooMany });
    expect((await as(client).get(`/${c.id}/templates`)).body.data).toHaveLength(CAMPAIGN_TEMPLATES_MAX);
    expect(uploads()).toEqual([]);
  });
});
