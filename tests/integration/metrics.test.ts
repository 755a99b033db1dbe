import { spawnSync } from 'node:child_process';
import { sql } from 'drizzle-orm';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../core/src/db/client';
import { createLogger } from '../../core/src/logger';
import { createApp } from '../../server/src/app';
import { EngineMetrics } from '../../workers/src/engine/engine-metrics';
import { bearer } from '../support/api';
import { createTestDatabase } from '../support/db';
import { createUser, TEST_JWT_SECRET } from '../support/factories';

/** GET /metrics: Prometheus text behind METRICS_TOKEN, with the installation's figures from the database. */
const TOKEN = 'metrics-token-0123456789';
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let app: ReturnType<typeof createApp>;
let closed: ReturnType<typeof createApp>;

beforeAll(async () => {
  database = await createTestDatabase();
  const base = { db: database.db, jwtSecret: TEST_JWT_SECRET, logger: createLogger('silent'), dataDir: '/tmp' };
  app = createApp({ ...base, metricsToken: TOKEN });
  closed = createApp(base);
});
afterAll(async () => {
  await database.close();
});

const scrape = () => request(app).get('/metrics').set('Authorization', `Bearer ${TOKEN}`);

/** `name{labels} value` lines → value by `name{labels}`. */
function samples(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const at = line.lastIndexOf(' ');
    out.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return out;
}

describe('GET /metrics', () => {
  it('does not exist without METRICS_TOKEN, and refuses a missing or wrong token', async () => {
    const none = await request(closed).get('/metrics').set('Authorization', `Bearer ${TOKEN}`);
    expect(none.status).toBe(404);
    expect((await request(app).get('/metrics')).status).toBe(401);
    const wrong = await request(app).get('/metrics').set('Authorization', `Bearer ${TOKEN}x`);
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({ msg: 'A valid metrics token is required.' });
    // a user's token is not the metrics token
    const admin = await createUser(database.db, { role: 'admin' });
    expect((await request(app).get('/metrics').set(bearer(admin.token))).status).toBe(401);
  });

  it("reports sessions by state and engine, messages by outcome, workers, queue depths and the API's latency by route", async () => {
    const db = database.db;
    const owner = await createUser(db, { role: 'member' });
    await db.execute(
      sql`insert into whatsapp_workers (worker_id, max_logins, expires_at) values ('w1', 20, now() + interval '1 minute')`,
    );
    await db.execute(sql`insert into whatsapp_accounts (clientid, user_id, state, engine, worker_id, lease_until) values
      ('id-a', ${owner.id}, 'connected', 'baileys', 'w1', now() + interval '1 minute'),
      ('id-b', ${owner.id}, 'connected', 'baileys', 'w1', now() + interval '1 minute'),
      ('id-c', ${owner.id}, 'disconnected', null, null, null)`);
    const [a] = await rows<{ id: number }>(db, sql`select id from whatsapp_accounts where clientid = 'id-a'`);
    await db.execute(sql`insert into account_daily (whatsapp_id, day, user_id, sent, delivered, read, failed, optout)
      values (${a?.id ?? 0}, current_date, ${owner.id}, 5, 4, 2, 1, 1)`);
    const [hook] = await rows<{ id: number }>(
      db,
      sql`insert into webhook_endpoints (user_id, url, events, secret) values (${owner.id}, 'https://x.example/h', '{optout}', 's') returning id`,
    );
    await db.execute(sql`insert into webhook_deliveries (endpoint_id, event, event_id, body, status, created_at) values
      (${hook.id}, 'optout', gen_random_uuid(), '{}', 'pending', now()),
      (${hook.id}, 'optout', gen_random_uuid(), '{}', 'pending', now() - interval '3 days'),
      (${hook.id}, 'optout', gen_random_uuid(), '{}', 'failed', now()),
      (${hook.id}, 'optout', gen_random_uuid(), '{}', 'failed', now() - interval '2 days'),
      (${hook.id}, 'optout', gen_random_uuid(), '{}', 'delivered', now())`);
    expect((await request(app).get('/api/health')).status).toBe(200);
    expect((await request(app).get('/api/admin/whatsapp/123').set(bearer(owner.token))).status).toBe(404);

    const res = await scrape();
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    const m = samples(res.text);
    expect(m.get('wa_sessions{state="connected",engine="baileys"}')).toBe(2);
    expect(m.get('wa_sessions{state="disconnected",engine="default"}')).toBe(1);
    expect(m.get('wa_messages{outcome="sent"}')).toBe(5);
    expect(m.get('wa_messages{outcome="delivered"}')).toBe(4);
    expect(m.get('wa_messages{outcome="failed"}')).toBe(1);
    expect(m.get('wa_workers')).toBe(1);
    expect(m.get('wa_worker_accounts')).toBe(2);
    expect(m.get('wa_queue_jobs{state="waiting"}')).toBe(0);
    expect(m.get('wa_webhook_deliveries{status="pending"}')).toBe(2);
    expect(m.get('wa_webhook_deliveries{status="failed"}')).toBe(1);
    expect(m.get('wa_http_request_duration_seconds_count{method="GET",route="/api/health",status="200"}')).toBe(1);
    // a route template, never the raw path with its id
    expect(
      m.get('wa_http_request_duration_seconds_count{method="GET",route="/api/admin/whatsapp/:id",status="404"}'),
    ).toBe(1);
    expect([...m.keys()].some((k) => k.includes('/123'))).toBe(false);
    expect([...m.keys()].filter((k) => !k.startsWith('wa_'))).toEqual([]);
    expect([...m.keys()].some((k) => k.startsWith('wa_process_'))).toBe(true);
  });
});

