import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import type { TestUser } from '../../support/factories';
import type { TestServer } from '../../support/server';

export const CHROME_PATH = process.env.CHROME_PATH || '/usr/bin/chromium';

/** Headless system Chromium with the flags this machine needs (no network of its own). */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROME_PATH,
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

export async function newPage(
  browser: Browser,
  width = 1280,
  height = 800,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width, height } });
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
