import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Express } from 'express';
import type { Database } from '../../core/src/db/client';
import { createLogger } from '../../core/src/logger';
import { type AppDeps, createApp } from '../../server/src/app';
import { createTestDatabase } from './db';
import { TEST_JWT_SECRET } from './factories';

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
