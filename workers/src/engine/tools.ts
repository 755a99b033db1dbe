import path from 'node:path';
import { AccountsRepo } from '@wa/core/accounts/accounts.repo';
import { type Db, type RawRow, rows } from '@wa/core/db/client';
import { PHONE_INSERT_LOCK } from '@wa/core/db/locks';
import type { generators, validators } from '@wa/core/db/schema/index';
import { RUNNING, TOOL_TABLES, type ToolKind } from '@wa/core/db/tool-tables';
import { type Dependency, type DependencyMonitor, WAITING_TEXTS } from '@wa/core/dependencies';
import { readRecords } from '@wa/core/imports/records';
import type { Logger } from '@wa/core/logger';
import { type LiveEvent, type LiveEventMap, normalizePhone, SAFETY_TEXTS, type ToolRef } from '@wa/shared';
import { sql } from 'drizzle-orm';
import { SendError, type WhatsAppSession } from '../drivers/types';
import type { LocalFiles } from './local-files';
import { LoopRunner } from './loop-runner';
import { cachedCheck, checkSettings, rememberCheck } from './safety.repo';

export interface ToolDeps {
  db: Db;
  log: Logger;
  /** publishes to the tool owner's channel and to client-admin */
  emit<E extends LiveEvent>(userId: number | null, event: E, payload: LiveEventMap[E]): Promise<void>;
  /** validator files from the file store */
  files: LocalFiles;
  secondMs: number;
  random?: () => number;
  /** APP_TIMEZONE: the calendar of the accounts' daily check budgets */
  timeZone: string;
  /** the process's view of the database and Redis: the loop waits out their outages */
  monitor?: DependencyMonitor;
  /** after an outage: whether this host still holds the account */
  stillHeld?: () => Promise<boolean>;
}

type GeneratorRow = RawRow<typeof generators>;
type ValidatorRow = RawRow<typeof validators>;

/**
 * A generator's or a validator's row (`select *`): the columns both tables have, and each one's own
 * (a generator's range, a validator's file and position) as optional.
 */
type ToolRow = Pick<GeneratorRow, keyof GeneratorRow & keyof ValidatorRow> &
  Partial<GeneratorRow> &
  Partial<ValidatorRow>;

/** The next number to check, or null when the tool is through. */
interface NumberSource {
  /** `target`: how many numbers the run checks in all; `progress`: the percent checked with this one */
  next(row: ToolRow): Promise<{ number: string; name: string; step: SQL; target: number; progress: number } | null>;
}
type SQL = ReturnType<typeof sql>;

/** how many times one number is checked before it counts as not found */
const CHECK_ATTEMPTS = 3;
/** WhatsApp rate-limits checks: wait 30 s, then twice as long each time in a row, at most this many times */
const BACKOFF_FIRST_S = 30;
const BACKOFF_TIMES = 6;

const ERROR_EVENT = { generator: 'error_generate', validator: 'error_validate' } as const;

/** Walks start…end one number after another, resuming after current_number. */
const rangeSource: NumberSource = {
  async next(row) {
    const start = BigInt(String(row.start_number));
    const end = BigInt(String(row.end_number));
    const n =
      row.current_number === null || row.current_number === undefined ? start : BigInt(String(row.current_number)) + 1n;
    if (n > end) return null;
    const done = Number(n - start + 1n);
    const size = Number(end - start + 1n);
    return {
      number: n.toString(),
      name: '',
      step: sql`current_number = ${n.toString()}`,
      target: size,
      progress: Math.floor((done / size) * 10_000) / 100,
    };
  },
};

/** A file's text in pieces, as the record readers take an upload. */
async function* textChunks(text: string, size = 64 * 1024): AsyncIterable<string> {
  for (let i = 0; i < text.length; i += size) yield text.slice(i, i + size);
}

/**
 * The numbers of the validator's file, read once per run from the file store (whatever host the
 * API stored it on) and resumed at `position`. A database error is thrown for the loop to wait out.
 */
