import { afterAll } from 'vitest';

/**
 * A setup file of the tiers that share one module graph between their files (`isolate: false`):
 * what a file sets in process.env (the sim's rates and delays, set at its top) is undone after it,
 * so the next file in the same worker starts from the environment every file starts from.
 */
const before = { ...process.env };

afterAll(() => {
  for (const key of Object.keys(process.env)) if (!(key in before)) delete process.env[key];
  Object.assign(process.env, before);
});
