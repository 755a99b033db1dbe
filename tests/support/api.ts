import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Express } from 'express';
import request from 'supertest';
import { afterAll, beforeAll } from 'vitest';
import type { Database } from '../../core/src/db/client';
import { createLogger } from '../../core/src/logger';
import { type AppDeps, createApp } from '../../server/src/app';
import { createTestDatabase } from './db';
import { TEST_JWT_SECRET, type TestUser, useUsers } from './factories';

export interface ApiHarness {
  app: Express;
  database: Database;
  /** a fresh DATA_DIR for this harness (uploads) */
  dataDir: string;
  close(): Promise<void>;
}

/** createApp over a fresh test database; no port, for supertest. `deps` overrides the app's options. */
export async function setupApi(deps: Partial<Omit<AppDeps, 'db' | 'dataDir'>> = {}): Promise<ApiHarness> {
  const database = await createTestDatabase();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'wa-api-'));
  const app = createApp({
    db: database.db,
    jwtSecret: TEST_JWT_SECRET,
    logger: createLogger(process.env.TEST_LOG === '1' ? 'error' : 'silent'),
    dataDir,
    ...deps,
  });
  return {
    app,
    database,
    dataDir,
    close: async () => {
      await database.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

/**
 * setupApi for the file (or describe) it is called in: made in beforeAll, closed in afterAll. The
 * object is returned at once and filled in by the hook, so a suite can name it at module level
 * instead of declaring a `let` and assigning it in its own beforeAll.
 */
export function useApi(deps: Partial<Omit<AppDeps, 'db' | 'dataDir'>> = {}): ApiHarness {
  const h = {} as ApiHarness;
  beforeAll(async () => {
    Object.assign(h, await setupApi(deps));
  });
  afterAll(async () => {
    await h.close?.();
  });
  return h;
}

/** useApi and one user of each role made on it (admin, dev, member, staff, in that order): what most route suites start from. */
export function useApiWithRoles() {
  const h = useApi();
  return { h, ...useUsers(() => h.database.db, { admin: 'admin', dev: 'dev', member: 'member', staff: 'staff' }) };
}

/** Anything that carries the app: a harness, also one a hook fills in later (it is read per call). */
export interface HasApp {
  readonly app: Express;
}

/**
 * supertest calls to the routes under `prefix` as `u`, or without a token for `null`: the route
 * client every API suite used to write for itself.
 */
export function apiAs(h: HasApp, u: TestUser | null, prefix = '/api') {
  const auth = (r: request.Test) => (u ? r.set(bearer(u.token)) : r);
  return {
    get: (p: string) => auth(request(h.app).get(`${prefix}${p}`)),
    post: (p: string, body: unknown) => auth(request(h.app).post(`${prefix}${p}`)).send(body as object),
    put: (p: string, body: unknown) => auth(request(h.app).put(`${prefix}${p}`)).send(body as object),
    del: (p: string) => auth(request(h.app).delete(`${prefix}${p}`)),
    /** a multipart POST carrying `content` as its `file` field, as the import screens send it */
    upload: (p: string, name: string, content: string | Buffer) =>
      auth(request(h.app).post(`${prefix}${p}`)).attach('file', Buffer.from(content), name),
  };
}

/** A file as the web forms send it: its name and its content. */
export interface FormFile {
  name: string;
  data: string | Buffer;
}

/** Adds `fields` and, when given, `file` to a request as multipart, as a form with a file input sends them. */
export function multipart(req: request.Test, fields: Record<string, string | number>, file?: FormFile | null) {
  let r = req;
  for (const [k, v] of Object.entries(fields)) r = r.field(k, String(v));
  return file ? r.attach('file', Buffer.from(file.data), file.name) : r;
}

/**
 * The calls of apiAs path first and the caller after it (none: no token), for suites whose lines
 * mostly differ in who calls.
 */
export function apiCalls(h: HasApp, prefix = '/api') {
  return {
    get: (p: string, u?: TestUser | null) => apiAs(h, u ?? null, prefix).get(p),
    post: (p: string, u: TestUser | null, body: unknown) => apiAs(h, u, prefix).post(p, body),
    put: (p: string, u: TestUser | null, body: unknown) => apiAs(h, u, prefix).put(p, body),
    del: (p: string, u?: TestUser | null) => apiAs(h, u ?? null, prefix).del(p),
  };
}
