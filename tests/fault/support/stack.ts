import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { type Database, openDatabase } from '../../../core/src/db/client';
import { PHONE_INSERT_LOCK } from '../../../core/src/db/locks';
import { RedisBus } from '../../../core/src/realtime/bus';
import { ensureSettings } from '../../../server/src/bootstrap';
import { allowBlastingAnyTime } from '../../support/db';
import { createUser, TEST_JWT_SECRET, type TestUser } from '../../support/factories';
import { type ProductProcess, type StackEnv, startApi, startWorker } from './processes';
import { SendLog } from './send-log';
import { freePort, PrivatePostgres, PrivateRedis, waitFor } from './services';

/** The member's fee per accepted message: every logged success must carry exactly this. */
export const FEE = 100;

/** A campaign to seed: its own targets (numbers of its own), two approved variants weighted 3:1. */
export interface CampaignSpec {
  name: string;
  targets: number;
  /** budget_messages (absent: no message budget) */
  budgetMessages?: number;
  /** budget_amount in rupiah (absent: none) */
  budgetAmount?: number;
  /** price_per_delivered in rupiah */
  price: number;
}

/** A campaign the stack seeded: its id, and the most it may send (null: no cap). */
export interface SeededCampaign extends CampaignSpec {
  id: number;
  cap: number | null;
  variants: number[];
  /** its targets' numbers are this prefix and 8 digits (distinct from the pool's and each other's) */
  prefix: string;
}

/**
 * The most messages a campaign may send, as the issue states it (independent of the engine's own
 * SQL): its message budget, and what its rupiah budget buys at its price; the smaller when both.
 */
export function campaignCap(c: Pick<CampaignSpec, 'budgetMessages' | 'budgetAmount' | 'price'>): number | null {
  const caps: number[] = [];
  if (c.budgetMessages !== undefined) caps.push(c.budgetMessages);
  if (c.budgetAmount !== undefined && c.price > 0) caps.push(Math.floor(c.budgetAmount / c.price));
  return caps.length ? Math.min(...caps) : null;
}

/** An account of the stack as the database shows it. */
export interface AccountRow {
  id: number;
  clientid: string;
  status: string;
  state: string;
  worker_id: string | null;
}

/** An HTTP answer: the status and the parsed body (or the text when it is not JSON). */
export interface Answer {
  status: number;
  body: unknown;
  ms: number;
}

/**
 * The whole product on private servers: a PostgreSQL cluster and a Redis of the test's own, the
 * API process and two `npm run worker` processes on the simulator, a member with connected
 * accounts blasting a client's active campaigns (issue 22), then a pool of targets. Scenarios
 * break one piece at a time; `close` always takes everything down, and an exit handler does so too
 * if the test process ends early.
 */
export class FaultStack {
  api!: ProductProcess;
  workers: ProductProcess[] = [];
  database!: Database;
  /** raw SQL for the checks, with a statement timeout so a stuck lock fails a check instead of hanging it */
  pool!: pg.Pool;
  member!: TestUser;
  /** the advertiser (role 'client') whose campaigns the blasts serve before the pool */
  client!: TestUser;
  readonly campaigns: SeededCampaign[] = [];
  adminToken = '';
  devices: string[] = [];
  readonly sendLog: SendLog;
  private workerSeq = 0;
  private targetSeq = 0;
  private readonly adminEmail = 'fault-admin@example.test';
  private readonly adminPassword = `pw-${randomBytes(8).toString('hex')}`;
  private readonly exitHandler = () => this.destroySync();

  private constructor(
    readonly pgServer: PrivatePostgres,
    readonly redis: PrivateRedis,
    readonly runDir: string,
    readonly apiPort: number,
    readonly prefix: string,
  ) {
    this.sendLog = new SendLog(path.join(runDir, 'sends'));
  }

