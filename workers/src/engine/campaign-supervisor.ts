import { type Db, type RawRow, rows } from '@wa/core/db/client';
import type { campaigns } from '@wa/core/db/schema/index';
import type { DependencyMonitor } from '@wa/core/dependencies';
import type { Logger } from '@wa/core/logger';
import type { WebhookEmitter } from '@wa/core/webhooks/webhooks';
import type { CampaignStopReason } from '@wa/shared';
import { type SQL, sql } from 'drizzle-orm';
import { CAMPAIGN_CAP } from './campaign-claims.repo';

/** How often the supervisor looks at the campaigns. */
export const CAMPAIGN_TICK_MS = 5000;

/** campaign.progress is told at most this often per campaign. */
export const PROGRESS_EVERY_MS = 60_000;

/** A campaign's figures as its webhooks tell them. */
type Figures = Pick<
  RawRow<typeof campaigns>,
  'id' | 'client_id' | 'name' | 'sent' | 'delivered' | 'read' | 'failed' | 'replied' | 'optout'
> & { spent: number | string; stop_reason: string | null };

const FIGURES = sql`c.id, c.client_id, c.name, c.sent, c.delivered, c.read, c.failed, c.replied, c.optout, c.spent,
                    c.stop_reason`;

/** What a campaign webhook's data holds: the campaign and its figures now. */
export function campaignData(c: Figures) {
  return {
    campaign_id: c.id,
    client_id: c.client_id,
    name: c.name,
    sent: Number(c.sent),
    delivered: Number(c.delivered),
    read: Number(c.read),
    failed: Number(c.failed),
    replied: Number(c.replied),
    optout: Number(c.optout),
    spent: Number(c.spent),
  };
}

/**
 * Moves campaigns along by themselves (issue 22): first it counts their figures from the log
 * (`recount`); then an active or paused campaign whose end has come finishes ('ended'); an active
 * one whose budget is used, with nothing of it still in flight, finishes ('budget'); an active one
 * that has messaged every target finishes ('completed'). The blasts never claim past a budget or an end (claimFromCampaigns), so
 * this only says so. Every move is a compare-and-set: with several workers, each campaign is moved
 * and told once. It tells the client's webhooks campaign.started (first time active and due),
 * campaign.progress (at most once a minute, while it gives targets to blasts) and campaign.finished.
 */
export class CampaignSupervisor {
  private timer: NodeJS.Timeout | null = null;
  private running = false;

  constructor(
    private readonly deps: {
      db: Db;
      log: Logger;
      webhooks: WebhookEmitter;
      /** the engine's view of the database: an outage is told there, once, not on every tick */
      monitor?: DependencyMonitor;
      tickMs?: number;
      /** campaign.progress at most this often per campaign (PROGRESS_EVERY_MS; tests shorten it) */
      progressEveryMs?: number;
    },
  ) {}

  start(): void {
    this.timer = setInterval(() => void this.tick(), this.deps.tickMs ?? CAMPAIGN_TICK_MS);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** One look at the campaigns; a failure (the database away) is logged and the next tick tries again. */
  async tick(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      await this.recount();
      // started first: a campaign that sent everything between two looks is told started, then finished
      await this.started();
      await this.finish('ended', sql`c.status in ('active', 'paused') and c.end_at <= now()`);
      // nothing of it in flight: no target of it claimed (a claimed target is not sent yet)
      const idle = sql`not exists (select 1 from phone_numbers p where p.campaign_id = c.id and p.status = 'active'
                                   and p.last_sent is null and p.in_use = 1)`;
      await this.finish(
        'budget',
        sql`c.status = 'active' and ${CAMPAIGN_CAP(sql`c`)} is not null
            and c.reserved >= ${CAMPAIGN_CAP(sql`c`)} and ${idle}`,
      );
      await this.finish(
        'completed',
        sql`c.status = 'active' and c.sent + c.failed + c.unknown > 0
            and not exists (select 1 from phone_numbers p where p.campaign_id = c.id and p.status = 'active'
                            and p.last_sent is null)`,
      );
      await this.progress();
    } catch (err) {
      // an outage is the monitor's to tell; the next tick tries again by itself
      const dep = await this.deps.monitor?.classify(err).catch(() => null);
      if (!dep) this.deps.log.warn({ err }, 'campaign supervisor: the campaigns could not be moved; trying again');
    } finally {
      this.running = false;
    }
  }

