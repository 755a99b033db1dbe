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
    // the tags of the features, and one operation of API keys with its path
    await expect.poll(() => page.locator('.opblock-tag').count()).toBeGreaterThan(10);
    // the tags start expanded: the operations are listed with their paths
    await expect.poll(() => page.locator('[data-path="/admin/apikeys/{id}"]').count()).toBeGreaterThan(0);
    await expect.poll(() => page.locator('[data-path="/admin/whatsapp/new-client"]').count()).toBeGreaterThan(0);
    expect(foreign).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });
});
