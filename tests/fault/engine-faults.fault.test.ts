import net from 'node:net';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { PHONE_INSERT_LOCK } from '../../core/src/db/locks';
import { checkBooks } from './support/books';
import { HealthProbe, healthSummary, healthWhileDown, outage, probeHealth } from './support/observe';
import { ProductProcess } from './support/processes';
import { type FaultContext, type FaultOutcome, FaultRun } from './support/scenario';
import { waitFor } from './support/services';
import { FaultStack } from './support/stack';

/**
 * Issue 19's proof: the product heals itself. One stack (a private PostgreSQL and Redis, the API,
 * two `npm run worker` processes on the simulator, six accounts blasting) takes one fault after
 * another; after each, every blast that was sending sends again within 30 s of the fault's end with
 * nothing sent twice, nothing lost, every accepted message logged with its real status and paid,
 * the ledger equal to a recount, and GET /api/health honest (503 within 2 s while a server is down,
 * 200 again after). Each scenario prints its recovery time.
 */

const ACCOUNTS = 6;
/**
 * Issue 22's campaigns, served before the pool (equal priority: they take turns). A full run sends
 * about 2,400 messages (the books' last line says how many), so the budgeted one reaches its 750
 * after about 1,500 campaign messages (during the worker SIGSTOP, here) and finishes 'budget'; the
 * other then has the blasts to itself, messages its last target and finishes 'completed' with a few
 * hundred messages of the run left for the pool. Its rupiah budget would buy 1,000: the message
 * budget is the smaller.
 */
const CAMPAIGNS = [
  { name: 'fault budgeted', targets: 1500, budgetMessages: 750, budgetAmount: 150_000, price: 150 },
  { name: 'fault open', targets: 1200, price: 200 },
];
/** Sends come every ~0.4 s per account; a gap this long while only the API is away is a pause. */
const API_DEAD_MAX_GAP_MS = 5000;
let stack: FaultStack;
let run: FaultRun;

beforeAll(async () => {
  stack = await FaultStack.start({ accounts: ACCOUNTS, targets: 3000, campaigns: CAMPAIGNS });
  run = new FaultRun(stack);
});

afterAll(async () => {
  if (run) console.log(`[fault] summary\n${run.summary.map((s) => `[fault]   ${s}`).join('\n')}`);
  await stack?.close();
});

/** A server stopped for `ms` and started again: health probed while it is down. */
async function serverOutage(
  what: string,
  ms: number,
  stop: () => Promise<void>,
  start: () => Promise<void>,
): Promise<FaultOutcome> {
  const problems: string[] = [];
  await stop();
  const downAt = Date.now();
  if (ms < 10_000) {
    // a short blink: one probe while it lasts
    problems.push(...healthWhileDown([await probeHealth(stack)], what));
    await outage(Math.max(0, ms - (Date.now() - downAt)));
  } else {
    const probe = new HealthProbe(stack);
    probe.start();
    await outage(ms);
    const samples = await probe.stop();
    if (samples.length < 5) problems.push(`only ${samples.length} health probe(s) answered while ${what}`);
    problems.push(...healthWhileDown(samples, what));
  }
  await start();
  return { endedAt: Date.now(), problems, notes: [`${what} for ${((Date.now() - downAt) / 1000).toFixed(1)} s`] };
}

/** The live worker holding most of the accounts that send, and those accounts. */
function busiest(ctx: FaultContext): { victim: ProductProcess; held: string[] } {
  const per = new Map<ProductProcess, string[]>();
  for (const a of ctx.sending) {
    const w = stack.workerOf(a.worker_id);
    if (w?.alive) per.set(w, [...(per.get(w) ?? []), a.clientid]);
  }
  const [victim, held] = [...per.entries()].sort((a, b) => b[1].length - a[1].length)[0] ?? [];
  if (!victim || !held) throw new Error(`no live worker holds a sending account: ${JSON.stringify(ctx.sending)}`);
  return { victim, held };
}

