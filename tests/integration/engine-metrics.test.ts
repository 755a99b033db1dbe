import { sql } from 'drizzle-orm';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../core/src/logger';
import { createApp } from '../../server/src/app';
import { serveWorkerMetrics } from '../../workers/src/metrics-server';
import { useUsers } from '../support/factories';
import { setSimEnv, useWaHarness, waHelpers } from '../support/wa-engine';
import { until } from '../support/wait';

/**
 * Issue 13's claim latency: the engine times every blast claim (wa_claim_duration_seconds), served
 * by the API's /metrics in embedded mode and by a worker's own /metrics on WORKER_METRICS_PORT.
 */
setSimEnv({ pairDelayMs: 100, restoreDelayMs: 20, sendLatencyMs: 1, sendFailRate: 0 });
const TOKEN = 'metrics-token-0123456789';
const h = useWaHarness({ blastSecondMs: 1 });
const { wa, connect } = waHelpers(h);
const { member } = useUsers(() => h.database.db, { member: 'member' });
let worker: Awaited<ReturnType<typeof serveWorkerMetrics>>;

beforeAll(async () => {
  const db = h.database.db;
  await db.execute(sql`update users set blast_fee = 100, blast_interval_min = 0, blast_interval_max = 0`);
  await db.execute(sql`insert into message_templates (text, text_wa, status) values ('Halo', 'Halo', 'active')`);
  await db.execute(sql`insert into phone_numbers (number, name) values ('6289911100001', 'A'), ('6289911100002', 'B')`);
  const acc = (await connect(member)).account;
  expect((await wa(member).post('/start-blasting', { whatsappClientId: acc.clientid })).status).toBe(200);
  await until(
    async () => (await wa(member).get(`/${acc.id}`)).body.whatsapp?.status === 'idle',
    'the blast through both targets',
    10_000,
  );
  worker = await serveWorkerMetrics(h.engine.metrics.registry, { port: 0, token: TOKEN, host: '127.0.0.1' });
});
afterAll(async () => {
  await worker?.close();
});

/** The count of claims of that size, as the text reports it. */
const claims = (text: string, batch: string) =>
  Number(new RegExp(`^wa_claim_duration_seconds_count\\{batch="${batch}"\\} (\\d+)$`, 'm').exec(text)?.[1] ?? 0);

describe('claim latency', () => {
  it("is on the API's /metrics with the embedded engine's sessions", async () => {
    const app = createApp({
      db: h.database.db,
      jwtSecret: 'x'.repeat(32),
      logger: createLogger('silent'),
      dataDir: h.dataDir,
      metricsToken: TOKEN,
      engineMetrics: h.engine.metrics.registry,
    });
    const r = await request(app).get('/metrics').set('Authorization', `Bearer ${TOKEN}`);
    expect(r.status).toBe(200);
    expect(claims(r.text, 'ahead')).toBeGreaterThanOrEqual(1);
    expect(r.text).toMatch(/^wa_engine_sessions_held 1$/m);
    // the API's own metrics are still there, once
    expect(r.text.match(/^# TYPE wa_http_request_duration_seconds histogram$/gm)).toHaveLength(1);
  });

  it("is on a worker's own /metrics, behind the token", async () => {
    const base = `http://127.0.0.1:${worker.port}`;
    expect((await fetch(`${base}/metrics`)).status).toBe(401);
    const wrong = await fetch(`${base}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}x` } });
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toEqual({ msg: 'A valid metrics token is required.' });
    expect((await fetch(`${base}/other`, { headers: { Authorization: `Bearer ${TOKEN}` } })).status).toBe(404);
    const r = await fetch(`${base}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}` } });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/text\/plain/);
    const text = await r.text();
    expect(claims(text, 'ahead')).toBeGreaterThanOrEqual(1);
    expect(text).toMatch(/^wa_claim_duration_seconds_bucket\{le="0.001",batch="ahead"\} \d+$/m);
  });
});
