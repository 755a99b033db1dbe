import type {
  apiKeyList,
  blastResponse,
  CreatedApiKey,
  CreatedWebhook,
  clientStateResponse,
  healthResponse,
  MessageLogItem,
  Paged,
  PhoneBlastCount,
  savedPhoneNumber,
  webhookDeliveryList,
  webhookList,
  whatsappResponse,
} from '@wa/shared';
import { sql } from 'drizzle-orm';
import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { rows } from '../../core/src/db/client';
import { bearer } from '../support/api';
import { type TestUser, useUsers } from '../support/factories';
import {
  answerSchema,
  type JsonSchema,
  MORE_ANSWERS,
  misfits,
  type OpenApiDoc,
  successStatuses,
} from '../support/openapi';
import { newDeviceId, setSimEnv, useWaHarness } from '../support/wa-engine';
import { until } from '../support/wait';
import { WebhookReceiver } from '../support/webhook-receiver';

/**
 * Issue 13: the OpenAPI document says what each operation a script needs answers, and says it
 * right. Every call below goes through the real routes, and its JSON body is checked against the
 * schema of the served /api/openapi.json (read back into a validator with zod's fromJSONSchema),
 * with the documented success status. The last case fails when an operation documents an answer
 * that no call here has checked.
 */
setSimEnv({ pairDelayMs: 100, restoreDelayMs: 20, sendLatencyMs: 1, sendFailRate: 0 });
const h = useWaHarness({ blastSecondMs: 1 });
const { member, dev, client } = useUsers(() => h.database.db, { member: 'member', dev: 'dev', client: 'client' });

let doc: OpenApiDoc;
beforeAll(async () => {
  doc = (await request(h.app).get('/api/openapi.json')).body;
});

/** `METHOD /template` of every answer checked against the document. */
const checked = new Set<string>();

type Out<S extends z.ZodType> = z.infer<S>;
type Saved = Out<typeof savedPhoneNumber>;
type Deliveries = Out<typeof webhookDeliveryList>;

/** Who calls: a dashboard session (a user's token), an API key, or nobody. */
type Caller = { session: TestUser } | { key: string } | null;

/** The documented schema of an operation's success with `status` (fails the test if there is none). */
function documentedSchema(method: string, template: string, status: number): JsonSchema {
  const what = `${method.toUpperCase()} ${template}`;
  expect(successStatuses(doc, method, template), `${what}: the documented success status`).toEqual([String(status)]);
  const schema = answerSchema(doc, method, template, status);
  expect(schema, `${what} documents its answer`).toBeDefined();
  return schema as JsonSchema;
}

/**
 * Calls `method template` (its {params} filled from `params`) as `caller`, expects a success and
 * checks the answer against the document. Returns the body, as `T` once it fits.
 */
