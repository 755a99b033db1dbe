import { sql } from 'drizzle-orm';
import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../core/src/db/client';
import { bearer, useApiWithRoles } from '../support/api';
import { type TestUser, TINY_PNG } from '../support/factories';
import { BUTTON, templateHelpers } from '../support/templates';

/**
 * Who may use the message template routes: members and staff none, no token none, a forged token
 * none, dev all of them; a refused call changes nothing. What the routes do: templates.test.ts.
 */

const { h, admin, dev, member, staff } = useApiWithRoles();
const { create, count } = templateHelpers(h, admin);
/** the template media in the file store */
const mediaFiles = async () =>
  (
    await rows<{ name: string }>(
      h.database.db,
      sql`select name from stored_files where kind = 'template' order by name`,
    )
  ).map((r) => r.name);

/** Every template route, called as `u` (or with no token at all). */
const routes = (u: TestUser | null, id: number) => {
  const auth = (r: request.Test) => (u ? r.set(bearer(u.token)) : r);
  const json = Buffer.from(JSON.stringify([{ text: 'dari import' }]));
  return [
    ['GET /list', () => auth(request(h.app).get('/api/admin/message/list'))],
    ['GET /list-per-page', () => auth(request(h.app).get('/api/admin/message/list-per-page?page=1'))],
    ['GET /{id}', () => auth(request(h.app).get(`/api/admin/message/${id}`))],
    [
      'POST /create',
      () =>
        auth(request(h.app).post('/api/admin/message/create'))
          .field('text', 'dari orang lain')
          .attach('file', TINY_PNG, 'x.png'),
    ],
    ['POST /import', () => auth(request(h.app).post('/api/admin/message/import')).attach('file', json, 't.json')],
    [
      'PUT /{id}',
      () =>
        auth(request(h.app).put(`/api/admin/message/${id}`))
          .field('text', 'diubah')
          .field('status', 'nonactive'),
    ],
    ['DELETE /{id}', () => auth(request(h.app).delete(`/api/admin/message/${id}`))],
  ] as const;
};

describe('who may use the template routes', () => {
  let target: { id: number; text: string; media: string; status: string; button: unknown[] };

  beforeAll(async () => {
    const res = await create(
      admin,
      { text: 'Milik admin', button: JSON.stringify([BUTTON]) },
      { name: 'a.png', data: TINY_PNG },
    );
    expect(res.status).toBe(201);
    target = res.body.message;
  });

  it('refuses members and staff on every route with 403 and a message, changing nothing', async () => {
    const before = await count();
    const files = await mediaFiles();
    for (const u of [member, staff]) {
      for (const [name, call] of routes(u, target.id)) {
        const res = await call();
        expect(res.status, `${u.role} ${name}`).toBe(403);
        expect(res.body, `${u.role} ${name}`).toEqual({ msg: 'You are not allowed to do this.' });
      }
    }
    expect(await count()).toBe(before);
    // a refused upload leaves no file behind
    expect(await mediaFiles()).toEqual(files);
    const still = await request(h.app).get(`/api/admin/message/${target.id}`).set(bearer(admin.token));
    expect(still.body.message).toEqual(target);
  });

  it('refuses every route without a token with 401 and a message, changing nothing', async () => {
    const before = await count();
    const files = await mediaFiles();
    for (const [name, call] of routes(null, target.id)) {
      const res = await call();
      expect(res.status, name).toBe(401);
      expect(res.body, name).toEqual({ msg: 'Authorization token is missing' });
    }
    expect(await count()).toBe(before);
    expect(await mediaFiles()).toEqual(files);
    const still = await request(h.app).get(`/api/admin/message/${target.id}`).set(bearer(admin.token));
    expect(still.body.message).toEqual(target);
  });

  it('refuses a forged token with 401', async () => {
    const res = await request(h.app)
      .get('/api/admin/message/list')
      .set(bearer(`${admin.token}x`));
    expect(res.status).toBe(401);
    expect(res.body.msg).toBe('Invalid or expired token');
  });

  it('lets dev create, page, read, edit, import and delete', async () => {
    const made = await create(
      dev,
      { text: '<b>Dev</b>', button: JSON.stringify([BUTTON]) },
      { name: 'd.png', data: TINY_PNG },
    );
    expect(made.status).toBe(201);
    expect(made.body.msg).toBe('Template berhasil disimpan.');
    expect(made.body.message).toMatchObject({
      text: '<b>Dev</b>',
      text_wa: '*Dev*',
      button: [BUTTON],
      status: 'active',
    });
    const id = made.body.message.id;

    const page = await request(h.app).get('/api/admin/message/list-per-page?page=1').set(bearer(dev.token));
    expect(page.status).toBe(200);
    expect(page.body.data[0]).toEqual(made.body.message);
    expect(page.body.meta).toMatchObject({ page: 1, totalPages: expect.any(Number), total: await count() });

    const list = await request(h.app).get('/api/admin/message/list').set(bearer(dev.token));
    expect(list.body.list.map((t: { id: number }) => t.id)).toContain(id);
    const one = await request(h.app).get(`/api/admin/message/${id}`).set(bearer(dev.token));
    expect(one.body.message).toEqual(made.body.message);

    const up = await request(h.app)
      .put(`/api/admin/message/${id}`)
      .set(bearer(dev.token))
      .field('text', '<i>Dev 2</i>')
      .field('button', JSON.stringify([BUTTON]))
      .field('status', 'nonactive');
    expect(up.status).toBe(200);
    expect(up.body.msg).toBe('Template berhasil diperbarui.');
    expect(up.body.message).toMatchObject({
      id,
      text: '<i>Dev 2</i>',
      text_wa: '_Dev 2_',
      status: 'nonactive',
      media: made.body.message.media,
    });

    const imp = await request(h.app)
      .post('/api/admin/message/import')
      .set(bearer(dev.token))
      .attach('file', Buffer.from(JSON.stringify([{ text: 'Impor dev' }])), 'dev.json');
    expect(imp.status).toBe(200);
    expect(imp.body.created.map((c: { text_wa: string }) => c.text_wa)).toEqual(['Impor dev']);
    expect(imp.body.skipped).toEqual([]);

    const del = await request(h.app).delete(`/api/admin/message/${id}`).set(bearer(dev.token));
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ id, msg: 'Template berhasil dihapus.' });
    expect((await request(h.app).get(`/api/admin/message/${id}`).set(bearer(dev.token))).status).toBe(404);
    expect((await request(h.app).get(made.body.message.media)).status).toBe(404);
  });
});
