import path from 'node:path';
import { sql } from 'drizzle-orm';
import request from 'supertest';
import { beforeAll } from 'vitest';
import { loadConfig } from '../../core/src/config';
import { rows } from '../../core/src/db/client';
import { simIsRegistered } from '../../workers/src/drivers/sim';
import { apiAs, bearer, multipart } from './api';
import { type TestUser, useUsers } from './factories';
import { connectAccount, type SavedAccount, setSimEnv, useWaHarness } from './wa-engine';

/**
 * What the generator and validator suites start from: an engine on the simulator (quick pairing, a
 * third of the numbers on WhatsApp, one interval "second" of 2 ms), admin, two staff, dev and a
 * member, and a connected account of staff and of admin. Everything is filled in by beforeAll.
 */
export function useToolSuite() {
  setSimEnv({ pairDelayMs: 100, restoreDelayMs: 20, sendLatencyMs: 1, registeredRate: 0.35 });
  const h = useWaHarness({ blastSecondMs: 2 });
  const users = useUsers(() => h.database.db, {
    admin: 'admin',
    staff: 'staff',
    otherStaff: 'staff',
    dev: 'dev',
    member: 'member',
  });
  const staffAcc = {} as SavedAccount;
  const adminAcc = {} as SavedAccount;
  beforeAll(async () => {
    Object.assign(staffAcc, (await connectAccount(h, users.staff)).account);
    Object.assign(adminAcc, (await connectAccount(h, users.admin)).account);
  });
  /** where versions before issue 19 kept validator files, which the API still reads when the store has no row */
  const validatorDir = () => path.join(h.dataDir, 'uploads', 'validators');
  return {
    h,
    users,
    staffAcc,
    adminAcc,
    gen: (u: TestUser | null) => apiAs(h, u, '/api/admin/generator'),
    val: (u: TestUser | null) => apiAs(h, u, '/api/admin/validator'),
    /** POST /admin/validator/create (or PUT /{id} with `id`) as multipart, as the web form sends it. */
    upload: (
      u: TestUser,
      file: { name: string; text: string } | null,
      fields: Record<string, string | number>,
      id?: number,
    ) =>
      multipart(
        id
          ? request(h.app).put(`/api/admin/validator/${id}`).set(bearer(u.token))
          : request(h.app).post('/api/admin/validator/create').set(bearer(u.token)),
        fields,
        file && { name: file.name, data: file.text },
      ),
    /** whether the simulator has `n` on WhatsApp */
    registered: (n: string) => simIsRegistered(loadConfig().sim, n),
    q: <T>(query: ReturnType<typeof sql>) => rows<T>(h.database.db, query),
    validatorDir,
    /** the names of the validator files in the file store, where every worker reads them */
    storedFiles: async () =>
      (await rows<{ name: string }>(h.database.db, sql`select name from stored_files where kind = 'validator'`)).map(
        (r) => r.name,
      ),
    /** a generator form over start…end on staff's account, checking without pauses */
    range: (start: string, end: string, extra: object = {}) => ({
      start_number: start,
      end_number: end,
      whatsapp_id: staffAcc.id,
      b_insert: 1,
      interval_min: 0,
      interval_max: 0,
      ...extra,
    }),
  };
}
