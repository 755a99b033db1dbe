/**
 * How much longer than written a test may wait for a condition: TEST_TIME_SCALE (1 by default;
 * `npm test` sets 3 while its tiers share the machine). A wait ends when its condition holds, so a
 * larger scale costs time only when something is wrong.
 */
export const TIME_SCALE = Math.max(1, Number(process.env.TEST_TIME_SCALE) || 1);

/**
 * Polls `check` every 10 ms until it holds, and fails naming `what` once `ms` (times TIME_SCALE)
 * have passed: how the suites wait for a row, a delivery or a socket that changes in the background.
 */
export async function until(check: () => boolean | Promise<boolean>, what = 'condition', ms = 5000): Promise<void> {
  const end = Date.now() + ms * TIME_SCALE;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
