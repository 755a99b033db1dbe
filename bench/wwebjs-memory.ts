// Benchmark: memory of N whatsapp-web.js clients (one Chromium each), as the wwebjs driver runs them.
//
//   npx tsx bench/wwebjs-memory.ts                      # 3 clients, the driver's flags
//   BENCH_CLIENTS=5 npx tsx bench/wwebjs-memory.ts
//   BENCH_FLAGS=minimal npx tsx bench/wwebjs-memory.ts  # only the TOOLCHAIN.md flags, for comparison
//
// What runs: N sessions of the real driver (real whatsapp-web.js Client, real RemoteAuth, the
// driver's Chromium flags, system Chromium, headless), started concurrently. There is no network
// here, so WhatsApp Web cannot load; instead the bench plants a small local page in the driver's
// WhatsApp Web version cache (`<dataDir>/wwebjs/web-cache/<webVersion>.html`). whatsapp-web.js then
// answers its own navigation to https://web.whatsapp.com/ with that page (request interception), as
// it does with a cached WhatsApp Web, so each Chromium reaches its first page exactly as in
// production. Once every page shows its title, whatsapp-web.js waits (up to 30 s) for WhatsApp
// Web's `window.Debug`, which never comes: the bench samples during that wait.
//
// What is measured: the PSS (proportional set size, from /proc/<pid>/smaps_rollup) of each client's
// whole Chromium process tree (browser, zygotes, GPU, network and storage utilities, renderer). PSS
// splits shared pages (the Chromium binary, fonts…) among the processes sharing them, so the sum
// over all clients is what they really cost together, and per-client PSS falls a little as N grows.
// This is the per-client floor: a logged-in WhatsApp Web adds its own JS heap and DOM on top (a few
// hundred MB more for a busy account); it cannot be loaded offline.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ClientOptions } from 'whatsapp-web.js';
import pkg from 'whatsapp-web.js';
import { MemorySessionStore } from '../workers/src/drivers/session-store';
import { type ClientLike, WWEBJS_CHROMIUM_ARGS, WwebjsDriver, wwebjsPaths } from '../workers/src/drivers/wwebjs';

const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 3);
const FLAGS = process.env.BENCH_FLAGS === 'minimal' ? 'minimal' : 'driver';
const CHROME_PATH = process.env.CHROME_PATH ?? '/usr/bin/chromium';
/** the flags of TOOLCHAIN.md ("Chromium flags for headless use as root"), for BENCH_FLAGS=minimal */
const MINIMAL_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const { Client } = pkg;
const { DefaultOptions } = createRequire(import.meta.url)('whatsapp-web.js/src/util/Constants') as {
  DefaultOptions: { webVersion: string };
};

/** pid → parent pid for every process, to walk a Chromium tree */
function children(): Map<number, number[]> {
  const kids = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const list = kids.get(ppid) ?? [];
      list.push(Number(entry));
      kids.set(ppid, list);
    } catch {}
  }
  return kids;
}

function tree(root: number, kids: Map<number, number[]>): number[] {
  const out = [root];
  for (let i = 0; i < out.length; i++) out.push(...(kids.get(out[i]) ?? []));
  return out;
}

function pssKb(pid: number): number {
  try {
    const m = /^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'));
    return m ? Number(m[1]) : 0;
  } catch {
    return 0;
  }
}

function kind(pid: number): string {
  try {
    const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    const type = /--type=([a-z-]+)/.exec(cmd)?.[1];
    if (!type) return 'browser';
    const sub = /--utility-sub-type=[\w]+\.mojom\.(\w+)/.exec(cmd)?.[1];
    return sub ? `${type}:${sub}` : type;
  } catch {
    return '?';
  }
}

const mb = (kb: number) => Math.round(kb / 102.4) / 10;

