import request from 'supertest';
import { type ApiHarness, bearer, type FormFile, multipart } from './api';
import type { TestUser } from './factories';

/** A URL button as the template form sends it. */
export const BUTTON = { id: '1', title: 'Beli', url: 'https://beli.test', type: 'url_button' };

/** The template suites' calls bound to one harness (a hook-filled one too). */
export function templateHelpers(h: ApiHarness, admin: TestUser) {
  return {
    /** POST /admin/message/create as multipart, as the template form sends it. */
    create: (u: TestUser, fields: Record<string, string>, file?: FormFile) =>
      multipart(request(h.app).post('/api/admin/message/create').set(bearer(u.token)), fields, file),
    /** how many templates there are, as `admin` pages them */
    count: async (): Promise<number> =>
      (await request(h.app).get('/api/admin/message/list-per-page?page=1').set(bearer(admin.token))).body.meta.total,
  };
}
