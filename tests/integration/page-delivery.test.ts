import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { sql } from 'drizzle-orm';
import type { Express } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultFileStore } from '../../core/src/files/legacy-uploads';
import { useApi } from '../support/api';
import { useUsers } from '../support/factories';

/**
 * Issue 23, the page: answers compressed with brotli or gzip as the browser asks (JSON, the
 * dashboard's files, streamed lists), never the stored media; the dashboard's hashed files cached
 * a year, index.html asked again each time.
 */

/** A built dashboard of this test's own: index.html, a file without a hash and two hashed ones. */
const dist = mkdtempSync(path.join(tmpdir(), 'wa-dist-'));
/** enough script to be worth compressing (over the 1 KB threshold) */
const SCRIPT = `export const screens = ${JSON.stringify(Array.from({ length: 400 }, (_, i) => `screen-${i}`))};\n`;
mkdirSync(path.join(dist, 'assets'));
writeFileSync(
  path.join(dist, 'index.html'),
  `<!doctype html><html><body><div id="root"></div>${'<!-- -->'.repeat(200)}</body></html>`,
);
writeFileSync(path.join(dist, 'theme-init.js'), 'document.documentElement.classList.add("dark");\n');
writeFileSync(path.join(dist, 'assets', 'index-Ab12Cd34.js'), SCRIPT);
writeFileSync(path.join(dist, 'assets', 'outfit-latin-400-normal-BGsTXAXT.woff2'), Buffer.alloc(4096, 7));
afterAll(() => rmSync(dist, { recursive: true, force: true }));

const h = useApi({ webDist: dist });
const { admin } = useUsers(() => h.database.db, { admin: 'admin' });

/** What came over the wire: the status, the headers and the body's bytes as sent (not decoded). */
interface Raw {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  /** how many pieces the body arrived in */
  chunks: number;
}

