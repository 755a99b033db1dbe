import { expect, it } from 'vitest';

it('configures zod before zod loads: its parsers never eval (the CSP forbids it)', async () => {
  await import('./zod-config');
  const { z } = await import('zod');
  expect(z.config().jitless).toBe(true);
});