/**
 * What `promtool check metrics` checks, so the exposition is clean where promtool is not installed:
 * every family has HELP and TYPE; a counter's name ends in `_total` and nothing else's does (a
 * gauge named `_total` reads as a counter to rate()); `_count`, `_sum` and `_bucket` belong to
 * histograms and summaries. Problems, one line each.
 */
function lintExposition(text: string): string[] {
  const types = new Map<string, string>();
  const helps = new Set<string>();
  for (const line of text.split('\n')) {
    const type = /^# TYPE (\S+) (\S+)$/.exec(line);
    if (type) types.set(type[1], type[2]);
    const help = /^# HELP (\S+) \S/.exec(line);
    if (help) helps.add(help[1]);
  }
  const problems: string[] = [];
  for (const [name, type] of types) {
    if (!helps.has(name)) problems.push(`${name}: no help text`);
    if (type === 'counter' && !name.endsWith('_total')) problems.push(`${name}: counter without _total`);
    if (type !== 'counter' && name.endsWith('_total')) problems.push(`${name}: ${type} named _total`);
    if (type !== 'histogram' && type !== 'summary' && /_(count|sum|bucket)$/.test(name)) {
      problems.push(`${name}: ${type} with a histogram's suffix`);
    }
  }
  return problems;
}

describe('the exposition', () => {
  it("is clean by promtool's rules, the engine's metrics with the API's", async () => {
    const engine = new EngineMetrics(() => 0);
    await engine.timeClaim('one', async () => {});
    const embedded = createApp({
      db: database.db,
      jwtSecret: TEST_JWT_SECRET,
      logger: createLogger('silent'),
      dataDir: '/tmp',
      metricsToken: TOKEN,
      engineMetrics: engine.registry,
    });
    const res = await request(embedded).get('/metrics').set('Authorization', `Bearer ${TOKEN}`);
    expect(res.status).toBe(200);
    expect(res.text).toContain('# TYPE wa_claim_duration_seconds histogram');
    expect(lintExposition(res.text)).toEqual([]);
    // promtool itself where it is installed (Debian: the prometheus package)
    const promtool = spawnSync('promtool', ['check', 'metrics'], { input: res.text, encoding: 'utf8' });
    if (promtool.error) return;
    expect(`${promtool.stdout}${promtool.stderr}`.trim()).toBe('');
    expect(promtool.status).toBe(0);
  });
});
