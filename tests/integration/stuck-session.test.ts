import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { rows } from '../../core/src/db/client';
import { useUsers } from '../support/factories';
import { nextEvent, setSimEnv, useWaHarness, waHelpers } from '../support/wa-engine';
import { until } from '../support/wait';

/**
 * The stuck-session watchdog (issue 13): an account that says connected while its sends never
 * answer is rebuilt on its worker, which its lists hear as `reconnecting`; the sends that timed out
 * are logged failed, and nothing is sent twice.
 */
// the phone pairs quickly; every send takes 5 s, far past the 150 ms the watchdog allows here
setSimEnv({ pairDelayMs: 100, restoreDelayMs: 20, sendLatencyMs: 5000, sendFailRate: 0 });
const h = useWaHarness({ blastSecondMs: 1, sendTimeoutMs: 150, stuckAfter: 2 });
const { member } = useUsers(() => h.database.db, { member: 'member' });
const { wa, connect } = waHelpers(h);

describe('a session that says connected but does not answer', () => {
  it('is rebuilt after its sends time out twice in a row, with a reconnecting event', async () => {
    const db = h.database.db;
    const { account } = await connect(member);
    await db.execute(sql`update users set blast_fee = 100, blast_interval_min = 0, blast_interval_max = 0`);
    await db.execute(
      sql`insert into message_templates (text, text_wa, status) values ('Halo', 'Halo {name}', 'active')`,
    );
    await db.execute(
      sql`insert into phone_numbers (number, name) values ('6289955500001', 'A'), ('6289955500002', 'B')`,
    );
    const reconnecting = nextEvent(h, `client-${member.id}`, 'reconnecting', 10_000);
    const started = await wa(member).post('/start-blasting', { whatsappClientId: account.clientid, loop: true });
    expect(started.status).toBe(200);
    expect(await reconnecting).toMatchObject({ deviceId: account.clientid, state: 'reconnecting...' });
    const logs = () =>
      rows<{ target: string; status: string; error: string | null }>(
        db,
        sql`select target, status, error from message_logs where whatsapp_id = ${account.id} order by id`,
      );
    await until(async () => (await logs()).length >= 2, 'two timed-out sends logged', 10_000);
    const [first, second] = await logs();
    expect(first).toMatchObject({ status: 'failed', error: expect.stringMatching(/timed out after 150 ms/) });
    expect(second).toMatchObject({ status: 'failed' });
    expect(new Set((await logs()).map((l) => l.target)).size).toBe((await logs()).length);
    await wa(member).post('/stop-blasting', { whatsappClientId: account.clientid, loop: true });
  });
});
