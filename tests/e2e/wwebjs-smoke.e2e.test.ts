// Smoke test of the wwebjs driver on the real whatsapp-web.js Client and the system Chromium, with
// no network: WhatsApp Web never loads, so what is checked is everything up to that point: Chromium
// starts with the driver's flags (and proxy), the driver fails clearly within its own timeout
// instead of hanging, and destroy() leaves no Chromium process behind.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MemorySessionStore } from '../../workers/src/drivers/session-store';
import { ConnectFailure, type ProxyConfig } from '../../workers/src/drivers/types';
import { InitTimeoutError, WWEBJS_CHROMIUM_ARGS, WwebjsDriver } from '../../workers/src/drivers/wwebjs';
import { TIME_SCALE } from '../support/wait';

const CHROME_PATH = process.env.CHROME_PATH ?? '/usr/bin/chromium';

/** Processes whose command line mentions `needle` (Chromium passes --user-data-dir to every child). */
function processesMentioning(needle: string): { pid: number; args: string[] }[] {
  const found: { pid: number; args: string[] }[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    let cmdline: string;
    try {
      cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
    } catch {
      continue; // exited meanwhile
    }
    if (cmdline.includes(needle)) found.push({ pid: Number(entry), args: cmdline.split('\0').filter(Boolean) });
  }
  return found;
}

async function waitFor<T>(probe: () => T | undefined | null | false, ms: number, what: string): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = probe();
    if (value) return value;
    if (Date.now() > until) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Chromium's processes exit a moment after the browser closes: allow a few seconds. */
async function expectNoChromiumLeft(dataDir: string) {
  await waitFor(
    () => processesMentioning(dataDir).length === 0,
    5000 * TIME_SCALE,
    'every Chromium process to exit',
  ).catch(() => {});
  expect(processesMentioning(dataDir).map((p) => p.args.slice(0, 2).join(' '))).toEqual([]);
}

/**
 * An HTTP proxy that asks for Basic credentials (407) and, once it gets them, never answers: the
 * "endpoint that never answers" on which whatsapp-web.js's initialize() waits forever.
 */
function blackHoleProxy() {
  const connects: { target: string; authorization?: string }[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((req) => {
    sockets.add(req.socket); // plain http:// requests: never answered either
  });
  // Chromium resets these sockets when it is closed: that is expected, not an error of the test
  server.on('connection', (socket) => {
    socket.on('error', () => {});
    sockets.add(socket);
  });
  server.on('clientError', (_err, socket) => socket.destroy());
  server.on('connect', (req, socket: Socket) => {
    socket.on('error', () => {});
    sockets.add(socket);
    const authorization = req.headers['proxy-authorization'];
    connects.push({ target: req.url ?? '', authorization });
    if (!authorization) {
      socket.end(
        'HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="wa"\r\n' +
          'Connection: close\r\nContent-Length: 0\r\n\r\n',
      );
    }
  });
  return {
    connects,
    listen: () =>
      new Promise<number>((resolve) =>
        server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port)),
      ),
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A local port nobody listens on (a proxy that refuses connections). */
async function closedPort(): Promise<number> {
  const s = createServer();
  const port = await new Promise<number>((resolve) =>
    s.listen(0, '127.0.0.1', () => resolve((s.address() as { port: number }).port)),
  );
  await new Promise((r) => s.close(r));
  return port;
}

let dataDir: string;
let driver: WwebjsDriver;

function makeDriver(initTimeoutMs: number, connectTimeoutMs?: number) {
  driver = new WwebjsDriver({
    store: new MemorySessionStore(),
    dataDir,
    chromePath: CHROME_PATH,
    initTimeoutMs,
    connectTimeoutMs,
  });
  return driver;
}

beforeEach(() => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'wa-wwebjs-e2e-'));
});
afterEach(async () => {
  await driver?.close();
  for (const p of processesMentioning(dataDir)) {
    try {
      process.kill(p.pid, 'SIGKILL'); // only if a test failed and left its own Chromium behind
    } catch {}
  }
  rmSync(dataDir, { recursive: true, force: true });
});