function fileSource(files: LocalFiles): NumberSource {
  let numbers: { number: string; name: string }[] | null = null;
  return {
    async next(row) {
      if (!numbers) {
        const bytes = await files.bytes('validator', String(row.file_url));
        if (!bytes) throw new Error('The validator file is missing.');
        const ext = path.extname(String(row.file_name)).slice(1).toLowerCase() === 'json' ? 'json' : 'csv';
        const read: { number: string; name: string }[] = [];
        for await (const rec of readRecords(
          { name: String(row.file_name), ext, text: textChunks(bytes.toString('utf8')) },
          ['number', 'name'],
        )) {
          const n = rec.error ? null : normalizePhone(rec.fields.number);
          if (n) read.push({ number: n, name: rec.fields.name ?? '' });
        }
        numbers = read;
      }
      const position = Number(row.position ?? 0);
      const item = numbers[position];
      if (!item) return null;
      const total = Math.max(1, numbers.length);
      return {
        ...item,
        step: sql`position = ${position + 1}`,
        target: numbers.length,
        progress: Math.floor(((position + 1) / total) * 10_000) / 100,
      };
    },
  };
}

/** The generators and validators switched on for an account (their holder resumes them). */
export function runningTools(db: Db, accountId: number): Promise<{ kind: ToolKind; id: number }[]> {
  return rows<{ kind: ToolKind; id: number }>(
    db,
    sql`select 'generator' as kind, id from generators where whatsapp_id = ${accountId} and status = 'generating'
        union all
        select 'validator' as kind, id from validators where whatsapp_id = ${accountId} and status = 'validating'`,
  );
}

/**
 * One generator's or validator's loop on the host that holds its WhatsApp account: while the
 * row's status says running, check the next number with the account, record the result (and the
 * number in the target list when b_insert) with the position in one transaction, publish the
 * counts and progress, wait a random interval. A crash between a check and its record only means
 * that number is checked again: nothing is sent, so nothing is lost or doubled.
 */
export class ToolRunner extends LoopRunner {
  private readonly source: NumberSource;
  private readonly accounts: AccountsRepo;

  constructor(
    private readonly deps: ToolDeps,
    readonly kind: ToolKind,
    readonly id: number,
    private readonly account: { deviceId: string; accountId: number; session: WhatsAppSession },
  ) {
    super(deps.log, { deviceId: account.deviceId, loop: kind, id }, deps.monitor ?? null);
    this.source = kind === 'generator' ? rangeSource : fileSource(deps.files);
    this.accounts = new AccountsRepo(deps.db);
  }

  /** the tool's owner, as its row last said (whose lists hear its events) */
  private owner: number | null = null;

  protected override async onWaiting(dep: Dependency): Promise<void> {
    await this.deps.emit(this.owner, 'waiting', { ...this.ref(), waitTime: 0, value: '', reason: WAITING_TEXTS[dep] });
  }

  protected override async mayResume(): Promise<boolean> {
    return (await this.deps.stillHeld?.()) ?? true;
  }

  protected async onFailed(message: string): Promise<void> {
    await this.finish(this.owner, ERROR_EVENT[this.kind], message);
  }

  /** What every event of this tool names: its account, and the tool (`tool`, the web's discriminator, and its id). */
  private ref(): ToolRef {
    const { deviceId } = this.account;
    return this.kind === 'generator'
      ? { tool: 'generator', deviceId, generatorId: this.id }
      : { tool: 'validator', deviceId, validatorId: this.id };
  }

  private async announce(userId: number | null): Promise<void> {
    if (this.kind === 'generator') await this.deps.emit(userId, 'generating', { ...this.ref(), status: 'generating' });
    else await this.deps.emit(userId, 'validating', { ...this.ref(), status: 'validating' });
  }

  private async row(): Promise<ToolRow | null> {
    const [r] = await rows<ToolRow>(
      this.deps.db,
      sql`select * from ${TOOL_TABLES[this.kind].table} where id = ${this.id}`,
    );
    return r ?? null;
  }