describe('engine faults (PostgreSQL, Redis, workers, API, an aborted upload)', () => {
  it('PostgreSQL restart (~3 s)', () =>
    run.scenario({
      name: 'PostgreSQL restart',
      fault: () =>
        serverOutage(
          'PostgreSQL is restarting',
          3000,
          () => stack.pgServer.stop('fast'),
          () => stack.pgServer.start(),
        ),
    }));

  it('PostgreSQL down 60 s', () =>
    run.scenario({
      name: 'PostgreSQL down 60 s',
      fault: () =>
        serverOutage(
          'PostgreSQL is down',
          60_000,
          () => stack.pgServer.stop('fast'),
          () => stack.pgServer.start(),
        ),
    }));

  it('Redis restart', () =>
    run.scenario({
      name: 'Redis restart',
      fault: () =>
        serverOutage(
          'Redis is restarting',
          3000,
          () => stack.redis.stop(),
          () => stack.redis.start(),
        ),
    }));

  it('Redis down 60 s', () =>
    run.scenario({
      name: 'Redis down 60 s',
      fault: () =>
        serverOutage(
          'Redis is down',
          60_000,
          () => stack.redis.stop(),
          () => stack.redis.start(),
        ),
    }));

  it('worker SIGKILL', () => {
    let killedAt = 0;
    let held: string[] = [];
    const probe = new HealthProbe(stack);
    return run.scenario({
      name: 'worker SIGKILL',
      fault: async (ctx) => {
        const b = busiest(ctx);
        held = b.held;
        killedAt = Date.now();
        probe.start();
        await b.victim.kill();
        return { endedAt: Date.now(), problems: [], notes: [`killed ${b.victim.name}, which held ${held.join(', ')}`] };
      },
      // a message between send and write on the killed worker is 'unknown': at most one per account it held
      beforeBooks: async () => {
        console.log(`[fault]   health from the kill until the blasts resumed: ${healthSummary(await probe.stop())}`);
        const r = await stack.pool.query<{ id: number; clientid: string }>(
          `select m.id, w.clientid from message_logs m join whatsapp_accounts w on w.id = m.whatsapp_id
           where m.status = 'unknown' and m.created_at >= to_timestamp($1::double precision / 1000) - interval '1 second'`,
          [killedAt],
        );
        const problems: string[] = [];
        const perAccount = new Map<string, number>();
        for (const u of r.rows) {
          if (run.allowedUnknown.has(u.id)) continue;
          perAccount.set(u.clientid, (perAccount.get(u.clientid) ?? 0) + 1);
          if (held.includes(u.clientid) && perAccount.get(u.clientid) === 1) run.allowedUnknown.add(u.id);
        }
        for (const [clientid, n] of perAccount) {
          if (!held.includes(clientid))
            problems.push(`${n} 'unknown' log(s) on ${clientid}, which the killed worker did not hold`);
          else if (n > 1) problems.push(`${n} 'unknown' logs on ${clientid}: at most one message can be in flight`);
        }
        return problems;
      },
      // the next scenarios run on two workers again
      restore: async () => {
        await probe.stop();
        stack.workers.push(await stack.startWorkerProcess());
      },
    });
  });

  it('worker SIGSTOP 90 s, then SIGCONT', () => {
    let victim: ProductProcess | null = null;
    return run.scenario({
      name: 'worker SIGSTOP 90 s',
      fault: async (ctx) => {
        const b = busiest(ctx);
        victim = b.victim;
        const stoppedAt = Date.now();
        const probe = new HealthProbe(stack);
        probe.start();
        b.victim.signal('SIGSTOP');
        await outage(90_000);
        b.victim.signal('SIGCONT');
        const health = healthSummary(await probe.stop());
        const endedAt = Date.now();
        // how long the other worker took to carry each frozen account's blast on (the issue's 37–49 s)
        stack.sendLog.refresh();
        const takeover = b.held.map((d) => {
          const first = stack.sendLog
            .after(d, stoppedAt)
            .filter((l) => l.worker !== b.victim.name)
            .sort((x, y) => x.at - y.at)[0];
          return `${d}: ${first ? `${((first.at - stoppedAt) / 1000).toFixed(1)} s` : 'not taken over'}`;
        });
        return {
          endedAt,
          problems: [],
          notes: [
            `stopped ${b.victim.name} (held ${b.held.join(', ')}); taken over during the stop: ${takeover.join(', ')}`,
            `health during the stop: ${health}`,
          ],
        };
      },
      restore: async () => {
        (victim as ProductProcess | null)?.signal('SIGCONT');
      },
    });
  });

  it('API SIGKILL (the blasts do not even pause), then the API again', () =>
    run.scenario({
      name: 'API SIGKILL',
      fault: async (ctx) => {
        const problems: string[] = [];
        const killedAt = Date.now();
        await stack.killApi();
        // while the API is dead the workers go on: each account sends twice more, or the blasts paused
        const devices = ctx.sending.map((a) => a.clientid);
        const kept = () => {
          stack.sendLog.refresh();
          return devices.filter((d) => stack.sendLog.after(d, killedAt).length < 2);
        };
        await waitFor(
          () => kept().length === 0,
          20_000,
          () => 'every blast sending while the API is dead',
        ).catch(() => {});
        const paused = kept();
        if (paused.length) problems.push(`blasts paused while the API was dead: ${paused.join(', ')}`);
        await stack.restartApi();
        const backAt = Date.now();
        // over the whole time the API was away (its restart included), no account's sends stop for long
        stack.sendLog.refresh();
        const gaps = devices.map((d) => {
          const times = [stack.sendLog.last(d, killedAt)?.at ?? killedAt];
          for (const l of stack.sendLog.after(d, killedAt)) if (l.at <= backAt) times.push(l.at);
          times.sort((a, b) => a - b);
          times.push(backAt);
          let gap = 0;
          for (let i = 1; i < times.length; i++) gap = Math.max(gap, times[i] - times[i - 1]);
          return { d, gap };
        });
        const stalled = gaps.filter((g) => g.gap > API_DEAD_MAX_GAP_MS);
        if (stalled.length) {
          problems.push(
            `blasts paused while the API was away (a gap over ${API_DEAD_MAX_GAP_MS} ms between two sends): ${stalled
              .map((g) => `${g.d} ${g.gap} ms`)
              .join(', ')}`,
          );
        }
        return {
          endedAt: backAt,
          problems,
          notes: [
            `API away for ${((backAt - killedAt) / 1000).toFixed(1)} s; longest gap between two sends of an account meanwhile: ${Math.max(...gaps.map((g) => g.gap))} ms`,
          ],
        };
      },
    }));

  it('an upload cut off mid-way', () => {
    let stuck = false;
    return run.scenario({
      name: 'upload cut off mid-way',
      fault: async () => {
        const { seen, cutAt, answer } = await cutUpload();
        const problems: string[] = [];
        // an answer before the body ended is a refusal (auth, route, type): then nothing was cut mid-way
        if (answer) problems.push(`the API answered the upload before it was cut, so no import was cut off: ${answer}`);
        // the client is gone: within 10 s the import must have let go of phone_numbers
        const left = await waitFor(
          async () => ((await importLocks()).length ? null : 'free'),
          10_000,
          () => '',
        ).catch(() => null);
        if (!left) {
          stuck = true;
          problems.push(
            `10 s after the client went away the import still holds phone_numbers: ${(await importLocks()).join(' | ')}`,
          );
        }
        return {
          endedAt: cutAt,
          problems,
          notes: [`the import ${seen ? 'held its lock' : 'was not seen holding a lock'} when the upload was cut`],
        };
      },
      restore: async () => {
        // what the issue says an operator had to do: restart the API, so the scenarios after this one measure their own fault
        if (stuck || (await importLocks()).length) await stack.restartApi();
      },
    });
  });

  it('the books close: every blast stopped, every target once, nothing lost, ledger = recount', async () => {
    for (const d of stack.devices) {
      const res = await stack.stopBlast(d);
      if (res.status !== 200) console.log(`[fault] stop-blasting ${d}: ${res.status} ${JSON.stringify(res.body)}`);
    }
    const settled = await waitFor(
      async () => {
        const r = await stack.pool.query<{ sending: number; claimed: number }>(
          `select (select count(*)::int from whatsapp_accounts where status = 'sending') as sending,
                  (select count(*)::int from phone_numbers where in_use <> 0) as claimed`,
        );
        return r.rows[0]?.sending === 0 && r.rows[0]?.claimed === 0;
      },
      30_000,
      () => 'every blast stopped and every claim given back',
    ).catch((err: Error) => err.message);
    const problems = await checkBooks(stack, { allowedUnknown: run.allowedUnknown, final: true });
    if (settled !== true) problems.unshift(settled);
    stack.sendLog.refresh();
    const counts = await stack.pool.query<{ status: string; n: number }>(
      'select status, count(*)::int as n from message_logs group by 1 order by 1',
    );
    const campaigns = await stack.pool.query<{
      name: string;
      status: string;
      stop_reason: string | null;
      sent: number;
      failed: number;
      unknown: number;
      delivered: number;
      spent: string;
      heavy: number;
      light: number;
    }>(
      `select c.name, c.status, c.stop_reason, c.sent, c.failed, c.unknown, c.delivered, c.spent::text as spent,
              count(m.id) filter (where t.weight = 3)::int as heavy, count(m.id) filter (where t.weight = 1)::int as light
       from campaigns c left join message_logs m on m.campaign_id = c.id left join message_templates t on t.id = m.variant_id
       group by c.id order by c.id`,
    );
    console.log(
      `[fault] books: ${stack.sendLog.lines.length} messages accepted by the simulator; logs ${counts.rows
        .map((r) => `${r.status} ${r.n}`)
        .join(', ')}`,
    );
    for (const c of campaigns.rows) {
      const cap = stack.campaigns.find((x) => x.name === c.name)?.cap;
      console.log(
        `[fault]   campaign ${c.name}: ${c.status}${c.stop_reason ? ` (${c.stop_reason})` : ''}, sent ${c.sent}, failed ${c.failed}, unknown ${c.unknown}, delivered ${c.delivered}, spent ${c.spent}${cap == null ? '' : ` of a cap of ${cap} messages`}; variants 3:1 sent ${c.heavy}:${c.light}`,
      );
    }
    if (problems.length) throw new Error(`the books:\n- ${problems.join('\n- ')}\n\n${stack.tails()}`);
  });

  it('the logs: one JSON line per entry, and each outage told once (and once a minute), not once per attempt', () => {
    const problems: string[] = [];
    for (const p of ProductProcess.all) {
      if (p.notJsonCount)
        problems.push(`${p.name} printed ${p.notJsonCount} line(s) that are not JSON: ${p.notJson.join(' | ')}`);
      const count = (msg: string) => p.messages.get(msg) ?? 0;
      // two database outages and two Redis outages over the run, the 60 s ones reminded about once
      const told = [...p.messages].filter(([m]) => / unreachable/.test(m)).reduce((n, [, c]) => n + c, 0);
      if (told > 12) problems.push(`${p.name} logged ${told} outage lines: ${JSON.stringify([...p.messages])}`);
      // nothing failed for a reason of its own, and no loop was lost to an outage
      for (const m of ['loop failed', 'unexpected error', 'unhandled rejection', 'session event failed']) {
        if (count(m)) problems.push(`${p.name} logged '${m}' ${count(m)} time(s)`);
      }
    }
    console.log(
      `[fault] logs: ${ProductProcess.all.map((p) => `${p.name} ${[...p.messages.values()].reduce((a, b) => a + b, 0)} lines`).join(', ')}`,
    );
    if (problems.length) throw new Error(`the logs:\n- ${problems.join('\n- ')}`);
  });
});