describe('wwebjs driver on real Chromium, offline', () => {
  const proxy = blackHoleProxy();
  let proxyPort: number;
  beforeAll(async () => {
    proxyPort = await proxy.listen();
  });
  afterAll(() => proxy.close());

  it('launches Chromium with our flags, authenticates to the HTTP proxy, times out clearly, and leaves nothing behind', async () => {
    // the time the page has to load: Chromium must start and reach the proxy (twice) within it,
    // which a loaded machine stretches; the proxy never answers, so the wait for a first response
    // (connectTimeoutMs, 10 s) must be the longer one for the load's own timeout to be what ends it
    const INIT_MS = 6000 * TIME_SCALE;
    const session = makeDriver(INIT_MS, INIT_MS + 10_000).createSession({
      clientId: 'id-1700000000000-smoke',
      proxy: { protocol: 'http', host: '127.0.0.1', port: proxyPort, username: 'alice', password: 's3cret' },
    });
    const t0 = Date.now();
    const started = session.start().then(
      () => null,
      (e: unknown) => e,
    );

    // the browser process (the one without --type=) while initialize() hangs on the proxy
    const browser = await waitFor(
      () => processesMentioning(dataDir).find((p) => !p.args.some((a) => a.startsWith('--type='))),
      15_000,
      'the Chromium browser process',
    );
    for (const flag of WWEBJS_CHROMIUM_ARGS) {
      if (flag.startsWith('--disable-features=')) continue; // puppeteer merges these into one flag
      expect(browser.args).toContain(flag);
    }
    const disabled = browser.args.find((a) => a.startsWith('--disable-features='));
    expect(disabled).toContain('WebUIOmniboxPopup');
    expect(disabled).toContain('SpareRendererForSitePerProcess');
    expect(browser.args).toContain(`--proxy-server=http://127.0.0.1:${proxyPort}`);
    expect(browser.args).toContain('--headless=new');
    expect(browser.args).toContain(
      `--user-data-dir=${path.join(dataDir, 'wwebjs', 'auth', 'RemoteAuth-id-1700000000000-smoke')}`,
    );

    const error = await started;
    const elapsed = Date.now() - t0;
    expect(error).toBeInstanceOf(InitTimeoutError);
    expect((error as Error).message).toMatch(new RegExp(`did not load within ${INIT_MS} ms`));
    expect(elapsed).toBeGreaterThanOrEqual(INIT_MS);
    expect(elapsed).toBeLessThan(INIT_MS + 9000 * TIME_SCALE);

    // Chromium answered the 407 with our credentials (whatsapp-web.js's proxyAuthentication)
    const expected = `Basic ${Buffer.from('alice:s3cret').toString('base64')}`;
    expect(proxy.connects.some((c) => c.target === 'web.whatsapp.com:443' && !c.authorization)).toBe(true);
    expect(proxy.connects.some((c) => c.target === 'web.whatsapp.com:443' && c.authorization === expected)).toBe(true);

    await session.destroy();
    await expectNoChromiumLeft(dataDir);
    expect(() => process.kill(browser.pid, 0)).toThrow();
  });

  it('fails fast with the network error when the proxy refuses connections', async () => {
    const refused: ProxyConfig = { protocol: 'http', host: '127.0.0.1', port: await closedPort() };
    const session = makeDriver(20_000).createSession({ clientId: 'id-1-refused', proxy: refused });
    const t0 = Date.now();
    const error = await session.start().then(
      () => null,
      (e: unknown) => e,
    );
    // the create page's words, naming Chromium's cause (issue 19: a login failure answers promptly)
    expect(error).toBeInstanceOf(ConnectFailure);
    expect(error).toMatchObject({ kind: 'proxy_refused' });
    expect((error as Error).message).toMatch(/^The proxy refused the connection \(ERR_PROXY_CONNECTION_FAILED\)/);
    expect(Date.now() - t0).toBeLessThan(15_000);
    await session.destroy();
    await expectNoChromiumLeft(dataDir);
  });

  it('without a proxy and without network: a clear failure within the timeout, nothing left', async () => {
    const session = makeDriver(8000).createSession({ clientId: 'id-1-offline' });
    const events: string[] = [];
    session.on((e) => events.push(e.type));
    const t0 = Date.now();
    const error = await session.start().then(
      () => null,
      (e: unknown) => e,
    );
    // offline DNS fails at once (net::ERR_NAME_NOT_RESOLVED); a network that swallows packets hits our timeout
    expect(error).toBeInstanceOf(ConnectFailure);
    expect(error).toMatchObject({ kind: expect.stringMatching(/^(unreachable|timeout)$/) });
    expect((error as Error).message).toMatch(/^WhatsApp (could not be reached|did not answer)/);
    expect(Date.now() - t0).toBeLessThan(8000 + 5000);
    expect(events).toEqual([]);
    await session.destroy();
    await expectNoChromiumLeft(dataDir);
  });

  it('a worker that exits with sessions open leaves no Chromium behind (puppeteer alone leaks every other one)', async () => {
    // a child Node process starts four sessions, waits until their browsers run, then exits
    const driverPath = path.resolve(import.meta.dirname, '../../workers/src/drivers/wwebjs.ts');
    const storePath = path.resolve(import.meta.dirname, '../../workers/src/drivers/session-store.ts');
    const script = `
      import { WwebjsDriver } from ${JSON.stringify(driverPath)};
      import { MemorySessionStore } from ${JSON.stringify(storePath)};
      import pkg from 'whatsapp-web.js';
      const clients = [];
      const driver = new WwebjsDriver({
        store: new MemorySessionStore(), dataDir: process.env.DATA_DIR, chromePath: process.env.CHROME_PATH,
        initTimeoutMs: 60000, clientFactory: (o) => { const c = new pkg.Client(o); clients.push(c); return c; },
      });
      for (const id of ['id-1-c1', 'id-1-c2', 'id-1-c3', 'id-1-c4']) {
        driver.createSession({ clientId: id, proxy: { protocol: 'http', host: '127.0.0.1', port: Number(process.env.PROXY_PORT) } })
          .start().catch(() => {});
      }
      while (clients.length < 4 || clients.some((c) => !c.pupBrowser)) await new Promise((r) => setTimeout(r, 50));
      console.log('pids', clients.map((c) => c.pupBrowser.process().pid).join(','));
      process.exit(3);
    `;
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: path.resolve(import.meta.dirname, '../..'),
      env: { ...process.env, DATA_DIR: dataDir, CHROME_PATH, PROXY_PORT: String(proxyPort) },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(3);
    const pids = /pids ([\d,]+)/.exec(out)?.[1].split(',').map(Number) ?? [];
    expect(pids).toHaveLength(4);
    // killed at exit (a SIGKILLed process group is gone at once); leaked ones live on for minutes
    await expectNoChromiumLeft(dataDir);
  });

  it('destroy() during the launch still closes the browser that puppeteer is starting', async () => {
    const session = makeDriver(30_000).createSession({
      clientId: 'id-1-early',
      proxy: { protocol: 'http', host: '127.0.0.1', port: proxyPort },
    });
    const started = session.start().then(
      () => null,
      (e: unknown) => e,
    );
    await new Promise((r) => setTimeout(r, 100)); // Chromium is still being launched
    await session.destroy();
    expect(await started).toBeInstanceOf(Error);
    await expectNoChromiumLeft(dataDir);
  });
});
