import type { HealthReason, HealthResponse } from '@wa/shared';

/** What the banner says when the check itself got no report (the API or a proxy in front of it failed). */
export const HEALTH_UNREACHABLE = 'Server tidak menjawab pemeriksaan kesehatan.';

const DEPENDENCY: Record<string, string> = { database: 'database', redis: 'Redis' };

/** One plain sentence per reason, in the dashboard's language, with the counts the report carries. */
function sentence(reason: HealthReason, h: HealthResponse): string {
  const w = h.workers;
  switch (reason) {
    case 'database_down':
      return 'Database tidak menjawab: dashboard dan blast tidak bisa berjalan.';
    case 'redis_down':
      return 'Redis tidak menjawab: perintah ke worker, antrean tugas dan update langsung tertahan.';
    case 'workers_unknown':
      return 'Status worker tidak terbaca: database terlalu lambat menjawab.';
    case 'no_worker':
      return 'Tidak ada worker yang hidup: akun tidak terhubung dan blast tidak berjalan.';
    case 'accounts_unheld':
      return `${w?.unheld ?? 0} akun sedang blast tetapi tidak dipegang worker mana pun.`;
    case 'loops_stalled':
      return `${w?.stalled ?? 0} akun seharusnya mengirim blast, tetapi loop-nya tidak berjalan.`;
    case 'workers_waiting': {
      const deps = (w?.waiting_for ?? []).map((d) => DEPENDENCY[d] ?? d).join(' dan ');
      return `Worker menunggu ${deps || 'layanan lain'}: blast berhenti sementara dan lanjut sendiri setelah pulih.`;
    }
  }
}

/**
 * The banner's lines for a report: none when all is well (no banner), else one per reason in the
 * report's order, or HEALTH_UNREACHABLE when there was no report at all (`null`).
 */
export function healthProblems(h: HealthResponse | null): string[] {
  if (h === null) return [HEALTH_UNREACHABLE];
  if (h.status === 'ok') return [];
  const lines = h.reasons.map((r) => sentence(r, h));
  // a report that is not ok always names a reason; this guards a server that does not
  return lines.length ? lines : ['Status sistem tidak normal.'];
}
