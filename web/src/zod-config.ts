import { z } from 'zod';

// zod builds its parsers with `new Function` when it may, and probes for that when a schema is
// created; the dashboard's Content-Security-Policy forbids eval, so the probe would be reported as
// a violation on every load. Imported first by main.tsx, before any schema exists.
z.config({ jitless: true });
