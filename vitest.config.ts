import { defineConfig } from 'vitest/config';

/**
 * Five tiers, one config: `unit` (pure and service tests), `integration` (API through createApp on
 * a real database: PGlite, or PostgreSQL with TEST_DB=postgres), `redis` (BullMQ and pub/sub on a
 * real Redis), `fault` (outages and kills on private servers) and `e2e` (the built dashboard in
 * real Chromium). scripts/test.mjs runs them in order.
 */
/** TEST_TIME_SCALE (tests/support/wait.ts): the time limits grow with it, as the waits do. */
const SCALE = Math.max(1, Number(process.env.TEST_TIME_SCALE) || 1);

/**
 * The files of a worker share one module graph instead of importing the app again for each: the
 * code is loaded and compiled once per worker, not once per file, and stays warm (the browser tier
 * took 351 CPU-seconds isolated, 183 sharing; unit 36 and 15). Each file has its own database,
 * server and harness, and what it sets in process.env is undone after it (restore-env.ts).
 */
const SHARED_GRAPH = {
  isolate: false,
  setupFiles: ['tests/support/restore-env.ts'],
};

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: [
            'shared/src/**/*.test.ts',
            'core/src/**/*.test.ts',
            'server/src/**/*.test.ts',
            'workers/src/**/*.test.ts',
            'web/src/**/*.test.{ts,tsx}',
            // the container files (Dockerfile, docker-compose.yml), read without Docker
            'tests/deploy/**/*.test.ts',
          ],
          exclude: ['**/*.int.test.ts', '**/*.redis.test.ts', '**/node_modules/**'],
          // vitest's default is one fewer worker than cores, one on CI's two: the files wait on
          // timers and simulated WhatsApp as much as they compute (42 s one at a time, 10 s three)
          maxWorkers: 3,
          ...SHARED_GRAPH,
        },
      },
      {
        test: {
          name: 'integration',
          include: [
            'core/src/**/*.int.test.ts',
            'server/src/**/*.int.test.ts',
            'workers/src/**/*.int.test.ts',
            'tests/integration/**/*.test.ts',
          ],
          globalSetup: ['tests/support/db-template.ts'],
          testTimeout: 30_000 * SCALE,
          hookTimeout: 60_000 * SCALE,
          // they wait on databases, sockets and simulated WhatsApp far more than they compute: four
          // files at a time keep CI's two cores busy
          maxWorkers: 4,
          ...SHARED_GRAPH,
        },
      },
      {
        test: {
          name: 'redis',
          include: ['**/*.redis.test.ts'],
          exclude: ['**/node_modules/**'],
          globalSetup: ['tests/support/db-template.ts'],
          testTimeout: 30_000 * SCALE,
          hookTimeout: 60_000 * SCALE,
          maxWorkers: 4, // as the integration tier
          ...SHARED_GRAPH,
        },
      },
      {
        test: {
          // issue 19's fault injection: private PostgreSQL and Redis, the API and two workers as
          // processes, one stack through every scenario in order (minutes, not seconds)
          name: 'fault',
          include: ['tests/fault/**/*.fault.test.ts'],
          testTimeout: 240_000,
          hookTimeout: 240_000,
          fileParallelism: false,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.e2e.test.ts'],
          globalSetup: ['tests/support/build-web.ts', 'tests/support/db-template.ts'],
          // screens render after their data arrives; on a busy machine that takes more than 1 s
          expect: { poll: { timeout: 5000 * SCALE } },
          testTimeout: 60_000 * SCALE,
          hookTimeout: 120_000 * SCALE,
          // each file has its own server, database and browser: two at a time on CI's two cores
          // (four at a time on PostgreSQL failed screens on timing in two of three runs)
          maxWorkers: 2,
          ...SHARED_GRAPH,
        },
      },
    ],
  },
});
