import type { Actor } from '@wa/core/actor';
import { notFound } from '@wa/core/errors';
import { assertCan, canForAnyone } from '@wa/core/policy';
import type { ChartsResponse, ReportFigures, ReportQuery, ReportResponse, ReportRow } from '@wa/shared';
import type { ReportFilter, ReportRepo } from './report.repo';

export const REPORT_PAGE_SIZE = 50;

/** Rows an export fetches at a time. */
const EXPORT_BATCH = 1000;

const FIGURE_KEYS = ['sent', 'delivered', 'read', 'failed', 'optout', 'income'] as const;

const addDays = (day: string, n: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

/**
 * Reports (issue 11): per day and account, what was sent, delivered, read, failed, opted out and
 * earned. Admin, dev and staff read anyone's (staff read-only: there is nothing to change here);
 * a member reads their own, whatever `user_id` says.
 */
export class ReportService {
  constructor(private readonly repo: ReportRepo) {}

  /** The filter an actor's query means: dates defaulted to the last 7 days, a member held to their own rows. */
  async filter(actor: Actor, q: ReportQuery): Promise<ReportFilter> {
    assertCan(actor, 'report.read', q.user_id === undefined ? undefined : { userId: q.user_id });
    const to = q.to ?? (q.from ? addDays(q.from, 6) : await this.repo.today());
    const from = q.from ?? addDays(to, -6);
    const userId = canForAnyone(actor, 'report.read') ? q.user_id : actor.id;
    if (q.whatsapp_id !== undefined) {
      const owner = await this.repo.accountOwner(q.whatsapp_id);
      if (owner === null) throw notFound('WhatsApp account not found');
      assertCan(actor, 'report.read', { userId: owner });
    }
    return { from, to, userId, whatsappId: q.whatsapp_id };
  }

  async report(actor: Actor, q: ReportQuery): Promise<ReportResponse> {
    const f = await this.filter(actor, q);
    const days = await this.repo.days(f);
    const rows = days.reduce((a, d) => a + d.rows, 0);
    const totals = days.reduce<ReportFigures>(
      (t, d) => {
        for (const k of FIGURE_KEYS) t[k] += d.figures[k];
        return t;
      },
      { sent: 0, delivered: 0, read: 0, failed: 0, optout: 0, income: 0 },
    );
    const totalPages = Math.max(1, Math.ceil(rows / REPORT_PAGE_SIZE));
    const data = await this.repo.page(f, REPORT_PAGE_SIZE, (q.page - 1) * REPORT_PAGE_SIZE, days);
    return {
      data,
      totals,
      meta: { page: q.page, totalPages, total: rows, pageSize: REPORT_PAGE_SIZE, from: f.from, to: f.to },
    };
  }

  /** The rows of an export after row `after` (0 first), numbered for the download's paging. */
  exportBatch(f: ReportFilter, after: number): Promise<Array<ReportRow & { id: number }>> {
    return this.repo.page(f, EXPORT_BATCH, after).then((list) => list.map((r, i) => ({ ...r, id: after + i + 1 })));
  }

  /**
   * The dashboards' charts: a member's own, or (admin, dev) one member's or everybody's. They read
   * the ledger's rollups (ReportRepo.charts), a bounded number of rows for any scope, so they are
   * not kept: every refetch is fresh (issue 23; bench/README.md "Reads at 10,000,000 message logs").
   */
  async charts(actor: Actor, userId: number | undefined): Promise<ChartsResponse> {
    assertCan(actor, 'counters.read', userId === undefined ? undefined : { userId });
    const everyone = canForAnyone(actor, 'counters.read');
    return this.repo.charts(everyone ? (userId ?? null) : actor.id);
  }
}
