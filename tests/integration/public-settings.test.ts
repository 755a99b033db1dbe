import { PUBLIC_TEXT_MAX, publicSettingsResponse, TELEGRAM_URL_MSG } from '@wa/shared';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { apiAs, bearer, useApiWithRoles } from '../support/api';
import type { TestUser } from '../support/factories';

/** Issue 20: the public pages' texts an admin edits in Pengaturan, readable without a token. */
const { h, admin, dev, member, staff } = useApiWithRoles();
const as = (u: TestUser) => apiAs(h, u);
const anon = () => request(h.app).get('/api/settings/public');

/** The §5 fields an update always carries. */
const BASE = {
  interval_min: 3,
  interval_max: 9,
  price: 75,
  bank_names: 'BCA, MANDIRI, BRI',
  colors: '#3C50E0, #10B981',
  referral_percent: 0,
  info: 'Info',
};

describe('GET /api/settings/public', () => {
  it('answers without a token with the public fields only, starting from the Indonesian defaults', async () => {
    const res = await anon();
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['privacy_text', 'support_contact', 'telegram_url', 'terms_text']);
    // the OpenAPI document's schema, with nothing more
    expect(publicSettingsResponse.strict().safeParse(res.body).success).toBe(true);
    expect(res.body.terms_text).toMatch(/^Syarat dan Ketentuan/);
    expect(res.body.privacy_text).toMatch(/^Kebijakan Privasi/);
    expect(res.body.support_contact).not.toBe('');
    expect(res.body.telegram_url).toBe('https://t.me/wablaster');
    // a stale or forged token does not matter to a public read
    expect((await anon().set(bearer(`${member.token}x`))).status).toBe(200);
  });

  it('shows what an admin saves, and an update without them keeps them', async () => {
    const texts = {
      terms_text: 'Ketentuan baru\n\nPasal 1: jangan spam.',
      privacy_text: 'Privasi baru',
      support_contact: 'WhatsApp 6281234567890',
      telegram_url: 'https://t.me/wablaster_support',
    };
    const saved = await as(admin).put('/admin/setting/update', { ...BASE, ...texts });
    expect(saved.status).toBe(200);
    expect(saved.body.setting).toMatchObject(texts);
    expect((await anon()).body).toEqual(texts);
    // the settings form of an older client (no public fields) leaves them as they are
    expect((await as(dev).put('/admin/setting/update', { ...BASE, info: 'Lain' })).status).toBe(200);
    expect((await anon()).body).toEqual(texts);
    // an empty Telegram link hides the menu item
    expect((await as(admin).put('/admin/setting/update', { ...BASE, telegram_url: '' })).status).toBe(200);
    expect((await anon()).body.telegram_url).toBe('');
  });
});

describe('PUT /api/admin/setting/update: the public fields', () => {
  it('refuses a Telegram link that is not https, and texts empty or too long, with {msg}, changing nothing', async () => {
    const before = (await anon()).body;
    expect(before).toHaveProperty('telegram_url');
    const cases: [object, string, string][] = [
      [{ telegram_url: 'http://t.me/wablaster' }, 'telegram_url', TELEGRAM_URL_MSG],
      [{ telegram_url: 'javascript:alert(1)' }, 'telegram_url', TELEGRAM_URL_MSG],
      [{ telegram_url: 't.me/wablaster' }, 'telegram_url', TELEGRAM_URL_MSG],
      [{ telegram_url: 'https://t.me/a b' }, 'telegram_url', TELEGRAM_URL_MSG],
      [{ terms_text: '   ' }, 'terms_text', 'Terms text is required.'],
      [
        { privacy_text: 'x'.repeat(PUBLIC_TEXT_MAX + 1) },
        'privacy_text',
        `Privacy text must be at most ${PUBLIC_TEXT_MAX} characters.`,
      ],
      [{ support_contact: 'x'.repeat(501) }, 'support_contact', 'Support contact must be at most 500 characters.'],
      [{ support_contact: 42 }, 'support_contact', 'Support contact must be text.'],
    ];
    for (const [change, field, msg] of cases) {
      const res = await as(admin).put('/admin/setting/update', { ...BASE, ...change });
      expect(res.status, field).toBe(400);
      expect(res.body.msg, field).toBe(msg);
      expect(res.body.errors[field], field).toBe(msg);
    }
    expect((await anon()).body).toEqual(before);
  });

  it('refuses members and staff, with a message, changing nothing', async () => {
    const before = (await anon()).body;
    expect(before).toHaveProperty('terms_text');
    for (const u of [member, staff]) {
      const res = await as(u).put('/admin/setting/update', { ...BASE, terms_text: 'Diubah', telegram_url: '' });
      expect(res.status, u.role).toBe(403);
      expect(res.body, u.role).toEqual({ msg: 'You are not allowed to do this.' });
    }
    const noToken = await request(h.app)
      .put('/api/admin/setting/update')
      .send({ ...BASE, terms_text: 'Diubah' });
    expect(noToken.status).toBe(401);
    expect((await anon()).body).toEqual(before);
  });
});
