/**
 * Polls `check` every 10 ms until it holds, and fails naming `what` once `ms` have passed: how the
 * suites wait for a row, a delivery or a socket that changes in the background.
 */
export async function until(check: () => boolean | Promise<boolean>, what = 'condition', ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
