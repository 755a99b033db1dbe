import type { HealthResponse } from '@wa/shared';
import { describe, expect, it } from 'vitest';
import { HEALTH_UNREACHABLE, healthProblems } from './health-text';

const report = (over: Partial<HealthResponse> = {}): HealthResponse => ({
  ok: true,
  status: 'ok',
  reasons: [],
  database: { up: true, ms: 1 },
  redis: null,
  workers: { live: 1, accounts: 4, sending: 3, unheld: 0, stalled: 0, waiting_for: [] },
  ...over,
});

describe('the health banner in words', () => {
  it('says nothing when all is well, so there is no banner', () => {
    expect(healthProblems(report())).toEqual([]);
  });

  it('says the check got no answer when there is no report', () => {
    expect(healthProblems(null)).toEqual([HEALTH_UNREACHABLE]);
  });

  it('words each reason with its count, in the order of the report', () => {
    const lines = healthProblems(
      report({
        ok: false,
        status: 'degraded',
        reasons: ['no_worker', 'accounts_unheld', 'loops_stalled', 'workers_waiting'],
        workers: { live: 0, accounts: 0, sending: 5, unheld: 2, stalled: 3, waiting_for: ['database', 'redis'] },
      }),
    );
    expect(lines).toEqual([
      'Tidak ada worker yang hidup: akun tidak terhubung dan blast tidak berjalan.',
      '2 akun sedang blast tetapi tidak dipegang worker mana pun.',
      '3 akun seharusnya mengirim blast, tetapi loop-nya tidak berjalan.',
      'Worker menunggu database dan Redis: blast berhenti sementara dan lanjut sendiri setelah pulih.',
    ]);
  });

  it('names what does not answer when the system is down', () => {
    const lines = healthProblems(
      report({
        ok: false,
        status: 'down',
        reasons: ['database_down', 'redis_down'],
        database: { up: false, ms: 1500 },
        redis: { up: false, ms: 1500 },
        workers: null,
      }),
    );
    expect(lines[0]).toMatch(/^Database tidak menjawab/);
    expect(lines[1]).toMatch(/^Redis tidak menjawab/);
  });
});
