// zod builds its parsers with `new Function` when it may, and probes for that when a schema is
// created; the dashboard's Content-Security-Policy forbids eval, so the probe would be reported as
// a violation on every load. zod takes its settings from `globalThis.__zod_globalConfig` when that
// exists as it loads, so they are set here without loading zod itself: the sign-in screen runs no
// schema and does without it (issue 23). Imported first by main.tsx; zod-config.test.ts checks
// that zod still reads them from there.
export {};

const settings = globalThis as { __zod_globalConfig?: { jitless?: boolean } };
settings.__zod_globalConfig ??= {};
settings.__zod_globalConfig.jitless = true;
