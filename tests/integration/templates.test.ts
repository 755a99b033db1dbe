import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { bearer, useApiWithRoles } from '../support/api';
import { TINY_PNG } from '../support/factories';
import { BUTTON, templateHelpers } from '../support/templates';

/**
 * Message templates (§2 Message): create with media and a sanitised caption, the button rules,
 * update, delete, import (also of oversized items) and export. Who may use the routes:
 * templates-access.test.ts.
 */

const { h, admin, member, staff } = useApiWithRoles();
const { create, count } = templateHelpers(h, admin);

describe('message templates', () => {
  it('creates a template with media, a sanitised caption and its WhatsApp text, served back by URL', async () => {
    const res = await create(
      admin,
      { text: '<p>Halo <b>{name}</b><script>alert(1)</script><img src=x onerror=alert(1)></p>', button: '[]' },
      { name: 'Promo.PNG', data: TINY_PNG },
    );
    expect(res.status).toBe(201);
    expect(res.body.message).toMatchObject({
      text: '<p>Halo <b>{name}</b></p>',
      text_wa: 'Halo *{name}*',
      status: 'active',
      button: [],
      count_use: 0,
    });
    expect(res.body.message.media).toMatch(/^\/uploads\/templates\/\d+-[0-9a-f]{12}\.png$/);
    const media = await request(h.app).get(res.body.message.media);
    expect(media.status).toBe(200);
    expect(media.headers['content-type']).toBe('image/png');
    expect(Buffer.compare(media.body as Buffer, TINY_PNG)).toBe(0);
  });

  it('enforces the button rules with the exact texts, and a caption or media', async () => {
    const a = await create(admin, {
      text: 'x',
      button: JSON.stringify([{ id: '1', title: 'Beli', url: '', type: 'url_button' }]),
    });
    expect(a.status).toBe(400);
    expect(a.body.msg).toBe('Judul button : "Beli" belum mempunyai URL.');
    const b = await create(admin, {
      text: 'x',
      button: JSON.stringify([{ id: '1', title: '', url: 'https://x.test', type: 'url_button' }]),
    });
    expect(b.body.msg).toBe('URL button "https://x.test" belum punya nama atau judul.');
    const c = await create(admin, { text: 'x', button: '{not json' });
    expect(c.status).toBe(400);
    expect(c.body.msg).toMatch(/button must be a JSON array/);
    const d = await create(admin, { text: 'x', button: JSON.stringify([{ title: 'A', url: 'u', type: 'fax' }]) });
    expect(d.body.msg).toMatch(/Button type must be one of/);
    const e = await create(admin, { text: '<script>only</script>' });
    expect(e.status).toBe(400);
    expect(e.body.msg).toBe('Isi caption atau pilih media.');
    const f = await create(admin, { text: 'ok', status: 'maybe' });
    expect(f.body.msg).toBe('Status must be active or nonactive.');
    const ok = await create(admin, {
      text: 'Klik',
      button: JSON.stringify([{ id: '1', title: 'Beli', url: 'https://x.test', type: 'url_button' }]),
    });
    expect(ok.status).toBe(201);
    expect(ok.body.message.button).toEqual([{ id: '1', title: 'Beli', url: 'https://x.test', type: 'url_button' }]);
  });

  it('refuses a file type outside the media list, a JSON body, and an oversize file', async () => {
    const exe = await create(admin, { text: 'x' }, { name: 'evil.exe', data: Buffer.from('MZ') });
    expect(exe.status).toBe(400);
    expect(exe.body.msg).toBe('File type not allowed: .exe');
    const json = await request(h.app).post('/api/admin/message/create').set(bearer(admin.token)).send({ text: 'x' });
    expect(json.status).toBe(400);
    expect(json.body.msg).toBe('Send the template as multipart/form-data.');
    const big = await create(admin, { text: 'x' }, { name: 'big.png', data: Buffer.alloc(17 * 1024 * 1024) });
    expect(big.status).toBe(413);
  });

  it('updates without a file (keeping the media) and with one (replacing it), then deletes', async () => {
    const made = (await create(admin, { text: 'lama' }, { name: 'a.png', data: TINY_PNG })).body.message;
    const kept = await request(h.app)
      .put(`/api/admin/message/${made.id}`)
      .set(bearer(admin.token))
      .field('text', '<i>baru</i>')
      .field('status', 'nonactive');
    expect(kept.status).toBe(200);
    expect(kept.body.message).toMatchObject({
      text: '<i>baru</i>',
      text_wa: '_baru_',
      status: 'nonactive',
      media: made.media,
    });
    const replaced = await request(h.app)
      .put(`/api/admin/message/${made.id}`)
      .set(bearer(admin.token))
      .field('text', 'baru')
      .attach('file', TINY_PNG, 'b.png');
    expect(replaced.body.message.media).not.toBe(made.media);
    expect((await request(h.app).get(made.media)).status).toBe(404);
    const del = await request(h.app).delete(`/api/admin/message/${made.id}`).set(bearer(admin.token));
    expect(del.body.id).toBe(made.id);
    expect((await request(h.app).get(replaced.body.message.media)).status).toBe(404);
    expect((await request(h.app).get(`/api/admin/message/${made.id}`).set(bearer(admin.token))).status).toBe(404);
  });

  it('imports JSON only, skipping invalid items with a reason', async () => {
    const items = [
      { text: '<b>A</b>' },
      { text: 'B', button: [{ title: 'Go', url: '' }] },
      { text: '' },
      'nope',
      {
        text: 'C',
        status: 'nonactive',
        button: [{ id: 'x', title: 'Go', url: 'https://go.test', type: 'url_button' }],
      },
    ];
    const res = await request(h.app)
      .post('/api/admin/message/import')
      .set(bearer(admin.token))
      .attach('file', Buffer.from(JSON.stringify(items)), 't.json');
    expect(res.status).toBe(200);
    expect(res.body.created.map((c: { text_wa: string }) => c.text_wa)).toEqual(['*A*', 'C']);
    expect(res.body.skipped.map((s: { reason: string }) => s.reason)).toEqual([
      'Judul button : "Go" belum mempunyai URL.',
      'Isi caption atau pilih media.',
      'Not a template',
    ]);
    const csv = await request(h.app)
      .post('/api/admin/message/import')
      .set(bearer(admin.token))
      .attach('file', Buffer.from('a,b'), 't.csv');
    expect(csv.status).toBe(400);
    expect(csv.body.msg).toBe('Only .json files are accepted.');
    const broken = await request(h.app)
      .post('/api/admin/message/import')
      .set(bearer(admin.token))
      .attach('file', Buffer.from('[{"text":'), 't.json');
    expect(broken.status).toBe(400);
    const empty = await request(h.app)
      .post('/api/admin/message/import')
      .set(bearer(admin.token))
      .attach('file', Buffer.from(''), 't.json');
    expect(empty.status).toBe(400);
  });

  it('lists, pages and exports messages.json', async () => {
    const list = await request(h.app).get('/api/admin/message/list').set(bearer(admin.token));
    const page = await request(h.app).get('/api/admin/message/list-per-page?page=1').set(bearer(admin.token));
    expect(page.body.meta.total).toBe(list.body.list.length);
    const exp = await request(h.app).get('/api/admin/message/export').set(bearer(admin.token));
    expect(exp.headers['content-disposition']).toBe('attachment; filename="messages.json"');
    expect(exp.body).toHaveLength(list.body.list.length);
    expect(exp.headers['content-type']).toMatch(/^application\/json/);
    // ?format=csv is a CSV (README: exports take format=csv|json), the buttons as JSON in their cell
    const csv = await request(h.app).get('/api/admin/message/export?format=csv').set(bearer(admin.token));
    expect(csv.status).toBe(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    expect(csv.headers['content-disposition']).toBe('attachment; filename="messages.csv"');
    const lines = csv.text.trim().split('\n');
    expect(lines[0]).toBe('media,text,text_wa,button,status');
    expect(lines).toHaveLength(list.body.list.length + 1);
    expect(csv.text).toContain('""type""'); // a button's JSON, quoted as CSV quotes it
    const json = await request(h.app).get('/api/admin/message/export?format=json').set(bearer(admin.token));
    expect(json.body).toEqual(exp.body);
    const bad = await request(h.app).get('/api/admin/message/export?format=xml').set(bearer(admin.token));
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toBe('format must be csv or json');
  });

  it('refuses members and staff', async () => {
    for (const u of [member, staff]) {
      expect((await request(h.app).get('/api/admin/message/list').set(bearer(u.token))).status).toBe(403);
      expect((await create(u, { text: 'x' })).status).toBe(403);
    }
  });
});

describe('template import of oversized items', () => {
  const upload = (data: string) =>
    request(h.app)
      .post('/api/admin/message/import')
      .set(bearer(admin.token))
      .attach('file', Buffer.from(data), 'big.json');

  it('skips an item over the 64 KB item limit with a reason and keeps the rest', async () => {
    const before = await count();
    const huge = { text: 'x'.repeat(70 * 1024) };
    const res = await upload(JSON.stringify([{ text: 'Sebelum' }, huge, { text: 'Sesudah' }]));
    expect(res.status).toBe(200);
    expect(res.body.created.map((c: { text_wa: string }) => c.text_wa)).toEqual(['Sebelum', 'Sesudah']);
    expect(res.body.skipped).toEqual([expect.objectContaining({ reason: 'Row is too long', text: '' })]);
    expect(await count()).toBe(before + 2);
  });

  it('skips a file that is one huge line and answers, never a 500', async () => {
    const before = await count();
    const res = await upload(`[{"text":"${'y'.repeat(1024 * 1024)}"}]`);
    expect(res.status).toBe(200);
    expect(res.body.created).toEqual([]);
    expect(res.body.skipped).toEqual([expect.objectContaining({ reason: 'Row is too long' })]);
    expect(await count()).toBe(before);
  });

  it('skips an item under the item limit whose caption is too long, with the caption rule', async () => {
    const before = await count();
    const res = await upload(JSON.stringify([{ text: 'z'.repeat(20_000) }, { text: 'Pendek' }]));
    expect(res.status).toBe(200);
    expect(res.body.created.map((c: { text_wa: string }) => c.text_wa)).toEqual(['Pendek']);
    expect(res.body.skipped.map((s: { reason: string }) => s.reason)).toEqual(['Caption is too long.']);
    expect(await count()).toBe(before + 1);
  });

  it('refuses a huge file that is cut off with a clear message, never a 500', async () => {
    const before = await count();
    const res = await upload(`[{"text":"${'w'.repeat(200_000)}`);
    expect(res.status).toBe(400);
    expect(res.body.msg).toBe('The JSON file is cut off: the array never closes.');
    expect(await count()).toBe(before);
  });

  it('imports nothing of a file that turns out broken after valid items, as phone numbers and proxies do', async () => {
    const before = await count();
    const res = await upload('[{"text":"Setengah"},{"text":"Dua"},{"text":"pot');
    expect(res.status).toBe(400);
    expect(res.body.msg).toBe('The JSON file is cut off: the array never closes.');
    expect(await count()).toBe(before);
  });
});

describe('PUT of a template with buttons', () => {
  it('keeps the buttons and the status when only the text is sent', async () => {
    const made = await create(admin, {
      text: 'Dengan tombol',
      button: JSON.stringify([BUTTON]),
      status: 'nonactive',
    });
    expect(made.status).toBe(201);
    expect(made.body.message).toMatchObject({ button: [BUTTON], status: 'nonactive' });
    const id = made.body.message.id;
    const res = await request(h.app)
      .put(`/api/admin/message/${id}`)
      .set(bearer(admin.token))
      .field('text', 'Teks baru');
    expect(res.status).toBe(200);
    expect(res.body.message).toMatchObject({
      text: 'Teks baru',
      text_wa: 'Teks baru',
      button: [BUTTON],
      status: 'nonactive',
    });
    const saved = await request(h.app).get(`/api/admin/message/${id}`).set(bearer(admin.token));
    expect(saved.body.message).toMatchObject({ text: 'Teks baru', button: [BUTTON], status: 'nonactive' });
  });
});
