import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { type Db, rows } from '@wa/core/db/client';
import type { Logger } from '@wa/core/logger';
import { sql } from 'drizzle-orm';
import { proxyAgent } from '../drivers/proxy-agent';
import { parseProxy } from './proxy';

export interface ProxyCheckOptions {
  /** PROXY_CHECK_URL: what every proxy must reach (e.g. the operator's own endpoint) */
  url: string;
  /** a proxy is checked again once its last check is this old */
  everyMs: number;
  /** a check slower than this failed */
  timeoutMs: number;
  /** failed checks in a row after which the proxy is nonactive (new logins no longer get it) */
  failures: number;
  /** proxies one sweep checks at most */
  batch?: number;
}

/**
 * One pass of the proxy health check: the proxies due (not nonactive, unchecked or checked longer
 * than `everyMs` ago) are claimed with SKIP LOCKED, so several workers share them and none is
 * checked twice at once; each is asked for `url`, and its latency, or why it failed, is recorded.
 * `failures` failures in a row make it nonactive with the reason (shown on the proxy list).
 * Returns what it found.
 */
export async function checkProxies(
  db: Db,
  o: ProxyCheckOptions,
  log?: Logger,
): Promise<{ ok: number; failed: number; disabled: number }> {
  const due = await rows<{ id: number; value: string }>(
    db,
    sql`with d as (
          select id from proxies
          where status <> 'nonactive' and (checked_at is null or checked_at < now() - ${o.everyMs} * interval '1 millisecond')
          order by checked_at nulls first, id limit ${o.batch ?? 50} for update skip locked
        )
        update proxies p set checked_at = now() from d where p.id = d.id returning p.id, p.value`,
  );
  const results = await Promise.all(due.map(async (p) => ({ ...p, result: await probe(p.value, o) })));
  let disabled = 0;
  for (const { id, value, result } of results) {
    if (result.ok) {
      await db.execute(
        sql`update proxies set latency_ms = ${result.ms}, check_error = null, check_failures = 0 where id = ${id}`,
      );
      continue;
    }
    const [r] = await rows<{ status: string }>(
      db,
      sql`update proxies set check_error = ${result.error}, latency_ms = null, check_failures = check_failures + 1,
            status = case when check_failures + 1 >= ${o.failures} then 'nonactive' else status end, updated_at = now()
          where id = ${id} returning status`,
    );
    if (r?.status === 'nonactive') {
      disabled += 1;
      log?.warn({ proxyId: id, proxy: redact(value), reason: result.error }, 'proxy failed its checks: now nonactive');
    }
  }
  const ok = results.filter((r) => r.result.ok).length;
  return { ok, failed: results.length - ok, disabled };
}

type ProbeResult = { ok: true; ms: number } | { ok: false; error: string };

/** GET `url` through the proxy: a 2xx or 3xx answer within the timeout is a working proxy. */
async function probe(value: string, o: ProxyCheckOptions): Promise<ProbeResult> {
  const proxy = parseProxy(value);
  if (!proxy) return { ok: false, error: 'not a proxy address' };
  const target = new URL(o.url);
  const secure = target.protocol === 'https:';
  const agent = proxyAgent(proxy, secure ? 'https:' : 'http:');
  const start = performance.now();
  return new Promise<ProbeResult>((resolve) => {
    const req = (secure ? httpsRequest : httpRequest)(target, { method: 'GET', agent, timeout: o.timeoutMs }, (res) => {
      res.resume();
      const status = res.statusCode ?? 0;
      if (status >= 200 && status < 400) resolve({ ok: true, ms: Math.round(performance.now() - start) });
      else resolve({ ok: false, error: `the check URL answered ${status} through the proxy` });
    });
    req.on('timeout', () => req.destroy(new Error(`no answer within ${o.timeoutMs} ms`)));
    req.on('error', (err) => resolve({ ok: false, error: err.message || 'connection failed' }));
    req.end();
  });
}

/** A proxy for a log line: its credentials never are. */
function redact(value: string): string {
  return value.replace(/\/\/[^@/]+@|^[^@/:]+:[^@/]+@/, (m) => (m.startsWith('//') ? '//***@' : '***@'));
}
