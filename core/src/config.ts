import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';
import { PASSWORD_MAX_BYTES, PASSWORD_MIN_LENGTH, WA_ENGINES } from '@wa/shared';
import {
  type EngineSettings,
  type ImportTuning,
  readEngineSettings,
  readImportTuning,
  readSimConfig,
  type SimConfig,
} from './config-engine';

/**
 * What WA_DRIVER may say: one of the engines an account logs in with (WA_ENGINES, the wire's
 * list), or `sim`, the simulator standing in for both.
 */
export const WA_DRIVERS = [...WA_ENGINES, 'sim'] as const;
export type WaDriver = (typeof WA_DRIVERS)[number];

/**
 * Every environment variable the product reads, in one place. All are optional; a bad value
 * stops the start with a message that lists every problem at once.
 */
export interface Config {
  /** PORT: HTTP port of the API and dashboard (3000). */
  port: number;
  /** DATA_DIR: embedded database files, generated secrets and caches (./data); uploads live in the database. */
  dataDir: string;
  /** DATABASE_URL: a real PostgreSQL instead of the embedded PGlite. */
  databaseUrl: string | null;
  /** REDIS_URL: BullMQ jobs and Redis pub/sub instead of in-process ones. */
  redisUrl: string | null;
  /** REDIS_PREFIX: keeps the queues and channels of one installation apart from another's on a shared Redis */
  redisPrefix: string;
  /** JWT_SECRET: token signing secret; generated and kept in DATA_DIR when absent. */
  jwtSecret: string | null;
  /** ADMIN_EMAIL + ADMIN_PASSWORD: the admin created on the first start with no admin. */
  adminEmail: string | null;
  adminPassword: string | null;
  /** DEV_EMAIL + DEV_PASSWORD: the dev created on a start with no dev (only the dev role grants dev). */
  devEmail: string | null;
  devPassword: string | null;
  /**
   * TRUST_PROXY: which reverse proxies to believe about the client address (Express `trust proxy`):
   * a hop count or their addresses; off by default. Never `true` (see parseTrustProxy).
   */
  trustProxy: false | number | string;
  /**
   * PUBLIC_URL: the address (or comma list of addresses) browsers open the dashboard at; a browser's
   * WebSocket must come from one of their origins. Empty: from the host the socket connects to.
   */
  publicOrigins: string[];
  /** METRICS_TOKEN: GET /metrics answers Prometheus with this bearer token; without it /metrics is 404. */
  metricsToken: string | null;
  /** WORKER_METRICS_PORT: a worker's own GET /metrics (its engine's metrics) on this port; needs METRICS_TOKEN. */
  workerMetricsPort: number | null;
  /**
   * PROXY_CHECK_*: the workers' proxy health check. Off without PROXY_CHECK_URL (what each proxy
   * must reach); every PROXY_CHECK_EVERY_MS (5 min) per proxy, PROXY_CHECK_TIMEOUT_MS (10 s) each,
   * PROXY_CHECK_FAILURES (2) failures in a row make a proxy nonactive.
   */
  proxyCheck: { url: string | null; everyMs: number; timeoutMs: number; failures: number };
  /**
   * WEBHOOK_*: deliveries of webhooks. WEBHOOK_TIMEOUT_MS (10 s) per attempt; the first retry after
   * WEBHOOK_RETRY_BASE_MS (30 s), each next one twice as late (at most 4 h), for WEBHOOK_RETRY_FOR_MS
   * (a day) after the event.
   */
  webhooks: { timeoutMs: number; retryBaseMs: number; retryForMs: number };
  /**
   * WA_DRIVER: the engine new accounts log in with, `wwebjs` (default, a Chromium per account) or
   * `baileys` (browserless); or `sim`, the simulator, for every account.
   */
  waDriver: WaDriver;
  /** CHROME_PATH: the system Chromium (/usr/bin/chromium). */
  chromePath: string;
  /** LOG_LEVEL: pino level (info). */
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** WEB_DIST: the built dashboard to serve (web/dist next to the repo root). */
  webDist: string;
  /** APP_TIMEZONE: the IANA zone whose calendar day "today" means on the dashboard (Asia/Jakarta). */
  timezone: string;
  /** WA_LEASE_MS, WA_SWEEP_MS, WA_BLAST_SECOND_MS, WA_LOGIN_TTL_MS, WA_WORKER_MAX_LOGINS: the session host */
  engine: EngineSettings;
  /** SIM_*: the simulator driver (WA_DRIVER=sim) */
  sim: SimConfig;
  /** IMPORT_*: where the bulk importer switches paths */
  imports: ImportTuning;
}