/** Locks an import may leave on phone_numbers: the importers' advisory lock, or a transaction over 3 s old on the table. */
async function importLocks(): Promise<string[]> {
  const r = await stack.pool.query<{
    pid: number;
    mode: string;
    rel: string | null;
    state: string;
    age: string;
    query: string;
  }>(
    `select l.pid, l.mode, c.relname as rel, a.state, (now() - a.xact_start)::text as age, left(a.query, 80) as query
     from pg_locks l join pg_stat_activity a on a.pid = l.pid left join pg_class c on c.oid = l.relation
     where l.granted and a.pid <> pg_backend_pid() and (
       (l.locktype = 'advisory' and l.classid = 0 and l.objid = $1)
       or (c.relname like 'phone_numbers%' and now() - a.xact_start > interval '3 seconds'))`,
    [PHONE_INSERT_LOCK],
  );
  return r.rows.map((x) => `pid ${x.pid} ${x.mode} on ${x.rel ?? 'advisory'} (${x.state}, ${x.age}): ${x.query}`);
}

/**
 * Starts a large CSV upload to POST /api/admin/phonenumber/import on a raw socket, declaring 40 MB
 * (a million rows: the importer's large path) but sending about 1 MB, then destroys the socket once
 * the import is under way (its lock seen, or 10 s). Returns when it was cut and what the API had
 * answered by then (nothing, when it was still reading the body).
 */
