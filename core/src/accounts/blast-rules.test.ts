import type { WhatsappDto } from '@wa/shared';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase, rows } from '../db/client';
import { ACCOUNT_COLS, type AccountRow, toWhatsappDto } from './account-row';
import { AccountsRepo } from './accounts.repo';
import {
  BLAST_RULES,
  type BlastAccount,
  RUN_RULES,
  type RunningAccount,
  runBreaks,
  START_GUARD,
  START_RULES,
  startRefusal,
} from './blast-rules';

const NAME = '6281200000001';
const PAUSED = '2026-12-01T10:00:00.000Z';

/** An account that may start a blast now. */
const ready = (patch: Partial<BlastAccount> = {}): BlastAccount => ({
  state: 'connected',
  status: 'idle',
  suspended: false,
  paused_until: null,
  pause_reason: null,
  sent_today: 0,
  daily_cap: 30,
  ...patch,
});

/** A blast running now. */
const running = (patch: Partial<RunningAccount> = {}): RunningAccount => ({
  state: 'connected',
  status: 'sending',
  suspended: false,
  sent_today: 0,
  daily_cap: 30,
  ...patch,
});

describe('what a start is told (§7 start-blasting, 409)', () => {
  it('an account that keeps every rule may start', () => {
    expect(startRefusal(ready(), NAME, false)).toBeNull();
  });

  it('each rule refuses with its own text', () => {
    expect(startRefusal(ready({ suspended: true }), NAME, false)).toBe(`${NAME} is suspended`);
    expect(startRefusal(ready({ state: 'suspended' }), NAME, false)).toBe(`${NAME} is suspended`);
    expect(startRefusal(ready({ state: 'disconnected' }), NAME, false)).toBe(`${NAME} is disconnected`);
    expect(startRefusal(ready({ state: 'reconnecting...' }), NAME, false)).toBe(`${NAME} is reconnecting...`);
    expect(startRefusal(ready({ state: null }), NAME, false)).toBe(`${NAME} is unknown`);
    expect(startRefusal(ready({ status: 'sending' }), NAME, false)).toBe('Sedang mengirim');
    expect(
      startRefusal(ready({ paused_until: PAUSED, pause_reason: 'Gagal kirim 5x berturut-turut' }), NAME, false),
    ).toBe(`Akun dijeda sampai ${PAUSED}: Gagal kirim 5x berturut-turut`);
    expect(startRefusal(ready({ paused_until: PAUSED }), NAME, false)).toBe(`Akun dijeda sampai ${PAUSED}: `);
    expect(startRefusal(ready({ sent_today: 30 }), NAME, false)).toBe('Limit harian tercapai');
    expect(startRefusal(ready({ sent_today: 31 }), NAME, false)).toBe('Limit harian tercapai');
    expect(startRefusal(ready({ sent_today: 29 }), NAME, false)).toBeNull();
  });

  it('a start scheduled for later may be past today’s cap, and nothing else', () => {
    expect(startRefusal(ready({ sent_today: 30 }), NAME, true)).toBeNull();
    expect(startRefusal(ready({ sent_today: 30, status: 'sending' }), NAME, true)).toBe('Sedang mengirim');
  });

  it('refuses in the order: suspended, not connected, already sending, paused, daily cap', () => {
    const all = ready({
      suspended: true,
      state: 'disconnected',
      status: 'sending',
      paused_until: PAUSED,
      pause_reason: 'x',
      sent_today: 30,
    });
    expect(startRefusal(all, NAME, false)).toBe(`${NAME} is suspended`);
    expect(startRefusal({ ...all, suspended: false }, NAME, false)).toBe(`${NAME} is disconnected`);
    expect(startRefusal({ ...all, suspended: false, state: 'connected' }, NAME, false)).toBe('Sedang mengirim');
    const idle = { ...all, suspended: false, state: 'connected', status: 'idle' };
    expect(startRefusal(idle, NAME, false)).toBe(`Akun dijeda sampai ${PAUSED}: x`);
    expect(startRefusal({ ...idle, paused_until: null }, NAME, false)).toBe('Limit harian tercapai');
  });
});