  /**
   * Starts the servers and the processes, seeds the member, accounts, template and targets, and the
   * client's active campaigns (the blasts draw from them first, then from the pool).
   */
  static async start(opts: { accounts: number; targets: number; campaigns?: CampaignSpec[] }): Promise<FaultStack> {
    const began = Date.now();
    const runDir = mkdtempSync(path.join(tmpdir(), 'wa-fault-run-'));
    mkdirSync(path.join(runDir, 'sends'));
    const pgServer = await PrivatePostgres.create();
    const redis = await PrivateRedis.create();
    const stack = new FaultStack(
      pgServer,
      redis,
      runDir,
      await freePort(),
      `wa-fault-${randomBytes(3).toString('hex')}`,
    );
    process.once('exit', stack.exitHandler);
    try {
      await pgServer.start();
      await redis.start();
      const admin = new pg.Client({ connectionString: pgServer.url() });
      await admin.connect();
      await admin.query('create database wa');
      await admin.end();
      // the test's own connection migrates first; the processes then find the schema in place
      stack.database = await openDatabase({ databaseUrl: stack.checkUrl, pgliteDir: '' });
      stack.pool = new pg.Pool({ connectionString: stack.checkUrl, max: 4 });
      stack.pool.on('error', () => {});
      await ensureSettings(stack.database.db);
      await allowBlastingAnyTime(stack.database.db);
      // paid as soon as WhatsApp accepts; paced at 1 interval "second" (WA_BLAST_SECOND_MS) per message
      await stack.database.db.execute(
        sql`update settings set payout_on = 'accepted', interval_min = 1, interval_max = 1`,
      );
      stack.member = await createUser(stack.database.db, { role: 'member' });
      await stack.database.db.execute(
        sql`update users set blast_fee = ${FEE}, blast_interval_min = 1, blast_interval_max = 1 where id = ${stack.member.id}`,
      );
      await stack.database.db.execute(
        sql`insert into message_templates (text, text_wa, status) values ('Halo', 'Halo {name}', 'active')`,
      );
      await stack.addTargets(opts.targets);
      stack.client = await createUser(stack.database.db, { role: 'client' });
      for (const spec of opts.campaigns ?? []) await stack.addCampaign(spec);
      // the three processes compile and start side by side (tsx on two cores takes a while)
      const [api, ...workers] = await Promise.allSettled([
        stack.startApiProcess(mkdtempSync(path.join(tmpdir(), 'wa-fault-api-'))),
        stack.startWorkerProcess(),
        stack.startWorkerProcess(),
      ]);
      if (api.status === 'fulfilled') stack.api = api.value;
      for (const w of workers) if (w.status === 'fulfilled') stack.workers.push(w.value);
      const failed = [api, ...workers].find((p) => p.status === 'rejected');
      if (failed) throw failed.reason;
      const login = await stack.call('POST', '/api/auth/login', null, {
        email: stack.adminEmail,
        password: stack.adminPassword,
      });
      const token = (login.body as { token?: string }).token;
      if (login.status !== 200 || !token) throw new Error(`admin login: ${login.status} ${JSON.stringify(login.body)}`);
      stack.adminToken = token;
      const processesUp = Date.now();
      await stack.connectAccounts(opts.accounts);
      for (const d of stack.devices) await stack.startBlast(d, true);
      console.log(
        `[fault] stack up in ${((Date.now() - began) / 1000).toFixed(1)} s (servers and processes ${((processesUp - began) / 1000).toFixed(1)} s), ${opts.accounts} accounts blasting`,
      );
      return stack;
    } catch (err) {
      await stack.close();
      throw err;
    }
  }

  /** The test's connection string: statements end after 15 s rather than wait on a lock forever. */
  get checkUrl(): string {
    return `${this.pgServer.url('wa')}?options=${encodeURIComponent('-c statement_timeout=15000')}`;
  }

  private get env(): StackEnv {
    return {
      databaseUrl: this.pgServer.url('wa'),
      redisUrl: this.redis.url,
      redisPrefix: this.prefix,
      jwtSecret: TEST_JWT_SECRET,
    };
  }

  private startApiProcess(dataDir: string): Promise<ProductProcess> {
    return startApi({
      ...this.env,
      port: this.apiPort,
      dataDir,
      adminEmail: this.adminEmail,
      adminPassword: this.adminPassword,
    });
  }

  /** Kills the API (SIGKILL) and waits for its exit. */
  async killApi(): Promise<void> {
    await this.api.kill();
  }

  /** Starts the API again on the same port and data dir (after a kill). */
  async restartApi(): Promise<void> {
    if (this.api.alive) await this.api.kill();
    this.api = await this.startApiProcess(this.api.dataDir);
  }

  /** A new worker process (another host: an empty DATA_DIR of its own) with its own send log. */
  async startWorkerProcess(): Promise<ProductProcess> {
    this.workerSeq += 1;
    const name = `worker-${this.workerSeq}`;
    return startWorker({ ...this.env, name, sendLog: this.sendLog.fileFor(name) });
  }

  /** The live worker whose pid appears in a worker_id (`host-pid-random`). */
  workerOf(workerId: string | null): ProductProcess | undefined {
    const pid = Number(workerId?.split('-').at(-2));
    return this.workers.find((w) => w.pid === pid);
  }

