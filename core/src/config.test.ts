import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, resolveJwtSecret, TRUST_PROXY_TRUE } from './config';
import { DEFAULT_ENGINE_SETTINGS, DEFAULT_SIM_CONFIG } from './config-engine';

describe('loadConfig', () => {
  it('has working defaults for every variable', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      port: 3000,
      databaseUrl: null,
      redisUrl: null,
      jwtSecret: null,
      waDriver: 'wwebjs',
      chromePath: '/usr/bin/chromium',
    });
    expect(c.dataDir).toBe(path.resolve('data'));
  });

  it('lists every problem at once', () => {
    try {
      loadConfig({
        PORT: '70000',
        DATABASE_URL: 'mysql://x',
        REDIS_URL: 'localhost:6379',
        JWT_SECRET: 'short',
        ADMIN_EMAIL: 'admin@example.test',
        WA_DRIVER: 'selenium',
        METRICS_TOKEN: 'short',
        PROXY_CHECK_URL: 'ftp://x',
        PROXY_CHECK_FAILURES: '0',
      });
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      const problems = (err as ConfigError).problems.join('\n');
      for (const name of [
        'PORT',
        'DATABASE_URL',
        'REDIS_URL',
        'JWT_SECRET',
        'ADMIN_PASSWORD',
        'WA_DRIVER',
        'METRICS_TOKEN',
        'PROXY_CHECK_URL',
        'PROXY_CHECK_FAILURES',
      ]) {
        expect(problems).toContain(name);
      }
    }
  });

  it('reads the values it is given', () => {
    const c = loadConfig({
      PORT: '8080',
      DATABASE_URL: 'postgres://u@h/db',
      REDIS_URL: 'redis://h:6379',
      ADMIN_EMAIL: 'Boss@Example.test',
      ADMIN_PASSWORD: 'password1',
      WA_DRIVER: 'sim',
    });
    expect(c).toMatchObject({ port: 8080, waDriver: 'sim', adminEmail: 'boss@example.test' });
  });

  it('reads DEV_EMAIL/DEV_PASSWORD together and checks the bootstrap passwords like any password', () => {
    expect(loadConfig({ DEV_EMAIL: 'Dev@Example.test', DEV_PASSWORD: 'dev-password' })).toMatchObject({
      devEmail: 'dev@example.test',
      devPassword: 'dev-password',
    });
    expect(() => loadConfig({ DEV_EMAIL: 'dev@example.test' })).toThrow(/DEV_EMAIL and DEV_PASSWORD/);
    expect(() => loadConfig({ DEV_EMAIL: 'dev@example.test', DEV_PASSWORD: 'short' })).toThrow(
      /DEV_PASSWORD must be at least 8/,
    );
    expect(() => loadConfig({ ADMIN_EMAIL: 'a@example.test', ADMIN_PASSWORD: 'x'.repeat(73) })).toThrow(
      /ADMIN_PASSWORD must be at most 72 bytes/,
    );
    expect(() =>
      loadConfig({
        ADMIN_EMAIL: 'same@example.test',
        ADMIN_PASSWORD: 'password1',
        DEV_EMAIL: 'SAME@example.test',
        DEV_PASSWORD: 'password2',
      }),
    ).toThrow(/must be different/);
  });

  it('reads TRUST_PROXY as Express takes it, off by default: a hop count or the proxies’ addresses', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '0' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: 'loopback, 10.0.0.0/8, fd00::/8' }).trustProxy).toBe(
      'loopback,10.0.0.0/8,fd00::/8',
    );
    for (const bad of ['yes', '10.0.0.0/33', 'proxy.example.com', '1.2.3.4/8/9']) {
      expect(() => loadConfig({ TRUST_PROXY: bad }), bad).toThrow(/TRUST_PROXY/);
    }
  });

  it('refuses TRUST_PROXY=true and a subnet of every address: they believe the client’s own X-Forwarded-For (issue 24)', () => {
    for (const trustAll of ['true', 'TRUE', '0.0.0.0/0', '::/0', 'loopback, 0.0.0.0/0']) {
      expect(() => loadConfig({ TRUST_PROXY: trustAll }), trustAll).toThrow(/TRUST_PROXY/);
    }
    // the message names the safe forms
    expect(() => loadConfig({ TRUST_PROXY: 'true' })).toThrow(TRUST_PROXY_TRUE);
    expect(TRUST_PROXY_TRUE).toMatch(/TRUST_PROXY=1 .*TRUST_PROXY=loopback/);
  });

  it('reads PUBLIC_URL as the origins a browser’s socket may come from, none by default', () => {
    expect(loadConfig({}).publicOrigins).toEqual([]);
    expect(loadConfig({ PUBLIC_URL: 'https://Blast.Example.com/dashboard/' }).publicOrigins).toEqual([
      'https://blast.example.com',
    ]);
    expect(loadConfig({ PUBLIC_URL: 'https://blast.example.com, http://10.0.0.5:3000' }).publicOrigins).toEqual([
      'https://blast.example.com',
      'http://10.0.0.5:3000',
    ]);
    for (const bad of ['blast.example.com', 'ftp://blast.example.com', 'https://ok.example.com,']) {
      expect(() => loadConfig({ PUBLIC_URL: bad }), bad).toThrow(/PUBLIC_URL/);
    }
  });

  it('takes the dashboard day from APP_TIMEZONE, Asia/Jakarta by default, and refuses an unknown zone', () => {
    expect(loadConfig({}).timezone).toBe('Asia/Jakarta');
    expect(loadConfig({ APP_TIMEZONE: 'Asia/Makassar' }).timezone).toBe('Asia/Makassar');
    expect(() => loadConfig({ APP_TIMEZONE: 'Mars/Olympus' })).toThrow(/APP_TIMEZONE/);
  });
});