let base = '';
let server: http.Server;
beforeAll(async () => {
  server = (h.app as Express).listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

/**
 * GETs `url` with plain node:http, which decodes nothing, so the test sees the bytes as sent.
 * `slow`: reads like a slow link, a pause after each piece, so the server must wait for it.
 */
function get(url: string, headers: Record<string, string> = {}, slow = false): Promise<Raw> {
  return new Promise((resolve, reject) => {
    http
      // a connection of its own: a kept-alive one may be closed by the server just as it is reused
      .get(`${base}${url}`, { headers, agent: false }, (res) => {
        const parts: Buffer[] = [];
        res.on('data', (c: Buffer) => {
          parts.push(c);
          if (!slow) return;
          res.pause();
          setTimeout(() => res.resume(), 2);
        });
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(parts),
            chunks: parts.length,
          }),
        );
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

/** The body as the browser reads it once it has undone the Content-Encoding. */
function decoded(r: Raw): string {
  const enc = r.headers['content-encoding'];
  if (enc === 'br') return brotliDecompressSync(r.body).toString('utf8');
  if (enc === 'gzip') return gunzipSync(r.body).toString('utf8');
  expect(enc, 'an encoding this test knows').toBeUndefined();
  return r.body.toString('utf8');
}

const auth = () => ({ Authorization: `Bearer ${admin.token}` });

describe('compression', () => {
  it('answers JSON in brotli or gzip as asked, the same JSON once decoded, and as it was without asking', async () => {
    const plain = await get('/api/openapi.json');
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    const doc = JSON.parse(plain.body.toString('utf8'));
    for (const encoding of ['br', 'gzip'] as const) {
      const r = await get('/api/openapi.json', { 'Accept-Encoding': encoding });
      expect(r.status).toBe(200);
      expect(r.headers['content-encoding'], encoding).toBe(encoding);
      expect(r.headers['content-type']).toMatch(/^application\/json/);
      expect(r.headers.vary).toMatch(/Accept-Encoding/i);
      expect(r.body.length, `${encoding} is smaller`).toBeLessThan(plain.body.length / 4);
      expect(JSON.parse(decoded(r))).toEqual(doc);
    }
    // a browser that takes both gets brotli
    const both = await get('/api/openapi.json', { 'Accept-Encoding': 'gzip, deflate, br, zstd' });
    expect(both.headers['content-encoding']).toBe('br');
  });

  it('compresses an answer behind the token, and leaves a tiny one as it is', async () => {
    await h.database.db.execute(
      sql`insert into proxies (value) select '10.1.' || (g / 250) || '.' || (g % 250) || ':8080' from generate_series(1, 300) g`,
    );
    const r = await get('/api/admin/proxy/list', { ...auth(), 'Accept-Encoding': 'br' });
    expect(r.status).toBe(200);
    expect(r.headers['content-encoding']).toBe('br');
    expect(JSON.parse(decoded(r)).list).toHaveLength(300);
    // under 1 KB the encoding costs more than it saves
    const small = await get('/api/health', { 'Accept-Encoding': 'br' });
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(small.body.toString('utf8')).status).toBeDefined();
  });

  it('still streams a streamed list: chunk by chunk, every row there once decoded, no drain listeners left over', async () => {
    const rows = 100_000;
    await h.database.db.execute(
      sql`insert into phone_numbers (number, name, status)
          select '6281' || lpad(g::text, 9, '0'), 'Nama ' || g, 'active' from generate_series(1, ${rows}) g`,
    );
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(`${w.name}: ${w.message}`);
    process.on('warning', onWarning);
    try {
      for (const encoding of ['br', 'gzip'] as const) {
        const r = await get('/api/admin/phonenumber/list', { ...auth(), 'Accept-Encoding': encoding }, true);
        expect(r.status).toBe(200);
        expect(r.headers['content-encoding']).toBe(encoding);
        // sent as it is written, never held whole to learn its length
        expect(r.headers['content-length']).toBeUndefined();
        expect(r.headers['transfer-encoding']).toBe('chunked');
        expect(r.chunks).toBeGreaterThan(1);
        const list = JSON.parse(decoded(r)).list as { number: string }[];
        expect(list).toHaveLength(rows);
        expect(new Set(list.map((p) => p.number)).size).toBe(rows);
      }
      // the handler waits for the compressor to drain many times: each wait's listener goes again
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.filter((w) => /MaxListeners.*drain/.test(w))).toEqual([]);
    } finally {
      process.off('warning', onWarning);
    }
  });

  it('sends template media as stored: no compression, byte ranges intact', async () => {
    const svg = `<svg xmlns="http://www.w3.org/2000/svg">${'<rect width="1" height="1"/>'.repeat(200)}</svg>`;
    await defaultFileStore(h.database.db, h.dataDir).put('template', 'promo-1.svg', Buffer.from(svg), 'image/svg+xml');
    const whole = await get('/uploads/templates/promo-1.svg', { 'Accept-Encoding': 'br, gzip' });
    expect(whole.status).toBe(200);
    expect(whole.headers['content-encoding']).toBeUndefined();
    expect(whole.body.toString('utf8')).toBe(svg);
    const part = await get('/uploads/templates/promo-1.svg', { 'Accept-Encoding': 'br, gzip', Range: 'bytes=0-99' });
    expect(part.status).toBe(206);
    expect(part.headers['content-encoding']).toBeUndefined();
    expect(part.body.toString('utf8')).toBe(svg.slice(0, 100));
  });
});

describe("the dashboard's files", () => {
  it('keeps a hashed file a year (immutable), compressed as asked', async () => {
    const r = await get('/assets/index-Ab12Cd34.js', { 'Accept-Encoding': 'br' });
    expect(r.status).toBe(200);
    expect(r.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(r.headers['content-encoding']).toBe('br');
    expect(r.headers['content-type']).toMatch(/javascript/);
    expect(decoded(r)).toBe(SCRIPT);
    // a font is compressed already
    const font = await get('/assets/outfit-latin-400-normal-BGsTXAXT.woff2', { 'Accept-Encoding': 'br, gzip' });
    expect(font.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(font.headers['content-encoding']).toBeUndefined();
  });

  it('asks again for index.html and the files without a hash every time', async () => {
    for (const url of ['/', '/dashboard', '/index.html', '/theme-init.js']) {
      const r = await get(url, { 'Accept-Encoding': 'gzip' });
      expect(r.status, url).toBe(200);
      expect(r.headers['cache-control'], url).toBe('no-cache');
      expect(r.headers['content-security-policy'], url).toContain("script-src 'self'");
    }
    const page = await get('/dashboard', { 'Accept-Encoding': 'gzip' });
    expect(page.headers['content-encoding']).toBe('gzip');
    expect(decoded(page)).toContain('<div id="root"></div>');
  });

  it("answers a hashed file that is not there with 404, never the app's page", async () => {
    const r = await get('/assets/index-Gone0000.js');
    expect(r.status).toBe(404);
    expect(r.headers['content-type']).toMatch(/^application\/json/);
    expect(r.headers['cache-control'] ?? '').not.toContain('immutable');
  });
});
