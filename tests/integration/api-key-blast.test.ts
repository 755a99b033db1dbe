import { sql } from 'drizzle-orm';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { buildOpenApi } from '../../server/src/modules/docs/openapi';
import { bearer } from '../support/api';
import { useUsers } from '../support/factories';
import { newDeviceId, setSimEnv, useWaHarness } from '../support/wa-engine';
import { until } from '../support/wait';

/**
 * Issue 13's script: other software connects an account and runs a blast with an API key alone,
 * calling only operations the OpenAPI document lists (the simulated phone scans by itself).
 */
setSimEnv({ pairDelayMs: 100, restoreDelayMs: 20, sendLatencyMs: 1, sendFailRate: 0 });
const h = useWaHarness({ blastSecondMs: 1 });
const { member } = useUsers(() => h.database.db, { member: 'member' });

/** Calls an operation the document lists (and fails the test if it does not), with the key only. */
function client(key: string) {
  const doc = buildOpenApi() as { paths: Record<string, Record<string, unknown>> };
  return (method: 'get' | 'post', path: string, body?: object) => {
    const template = path.replace(/\/\d+$/, '/{id}').replace(/\/id-[\w-]+$/, '/{deviceId}');
    expect(
      doc.paths[template]?.[method],
      `${method.toUpperCase()} ${template} is in the OpenAPI document`,
    ).toBeTruthy();
    const req = request(h.app)[method](`/api${path}`).set('X-API-Key', key);
    return body ? req.send(body) : req;
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
    const { key } = (await request(h.app).post('/api/admin/apikeys').set(bearer(member.token)).send({ name: 'script' }))
      .body;
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
});