describe('resolveJwtSecret', () => {
  it('generates a secret once and keeps it in DATA_DIR', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'wa-cfg-'));
    const c = loadConfig({ DATA_DIR: dir });
    const a = resolveJwtSecret(c);
    expect(a.length).toBeGreaterThanOrEqual(32);
    expect(resolveJwtSecret(c)).toBe(a);
    expect(readFileSync(path.join(dir, 'jwt-secret'), 'utf8').trim()).toBe(a);
  });

  it('prefers JWT_SECRET', () => {
    expect(resolveJwtSecret(loadConfig({ JWT_SECRET: 'x'.repeat(20) }))).toBe('x'.repeat(20));
  });
});

describe('engine, simulator and import tuning', () => {
  it('has the defaults the engine, the simulator and the importer used before', () => {
    const c = loadConfig({});
    expect(c.engine).toEqual(DEFAULT_ENGINE_SETTINGS);
    expect(c.engine).toEqual({
      leaseMs: 30_000,
      sweepMs: 10_000,
      blastSecondMs: 1000,
      loginTtlMs: 120_000,
      workerMaxLogins: 20,
      sendTimeoutMs: 60_000,
      stuckAfter: 3,
    });
    expect(c.sim).toEqual(DEFAULT_SIM_CONFIG);
    expect(c.sim).toEqual({
      seed: 1,
      pairDelayMs: 3000,
      sendFailRate: 0.05,
      sendLatencyMs: [50, 200],
      restoreDelayMs: 300,
      qrRefreshMs: 20000,
      registeredRate: 0.9,
      deliverRate: 0.95,
      readRate: 0.6,
      ackDelayMs: 1000,
    });
    expect(c.imports).toEqual({ chunkRows: 20_000, profile: false });
  });

  it('reads every variable', () => {
    const c = loadConfig({
      WA_LEASE_MS: '6000',
      WA_SWEEP_MS: '2000',
      WA_BLAST_SECOND_MS: '5',
      WA_LOGIN_TTL_MS: '9000',
      WA_WORKER_MAX_LOGINS: '3',
      WA_SEND_TIMEOUT_MS: '1500',
      WA_STUCK_AFTER: '4',
      SIM_SEED: '99',
      SIM_PAIR_DELAY_MS: '10',
      SIM_SEND_FAIL_RATE: '0.5',
      SIM_SEND_LATENCY_MS: ' 5 - 9 ',
      SIM_RESTORE_DELAY_MS: '0',
      SIM_QR_REFRESH_MS: '100',
      SIM_REGISTERED_RATE: '1',
      SIM_DELIVER_RATE: '0.5',
      SIM_READ_RATE: '0.25',
      SIM_ACK_DELAY_MS: '20',
      IMPORT_CHUNK_ROWS: '2',
      IMPORT_PROFILE: '1',
    });
    expect(c.engine).toEqual({
      leaseMs: 6000,
      sweepMs: 2000,
      blastSecondMs: 5,
      loginTtlMs: 9000,
      workerMaxLogins: 3,
      sendTimeoutMs: 1500,
      stuckAfter: 4,
    });
    expect(c.sim).toEqual({
      seed: 99,
      pairDelayMs: 10,
      sendFailRate: 0.5,
      sendLatencyMs: [5, 9],
      restoreDelayMs: 0,
      qrRefreshMs: 100,
      registeredRate: 1,
      deliverRate: 0.5,
      readRate: 0.25,
      ackDelayMs: 20,
    });
    expect(c.imports).toEqual({ chunkRows: 2, profile: true });
    expect(loadConfig({ SIM_SEND_LATENCY_MS: '7' }).sim.sendLatencyMs).toEqual([7, 7]);
  });

  it.each([
    ['WA_LEASE_MS', '0'],
    ['WA_SWEEP_MS', 'often'],
    ['WA_WORKER_MAX_LOGINS', '2.5'],
    ['WA_STUCK_AFTER', '0'],
    ['WA_SEND_TIMEOUT_MS', '-1'],
    ['WA_LOGIN_TTL_MS', '-1'],
    ['SIM_SEND_FAIL_RATE', '2'],
    ['SIM_SEND_FAIL_RATE', '-0.1'],
    ['SIM_REGISTERED_RATE', 'lots'],
    ['SIM_DELIVER_RATE', '1.5'],
    ['SIM_ACK_DELAY_MS', '-1'],
    ['SIM_SEED', '1.5'],
    ['SIM_SEED', 'abc'],
    ['SIM_PAIR_DELAY_MS', '-5'],
    ['SIM_RESTORE_DELAY_MS', 'soon'],
    ['SIM_QR_REFRESH_MS', '0'],
    ['SIM_SEND_LATENCY_MS', '200-50'],
    ['SIM_SEND_LATENCY_MS', 'fast'],
    ['SIM_SEND_LATENCY_MS', '1-2-3'],
    ['IMPORT_CHUNK_ROWS', '0'],
  ])('refuses %s=%s, naming the variable and the value', (name, value) => {
    let error: unknown;
    try {
      loadConfig({ [name]: value });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems).toEqual([expect.stringContaining(name)]);
    expect((error as ConfigError).problems[0]).toContain(`"${value}"`);
  });
});

