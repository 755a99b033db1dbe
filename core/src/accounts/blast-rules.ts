import { BLAST_TEXTS, SAFETY_TEXTS } from '@wa/shared';
import { type SQL, sql } from 'drizzle-orm';

/**
 * What the blast rules read of an account: WhatsappDto's fields (its `paused_until` is set only
 * while the pause lasts, as ACCOUNT_COLS shows it), or a running blast's plan (RunningAccount).
 */
export interface BlastAccount {
  state: string | null;
  status: string;
  suspended: boolean;
  paused_until: string | null;
  pause_reason: string | null;
  sent_today: number;
  /** today's cap with its warm-up (DAILY_CAP) */
  daily_cap: number;
}

/** What a running blast's rules read (its plan knows no pause: a pause ends the run, see `sending`). */
export type RunningAccount = Pick<BlastAccount, 'state' | 'status' | 'suspended' | 'sent_today' | 'daily_cap'>;

/** One account-level rule of a blast: what lets it start, or go on. */
export interface BlastRule<A = BlastAccount> {
  /** whether the account keeps the rule; `later`: the blast starts at a time still to come (scheduled) */
  holds(a: A, later: boolean): boolean;
  /** what a start that breaks it is told (409); `name`: the account's number, else its device id */
  refusal(a: A, name: string): string;
  /**
   * `holds` in SQL over `whatsapp_accounts w`, for the start's atomic guard (START_GUARD). None for
   * the daily cap: the guard leaves it to the service's check and the loop's.
   */
  sql?: SQL;
}

/** A rule of a running blast, checked before each message, and how the blast ends when it breaks it. */
export interface RunRule extends BlastRule<RunningAccount> {
  /**
   * 'quiet': whoever broke it (a stop, the session's state, a suspension, a pause) ended the blast
   * and told it; otherwise the loop ends it, telling `finished` with the refusal and this reason
   */
  ends: 'quiet' | 'daily_cap';
}

type Of<K extends keyof BlastAccount> = Pick<BlastAccount, K>;

/** The refusal of a start while the account already sends (a blast, or one-off sends still pending). */
export const ALREADY_SENDING = 'Sedang mengirim';

/** Not suspended (WhatsApp's ban, or rule #1): the flag, or the state it shows. */
const notSuspended = {
  holds: (a: Of<'suspended' | 'state'>) => !a.suspended && a.state !== 'suspended',
  refusal: (_a: unknown, name: string) => `${name} is suspended`,
  sql: sql`not w.suspended and w.state is distinct from 'suspended'`,
  ends: 'quiet',
} satisfies BlastRule & RunRule;

/** The session is connected. */
const connected = {
  holds: (a: Of<'state'>) => a.state === 'connected',
  refusal: (a: Of<'state'>, name: string) => `${name} is ${a.state ?? 'unknown'}`,
  sql: sql`w.state = 'connected'`,
  ends: 'quiet',
} satisfies BlastRule & RunRule;

/** A start: no blast runs on the account yet (of two starts, one wins). */
const idle = {
  holds: (a: Of<'status'>) => a.status === 'idle',
  refusal: () => ALREADY_SENDING,
  sql: sql`w.status = 'idle'`,
} satisfies BlastRule;

/** A start: not paused after ban signals (an admin or dev may lift the pause). */
const notPaused = {
  holds: (a: Of<'paused_until'>) => !a.paused_until,
  refusal: (a: Of<'paused_until' | 'pause_reason'>) =>
    `${SAFETY_TEXTS.paused(a.paused_until ?? '')}: ${a.pause_reason ?? ''}`,
  sql: sql`(w.paused_until is null or w.paused_until <= now())`,
} satisfies BlastRule;

/** Below today's cap; a blast scheduled for later may be started past it (it waits for its day). */
const belowDailyCap = {
  holds: (a: Of<'sent_today' | 'daily_cap'>, later: boolean) => later || a.sent_today < a.daily_cap,
  refusal: () => SAFETY_TEXTS.dailyCap,
  ends: 'daily_cap',
} satisfies BlastRule & RunRule;

/** A running blast: its switch still says sending (a stop, a pause, rule #1 or a lost session cleared it). */
const stillSending = {
  holds: (a: Of<'status'>) => a.status === 'sending',
  refusal: () => BLAST_TEXTS.stopped,
  ends: 'quiet',
} satisfies RunRule;

/** Every account-level rule of a blast, by name. */
export const BLAST_RULES = { notSuspended, connected, idle, notPaused, belowDailyCap, stillSending } as const;

/**
 * What lets a blast start (§7 start-blasting), in the order a start is told why not. The rules that
 * are not about the account row (one-off sends still pending, an active template, a target left)
 * are the service's.
 */
export const START_RULES: readonly BlastRule[] = [notSuspended, connected, idle, notPaused, belowDailyCap];

/** What lets a running blast go on, before each message: the quiet ends first, then the daily cap. */
export const RUN_RULES: readonly RunRule[] = [stillSending, connected, notSuspended, belowDailyCap];

/**
 * The start's atomic guard over `whatsapp_accounts w` (AccountsRepo.startSending): the start rules'
 * SQL, so of two starts one wins and a start never flips an account that broke one meanwhile.
 */
export const START_GUARD: SQL = sql.join(
  START_RULES.flatMap((r) => (r.sql ? [r.sql] : [])),
  sql` and `,
);

/** Why a start is refused (the first start rule the account breaks), or null when it may start. */
export function startRefusal(a: BlastAccount, name: string, later: boolean): string | null {
  const broken = START_RULES.find((r) => !r.holds(a, later));
  return broken ? broken.refusal(a, name) : null;
}

/** The first rule a running blast breaks before its next message, or null when it goes on. */
export function runBreaks(a: RunningAccount, later: boolean): RunRule | null {
  return RUN_RULES.find((r) => !r.holds(a, later)) ?? null;
}
