import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { apiAs, useApiWithRoles } from '../support/api';

/**
 * §7: the clients of start- and stop-blasting, bonus create and the generator's and validator's
 * start and stop read a failure's text from `error`. Those routes answer `{msg, error}` (the same
 * text) on every failure — no token, a role refused, bad input, a record that is not there — and
 * every other route keeps `{msg}` alone. The blast refusals of a real account: blast.test.ts.
 */

const { h, admin, member, staff } = useApiWithRoles();

const ROUTES = [
  '/admin/whatsapp/start-blasting',
  '/admin/whatsapp/stop-blasting',
  '/admin/bonus/create',
  '/admin/generator/start',
  '/admin/generator/stop',
  '/admin/validator/start',
  '/admin/validator/stop',
];

function expectBoth(res: request.Response, status: number, where: string) {
  expect(res.status, where).toBe(status);
  expect(typeof res.body.msg, where).toBe('string');
  expect(res.body.error, where).toBe(res.body.msg);
}

describe('failures read from `error`', () => {
  it('carry error = msg without a token, and on a malformed body', async () => {
    for (const path of ROUTES) {
      expectBoth(await apiAs(h, null).post(path, {}), 401, path);
      const malformed = await request(h.app)
        .post(`/api${path}`)
        .set('Authorization', `Bearer ${admin.token}`)
        .set('Content-Type', 'application/json')
        .send('{"id":');
      expectBoth(malformed, 400, `${path} malformed`);
    }
  });

  it("carry error = msg on the service's refusals: a role refused, bad input, a record not there", async () => {
    expectBoth(
      await apiAs(h, member).post('/admin/bonus/create', { userId: member.id, nominal: 1, reason: 'x' }),
      403,
      'bonus member',
    );
    const bad = await apiAs(h, admin).post('/admin/bonus/create', { userId: member.id, reason: 'x' });
    expectBoth(bad, 400, 'bonus without nominal');
    expect(bad.body.msg).toBe('Nominal is required.');
    expect(bad.body.errors.nominal).toBe('Nominal is required.');
    for (const kind of ['generator', 'validator']) {
      expectBoth(await apiAs(h, staff).post(`/admin/${kind}/start`, { id: 999_999 }), 404, `${kind} start`);
      expectBoth(await apiAs(h, staff).post(`/admin/${kind}/stop`, { id: 999_999 }), 404, `${kind} stop`);
      expectBoth(await apiAs(h, staff).post(`/admin/${kind}/start`, { id: 'x' }), 400, `${kind} bad id`);
    }
    expectBoth(
      await apiAs(h, admin).post('/admin/whatsapp/start-blasting', { whatsappClientId: 'id-1-1' }),
      403,
      'admin blast',
    );
    expectBoth(
      await apiAs(h, member).post('/admin/whatsapp/start-blasting', { whatsappClientId: 'not a device' }),
      400,
      'bad device',
    );
    expectBoth(
      await apiAs(h, member).post('/admin/whatsapp/stop-blasting', { whatsappClientId: 'id-1700000000000-1' }),
      404,
      'unknown device',
    );
  });

  it('a success has no error, and other routes fail with msg alone', async () => {
    const ok = await apiAs(h, admin).post('/admin/bonus/create', { userId: member.id, nominal: 1000, reason: 'Promo' });
    expect(ok.status).toBe(201);
    expect(ok.body).not.toHaveProperty('error');
    const other = await apiAs(h, member).get('/admin/generator/999999');
    expect(other.status).toBeGreaterThanOrEqual(400);
    expect(other.body.msg).toEqual(expect.any(String));
    expect(other.body).not.toHaveProperty('error');
    const noToken = await apiAs(h, null).get('/admin/bonus/list');
    expect(noToken.status).toBe(401);
    expect(noToken.body).not.toHaveProperty('error');
  });
});