describe('what lets a running blast go on (the loop, before each message)', () => {
  it('goes on while it keeps every rule', () => {
    expect(runBreaks(running(), false)).toBeNull();
  });

  it('ends quietly when a stop, the session or a suspension ended it (they told it)', () => {
    for (const a of [
      running({ status: 'idle' }),
      running({ state: 'disconnected' }),
      running({ state: 'reconnecting...' }),
      running({ state: null }),
      running({ suspended: true }),
      running({ state: 'suspended' }),
    ]) {
      expect(runBreaks(a, false)?.ends).toBe('quiet');
    }
  });

  it('ends at the daily cap, telling why, unless it is scheduled for later', () => {
    const capped = running({ sent_today: 30 });
    const rule = runBreaks(capped, false);
    expect(rule?.ends).toBe('daily_cap');
    expect(rule?.refusal(capped, NAME)).toBe('Limit harian tercapai');
    expect(runBreaks(capped, true)).toBeNull();
  });

  it('a quiet end comes before the daily cap', () => {
    expect(runBreaks(running({ status: 'idle', sent_today: 30 }), false)?.ends).toBe('quiet');
    expect(runBreaks(running({ suspended: true, sent_today: 30 }), false)?.ends).toBe('quiet');
  });

  it('a pause is no rule of its own while running: it clears the switch', () => {
    expect(RUN_RULES).not.toContain(BLAST_RULES.notPaused);
    expect(START_RULES).toContain(BLAST_RULES.notPaused);
  });
});

describe('the start guard in SQL says what the rules say', () => {
  let database: Database;

  beforeAll(async () => {
    database = await openDatabase({ databaseUrl: null, pgliteDir: 'memory://' });
    await database.db.execute(sql`insert into users (id, firstname, lastname, email, password_hash, referral_code)
      values (1, 'M', 'M', 'm@example.com', 'x', 'R1')`);
  }, 60_000);

  afterAll(async () => {
    await database?.close();
  });

  /** Every combination of the columns the start rules read. */
  const combos = () => {
    const list: Array<{
      state: string | null;
      status: string;
      suspended: boolean;
      paused: 'none' | 'past' | 'future';
    }> = [];
    for (const state of ['connected', 'disconnected', 'suspended', 'reconnecting...', 'loggedOut', null]) {
      for (const status of ['idle', 'sending']) {
        for (const suspended of [false, true]) {
          for (const paused of ['none', 'past', 'future'] as const) list.push({ state, status, suspended, paused });
        }
      }
    }
    return list;
  };

  it('each rule’s SQL holds on the rows its predicate holds on, and startSending flips exactly those', async () => {
    const { db } = database;
    const accounts = new AccountsRepo(db);
    const guarded = START_RULES.filter((r) => r.sql);
    // the guard is made of every start rule but the daily cap
    expect(guarded).toHaveLength(START_RULES.length - 1);
    expect(guarded).not.toContain(BLAST_RULES.belowDailyCap);
    let id = 0;
    let flipped = 0;
    for (const c of combos()) {
      id += 1;
      const pausedUntil =
        c.paused === 'none' ? null : sql`now() ${c.paused === 'past' ? sql`-` : sql`+`} interval '1 hour'`;
      await db.execute(sql`insert into whatsapp_accounts (id, clientid, user_id, state, status, suspended, paused_until, pause_reason)
        values (${id}, ${`dev-${id}`}, 1, ${c.state}, ${c.status}, ${c.suspended}, ${pausedUntil}, 'why')`);
      const [row] = await rows<AccountRow>(db, sql`select ${ACCOUNT_COLS} from whatsapp_accounts w where w.id = ${id}`);
      const dto: WhatsappDto = toWhatsappDto(row as AccountRow);
      // as a WHERE reads them: null (a null state) is false
      const checks = guarded.map((r) => sql`coalesce((${r.sql}), false)`);
      const [sqlHolds] = await rows<Record<string, boolean>>(
        db,
        sql`select ${sql.join(
          checks.map((check, i) => sql`${check} as ${sql.raw(`r${i}`)}`),
          sql`, `,
        )}, coalesce((${START_GUARD}), false) as guard from whatsapp_accounts w where w.id = ${id}`,
      );
      const label = JSON.stringify(c);
      guarded.forEach((r, i) => {
        expect(sqlHolds?.[`r${i}`], `${label} rule ${i}`).toBe(r.holds(dto, true));
      });
      // the daily cap aside (a start for later), the guard holds where no rule refuses
      const mayStart = startRefusal(dto, NAME, true) === null;
      expect(sqlHolds?.guard, label).toBe(mayStart);
      const started = await accounts.startSending(id, null);
      expect(started !== null, label).toBe(mayStart);
      if (started) flipped += 1;
      // of two starts, one wins
      if (started) expect(await accounts.startSending(id, null)).toBeNull();
    }
    expect(flipped).toBe(2);
  }, 60_000);
});