  protected async run(): Promise<void> {
    const { db } = this.deps;
    const t = TOOL_TABLES[this.kind];
    let announced = false;
    while (!this.stopping) {
      const row = await this.row();
      if (!row || row.status !== RUNNING[this.kind]) return;
      this.owner = row.user_id;
      if (!announced) {
        await this.announce(row.user_id);
        announced = true;
      }
      const next = await this.source.next(row);
      if (!next) return this.finish(row.user_id, 'finished', 'finished');
      await this.deps.emit(row.user_id, 'progressing', {
        ...this.ref(),
        value: next.number,
        target: next.target,
        progress: next.progress,
      });
      // account safety: a number checked lately is not asked again, and each account has a daily budget
      const { budget, cacheDays } = await checkSettings(db);
      let registered: boolean | null = await cachedCheck(db, next.number, cacheDays);
      const asked = registered === null;
      if (asked && !(await this.accounts.countCheck(this.account.accountId, budget, this.deps.timeZone))) {
        return this.finish(row.user_id, ERROR_EVENT[this.kind], SAFETY_TEXTS.checkBudget);
      }
      let rateLimits = 0;
      for (let attempt = 1; registered === null; attempt++) {
        try {
          registered = await this.account.session.isRegistered(next.number);
        } catch (err) {
          const message = err instanceof Error ? err.message : String(err);
          const code = err instanceof SendError ? err.code : null;
          if (code === null || code === 'not_connected' || code === 'refused' || code === 'restricted') {
            return this.finish(row.user_id, ERROR_EVENT[this.kind], message);
          }
          if (code === 'rate_limited') {
            // WhatsApp says slow down: back off exponentially, then give up rather than burn the account
            rateLimits++;
            if (rateLimits > BACKOFF_TIMES) return this.finish(row.user_id, ERROR_EVENT[this.kind], message);
            await this.deps.emit(row.user_id, 'attempting', {
              ...this.ref(),
              code,
              value: next.number,
              attempt: rateLimits,
            });
            await this.sleep(BACKOFF_FIRST_S * 2 ** (rateLimits - 1) * this.deps.secondMs);
            if (this.stopping) return;
            attempt--;
            continue;
          }
          // a check is harmless to repeat: try again (§4 'Fail, attempting (code)...'), then count it
          if (attempt >= CHECK_ATTEMPTS) {
            registered = false;
            break;
          }
          await this.deps.emit(row.user_id, 'attempting', { ...this.ref(), code, value: next.number, attempt });
          await this.sleep(attempt * this.deps.secondMs);
          if (this.stopping) return;
        }
      }
      if (asked) await rememberCheck(db, next.number, registered);
      const counts = await db.transaction(async (tx) => {
        if (registered) {
          await tx.execute(sql`insert into ${t.results} (${t.fk}, number, name) values (${this.id}, ${next.number}, ${next.name})
                              on conflict do nothing`);
          if (row.b_insert) {
            // single-row writers of the target list take its lock (imports need none: core/src/db/locks.ts)
            await tx.execute(sql`select pg_advisory_xact_lock(${PHONE_INSERT_LOCK})`);
            await tx.execute(sql`insert into phone_numbers (number, name) values (${next.number}, ${next.name})
                                on conflict do nothing`);
          }
        }
        const [c] = await rows<Pick<ToolRow, 'count_success' | 'count_fail'>>(
          tx,
          sql`update ${t.table}
              set ${next.step}, progress = ${next.progress}, updated_at = now(),
                  count_success = count_success + ${registered ? 1 : 0}, count_fail = count_fail + ${registered ? 0 : 1}
              where id = ${this.id}
              returning count_success, count_fail`,
        );
        return c;
      });
      if (!counts) return;
      const event = registered ? 'count_success' : 'count_fail';
      await this.deps.emit(row.user_id, event, {
        ...this.ref(),
        value: registered ? counts.count_success : counts.count_fail,
        progress: next.progress,
      });
      if (this.stopping) return;
      const span = Math.max(0, row.interval_max - row.interval_min);
      const waitTime = row.interval_min + Math.floor((this.deps.random ?? Math.random)() * (span + 1));
      if (waitTime > 0) {
        await this.deps.emit(row.user_id, 'waiting', { ...this.ref(), waitTime, value: next.number });
        await this.sleep(waitTime * this.deps.secondMs);
      }
    }
  }

  private async finish(
    userId: number | null,
    event: 'finished' | 'error_generate' | 'error_validate',
    state: string,
  ): Promise<void> {
    const t = TOOL_TABLES[this.kind];
    const done = event === 'finished';
    const r = await rows<{ id: number }>(
      this.deps.db,
      sql`update ${t.table} set status = 'idle', state = ${state}, updated_at = now()
              ${done ? sql`, progress = 100` : sql``}
          where id = ${this.id} and status = ${RUNNING[this.kind]} returning id`,
    );
    if (!r.length) return;
    await this.deps.emit(userId, event, {
      ...this.ref(),
      state,
      status: 'idle',
      ...(done ? { progress: 100 as const } : {}),
    });
  }
}
