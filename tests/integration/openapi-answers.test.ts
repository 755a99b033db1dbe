import { sql } from 'drizzle-orm';
import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { bearer, type FormFile, multipart } from '../support/api';
import { createUser, type TestUser, useUsers } from '../support/factories';
import { BANK } from '../support/money';
import { answerSchema, MORE_ANSWERS, misfits, type OpenApiDoc, successStatuses } from '../support/openapi';
import { connectAccount, setSimEnv, useWaHarness } from '../support/wa-engine';

/**
 * Issue 20: every operation's answer is typed in the OpenAPI document, and typed right. Each call
 * below goes through the real routes and its JSON body is checked against the schema of the served
 * /api/openapi.json, with the documented success status. Together with openapi-responses.test.ts
 * (the script's path: keys, webhooks, targets, logins, blasts, reports) this covers every operation
 * whose answer is JSON; MORE_ANSWERS lists the ones checked here.
 */
setSimEnv({ pairDelayMs: 100, restoreDelayMs: 20, sendLatencyMs: 1, sendFailRate: 0 });
const h = useWaHarness({ blastSecondMs: 1 });
const { member, dev, admin } = useUsers(() => h.database.db, { member: 'member', dev: 'dev', admin: 'admin' });

let doc: OpenApiDoc;
beforeAll(async () => {
  doc = (await request(h.app).get('/api/openapi.json')).body;
});

const checked = new Set<string>();

interface Call {
  /** the path's {params} */
  params?: Record<string, string | number>;
  /** the query string */
  query?: Record<string, string | number>;
  /** a JSON body */
  body?: object;
  /** multipart fields, with `file` */
  fields?: Record<string, string | number>;
  file?: FormFile;
}

/**
 * Calls `method template` as `caller` (null: no token), expects a success and checks its JSON
 * body against the document. Returns the body.
 */
