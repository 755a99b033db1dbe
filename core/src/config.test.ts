import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, resolveJwtSecret } from './config';

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
      });
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      const problems = (err as ConfigError).problems.join('\n');
      for (const name of ['PORT', 'DATABASE_URL', 'REDIS_URL', 'JWT_SECRET', 'ADMIN_PASSWORD', 'WA_DRIVER']) {
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

  it('reads TRUST_PROXY as Express takes it, off by default', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: 'loopback, 10.0.0.0/8, fd00::/8' }).trustProxy).toBe(
      'loopback,10.0.0.0/8,fd00::/8',
    );
    for (const bad of ['yes', '10.0.0.0/33', 'proxy.example.com', '1.2.3.4/8/9']) {
      expect(() => loadConfig({ TRUST_PROXY: bad }), bad).toThrow(/TRUST_PROXY/);
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