async function main() {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'wa-bench-wwebjs-'));
  // the stand-in for WhatsApp Web's index.html, served by whatsapp-web.js from its version cache
  const webCache = wwebjsPaths(dataDir).webCache;
  mkdirSync(webCache, { recursive: true });
  writeFileSync(
    path.join(webCache, `${DefaultOptions.webVersion}.html`),
    '<!doctype html><html><head><title>bench page</title></head><body><div id="app">loading…</div></body></html>',
  );

  const clients: { id: string; client: InstanceType<typeof Client> }[] = [];
  const driver = new WwebjsDriver({
    store: new MemorySessionStore(),
    dataDir,
    chromePath: CHROME_PATH,
    initTimeoutMs: 120_000,
    clientFactory: (options: ClientOptions) => {
      if (FLAGS === 'minimal' && options.puppeteer) options.puppeteer.args = [...MINIMAL_ARGS];
      const client = new Client(options);
      clients.push({ id: `client-${clients.length + 1}`, client });
      return client as unknown as ClientLike;
    },
  });

  console.log(
    `${CLIENTS} clients, ${FLAGS} flags (${FLAGS === 'driver' ? WWEBJS_CHROMIUM_ARGS.length : MINIMAL_ARGS.length} args), ${CHROME_PATH}`,
  );
  const starts: Promise<unknown>[] = [];
  const t0 = Date.now();
  for (let i = 0; i < CLIENTS; i++) {
    const session = driver.createSession({ clientId: `id-${Date.now()}-bench${i + 1}` });
    starts.push(session.start().catch((e: unknown) => e));
  }

  try {
    // every Chromium launched and showing the planted page
    const title = (c: InstanceType<typeof Client>) =>
      c.pupPage?.evaluate(() => document.title).catch(() => '') ?? Promise.resolve('');
    const until = Date.now() + 25_000;
    let ready = 0;
    while (Date.now() < until) {
      ready = (await Promise.all(clients.map(({ client }) => title(client)))).filter((t) => t === 'bench page').length;
      if (ready === CLIENTS) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    if (ready < CLIENTS) throw new Error(`only ${ready} of ${CLIENTS} pages loaded`);
    console.log(`all ${CLIENTS} pages loaded in ${Date.now() - t0} ms; settling 4 s`);
    await new Promise((r) => setTimeout(r, 4000));

    // three samples one second apart; per client keep the median
    const samples: number[][] = [];
    let breakdown = '';
    for (let s = 0; s < 3; s++) {
      const kids = children();
      samples.push(
        clients.map(({ client }, i) => {
          const pid = client.pupBrowser?.process()?.pid;
          if (!pid) throw new Error(`client ${i + 1} has no browser process`);
          const pids = tree(pid, kids);
          if (s === 2 && i === 0) {
            breakdown = pids.map((p) => `${kind(p)} ${mb(pssKb(p))}`).join(', ');
          }
          return pids.reduce((sum, p) => sum + pssKb(p), 0);
        }),
      );
      await new Promise((r) => setTimeout(r, 1000));
    }
    const perClient = clients.map((_, i) => samples.map((row) => row[i]).sort((a, b) => a - b)[1]);
    clients.forEach(({ id }, i) => {
      console.log(`${id}: ${mb(perClient[i])} MB PSS`);
    });
    const total = perClient.reduce((a, b) => a + b, 0);
    console.log(`client-1 processes (MB): ${breakdown}`);
    console.log(
      JSON.stringify({
        clients: CLIENTS,
        flags: FLAGS,
        perClientMb: perClient.map(mb),
        meanMb: mb(total / CLIENTS),
        totalMb: mb(total),
      }),
    );
  } finally {
    // also on failure: the driver's own exit hook would kill the browsers, but close them properly
    await driver.close();
    await Promise.all(starts);
    const left = clients.filter(({ client }) => {
      const proc = client.pupBrowser?.process();
      return proc && proc.exitCode === null && proc.signalCode === null;
    });
    if (left.length) console.log(`warning: ${left.length} browsers still running after close()`);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