async function call<T = Record<string, never>>(
  caller: TestUser | null,
  method: 'get' | 'post' | 'put' | 'delete',
  template: string,
  opts: Call = {},
): Promise<T> {
  const path = template.replace(/\{(\w+)\}/g, (_m, name: string) => encodeURIComponent(String(opts.params?.[name])));
  let req = request(h.app)[method](`/api${path}`);
  if (caller) req = req.set(bearer(caller.token));
  if (opts.query) req = req.query(opts.query);
  if (opts.fields || opts.file) req = multipart(req, opts.fields ?? {}, opts.file);
  const res = await (opts.body ? req.send(opts.body) : req);
  const what = `${method.toUpperCase()} ${template}`;
  expect(res.status, `${what}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
  expect(res.type, what).toBe('application/json');
  expect(successStatuses(doc, method, template), `${what}: the documented success status`).toEqual([
    String(res.status),
  ]);
  const schema = answerSchema(doc, method, template, res.status);
  expect(schema, `${what} documents its answer`).toBeDefined();
  expect(misfits(schema ?? {}, res.body), `${what}: the answer as documented`).toEqual([]);
  checked.add(`${method} ${template}`);
  return res.body as T;
}

type Id = { id: number };

describe('the OpenAPI document describes every answer', () => {
  it('of the document, sign-up, log-in and the settings', async () => {
    await call(null, 'get', '/openapi.json');
    const email = `openapi${Date.now()}@example.test`;
    const password = 'rahasia123';
    const form = { firstName: 'Budi', lastName: 'Santoso', email, password, password2: password, agreeToTerms: true };
    await call(null, 'post', '/auth/register', { body: form });
    const { token } = await call<{ token: string }>(null, 'post', '/auth/login', { body: { email, password } });
    await call(null, 'post', '/auth/validate', { body: { token } });
    const signedUp = { token } as TestUser;
    await call(signedUp, 'post', '/auth/logout-all');

    await call(null, 'get', '/settings/public');
    const { setting } = await call<{ setting: object }>(member, 'get', '/admin/setting/get');
    await call(admin, 'put', '/admin/setting/update', { body: setting });
  });

  it('of users, levels, proxies and the receivers', async () => {
    const u = '/admin/users';
    await call(admin, 'get', `${u}/members`);
    await call(admin, 'get', `${u}/members-per-page`);
    await call(admin, 'get', `${u}/active`);
    await call(member, 'get', `${u}/referral-per-page`);
    await call(member, 'get', `${u}/blast-fee/{id}`, { params: { id: member.id } });
    await call(member, 'get', `${u}/{id}`, { params: { id: member.id } });
    await call(member, 'put', `${u}/{id}`, { params: { id: member.id }, body: BANK });

    const l = '/admin/level';
    const { level } = await call<{ level: Id }>(dev, 'post', `${l}/create`, {
      body: { name: 'Gold', blast_fee: 120, requirement_blast: 1000 },
    });
    await call(dev, 'get', `${l}/list-per-page`);
    await call(dev, 'get', `${l}/{id}`, { params: level });
    await call(dev, 'put', `${l}/{id}`, {
      params: level,
      body: { name: 'Gold', blast_fee: 130, requirement_blast: 900 },
    });
    await call(dev, 'delete', `${l}/{id}`, { params: level });

    const p = '/admin/proxy';
    const { proxy } = await call<{ proxy: Id }>(dev, 'post', `${p}/save`, { body: { value: '10.9.9.9:8080' } });
    await call(dev, 'get', `${p}/list`);
    await call(dev, 'get', `${p}/list-per-page`);
    await call(dev, 'get', `${p}/count-use`);
    await call(dev, 'get', `${p}/{id}`, { params: proxy });
    await call(dev, 'put', `${p}/{id}`, { params: proxy, body: { status: 'nonactive' } });
    await call(dev, 'delete', `${p}/{id}`, { params: proxy });

    await h.database.db.execute(
      sql`insert into phone_numbers (number, name, status) values ('6289977702001', 'A', 'active')`,
    );
    await call(member, 'get', '/admin/phonenumber/receivers');
    await call(dev, 'get', '/admin/phonenumber/list');
  });

  it('of templates', async () => {
    const m = '/admin/message';
    const fields = { text: 'Halo', text_wa: 'Halo {name}', status: 'active' };
    const { message } = await call<{ message: Id }>(dev, 'post', `${m}/create`, { fields });
    await call(dev, 'get', `${m}/list`);
    await call(dev, 'get', `${m}/list-per-page`);
    await call(dev, 'get', `${m}/{id}`, { params: message });
    await call(dev, 'put', `${m}/{id}`, { params: message, fields: { ...fields, text: 'Halo lagi' } });
    const exported = await call<object[]>(dev, 'get', `${m}/export`);
    const imported = await call<{ created: Id[] }>(dev, 'post', `${m}/import`, {
      file: { name: 'messages.json', data: JSON.stringify(exported) },
    });
    expect(imported.created.length).toBe(1);
    await call(dev, 'delete', `${m}/{id}`, { params: imported.created[0] });
  });

  it('of a campaign’s message variants (issue 22)', async () => {
    const client = await createUser(h.database.db, { role: 'client' });
    const c = '/admin/campaigns';
    // the campaign's own answers are openapi-responses.test.ts's
    const made = await request(h.app).post(`/api${c}`).set(bearer(client.token)).send({ name: 'Variants' });
    const id: number = made.body.data.id;
    const { data: variant } = await call<{ data: Id }>(client, 'post', `${c}/{id}/templates`, {
      params: { id },
      fields: { text: '<b>Halo</b> {name}', weight: 2 },
    });
    const params = { id, templateId: variant.id };
    await call(client, 'get', `${c}/{id}/templates`, { params: { id } });
    await call(admin, 'post', `${c}/{id}/templates/{templateId}/approve`, { params });
    await call(client, 'put', `${c}/{id}/templates/{templateId}`, { params, body: { weight: 5 } });
    await call(client, 'delete', `${c}/{id}/templates/{templateId}`, { params });
  });

  it('of bonuses and withdrawals', async () => {
    const b = '/admin/bonus';
    await call(admin, 'post', `${b}/create`, { body: { userId: member.id, nominal: 50_000, reason: 'Welcome' } });
    const { bonus } = await call<{ bonus: Id }>(admin, 'post', `${b}/create`, {
      body: { userId: member.id, nominal: 1_000, reason: 'Typo' },
    });
    await call(admin, 'delete', `${b}/{id}`, { params: bonus });
    await call(member, 'get', `${b}/total/{userId}`, { params: { userId: member.id } });
    await call(member, 'get', `${b}/list-per-page`);

    const w = '/admin/withdraw';
    const userId = { userId: member.id };
    await call(member, 'get', `${w}/balance/{userId}`, { params: userId });
    await call(member, 'get', `${w}/income/{userId}`, { params: userId });
    const { withdraw } = await call<{ withdraw: Id }>(member, 'post', `${w}/request`, {
      body: { nominal: 10_000, userId: member.id },
    });
    await call(member, 'get', `${w}/total-requested/{userId}`, { params: userId });
    await call(member, 'get', `${w}/history/{userId}`, { params: userId });
    await call(admin, 'get', `${w}/histories`);
    await call(admin, 'get', `${w}/histories-per-page`);
    await call(admin, 'put', `${w}/update`, { body: { id: withdraw.id, status: 'accepted' } });
    await call(member, 'get', `${w}/total-accepted/{userId}`, { params: userId });

    // issue 23: a dashboard's figures in one call, both answers of it
    await call(member, 'get', '/admin/dashboard/counters/{userId}', { params: userId });
    await call(admin, 'get', '/admin/dashboard/counters/{userId}', { params: { userId: 'all' } });
  });

  it('of an account, its one-off sends, the tools on it and the dev monitor', async () => {
    const { deviceId, account } = await connectAccount(h, member);
    const wa = '/admin/whatsapp';
    const id = { id: account.id };
    await call(member, 'put', `${wa}/interval`, { body: { ...id, interval: 0 } });
    await call(dev, 'put', `${wa}/status`, { body: { ...id, status: 'idle' } });
    await call(member, 'post', `${wa}/reset`, { body: id });
    // paused after ban signals and suspended (a revoke): what lift-pause and activate undo
    await h.database.db.execute(
      sql`update whatsapp_accounts set paused_until = now() + interval '1 hour', pause_reason = 'test',
          suspended = true where id = ${account.id}`,
    );
    await call(dev, 'post', `${wa}/lift-pause`, { body: id });
    await call(dev, 'post', `${wa}/activate`, { body: id });
    await call(member, 'get', `${wa}/listen-message-created/{id}`, { params: id });
    await call(member, 'post', `${wa}/send-message/1`, {
      body: { senders: account.phonenumber, targets: '6289977702001', message: 'Halo' },
    });

    const range = { start_number: '6281200000001', end_number: '6281200000003', whatsapp_id: account.id };
    const g = '/admin/generator';
    const { generator } = await call<{ generator: Id }>(dev, 'post', `${g}/create`, { body: range });
    await call(dev, 'get', `${g}/list-per-page`);
    await call(dev, 'get', `${g}/{id}`, { params: generator });
    await call(dev, 'put', `${g}/{id}`, { params: generator, body: { ...range, interval_min: 0, interval_max: 0 } });
    await call(dev, 'post', `${g}/start`, { body: generator });
    await call(dev, 'post', `${g}/stop`, { body: generator });
    await call(dev, 'get', `${g}/download-result/{id}`, { params: generator });
    await call(dev, 'delete', `${g}/{id}`, { params: generator });

    const v = '/admin/validator';
    const list = { name: 'daftar.csv', data: 'number\n6281200000001\n6281200000002\n' };
    const { validator } = await call<{ validator: Id }>(dev, 'post', `${v}/create`, {
      fields: { whatsapp_id: account.id },
      file: list,
    });
    await call(dev, 'get', `${v}/list-per-page`);
    await call(dev, 'get', `${v}/{id}`, { params: validator });
    await call(dev, 'put', `${v}/{id}`, { params: validator, fields: { whatsapp_id: account.id, interval_min: 0 } });
    await call(dev, 'post', `${v}/start`, { body: validator });
    await call(dev, 'post', `${v}/stop`, { body: validator });
    await call(dev, 'get', `${v}/download-result/{id}`, { params: validator });
    await call(dev, 'delete', `${v}/{id}`, { params: validator });

    await call(dev, 'get', '/dev/monitor/local');
    await call(dev, 'get', '/dev/monitor/remote', { query: { id: deviceId } });
    await call(dev, 'get', '/dev/monitor/socket', { query: { id: member.id } });
    await call(dev, 'post', '/dev/sim/{deviceId}', {
      params: { deviceId },
      body: { action: 'reply', from: '6289977702001', text: 'terima kasih' },
    });
    await call(member, 'post', `${wa}/reconnect`, { body: id });
  });

  it('has checked exactly the operations it names', () => {
    expect([...checked].sort()).toEqual([...MORE_ANSWERS].sort());
  });
});
