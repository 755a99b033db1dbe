import { existsSync } from 'node:fs';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import type { TestUser } from '../../support/factories';
import type { TestServer } from '../../support/server';

/** The Chromium the product drives for whatsapp-web.js (its smoke test launches this one). */
export const CHROME_PATH = process.env.CHROME_PATH || '/usr/bin/chromium';
const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';

/**
 * The browser the screen tests drive: E2E_BROWSER_PATH, else Debian's chromium-headless-shell when
 * installed, else CHROME_PATH. The headless shell is the same Blink without the desktop browser
 * around it (what Playwright itself tests headless with): the tier took 351 CPU-seconds in it
 * against 471 in the full browser on CI's two cores (2026-11-27).
 */
export const BROWSER_PATH = process.env.E2E_BROWSER_PATH || (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : CHROME_PATH);

/** Headless Chromium with the flags this machine needs (no network of its own). */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: BROWSER_PATH,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-dev-shm-usage',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** What a page is opened from: a launched Browser, or the stand-in useBrowser returns. */
export type PageSource = Pick<Browser, 'newContext'>;

/**
 * Chromium for the file it is called in: launched in beforeAll, closed in afterAll. What it returns
 * can be named at module level and handed to newPage or openAs once the hook has run.
 */
export function useBrowser(): PageSource {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });
  return {
    newContext: (options) => {
      if (!browser) throw new Error('the browser is launched in beforeAll');
      return browser.newContext(options);
    },
  };
}

/**
 * A new context and page. Pages ask for reduced motion unless told otherwise, as a user can: the
 * marquee stands still and the charts draw without animating, which is most of what a page costs
 * a software-rendering browser while a test reads it; the marquee's own test asks for motion.
 */
export async function newPage(
  browser: PageSource,
  width = 1280,
  height = 800,
  motion: 'reduce' | 'no-preference' = 'reduce',
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width, height }, reducedMotion: motion });
  const page = await context.newPage();
  return { context, page };
}

/** Signs a user in through the API and puts the session cookies in the context, as the app does. */
export async function signInAs(context: BrowserContext, server: TestServer, user: TestUser): Promise<void> {
  const res = await fetch(`${server.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: user.email, password: user.password }),
  });
  if (!res.ok) throw new Error(`login failed: ${res.status}`);
  const body = (await res.json()) as { token: string; user: unknown };
  await context.addCookies([
    { name: 'authToken', value: body.token, url: server.url, sameSite: 'Lax' },
    { name: 'user', value: encodeURIComponent(JSON.stringify(body.user)), url: server.url, sameSite: 'Lax' },
  ]);
}

/** A new page signed in as `user` (null: signed out) on `path` of the server: how most screen tests begin. */
export async function openAs(
  browser: PageSource,
  server: TestServer,
  user: TestUser | null,
  path: string,
): Promise<{ context: BrowserContext; page: Page }> {
  const { context, page } = await newPage(browser);
  if (user) await signInAs(context, server, user);
  await page.goto(`${server.url}${path}`);
  return { context, page };
}

/** Dismisses the next dialog the page opens; the returned function reads its text ('' until then). */
export function catchDialog(page: Page): () => string {
  let text = '';
  page.once('dialog', async (d) => {
    text = d.message();
    await d.dismiss();
  });
  return () => text;
}
