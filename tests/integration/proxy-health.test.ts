import { createServer, get, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../core/src/db/client';
import { checkProxies } from '../../workers/src/engine/proxy-health';
import { bearer, useApi } from '../support/api';
import { useUsers } from '../support/factories';

/**
 * The proxy health check (issue 13) through a real local HTTP proxy: a working proxy gets its
 * latency recorded; one that cannot reach the check URL gets the reason, and after the failures in
 * a row that the settings allow it is nonactive (new logins no longer get it); the list shows both.
 */
const h = useApi();
const { admin } = useUsers(() => h.database.db, { admin: 'admin' });
let target: Server;
let proxy: Server;
let proxied = 0;
const port = (s: Server) => (s.address() as AddressInfo).port;
const listen = (s: Server) => new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));

beforeAll(async () => {
  target = createServer((_req, res) => res.end('ok'));
  // a forward proxy for plain HTTP: it fetches the absolute URL it is asked for
  proxy = createServer((req, res) => {
    proxied += 1;
    get(req.url ?? '', (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    }).on('error', () => {
      res.writeHead(502);
      res.end();
    });
  });
  await listen(target);
  await listen(proxy);
});
afterAll(async () => {
  target.close();
  proxy.close();
});

describe('proxy health', () => {
  it('records the latency of a working proxy and the reason of a dead one, then makes the dead one nonactive', async () => {
    const db = h.database.db;
    await db.execute(sql`insert into proxies (value, status) values
      (${`127.0.0.1:${port(proxy)}`}, 'active'), ('127.0.0.1:1', 'active'), ('127.0.0.2:9', 'nonactive')`);
    const options = { url: `http://127.0.0.1:${port(target)}/health`, everyMs: 60_000, timeoutMs: 2000, failures: 2 };
    expect(await checkProxies(db, options)).toEqual({ ok: 1, failed: 1, disabled: 0 });
    expect(proxied).toBe(1);
    const state = () =>
      rows<{ value: string; status: string; latency_ms: number | null; check_error: string | null; checked: boolean }>(
        db,
        sql`select value, status, latency_ms, check_error, checked_at is not null as checked from proxies order by id`,
      );
    const [live, dead, off] = await state();
    expect(live).toMatchObject({ status: 'active', check_error: null, checked: true });
    expect(live?.latency_ms).toBeGreaterThanOrEqual(0);
    expect(dead).toMatchObject({
      status: 'active',
      latency_ms: null,
      check_error: expect.stringMatching(/ECONNREFUSED/),
    });
    expect(off).toMatchObject({ status: 'nonactive', checked: false });

    // none is due again within everyMs; when they are, the dead one fails a second time
    expect(await checkProxies(db, options)).toEqual({ ok: 0, failed: 0, disabled: 0 });
    expect(await checkProxies(db, { ...options, everyMs: 0 })).toEqual({ ok: 1, failed: 1, disabled: 1 });
    expect((await state())[1]).toMatchObject({
      status: 'nonactive',
      check_error: expect.stringMatching(/ECONNREFUSED/),
    });

    // the proxy list shows what the checks found
    const list = await request(h.app).get('/api/admin/proxy/list-per-page').set(bearer(admin.token));
    const byValue = new Map(list.body.data.map((p: { value: string }) => [p.value, p]));
    expect(byValue.get('127.0.0.1:1')).toMatchObject({
      status: 'nonactive',
      check_error: expect.stringMatching(/ECONNREFUSED/),
    });
    expect(byValue.get(`127.0.0.1:${port(proxy)}`)).toMatchObject({
      status: 'active',
      check_error: null,
      latency_ms: expect.any(Number),
    });
  });

  it('fails a proxy whose path to the check URL answers an error', async () => {
    const db = h.database.db;
    await db.execute(sql`update proxies set status = 'nonactive'`);
    await db.execute(
      sql`insert into proxies (value, status) values (${`127.0.0.1:${port(proxy)}`.replace('127.0.0.1', 'localhost')}, 'active')`,
    );
    const r = await checkProxies(db, { url: 'http://127.0.0.1:1/', everyMs: 0, timeoutMs: 2000, failures: 2 });
    expect(r).toEqual({ ok: 0, failed: 1, disabled: 0 });
    const [p] = await rows<{ check_error: string }>(
      db,
      sql`select check_error from proxies where value like 'localhost:%'`,
    );
    expect(p?.check_error).toBe('the check URL answered 502 through the proxy');
  });
});
