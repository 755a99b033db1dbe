import { sql } from 'drizzle-orm';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { rows } from '../../core/src/db/client';
import { buildOpenApi } from '../../server/src/modules/docs/openapi';
import { bearer } from '../support/api';
import { useUsers } from '../support/factories';
import { answerSchema, type JsonSchema, misfits, type OpenApiDoc } from '../support/openapi';
import { newDeviceId, setSimEnv, useWaHarness } from '../support/wa-engine';
import { until } from '../support/wait';
import { verifySignature, WebhookReceiver } from '../support/webhook-receiver';

/**
 * Issue 13's script: other software connects an account and runs a blast with an API key alone,
 * calling only operations the OpenAPI document lists (the simulated phone scans by itself).
 */
setSimEnv({ pairDelayMs: 100, restoreDelayMs: 20, sendLatencyMs: 1, sendFailRate: 0 });
const h = useWaHarness({ blastSecondMs: 1 });
const { member, dev } = useUsers(() => h.database.db, { member: 'member', dev: 'dev' });

/**
 * Calls an operation the document lists (and fails the test if it does not), with the key only; a
 * success must answer a body that fits the document's schema of it, so every field the script
 * reads is one the document gives.
 */
function client(key: string) {
  const doc = buildOpenApi() as unknown as OpenApiDoc;
  return (method: 'get' | 'post', path: string, body?: object) => {
    const template = path
      .replace(/\/\d+(?=\/|$)/, '/{id}')
      .replace(/\/id-[\w-]+$/, '/{deviceId}')
      .replace(/^\/admin\/webhooks\/$/, '/admin/webhooks');
    expect(
      doc.paths[template]?.[method],
      `${method.toUpperCase()} ${template} is in the OpenAPI document`,
    ).toBeTruthy();
    const req = request(h.app)[method](`/api${path}`).set('X-API-Key', key);
    return (body ? req.send(body) : req).then((res) => {
      if (res.status < 300) {
        const schema = answerSchema(doc, method, template, res.status);
        expect(schema, `${method.toUpperCase()} ${template} documents its ${res.status}`).toBeDefined();
        expect(misfits(schema as JsonSchema, res.body), `${method.toUpperCase()} ${template}`).toEqual([]);
      }
      return res;
    });
  };
}

describe('a script with an API key', () => {
  it('connects an account, blasts and reads the log, by the documented operations alone', async () => {
    const db = h.database.db;
    await db.execute(sql`update users set blast_fee = 100, blast_interval_min = 0, blast_interval_max = 0`);
    await db.execute(
      sql`insert into message_templates (text, text_wa, status) values ('Halo', 'Halo {name}', 'active')`,
    );
    await db.execute(
      sql`insert into phone_numbers (number, name) values ('6289977700001', 'A'), ('6289977700002', 'B')`,
    );
    // the one step in the dashboard: the member makes a key
    const { key } = (
      await request(h.app)
        .post('/api/admin/apikeys')
        .set(bearer(member.token))
        .send({ name: 'script', current_password: member.password })
    ).body;
    const call = client(key);

    const deviceId = newDeviceId();
    expect((await call('post', '/admin/whatsapp/new-client', { deviceId })).status).toBe(201);
    expect((await call('get', `/admin/whatsapp/qr-new-client/${deviceId}`)).status).toBe(200);
    await until(
      async () => {
        const s = await call('get', `/admin/whatsapp/client-state/${deviceId}`);
        return s.body.state === 'connected';
      },
      'the phone scanned',
      10_000,
    );
    const saved = await call('post', '/admin/whatsapp/save', { clientid: deviceId });
    expect(saved.status).toBe(201);
    const started = await call('post', '/admin/whatsapp/start-blasting', { whatsappClientId: deviceId, loop: true });
    expect(started.status).toBe(200);
    await until(
      async () => {
        const page = await call('get', '/admin/messagelog/list-per-page');
        return page.body.meta?.total === 2;
      },
      'both targets messaged',
      10_000,
    );
    const page = await call('get', '/admin/messagelog/list-per-page');
    expect(page.body.data.map((l: { target: string }) => l.target).sort()).toEqual(['6289977700001', '6289977700002']);
  });

  it("an operator's script gets its blast's progress as signed webhooks", async () => {
    const db = h.database.db;
    // the first script's blast ends by finding no target left: not before, or it takes these
    await until(
      async () => (await rows(db, sql`select 1 from whatsapp_accounts where status = 'sending'`)).length === 0,
      "the first script's blast to end",
      10_000,
    );
    await db.execute(sql`update phone_numbers set last_sent = coalesce(last_sent, now())`);
    await db.execute(
      sql`insert into phone_numbers (number, name) values ('6289977700011', 'C'), ('6289977700012', 'D')`,
    );
    const receiver = await new WebhookReceiver().start();
    try {
      // a dev's key: devs run blasts on any account and may point webhooks at their own network
      const { key } = (
        await request(h.app)
          .post('/api/admin/apikeys')
          .set(bearer(dev.token))
          .send({ name: 'ops', current_password: dev.password })
      ).body;
      const call = client(key);
      const hook = await call('post', '/admin/webhooks/', {
        url: receiver.url('/progress'),
        events: ['blast.started', 'message.sent', 'message.failed', 'blast.finished'],
      });
      expect(hook.status).toBe(201);
      const deviceId = newDeviceId();
      expect((await call('post', '/admin/whatsapp/new-client', { deviceId })).status).toBe(201);
      expect((await call('get', `/admin/whatsapp/qr-new-client/${deviceId}`)).status).toBe(200);
      await until(
        async () => (await call('get', `/admin/whatsapp/client-state/${deviceId}`)).body.state === 'connected',
        'the phone scanned',
        10_000,
      );
      expect((await call('post', '/admin/whatsapp/save', { clientid: deviceId })).status).toBe(201);
      expect((await call('post', '/admin/whatsapp/start-blasting', { whatsappClientId: deviceId })).status).toBe(200);
      await until(() => receiver.received.length === 4, 'the blast started, sent twice and finished', 10_000);
      // deliveries may overtake each other; the events' own times keep their order
      const inOrder = [...receiver.received].sort((a, b) => a.json.created_at.localeCompare(b.json.created_at));
      expect(inOrder.map((r) => r.json.event)).toEqual([
        'blast.started',
        'message.sent',
        'message.sent',
        'blast.finished',
      ]);
      expect(
        receiver
          .of('message.sent')
          .map((r) => r.json.data.target)
          .sort(),
      ).toEqual(['6289977700011', '6289977700012']);
      expect(receiver.received.every((r) => r.json.data.device_id === deviceId)).toBe(true);
      expect(receiver.received.every((r) => verifySignature(r, hook.body.secret))).toBe(true);
      // the deliveries, as the script can read them back
      const list = await call('get', `/admin/webhooks/${hook.body.id}/deliveries`);
      expect(list.status).toBe(200);
      await until(
        async () =>
          (await call('get', `/admin/webhooks/${hook.body.id}/deliveries`)).body.data.every(
            (d: { status: string }) => d.status === 'delivered',
          ),
        'all marked delivered',
      );
    } finally {
      await receiver.close();
    }
  });
});