  /**
   * Counts the figures of the campaigns that move (active, paused, or finished within the hour,
   * whose receipts still come) from their message logs, in one statement: sent, delivered, read,
   * failed, unknown, and spent (delivered × the campaign's price). The send path never writes a
   * campaign's row (it is shared by every account sending for it: counting there made the accounts
   * queue and deadlock on it, bench/README.md), so the figures trail the log by one look.
   */
  private async recount(): Promise<void> {
    await this.deps.db.execute(
      sql`with c as (
            select id from campaigns
            where status in ('active', 'paused') or (status = 'finished' and updated_at > now() - interval '1 hour')
          ), f as (
            select c.id,
                   count(m.id) filter (where m.status in ('sent', 'delivered', 'read'))::int as sent,
                   count(m.id) filter (where m.status in ('delivered', 'read'))::int as delivered,
                   count(m.id) filter (where m.status = 'read')::int as read,
                   count(m.id) filter (where m.status = 'failed')::int as failed,
                   count(m.id) filter (where m.status = 'unknown')::int as unknown
            from c left join message_logs m on m.campaign_id = c.id
            group by c.id
          )
          update campaigns x
          set sent = f.sent, delivered = f.delivered, read = f.read, failed = f.failed, unknown = f.unknown,
              spent = f.delivered::bigint * x.price_per_delivered
          from f
          where x.id = f.id
            and (x.sent, x.delivered, x.read, x.failed, x.unknown, x.spent)
                is distinct from (f.sent, f.delivered, f.read, f.failed, f.unknown, f.delivered::bigint * x.price_per_delivered)`,
    );
  }

  private async finish(reason: CampaignStopReason, when: SQL): Promise<void> {
    const done = await rows<Figures>(
      this.deps.db,
      // its figures counted in the same statement: a message written since this look's recount is in them
      sql`update campaigns c set status = 'finished', stop_reason = ${reason}, updated_at = now(),
            (sent, delivered, read, failed, unknown) = (
              select count(m.id) filter (where m.status in ('sent', 'delivered', 'read'))::int,
                     count(m.id) filter (where m.status in ('delivered', 'read'))::int,
                     count(m.id) filter (where m.status = 'read')::int,
                     count(m.id) filter (where m.status = 'failed')::int,
                     count(m.id) filter (where m.status = 'unknown')::int
              from message_logs m where m.campaign_id = c.id),
            spent = c.price_per_delivered::bigint * (
              select count(*) from message_logs m where m.campaign_id = c.id and m.status in ('delivered', 'read'))
          where ${when}
          returning ${FIGURES}`,
    );
    for (const c of done) {
      this.deps.log.info({ campaignId: c.id, reason }, 'campaign finished');
      this.deps.webhooks.emit('campaign.finished', c.client_id, { ...campaignData(c), reason });
    }
  }

  private async started(): Promise<void> {
    const begun = await rows<Figures>(
      this.deps.db,
      sql`update campaigns c set started_at = now()
          where c.status = 'active' and c.started_at is null and (c.start_at is null or c.start_at <= now())
          returning ${FIGURES}`,
    );
    for (const c of begun) this.deps.webhooks.emit('campaign.started', c.client_id, campaignData(c));
  }

  private async progress(): Promise<void> {
    const moving = await rows<Figures>(
      this.deps.db,
      sql`update campaigns c set progress_at = now()
          where c.status = 'active' and c.started_at is not null
            and (c.progress_at is null
                 or c.progress_at <= now() - ${`${this.deps.progressEveryMs ?? PROGRESS_EVERY_MS} milliseconds`}::interval)
            and c.sent + c.failed > 0 and (c.progress_at is null or c.served_at > c.progress_at)
          returning ${FIGURES}`,
    );
    for (const c of moving) this.deps.webhooks.emit('campaign.progress', c.client_id, campaignData(c));
  }
}
