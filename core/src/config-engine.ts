/**
 * The engine's, the simulator's and the importer's tuning variables. They live beside `Config`
 * (which holds them as `engine`, `sim` and `imports`) so that nothing else reads the environment;
 * each reader adds its problems to the caller's list, so a start lists every bad value at once.
 */

type Env = Record<string, string | undefined>;

/** WA_* variables of the session host (a worker's hold on its accounts and its logins). */
export interface EngineSettings {
  /** WA_LEASE_MS: how long a worker's hold on an account lasts unless renewed (30 s) */
  leaseMs: number;
  /** WA_SWEEP_MS: how often a worker looks for accounts whose holder died (10 s) */
  sweepMs: number;
  /** WA_BLAST_SECOND_MS: milliseconds in one second of a blast interval (1000; tests shorten it) */
  blastSecondMs: number;
  /** WA_LOGIN_TTL_MS: an unsaved login is dropped this long after its code or scan (120 s) */
  loginTtlMs: number;
  /** WA_WORKER_MAX_LOGINS: unsaved logins one worker runs at once (20; each is a Chromium) */
  workerMaxLogins: number;
  /** WA_SEND_TIMEOUT_MS: a send or number check that takes longer has timed out (60 s) */
  sendTimeoutMs: number;
  /** WA_STUCK_AFTER: this many timeouts in a row and a connected session is rebuilt (3) */
  stuckAfter: number;
}

export const DEFAULT_ENGINE_SETTINGS: Readonly<EngineSettings> = Object.freeze({
  leaseMs: 30_000,
  sweepMs: 10_000,
  blastSecondMs: 1000,
  loginTtlMs: 120_000,
  workerMaxLogins: 20,
  sendTimeoutMs: 60_000,
  stuckAfter: 3,
});

/** SIM_* variables of the `sim` driver. */
export interface SimConfig {
  /** SIM_SEED: base seed of every PRNG */
  seed: number;
  /** SIM_PAIR_DELAY_MS: how long the simulated phone takes to scan the QR / enter the pairing code */
  pairDelayMs: number;
  /** SIM_SEND_FAIL_RATE: probability (0..1) that a send fails with SendError('failed') */
  sendFailRate: number;
  /** SIM_SEND_LATENCY_MS ("min-max" or one number): latency of a send or a number check, in ms */
  sendLatencyMs: [number, number];
  /** SIM_RESTORE_DELAY_MS: how long restoring a stored session takes */
  restoreDelayMs: number;
  /** SIM_QR_REFRESH_MS: a new QR (or pairing code) every this many ms until the login completes */
  qrRefreshMs: number;
  /** SIM_REGISTERED_RATE: probability (0..1) that a number is on WhatsApp */
  registeredRate: number;
  /** SIM_DELIVER_RATE: share (0..1) of sent messages that are delivered (receipts) */
  deliverRate: number;
  /** SIM_READ_RATE: share (0..1) of delivered messages that are read */
  readRate: number;
  /** SIM_ACK_DELAY_MS: from a send to its delivery receipt, and from that to its read receipt */
  ackDelayMs: number;
  /**
   * SIM_SEND_LOG: a file to which the simulator appends one JSON line per accepted send
   * (`{deviceId, to, id, at}`), the fault tier's record of what really left a worker (off when unset)
   */
  sendLog?: string;
}

export const DEFAULT_SIM_CONFIG: Readonly<SimConfig> = Object.freeze({
  seed: 1,
  pairDelayMs: 3000,
  sendFailRate: 0.05,
  sendLatencyMs: [50, 200] as [number, number],
  restoreDelayMs: 300,
  qrRefreshMs: 20_000,
  registeredRate: 0.9,
  deliverRate: 0.95,
  readRate: 0.6,
  ackDelayMs: 1000,
});

/** IMPORT_* variables: how the bulk importer cuts its work (tests and benchmarks move them). */
export interface ImportTuning {
  /**
   * IMPORT_CHUNK_ROWS: rows inserted per transaction. Each chunk is short so blasts, which update
   * the same table, never wait long; larger chunks are a little faster on a quiet table
   */
  chunkRows: number;
  /** IMPORT_PROFILE: log the time of each import phase */
  profile: boolean;
}

export const DEFAULT_IMPORT_TUNING: Readonly<ImportTuning> = Object.freeze({
  chunkRows: 20_000,
  profile: false,
});

type Rule = 'ms' | 'positive' | 'rate' | 'int' | 'count' | 'any-int';

const RULE_TEXT: Record<Rule, string> = {
  ms: 'a number of milliseconds >= 0',
  positive: 'a number of milliseconds > 0',
  rate: 'a number between 0 and 1',
  int: 'an integer',
  count: 'a whole number > 0',
  'any-int': 'an integer (-1 or more)',
};