  /** A call to the API; a connection that fails or a 10 s wait gives status 0. */
  async call(method: string, route: string, token: string | null, body?: unknown, timeoutMs = 10_000): Promise<Answer> {
    const started = performance.now();
    try {
      const res = await fetch(`http://127.0.0.1:${this.apiPort}${route}`, {
        method,
        headers: {
          ...(token ? { Authorization: `Bearer ${token}` } : {}),
          ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
      const text = await res.text();
      let parsed: unknown = text;
      try {
        parsed = JSON.parse(text);
      } catch {
        // not JSON: keep the text
      }
      return { status: res.status, body: parsed, ms: Math.round(performance.now() - started) };
    } catch (err) {
      return {
        status: 0,
        body: err instanceof Error ? err.message : String(err),
        ms: Math.round(performance.now() - started),
      };
    }
  }

  /** Logs in `n` simulator accounts for the member through the API (new-client → QR → scan → save). */
  private async connectAccounts(n: number): Promise<void> {
    const bus = new RedisBus(this.redis.url, `${this.prefix}:`);
    const clientInfo = new Map<string, Record<string, string>>();
    await bus.subscribe(`ws:client-${this.member.id}`, (m) => {
      const msg = m as { event?: string; payload?: { deviceId?: string; clientInfo?: Record<string, string> } };
      if (msg.event === 'authenticated' && msg.payload?.deviceId && msg.payload.clientInfo) {
        clientInfo.set(msg.payload.deviceId, msg.payload.clientInfo);
      }
    });
    try {
      for (let i = 0; i < n; i++) {
        const deviceId = `id-${Date.now()}-${i}`;
        const created = await this.call('POST', '/api/admin/whatsapp/new-client', this.member.token, { deviceId });
        if (created.status !== 201) throw new Error(`new-client ${deviceId}: ${JSON.stringify(created)}`);
        const qr = await this.call(
          'GET',
          `/api/admin/whatsapp/qr-new-client/${deviceId}`,
          this.member.token,
          undefined,
          60_000,
        );
        if (qr.status !== 200) throw new Error(`qr-new-client ${deviceId}: ${JSON.stringify(qr)}`);
        const info = await waitFor(
          () => clientInfo.get(deviceId),
          30_000,
          () => `the simulated phone scanning ${deviceId}\n${this.tails()}`,
          50,
        );
        const saved = await this.call('POST', '/api/admin/whatsapp/save', this.member.token, {
          clientid: deviceId,
          ...info,
        });
        if (saved.status !== 201) throw new Error(`save ${deviceId}: ${JSON.stringify(saved)}`);
        this.devices.push(deviceId);
      }
    } finally {
      await bus.close();
    }
    await waitFor(
      async () => {
        const r = await this.accounts();
        return r.length === n && r.every((a) => a.state === 'connected' && a.worker_id);
      },
      30_000,
      () => `every account connected and held\n${this.tails()}`,
    );
  }

  /** POST start-blasting (after a stop-blasting when `fresh` is false: what an operator does to revive a blast). */
  async startBlast(deviceId: string, fresh: boolean): Promise<Answer> {
    const body = { whatsappClientId: deviceId, socketClientId: `client-${this.member.id}`, loop: true };
    if (!fresh) await this.call('POST', '/api/admin/whatsapp/stop-blasting', this.member.token, body);
    const res = await this.call('POST', '/api/admin/whatsapp/start-blasting', this.member.token, body);
    if (fresh && res.status !== 200) throw new Error(`start-blasting ${deviceId}: ${JSON.stringify(res)}`);
    return res;
  }

  async stopBlast(deviceId: string): Promise<Answer> {
    return this.call('POST', '/api/admin/whatsapp/stop-blasting', this.member.token, {
      whatsappClientId: deviceId,
      socketClientId: `client-${this.member.id}`,
    });
  }

  async accounts(): Promise<AccountRow[]> {
    const r = await this.pool.query<AccountRow>(
      'select id, clientid, status, state, worker_id from whatsapp_accounts order by id',
    );
    return r.rows;
  }

  /** Adds `n` new active targets (under the phone-insert lock every writer of phone_numbers takes). */
  async addTargets(n: number): Promise<void> {
    const from = this.targetSeq + 1;
    this.targetSeq += n;
    const client = await this.pool.connect();
    try {
      await client.query('begin');
      await client.query('select pg_advisory_xact_lock($1)', [PHONE_INSERT_LOCK]);
      await client.query(
        `insert into phone_numbers (number, name)
         select '62811' || lpad(g::text, 8, '0'), 'T' || g from generate_series($1::int, $2::int) g`,
        [from, this.targetSeq],
      );
      await client.query('commit');
    } catch (err) {
      await client.query('rollback').catch(() => {});
      throw err;
    } finally {
      client.release();
    }
  }

  /**
   * An active campaign of the client with equal priority (0): its two variants (approved, weighted
   * 3:1) and its own targets, numbered `6281<2+i>` + 8 digits (the pool's are 62811…, the cut
   * upload's 62899…), so no number is in two lists and "no number logged twice" keeps its meaning.
   */
  private async addCampaign(spec: CampaignSpec): Promise<void> {
    const prefix = `6281${2 + this.campaigns.length}`;
    const client = await this.pool.connect();
    try {
      await client.query('begin');
      const c = await client.query<{ id: number }>(
        `insert into campaigns (name, client_id, status, priority, budget_messages, budget_amount, price_per_delivered,
                                created_by)
         values ($1, $2, 'active', 0, $3, $4, $5, $2) returning id`,
        [spec.name, this.client.id, spec.budgetMessages ?? null, spec.budgetAmount ?? null, spec.price],
      );
      const id = c.rows[0]?.id as number;
      const v = await client.query<{ id: number }>(
        `insert into message_templates (campaign_id, text, text_wa, status, weight, approved_at)
         values ($1, $2, $2 || ' {name}', 'active', 3, now()), ($1, $3, $3 || ' {name}', 'active', 1, now())
         returning id`,
        [id, `${spec.name} A`, `${spec.name} B`],
      );
      await client.query('select pg_advisory_xact_lock($1)', [PHONE_INSERT_LOCK]);
      await client.query(
        `insert into phone_numbers (campaign_id, number, name)
         select $1, $2 || lpad(g::text, 8, '0'), 'C' || g from generate_series(1, $3::int) g`,
        [id, prefix, spec.targets],
      );
      await client.query('commit');
      this.campaigns.push({ ...spec, id, cap: campaignCap(spec), variants: v.rows.map((r) => r.id), prefix });
    } catch (err) {
      await client.query('rollback').catch(() => {});
      throw err;
    } finally {
      client.release();
    }
  }

  /**
   * Tops the pool up so that at least `min` targets wait to be sent: the pool's, and what the
   * active campaigns may still give (their unclaimed targets, no more than their budget has left).
   * A finished campaign's or a spent budget's targets wait for nothing, so they do not count.
   */
  async ensureTargets(min: number): Promise<void> {
    const r = await this.pool.query<{ n: number }>(
      `with waiting as (
         select campaign_id, count(*)::int as n from phone_numbers
         where status = 'active' and last_sent is null and in_use = 0 group by campaign_id
       ), caps as (
         select c.id, case
                  when c.budget_amount is not null and c.price_per_delivered > 0
                    then least(coalesce(c.budget_messages::bigint, c.budget_amount / c.price_per_delivered),
                               c.budget_amount / c.price_per_delivered)
                  else c.budget_messages end as cap, c.reserved
         from campaigns c where c.status = 'active'
       )
       select (coalesce((select n from waiting where campaign_id is null), 0)
               + coalesce((select sum(case when caps.cap is null then w.n
                                           else greatest(0, least(w.n, caps.cap - caps.reserved)) end)
                           from waiting w join caps on caps.id = w.campaign_id), 0))::int as n`,
    );
    const left = r.rows[0]?.n ?? 0;
    if (left < min) await this.addTargets(min - left);
  }

  /** The tail of every process's output and of both servers' logs, for a failure message. */
  tails(chars = 2500): string {
    return [this.api, ...this.workers]
      .filter((p) => p)
      .map((p) => p.tail(chars))
      .concat(this.pgServer.logTail(1500), this.redis.logTail(800))
      .join('\n');
  }

  /** Takes everything down and removes every temp dir; safe to call twice and after a failed start. */
  async close(): Promise<void> {
    await Promise.all([this.api, ...this.workers].filter((p) => p).map((p) => p.destroy().catch(() => {})));
    await this.pool?.end().catch(() => {});
    await this.database?.close().catch(() => {});
    this.destroySync();
    process.removeListener('exit', this.exitHandler);
  }

  /** The last resort (also the exit handler): kill by pid, stop the servers, remove the files. */
  private destroySync(): void {
    for (const p of [this.api, ...this.workers]) {
      if (!p) continue;
      p.signal('SIGKILL');
      p.signal('SIGCONT');
      rmSync(p.dataDir, { recursive: true, force: true });
    }
    this.redis.destroySync();
    this.pgServer.destroySync();
    rmSync(this.runDir, { recursive: true, force: true });
  }
}