export class ConfigError extends Error {
  constructor(public readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
const repoRoot = path.resolve(import.meta.dirname, '../..');

/** The product's rupiah and members are Indonesian: western Indonesia's day by default. */
export const DEFAULT_TIMEZONE = 'Asia/Jakarta';

function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** The entry points' first step: the configuration, or the list of problems on stderr and exit 1. */
export function loadConfigOrExit(): Config {
  try {
    return loadConfig();
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    console.error(err.message);
    process.exit(1);
  }
}

/** Reads and validates the configuration from an environment (process.env by default). */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const problems: string[] = [];
  const str = (name: string) => {
    const v = env[name];
    return v === undefined || v.trim() === '' ? null : v.trim();
  };

  let port = 3000;
  const rawPort = str('PORT');
  if (rawPort !== null) {
    port = Number(rawPort);
    if (!Number.isInteger(port) || port < 0 || port > 65535) {
      problems.push(`PORT must be a whole number from 0 to 65535 (got "${rawPort}")`);
    }
  }

  const databaseUrl = str('DATABASE_URL');
  if (databaseUrl !== null && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    problems.push('DATABASE_URL must start with postgres:// or postgresql://');
  }
  const redisUrl = str('REDIS_URL');
  if (redisUrl !== null && !/^rediss?:\/\//.test(redisUrl)) {
    problems.push('REDIS_URL must start with redis:// or rediss://');
  }
  const redisPrefix = str('REDIS_PREFIX') ?? 'wa';
  if (!/^[A-Za-z0-9_.-]{1,50}$/.test(redisPrefix)) {
    problems.push('REDIS_PREFIX may hold only letters, digits, dot, dash and underscore (at most 50)');
  }
  const jwtSecret = str('JWT_SECRET');
  if (jwtSecret !== null && jwtSecret.length < 16) {
    problems.push('JWT_SECRET must be at least 16 characters long');
  }
  const metricsToken = str('METRICS_TOKEN');
  if (metricsToken !== null && metricsToken.length < 16) {
    problems.push('METRICS_TOKEN must be at least 16 characters long');
  }
  const rawWorkerPort = str('WORKER_METRICS_PORT');
  const workerMetricsPort = rawWorkerPort === null ? null : Number(rawWorkerPort);
  if (
    workerMetricsPort !== null &&
    (!Number.isInteger(workerMetricsPort) || workerMetricsPort < 1 || workerMetricsPort > 65535)
  ) {
    problems.push(`WORKER_METRICS_PORT must be a whole number from 1 to 65535 (got "${rawWorkerPort}")`);
  } else if (workerMetricsPort !== null && metricsToken === null) {
    problems.push('WORKER_METRICS_PORT needs METRICS_TOKEN: a worker serves its metrics only behind the token');
  }
  const adminEmail = str('ADMIN_EMAIL');
  const adminPassword = str('ADMIN_PASSWORD');
  if ((adminEmail === null) !== (adminPassword === null)) {
    problems.push('ADMIN_EMAIL and ADMIN_PASSWORD must be set together');
  }
  if (adminEmail !== null && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(adminEmail)) {
    problems.push(`ADMIN_EMAIL is not an e-mail address (got "${adminEmail}")`);
  }
  const passwordProblem = (name: string, value: string | null) => {
    if (value === null) return;
    if (value.length < PASSWORD_MIN_LENGTH) problems.push(`${name} must be at least ${PASSWORD_MIN_LENGTH} characters`);
    if (Buffer.byteLength(value) > PASSWORD_MAX_BYTES)
      problems.push(`${name} must be at most ${PASSWORD_MAX_BYTES} bytes`);
  };
  passwordProblem('ADMIN_PASSWORD', adminPassword);
  const devEmail = str('DEV_EMAIL');
  const devPassword = str('DEV_PASSWORD');
  if ((devEmail === null) !== (devPassword === null)) problems.push('DEV_EMAIL and DEV_PASSWORD must be set together');
  if (devEmail !== null && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(devEmail)) {
    problems.push(`DEV_EMAIL is not an e-mail address (got "${devEmail}")`);
  }
  if (devEmail !== null && adminEmail !== null && devEmail.toLowerCase() === adminEmail.toLowerCase()) {
    problems.push('DEV_EMAIL and ADMIN_EMAIL must be different addresses');
  }
  passwordProblem('DEV_PASSWORD', devPassword);
  const rawTrustProxy = str('TRUST_PROXY');
  const trustProxy = parseTrustProxy(rawTrustProxy);
  if (rawTrustProxy?.toLowerCase() === 'true') problems.push(TRUST_PROXY_TRUE);
  else if (trustProxy === null) {
    problems.push(
      `TRUST_PROXY must be false, a number of proxy hops (1 for one reverse proxy in front), or a comma list of the proxies' addresses/subnets (or loopback, linklocal, uniquelocal), none of them every address (/0) (got "${rawTrustProxy}")`,
    );
  }
  const rawPublicUrl = str('PUBLIC_URL');
  const publicOrigins = parsePublicUrl(rawPublicUrl);
  if (publicOrigins === null) {
    problems.push(
      `PUBLIC_URL must be the dashboard's address as browsers open it, http:// or https:// (e.g. https://blast.example.com), or a comma list of them (got "${rawPublicUrl}")`,
    );
  }
  const waDriver = (str('WA_DRIVER') ?? 'wwebjs') as Config['waDriver'];
  if (!(WA_DRIVERS as readonly string[]).includes(waDriver)) {
    const names = WA_DRIVERS.map((d) => `"${d}"`);
    problems.push(`WA_DRIVER must be ${names.slice(0, -1).join(', ')} or ${names.at(-1)} (got "${waDriver}")`);
  }
  const logLevel = (str('LOG_LEVEL') ?? 'info') as Config['logLevel'];
  if (!LOG_LEVELS.includes(logLevel)) problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`);
  const timezone = str('APP_TIMEZONE') ?? DEFAULT_TIMEZONE;
  if (!isTimeZone(timezone))
    problems.push(`APP_TIMEZONE must be an IANA time zone like Asia/Jakarta (got "${timezone}")`);

  const engine = readEngineSettings(env, problems);
  const proxyCheckUrl = str('PROXY_CHECK_URL');
  if (proxyCheckUrl !== null && !/^https?:\/\/[^\s/]+/i.test(proxyCheckUrl)) {
    problems.push('PROXY_CHECK_URL must be an http:// or https:// URL');
  }
  const positive = (name: string, fallback: number) => {
    const v = str(name);
    const n = v === null ? fallback : Number(v);
    if (!Number.isInteger(n) || n <= 0) problems.push(`${name} must be a whole number > 0`);
    return n;
  };
  const proxyCheck = {
    url: proxyCheckUrl,
    everyMs: positive('PROXY_CHECK_EVERY_MS', 300_000),
    timeoutMs: positive('PROXY_CHECK_TIMEOUT_MS', 10_000),
    failures: positive('PROXY_CHECK_FAILURES', 2),
  };
  const webhooks = {
    timeoutMs: positive('WEBHOOK_TIMEOUT_MS', 10_000),
    retryBaseMs: positive('WEBHOOK_RETRY_BASE_MS', 30_000),
    retryForMs: positive('WEBHOOK_RETRY_FOR_MS', 24 * 3600_000),
  };
  const sim = readSimConfig(env, problems);
  const imports = readImportTuning(env, problems);

  if (problems.length) throw new ConfigError(problems);
  return {
    port,
    dataDir: path.resolve(str('DATA_DIR') ?? path.join(process.cwd(), 'data')),
    databaseUrl,
    redisUrl,
    redisPrefix,
    jwtSecret,
    adminEmail: adminEmail?.toLowerCase() ?? null,
    adminPassword,
    devEmail: devEmail?.toLowerCase() ?? null,
    devPassword,
    trustProxy: trustProxy ?? false,
    publicOrigins: publicOrigins ?? [],
    metricsToken,
    workerMetricsPort,
    proxyCheck,
    webhooks,
    waDriver,
    chromePath: str('CHROME_PATH') ?? '/usr/bin/chromium',
    logLevel,
    webDist: path.resolve(str('WEB_DIST') ?? path.join(repoRoot, 'web/dist')),
    timezone,
    engine,
    sim,
    imports,
  };
}

const PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/**
 * Why TRUST_PROXY=true stops the start: Express then takes the left-most X-Forwarded-For entry,
 * which is whatever the client wrote, so rotating it dodged the sign-in lockout, the sign-in
 * slow-down and the sign-up limit. Reading it as one hop would guess: wrong with two proxies in
 * front (every client looks like the first proxy) and with none (the client's own header is
 * believed again). The operator says which.
 */
export const TRUST_PROXY_TRUE =
  'TRUST_PROXY=true would believe any X-Forwarded-For a client sends, so the sign-in lockout and the sign-up limit could be dodged. Say which proxies to trust: TRUST_PROXY=1 for one reverse proxy in front (2 for two), or their addresses, e.g. TRUST_PROXY=loopback or TRUST_PROXY=172.16.0.0/12';

/**
 * TRUST_PROXY as Express takes it: unset or false = trust nobody (the socket's address is the
 * client's); a number = that many proxy hops (the client is the address that many entries from
 * the right of X-Forwarded-For); else a comma list of proxy addresses or subnets (the client is the
 * right-most address that is not one of them). Null when the value is none of those, and for
 * `true` and a subnet of every address (/0), which would believe the client's own header.
 */
export function parseTrustProxy(raw: string | null): false | number | string | null {
  if (raw === null || raw.toLowerCase() === 'false') return false;
  if (/^\d{1,2}$/.test(raw)) return Number(raw) || false;
  const parts = raw.split(',').map((p) => p.trim());
  const valid = parts.every((p) => {
    if (PROXY_NAMES.has(p)) return true;
    const [addr, bits, extra] = p.split('/');
    if (extra !== undefined || !isIP(addr)) return false;
    if (bits === undefined) return true;
    return /^\d{1,3}$/.test(bits) && Number(bits) > 0 && Number(bits) <= (isIP(addr) === 4 ? 32 : 128);
  });
  return valid ? parts.join(',') : null;
}

/**
 * PUBLIC_URL as the hub takes it: the origin (scheme, host, port) of each address in the comma
 * list; none when unset. Null when an entry is not an http(s) URL.
 */
export function parsePublicUrl(raw: string | null): string[] | null {
  if (raw === null) return [];
  const origins: string[] = [];
  for (const part of raw.split(',').map((p) => p.trim())) {
    let url: URL;
    try {
      url = new URL(part);
    } catch {
      return null;
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    origins.push(url.origin);
  }
  return [...new Set(origins)];
}

/** The JWT secret: JWT_SECRET, else one generated once and kept in DATA_DIR/jwt-secret. */
export function resolveJwtSecret(config: Config): string {
  if (config.jwtSecret) return config.jwtSecret;
  mkdirSync(config.dataDir, { recursive: true });
  const file = path.join(config.dataDir, 'jwt-secret');
  if (existsSync(file)) {
    const kept = readFileSync(file, 'utf8').trim();
    if (kept.length >= 16) return kept;
  }
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  return secret;
}
