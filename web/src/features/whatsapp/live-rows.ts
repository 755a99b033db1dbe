import { type AccountCount, humanizeState, isToolMessage, type LiveMessage, type WhatsappDto } from '@wa/shared';

/** A list row: the account plus the transient flags of §3 ("Transient row flags"). */
export interface AccountRow extends WhatsappDto {
  /** Start/Stop Blast sent, waiting for an event */
  requesting: 'start' | 'stop' | null;
  /** the last start or stop failed */
  blastFailed: boolean;
  resetting: boolean;
  activating: boolean;
  attempting: boolean;
  attemptingCode: string | null;
  progressing: boolean;
  waiting: boolean;
  waitTime: number;
  /** a blast outside its send window or before its scheduled start waits until then (ISO) */
  waitUntil: string | null;
  successUpdated: boolean;
  failUpdated: boolean;
  /**
   * its blast ended at the daily cap: the row's cap may be older than the one the worker read
   * (settings changed since the fetch), so the end itself says the day is used up
   */
  capReached: boolean;
}

export function toRow(dto: WhatsappDto): AccountRow {
  return {
    ...dto,
    requesting: null,
    blastFailed: false,
    resetting: false,
    activating: false,
    attempting: false,
    attemptingCode: null,
    progressing: false,
    waiting: false,
    waitTime: 0,
    waitUntil: null,
    successUpdated: false,
    failUpdated: false,
    capReached: false,
  };
}

const TRANSIENT_OFF = {
  attempting: false,
  attemptingCode: null,
  progressing: false,
  waiting: false,
  waitTime: 0,
  waitUntil: null,
  // a loop that waited for the installation goes on: its next step's event clears the reason
  waiting_reason: null,
};

/** The day's count a blast message event carries (account safety's daily cap), when it does. */
const sentToday = (p: AccountCount): Partial<AccountRow> =>
  p.sent_today === undefined ? {} : { sent_today: p.sent_today };

/**
 * What a live event (§4 Live events) changes on the row of the account it names
 * (`payload.deviceId`), or null when it does not concern the list.
 */
export function liveEventPatch(message: LiveMessage): Partial<AccountRow> | null {
  // a generator's or validator's events name their account too, but their counts are the tool's
  if (isToolMessage(message)) return null;
  switch (message.event) {
    case 'count_success': {
      const p = message.payload;
      return {
        count_success: p.value,
        successUpdated: true,
        progressing: false,
        income: p.income,
        ...sentToday(p),
      };
    }
    case 'count_fail':
      return {
        count_fail: message.payload.value,
        failUpdated: true,
        progressing: false,
        ...sentToday(message.payload),
      };
    case 'count_synced': {
      const { count_success, count_fail, income } = message.payload;
      return { count_success, count_fail, income };
    }
    case 'sending':
      return { status: 'sending', requesting: null, blastFailed: false };
    case 'stop':
    case 'idle':
      return { status: 'idle', requesting: null, ...TRANSIENT_OFF };
    case 'finished':
    case 'error_blast':
      return {
        status: 'idle',
        requesting: null,
        ...TRANSIENT_OFF,
        state: message.payload.state,
        // the end says the day is used up, whatever cap the row was fetched with
        ...(message.payload.reason === 'daily_cap' ? { capReached: true } : {}),
      };
    case 'connection.update': {
      const { state, suspended_count } = message.payload;
      if (!state) return null;
      const patch: Partial<AccountRow> = { state, suspended: state === 'suspended' };
      // the worker puts an account that is not connected back to idle (conflict included, §4)
      if (state !== 'connected') Object.assign(patch, { status: 'idle', requesting: null, ...TRANSIENT_OFF });
      if (suspended_count !== undefined) patch.suspended_count = suspended_count;
      return patch;
    }
    case 'suspended':
      return {
        state: 'suspended',
        suspended: true,
        suspended_count: message.payload.suspended_count,
        status: 'idle',
        requesting: null,
        ...TRANSIENT_OFF,
      };
    case 'reconnecting':
      return { state: 'reconnecting...', ...TRANSIENT_OFF };
    case 'reset': {
      const { state, count_success, count_fail, income } = message.payload;
      return { resetting: false, count_success, count_fail, income, ...(state ? { state } : {}) };
    }
    case 'progressing':
      return { ...TRANSIENT_OFF, progressing: true };
    case 'waiting':
      return {
        ...TRANSIENT_OFF,
        waiting: true,
        waitTime: Math.max(0, Math.round(message.payload.waitTime)),
        waitUntil: message.payload.until ?? null,
        waiting_reason: message.payload.reason ?? null,
      };
    case 'paused':
      return {
        paused_until: message.payload.paused_until,
        pause_reason: message.payload.pause_reason,
        status: 'idle',
        requesting: null,
        ...TRANSIENT_OFF,
      };
    default:
      return null;
  }
}

/** The status text of a row (§4 Transient row indicators): attempting, progressing, waiting, else the state. */
export function rowStatusText(row: AccountRow): string {
  if (row.state !== 'reconnecting...') {
    if (row.waiting_reason) return row.waiting_reason;
    if (row.attempting) return `Fail, attempting (${row.attemptingCode ?? ''})...`;
    if (row.progressing) return 'Sending...';
    if (row.waiting && row.waitUntil) return `Menunggu sampai ${localTime(row.waitUntil)}...`;
    if (row.waiting) return `Waiting (${row.waitTime}s)...`;
  }
  if (row.state === 'suspended') return `Suspended (${row.suspended_count}x)`;
  return humanizeState(row.state) || '-';
}

/** A time to show on a row: the day and the hour in the browser's zone. */
export function localTime(iso: string): string {
  return new Date(iso).toLocaleString('id-ID', { dateStyle: 'short', timeStyle: 'short' });
}

/**
 * Whether the account has used up today's blast messages (account safety's daily cap): Start Blast
 * waits for the next day, when a fetch brings the day's count back to 0.
 */
export function isCapped(row: Pick<AccountRow, 'sent_today' | 'daily_cap' | 'capReached'>): boolean {
  return row.capReached || row.sent_today >= row.daily_cap;
}

/** Whether the account is paused after ban signals right now. */
export function isPaused(row: Pick<AccountRow, 'paused_until'>, now = Date.now()): boolean {
  return row.paused_until !== null && Date.parse(row.paused_until) > now;
}

/** States in which a blast cannot start or stop: the connection must be made again (§4). */
export function isCutOff(state: AccountRow['state'] | string | null | undefined): boolean {
  return !state || state === 'disconnected' || state === 'unknown' || state === 'loggedOut' || state === 'conflict';
}

/** §4 Reconnect: a non-suspended account in disconnected, loggedOut, unknown, conflict or absent. */
export function canReconnect(row: Pick<AccountRow, 'state' | 'suspended'>): boolean {
  return !row.suspended && row.state !== 'suspended' && isCutOff(row.state);
}