function fits(value: number, rule: Rule): boolean {
  if (!Number.isFinite(value)) return false;
  switch (rule) {
    case 'ms':
      return value >= 0;
    case 'positive':
      return value > 0;
    case 'rate':
      return value >= 0 && value <= 1;
    case 'int':
      return Number.isSafeInteger(value);
    case 'count':
      return Number.isSafeInteger(value) && value > 0;
    case 'any-int':
      return Number.isSafeInteger(value) && value >= -1;
  }
}

/** A reader of numeric variables that records a problem (naming the variable and the value) instead of throwing. */
function numbers(env: Env, problems: string[]) {
  return (name: string, fallback: number, rule: Rule): number => {
    const raw = env[name]?.trim();
    if (!raw) return fallback;
    const value = Number(raw);
    if (fits(value, rule)) return value;
    problems.push(`${name} must be ${RULE_TEXT[rule]} (got "${env[name]}")`);
    return fallback;
  };
}

/** Reads the WA_* session host variables. */
export function readEngineSettings(env: Env, problems: string[]): EngineSettings {
  const num = numbers(env, problems);
  const d = DEFAULT_ENGINE_SETTINGS;
  return {
    leaseMs: num('WA_LEASE_MS', d.leaseMs, 'positive'),
    sweepMs: num('WA_SWEEP_MS', d.sweepMs, 'positive'),
    blastSecondMs: num('WA_BLAST_SECOND_MS', d.blastSecondMs, 'positive'),
    loginTtlMs: num('WA_LOGIN_TTL_MS', d.loginTtlMs, 'positive'),
    workerMaxLogins: num('WA_WORKER_MAX_LOGINS', d.workerMaxLogins, 'count'),
    sendTimeoutMs: num('WA_SEND_TIMEOUT_MS', d.sendTimeoutMs, 'positive'),
    stuckAfter: num('WA_STUCK_AFTER', d.stuckAfter, 'count'),
  };
}

/** Reads the SIM_* variables. */
export function readSimConfig(env: Env, problems: string[]): SimConfig {
  const num = numbers(env, problems);
  const d = DEFAULT_SIM_CONFIG;
  return {
    seed: num('SIM_SEED', d.seed, 'int'),
    pairDelayMs: num('SIM_PAIR_DELAY_MS', d.pairDelayMs, 'ms'),
    sendFailRate: num('SIM_SEND_FAIL_RATE', d.sendFailRate, 'rate'),
    sendLatencyMs: readLatency(env, problems, 'SIM_SEND_LATENCY_MS', d.sendLatencyMs),
    restoreDelayMs: num('SIM_RESTORE_DELAY_MS', d.restoreDelayMs, 'ms'),
    qrRefreshMs: num('SIM_QR_REFRESH_MS', d.qrRefreshMs, 'positive'),
    registeredRate: num('SIM_REGISTERED_RATE', d.registeredRate, 'rate'),
    deliverRate: num('SIM_DELIVER_RATE', d.deliverRate, 'rate'),
    readRate: num('SIM_READ_RATE', d.readRate, 'rate'),
    ackDelayMs: num('SIM_ACK_DELAY_MS', d.ackDelayMs, 'ms'),
    // only when set: the record is a test's opt-in, absent from every other configuration
    ...(env.SIM_SEND_LOG?.trim() ? { sendLog: env.SIM_SEND_LOG.trim() } : {}),
  };
}

function readLatency(env: Env, problems: string[], name: string, fallback: [number, number]): [number, number] {
  const raw = env[name]?.trim();
  if (!raw) return [fallback[0], fallback[1]];
  const match = /^(\d+(?:\.\d+)?)\s*(?:-\s*(\d+(?:\.\d+)?))?$/.exec(raw);
  const min = match ? Number(match[1]) : Number.NaN;
  const max = match?.[2] !== undefined ? Number(match[2]) : min;
  if (Number.isFinite(min) && Number.isFinite(max) && min <= max) return [min, max];
  problems.push(`${name} must be "min-max" or a single number of milliseconds (min <= max) (got "${env[name]}")`);
  return [fallback[0], fallback[1]];
}

/** Reads the IMPORT_* variables. */
export function readImportTuning(env: Env, problems: string[]): ImportTuning {
  const num = numbers(env, problems);
  const d = DEFAULT_IMPORT_TUNING;
  const profile = env.IMPORT_PROFILE?.trim();
  return {
    chunkRows: num('IMPORT_CHUNK_ROWS', d.chunkRows, 'count'),
    profile: profile !== undefined && profile !== '' && profile !== '0' && profile !== 'false',
  };
}