describe('operations settings (issue 13)', () => {
  it('reads the metrics token, the proxy check and the baileys engine; metrics and proxy checks are off by default', () => {
    const off = loadConfig({});
    expect(off.metricsToken).toBeNull();
    expect(off.proxyCheck).toEqual({ url: null, everyMs: 300_000, timeoutMs: 10_000, failures: 2 });
    const on = loadConfig({
      METRICS_TOKEN: 'm'.repeat(20),
      PROXY_CHECK_URL: 'https://ops.example.test/ping',
      PROXY_CHECK_EVERY_MS: '60000',
      PROXY_CHECK_TIMEOUT_MS: '3000',
      PROXY_CHECK_FAILURES: '3',
      WA_DRIVER: 'baileys',
    });
    expect(on.metricsToken).toBe('m'.repeat(20));
    expect(on.proxyCheck).toEqual({
      url: 'https://ops.example.test/ping',
      everyMs: 60_000,
      timeoutMs: 3000,
      failures: 3,
    });
    expect(on.waDriver).toBe('baileys');
  });

  it("reads a worker's metrics port, which needs the metrics token", () => {
    expect(loadConfig({}).workerMetricsPort).toBeNull();
    expect(loadConfig({ WORKER_METRICS_PORT: '9464', METRICS_TOKEN: 'm'.repeat(20) }).workerMetricsPort).toBe(9464);
    expect(() => loadConfig({ WORKER_METRICS_PORT: '9464' })).toThrow(/WORKER_METRICS_PORT needs METRICS_TOKEN/);
    expect(() => loadConfig({ WORKER_METRICS_PORT: '70000', METRICS_TOKEN: 'm'.repeat(20) })).toThrow(
      /WORKER_METRICS_PORT must be a whole number from 1 to 65535/,
    );
    expect(() => loadConfig({ WORKER_METRICS_PORT: 'x', METRICS_TOKEN: 'm'.repeat(20) })).toThrow(/"x"/);
  });

  it('reads the webhook delivery settings (a day of retries from 30 s by default) and refuses bad ones', () => {
    expect(loadConfig({}).webhooks).toEqual({ timeoutMs: 10_000, retryBaseMs: 30_000, retryForMs: 86_400_000 });
    const on = loadConfig({ WEBHOOK_TIMEOUT_MS: '2000', WEBHOOK_RETRY_BASE_MS: '50', WEBHOOK_RETRY_FOR_MS: '60000' });
    expect(on.webhooks).toEqual({ timeoutMs: 2000, retryBaseMs: 50, retryForMs: 60_000 });
    expect(() => loadConfig({ WEBHOOK_RETRY_BASE_MS: '-5' })).toThrow(
      /WEBHOOK_RETRY_BASE_MS must be a whole number > 0/,
    );
    expect(() => loadConfig({ WEBHOOK_TIMEOUT_MS: 'soon' })).toThrow(/WEBHOOK_TIMEOUT_MS/);
  });
});