async function cutUpload(): Promise<{ seen: boolean; cutAt: number; answer: string }> {
  const boundary = `----fault${Date.now()}`;
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="numbers.csv"\r\nContent-Type: text/csv\r\n\r\nnumber,name\r\n`;
  const socket = net.connect({ host: '127.0.0.1', port: stack.apiPort });
  socket.on('error', () => {});
  let answer = '';
  socket.on('data', (d) => {
    answer = (answer + d.toString()).slice(0, 400);
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('error', reject);
  });
  socket.write(
    [
      'POST /api/admin/phonenumber/import HTTP/1.1',
      `Host: 127.0.0.1:${stack.apiPort}`,
      `Authorization: Bearer ${stack.adminToken}`,
      `Content-Type: multipart/form-data; boundary=${boundary}`,
      `Content-Length: ${40 * 1024 * 1024}`,
      'Connection: close',
      '',
      '',
    ].join('\r\n'),
  );
  socket.write(head);
  for (let chunk = 0; chunk < 40; chunk++) {
    const rows: string[] = [];
    for (let i = 0; i < 1000; i++) {
      const n = chunk * 1000 + i;
      rows.push(`62899${String(n).padStart(8, '0')},Cut ${n}`);
    }
    const ok = socket.write(`${rows.join('\r\n')}\r\n`);
    // a server that stops reading must not hang the test: the rest is not needed to start the import
    if (!ok && !(await drained(socket, 5000))) break;
  }
  const seen = await waitFor(
    async () => (await importLocks()).length > 0 || null,
    10_000,
    () => '',
    100,
  ).then(
    () => true,
    () => false,
  );
  socket.destroy();
  return { seen, cutAt: Date.now(), answer };
}

/** Resolves true when the socket drains, false after `ms` or when it closes. */
function drained(socket: net.Socket, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    socket.once('drain', () => {
      clearTimeout(timer);
      resolve(true);
    });
    socket.once('close', () => {
      clearTimeout(timer);
      resolve(false);
    });
  });
}
