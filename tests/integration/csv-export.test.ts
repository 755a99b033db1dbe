import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, bearer, setupApi } from '../support/api';
import { createUser, type TestUser } from '../support/factories';

let h: ApiHarness;
let admin: TestUser;

beforeAll(async () => {
  h = await setupApi();
  admin = await createUser(h.database.db, { role: 'admin' });
});
afterAll(() => h.close());

const get = (p: string) => request(h.app).get(`/api/admin${p}`).set(bearer(admin.token));
const post = (p: string, body: object) => request(h.app).post(`/api/admin${p}`).set(bearer(admin.token)).send(body);

/**
 * What a spreadsheet that ignores quotes makes of a line: split on every separator a locale or a
 * paste may use (id-ID Excel splits on `;`), with a leading quote of a quoted field dropped.
 */
function naiveCells(line: string): string[] {
  return line.split(/[,;\t]/).map((c) => c.replace(/^"/, ''));
}

describe('CSV exports opened in an Indonesian-locale spreadsheet', () => {
  it('quotes a phone number name with ; and neutralises the formula after it', async () => {
    const saved = [
      { number: '081233330001', name: 'x;=1+2' },
      { number: '081233330002', name: 'Budi\t@SUM(A1)' },
      { number: '081233330003', name: 'Citra Lestari' },
    ];
    for (const body of saved) expect((await post('/phonenumber/save', body)).status).toBe(201);

    const csv = await get('/phonenumber/export?format=csv');
    expect(csv.status).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.text).toBe(
      [
        'number,name,status',
        `6281233330001,"x;'=1+2",active`,
        `6281233330002,"Budi\t'@SUM(A1)",active`,
        '6281233330003,Citra Lestari,active',
        '',
      ].join('\n'),
    );
    for (const line of csv.text.trim().split('\n')) {
      for (const cell of naiveCells(line)) expect(cell).not.toMatch(/^[=+\-@]/);
    }

    // JSON is data, not a sheet: it keeps the names exactly as saved
    const json = JSON.parse((await get('/phonenumber/export?format=json')).text) as { name: string }[];
    expect(json.map((r) => r.name)).toEqual(saved.map((s) => s.name));
  });

  it('quotes a proxy value with ; and neutralises the formula after it', async () => {
    expect((await post('/proxy/save', { value: 'u;=1+2:p@10.0.0.1:8080' })).status).toBe(201);
    expect((await post('/proxy/save', { value: 'user:pass@10.0.0.2:8080' })).status).toBe(201);

    const csv = await get('/proxy/export?format=csv');
    expect(csv.status).toBe(200);
    expect(csv.text).toBe(
      ['value,status', `"u;'=1+2:p@10.0.0.1:8080",active`, 'user:pass@10.0.0.2:8080,active', ''].join('\n'),
    );
    for (const line of csv.text.trim().split('\n')) {
      for (const cell of naiveCells(line)) expect(cell).not.toMatch(/^[=+\-@]/);
    }
  });
});
