// A worker's Baileys key writes, to be killed mid-way (tests/integration/baileys-auth.test.ts):
// batch after batch of KEYS pre-keys for one session, each batch tagged with its number, through
// the same auth state the driver uses, until SIGKILL. Prints "batch N" after each commit.
//   DATABASE_URL=… SESSION=id-1 npx tsx tests/support/baileys-key-writer.ts
import { openDatabase } from '../../core/src/db/client';
import { DbAuthKeyStore, storedAuthState } from '../../workers/src/drivers/baileys-auth';
import { DbSessionStore } from '../../workers/src/drivers/session-store';

const KEYS_PER_BATCH = Number(process.env.KEYS ?? 40);

const url = process.env.DATABASE_URL;
const session = process.env.SESSION ?? 'id-1';
if (!url) throw new Error('DATABASE_URL is required');
const { db } = await openDatabase({ databaseUrl: url, pgliteDir: '' });
const auth = await storedAuthState(session, new DbSessionStore(db), new DbAuthKeyStore(db));
for (let batch = 1; ; batch++) {
  const preKeys: Record<string, { public: Buffer; private: Buffer }> = {};
  for (let k = 0; k < KEYS_PER_BATCH; k++) {
    preKeys[`${batch}-${k}`] = { public: Buffer.alloc(32, batch % 256), private: Buffer.alloc(32, k) };
  }
  await auth.state.keys.set({ 'pre-key': preKeys });
  process.stdout.write(`batch ${batch}\n`);
}
