// The API documentation (issue 13): /api/docs renders the OpenAPI document in Swagger UI, from
// local files only, under its CSP, with no error in the browser console.
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../support/server';
import { newPage, useBrowser } from './support/browser';

const server = useTestServer();
const browser = useBrowser();

describe('the API docs page', () => {
  it('renders every feature of the API from /api/openapi.json, with no request to another host', async () => {
    const { context, page } = await newPage(browser);
    const errors: string[] = [];
    const foreign: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    page.on('request', (r) => {
      if (!r.url().startsWith(server.url) && !r.url().startsWith('data:')) foreign.push(r.url());
    });
    await page.goto(`${server.url}/api/docs`);
    await page.getByText('WA Blaster API', { exact: false }).first().waitFor();
    await page.locator('.opblock-tag').first().waitFor();
    // Swagger UI renders a long list of operations as the reader scrolls (only what is near the
    // screen is in the page): read it the way a reader does, a screen at a time, to its end
    const tags = new Set<string>();
    const paths = new Set<string>();
    for (let screen = 0; screen < 400; screen++) {
      for (const t of await page
        .locator('.opblock-tag')
        .evaluateAll((els) => els.map((e) => e.getAttribute('data-tag')))) {
        if (t) tags.add(t);
      }
      for (const p of await page
        .locator('[data-path]')
        .evaluateAll((els) => els.map((e) => e.getAttribute('data-path')))) {
        if (p) paths.add(p);
      }
      const atEnd = await page.evaluate(() => window.scrollY + window.innerHeight >= document.body.scrollHeight - 2);
      if (atEnd) break;
      await page.mouse.wheel(0, 600);
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    }
    // the tags of the features, expanded: the operations are listed with their paths
    expect(tags.size, [...tags].join(', ')).toBeGreaterThan(10);
    expect(tags).toContain('whatsapp');
    expect(paths).toContain('/admin/apikeys/{id}');
    expect(paths).toContain('/admin/whatsapp/new-client');
    expect(foreign).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });
});