async function call<T = unknown>(
  caller: Caller,
  method: 'get' | 'post' | 'put' | 'delete',
  template: string,
  params: Record<string, string | number> = {},
  body?: object,
): Promise<T> {
  const path = template.replace(/\{(\w+)\}/g, (_m, name: string) => encodeURIComponent(String(params[name])));
  let req = request(h.app)[method](`/api${path}`);
  if (caller && 'session' in caller) req = req.set(bearer(caller.session.token));
  if (caller && 'key' in caller) req = req.set('X-API-Key', caller.key);
  const res = await (body ? req.send(body) : req);
  const what = `${method.toUpperCase()} ${template}`;
  expect(res.status, `${what}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
  expect(res.type, what).toBe('application/json');
  expect(
    misfits(documentedSchema(method, template, res.status), res.body),
    `${what}: the answer as documented`,
  ).toEqual([]);
  checked.add(`${method} ${template}`);
  return res.body as T;
}

describe('the OpenAPI document describes the answers', () => {
  it('checks for real: a body that misses, adds or mistypes a field does not fit', () => {
    const schema = documentedSchema('post', '/admin/apikeys', 201);
    const good = {
      id: 1,
      name: 'script',
      prefix: 'wab_abcdef',
      read_only: false,
      last_used_at: null,
      created_at: '2026-11-24T08:00:00.000Z',
      key: 'wab_x',
    };
    expect(misfits(schema, good)).toEqual([]);
    expect(misfits(schema, { ...good, key: undefined })).not.toEqual([]);
    expect(misfits(schema, { ...good, key_hash: 'ab' })).not.toEqual([]);
    expect(misfits(schema, { ...good, id: '1' })).not.toEqual([]);
    expect(misfits(schema, { ...good, last_used_at: 5 })).not.toEqual([]);
  });

  it('of a script that connects an account, adds targets, blasts with webhooks and reads the results', async () => {
    const db = h.database.db;
    const receiver = await new WebhookReceiver().start();
    try {
      await db.execute(sql`update users set blast_fee = 100, blast_interval_min = 0, blast_interval_max = 0`);
      await db.execute(
        sql`insert into message_templates (text, text_wa, status) values ('Halo', 'Halo {name}', 'active')`,
      );
      expect((await call<Out<typeof healthResponse>>(null, 'get', '/health')).ok).toBe(true);

      // keys are made in a dashboard session; a member runs the account, a dev the catalogue and webhooks
      const made = await call<CreatedApiKey>(
        { session: member },
        'post',
        '/admin/apikeys',
        {},
        {
          name: 'script',
          current_password: member.password,
        },
      );
      const memberKey = { key: made.key };
      const spare = await call<CreatedApiKey>(
        { session: member },
        'post',
        '/admin/apikeys',
        {},
        { name: 'spare', read_only: true, current_password: member.password },
      );
      expect((await call<Out<typeof apiKeyList>>({ session: member }, 'get', '/admin/apikeys')).data.length).toBe(2);
      await call({ session: member }, 'delete', '/admin/apikeys/{id}', { id: spare.id });
      const devKey = {
        key: (
          await call<CreatedApiKey>(
            { session: dev },
            'post',
            '/admin/apikeys',
            {},
            { name: 'ops', current_password: dev.password },
          )
        ).key,
      };

      const hook = await call<CreatedWebhook>(
        devKey,
        'post',
        '/admin/webhooks',
        {},
        { url: receiver.url(), events: ['message.sent'] },
      );
      await call(devKey, 'put', '/admin/webhooks/{id}', { id: hook.id }, { description: 'progress' });
      expect((await call<Out<typeof webhookList>>(devKey, 'get', '/admin/webhooks')).data.map((w) => w.id)).toContain(
        hook.id,
      );

      // the targets
      const phones = '/admin/phonenumber';
      const first = await call<Saved>(devKey, 'post', `${phones}/save`, {}, { number: '6289977701001', name: 'A' });
      await call(devKey, 'post', `${phones}/save`, {}, { number: '6289977701002', name: 'B' });
      const gone = await call<Saved>(devKey, 'post', `${phones}/save`, {}, { number: '6289977701003', name: 'C' });
      await call(devKey, 'delete', `${phones}/{id}`, { id: gone.phoneNumber.id });
      await call(devKey, 'put', `${phones}/{id}`, { id: first.phoneNumber.id }, { name: 'Ana' });
      expect((await call<Saved>(devKey, 'get', `${phones}/{id}`, { id: first.phoneNumber.id })).phoneNumber.name).toBe(
        'Ana',
      );
      await call(devKey, 'get', `${phones}/list-per-page`);
      expect((await call<PhoneBlastCount>(devKey, 'get', `${phones}/count-blast`)).unBlasted).toBe(2);

      // a login abandoned, then one connected and saved
      const wa = '/admin/whatsapp';
      const dropped = newDeviceId();
      await call(memberKey, 'post', `${wa}/new-client`, {}, { deviceId: dropped });
      await call(memberKey, 'post', `${wa}/remove-client`, {}, { deviceId: dropped });
      const deviceId = newDeviceId();
      await call(memberKey, 'post', `${wa}/new-client`, {}, { deviceId });
      await call(memberKey, 'get', `${wa}/qr-new-client/{deviceId}`, { deviceId });
      await until(
        async () =>
          (await call<Out<typeof clientStateResponse>>(memberKey, 'get', `${wa}/client-state/{deviceId}`, { deviceId }))
            .state === 'connected',
        'the phone scanned',
        10_000,
      );
      const { whatsapp } = await call<Out<typeof whatsappResponse>>(
        memberKey,
        'post',
        `${wa}/save`,
        {},
        { clientid: deviceId },
      );
      await call(memberKey, 'get', `${wa}/{id}`, { id: whatsapp.id });
      await call(memberKey, 'get', `${wa}/list-per-page`);
      await call(memberKey, 'get', `${wa}/list/{userId}`, { userId: member.id });
      await call(memberKey, 'get', `${wa}/count/{userId}`, { userId: member.id });
      await call(devKey, 'get', `${wa}/list`);

      // the blast, its progress and its results
      const started = await call<Out<typeof blastResponse>>(
        memberKey,
        'post',
        `${wa}/start-blasting`,
        {},
        { whatsappClientId: deviceId },
      );
      expect(started.data.status).toBe('sending');
      await until(() => receiver.of('message.sent').length === 2, 'both targets messaged', 10_000);
      await until(
        async () =>
          (await rows(db, sql`select 1 from whatsapp_accounts where id = ${whatsapp.id} and status = 'idle'`))
            .length === 1,
        'the blast to end',
        10_000,
      );
      await call(memberKey, 'post', `${wa}/stop-blasting`, {}, { whatsappClientId: deviceId });
      const log = await call<Paged<MessageLogItem>>(memberKey, 'get', '/admin/messagelog/list-per-page');
      expect(log.data.map((l) => l.target).sort()).toEqual(['6289977701001', '6289977701002']);
      for (const counter of ['count', 'today-count', 'total-count', 'today-income']) {
        await call(memberKey, 'get', `/admin/messagelog/${counter}/{userId}`, { userId: member.id });
      }
      await call(memberKey, 'get', '/admin/report');
      await call(memberKey, 'get', '/admin/report/charts');

      const deliveries = `/admin/webhooks/{id}/deliveries`;
      await until(
        async () => (await call<Deliveries>(devKey, 'get', deliveries, { id: hook.id })).data.length === 2,
        'both deliveries listed',
      );
      const [delivery] = (await call<Deliveries>(devKey, 'get', deliveries, { id: hook.id })).data;
      await call(devKey, 'post', `${deliveries}/{deliveryId}/resend`, { id: hook.id, deliveryId: delivery.id });
      await call(devKey, 'delete', '/admin/webhooks/{id}', { id: hook.id });
    } finally {
      await receiver.close();
    }
  });

  it('of an import of targets and of proxies, with a skipped row (issue 19)', async () => {
    for (const [template, file] of [
      ['/admin/phonenumber/import', 'number,name\n081233330001,A\nnot-a-number,B\n'],
      ['/admin/proxy/import', 'value\n10.3.3.1:8080\nnot-a-proxy\n'],
    ] as const) {
      const res = await request(h.app)
        .post(`/api${template}`)
        .set(bearer(dev.token))
        .attach('file', Buffer.from(file), 'import.csv');
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.skipped_total).toBe(1);
      expect(misfits(documentedSchema('post', template, 200), res.body), `${template}: as documented`).toEqual([]);
      checked.add(`post ${template}`);
    }
  });

  it('of the first-run checklist (issue 20)', async () => {
    await call({ session: dev }, 'get', '/admin/first-run');
  });

  it('of a campaign, from its draft to its deletion (issue 22)', async () => {
    const as = { session: client };
    const made = await call<{ data: { id: number } }>(
      as,
      'post',
      '/admin/campaigns',
      {},
      { name: 'Promo', budget_messages: 10 },
    );
    const id = made.data.id;
    await call(as, 'get', '/admin/campaigns');
    await call({ session: dev }, 'get', '/admin/campaigns/clients');
    await call(as, 'get', '/admin/campaigns/{id}', { id });
    await call(as, 'put', '/admin/campaigns/{id}', { id }, { end_at: new Date(Date.now() + 86_400_000).toISOString() });
    await call(as, 'post', '/admin/campaigns/{id}/status', { id }, { status: 'pending' });
    await call(as, 'delete', '/admin/campaigns/{id}', { id });
  });

  it("of a campaign's targets: their import, with a skipped row, and their page (issue 22)", async () => {
    const made = await call<{ data: { id: number } }>(
      { session: client },
      'post',
      '/admin/campaigns',
      {},
      { name: 'Targets' },
    );
    const template = '/admin/campaigns/{id}/targets/import';
    const res = await request(h.app)
      .post(`/api/admin/campaigns/${made.data.id}/targets/import`)
      .set(bearer(client.token))
      .attach('file', Buffer.from('number,name\n081233340001,A\nnot-a-number,B\n'), 'targets.csv');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.skipped_total).toBe(1);
    expect(misfits(documentedSchema('post', template, 200), res.body), `${template}: as documented`).toEqual([]);
    checked.add(`post ${template}`);
    const page = await call<Paged<unknown>>({ session: client }, 'get', '/admin/campaigns/{id}/targets', {
      id: made.data.id,
    });
    expect(page.meta.total).toBe(1);
  });

  it("of a campaign's report, replies and top-ups (issue 22)", async () => {
    const made = await call<{ data: { id: number } }>(
      { session: client },
      'post',
      '/admin/campaigns',
      {},
      { name: 'Report' },
    );
    const id = made.data.id;
    await call({ session: client }, 'get', '/admin/campaigns/{id}/report', { id });
    await call({ session: client }, 'get', '/admin/campaigns/{id}/replies', { id });
    await call({ session: dev }, 'post', '/admin/campaigns/{id}/topups', { id }, { amount: 1000, note: 'Transfer' });
    await call({ session: client }, 'get', '/admin/campaigns/{id}/topups', { id });
  });

  it('has checked every answer the document describes, among them all a script needs', () => {
    const described = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops)
        .filter(([, op]) =>
          Object.entries(op.responses).some(([s, r]) => s.startsWith('2') && r.content?.['application/json']?.schema),
        )
        .map(([method]) => `${method} ${path}`),
    );
    expect(
      // openapi-answers.test.ts checks the rest (issue 20)
      described.filter((op) => !checked.has(op) && !(MORE_ANSWERS as readonly string[]).includes(op)),
      'described answers no call here checked',
    ).toEqual([]);
    expect([...checked]).toEqual(
      expect.arrayContaining([
        'post /admin/apikeys',
        'get /admin/apikeys',
        'post /admin/whatsapp/new-client',
        'get /admin/whatsapp/qr-new-client/{deviceId}',
        'get /admin/whatsapp/client-state/{deviceId}',
        'post /admin/whatsapp/save',
        'get /admin/whatsapp/list-per-page',
        'post /admin/whatsapp/start-blasting',
        'post /admin/whatsapp/stop-blasting',
        'post /admin/phonenumber/save',
        'get /admin/messagelog/list-per-page',
        'get /admin/messagelog/count/{userId}',
        'get /admin/report',
        'post /admin/webhooks',
        'get /admin/webhooks',
        'put /admin/webhooks/{id}',
        'delete /admin/webhooks/{id}',
        'get /admin/webhooks/{id}/deliveries',
        'post /admin/webhooks/{id}/deliveries/{deliveryId}/resend',
        'get /health',
      ]),
    );
  });
});
