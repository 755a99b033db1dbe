import { DEFAULT_TIMEZONE } from '../../../core/src/config';
import { type DailyRow, recountDaily, storedDaily } from '../../../core/src/ledger/daily';
import { rollupDifferences } from '../../../core/src/ledger/rollups';
import { digits, type SendLine } from './send-log';
import { waitFor } from './services';
import { type FaultStack, FEE, type SeededCampaign } from './stack';

/** Statuses a message WhatsApp accepted may be logged with: its real one, never unknown or pending. */
const ACCEPTED = new Set(['sent', 'delivered', 'read']);
/** how many examples a problem lists */
const SAMPLE = 8;

interface LogRow {
  id: number;
  wa_message_id: string | null;
  status: string;
  fee: number;
  fee_due: number;
  target: string;
  clientid: string | null;
}

const show = (l: SendLine) => `${l.to} by ${l.deviceId} on ${l.worker} at ${new Date(l.at).toISOString()} (${l.id})`;

/**
 * The books against the truth, as one list of problems (empty: all is well):
 * - the send log: no target accepted twice (0 messaged twice);
 * - every accepted send has its message_logs row with that WhatsApp id, a real status and its fee
 *   paid (payout_on 'accepted': fee = FEE, nothing due) within `settleMs` (0 lost);
 * - message_logs: no target or phone_number_id twice, no 'unknown' but those `allowedUnknown`
 *   holds (the worker SIGKILL's, at most one per account), nothing left pending, no target marked
 *   sent without its log;
 * - the ledger: the day rows equal a recount of the log, and each account's counters and income
 *   equal its logs, read in one snapshot while the blasts go on.
 */
export async function checkBooks(
  stack: FaultStack,
  opts: { allowedUnknown: ReadonlySet<number>; settleMs?: number; final?: boolean },
): Promise<string[]> {
  const problems: string[] = [];
  const checkedAt = Date.now();
  stack.sendLog.refresh();
  const lines = [...stack.sendLog.lines];
  if (stack.sendLog.bad.length) {
    problems.push(`send log lines that do not parse: ${stack.sendLog.bad.slice(0, SAMPLE).join(' | ')}`);
  }

  const byTarget = new Map<string, SendLine[]>();
  for (const l of lines) {
    const k = digits(l.to);
    byTarget.set(k, [...(byTarget.get(k) ?? []), l]);
  }
  const twice = [...byTarget.values()].filter((ls) => ls.length > 1);
  if (twice.length) {
    problems.push(
      `${twice.length} target(s) messaged more than once (simulator send log): ${twice
        .slice(0, SAMPLE)
        .map((ls) => `${digits(ls[0].to)} ×${ls.length} [${ls.map(show).join('; ')}]`)
        .join(' | ')}`,
    );
  }

  // the allowed unknowns stand for a message that left while its worker died: matched by account and target
  const excused = new Set<string>();
  if (opts.allowedUnknown.size) {
    const r = await stack.pool.query<{ target: string; clientid: string | null }>(
      `select m.target, w.clientid from message_logs m left join whatsapp_accounts w on w.id = m.whatsapp_id
       where m.id = any($1::int[])`,
      [[...opts.allowedUnknown]],
    );
    for (const u of r.rows) excused.add(`${u.clientid}|${digits(u.target)}`);
  }
  const isExcused = (l: SendLine) => excused.has(`${l.deviceId}|${digits(l.to)}`);

  // every accepted send logged with a real status; outcomes kept through an outage may still be on their way
  const settled = new Map<string, LogRow>();
  const latest = new Map<string, LogRow>();
  const fetchRows = async () => {
    const ids = lines.filter((l) => !settled.has(l.id) && !isExcused(l)).map((l) => l.id);
    for (let i = 0; i < ids.length; i += 5000) {
      const r = await stack.pool.query<LogRow>(
        `select m.id, m.wa_message_id, m.status, m.fee, m.fee_due, m.target, w.clientid
         from message_logs m left join whatsapp_accounts w on w.id = m.whatsapp_id
         where m.wa_message_id = any($1::text[])`,
        [ids.slice(i, i + 5000)],
      );
      for (const row of r.rows) {
        const id = row.wa_message_id as string;
        latest.set(id, row);
        if (ACCEPTED.has(row.status)) settled.set(id, row);
      }
    }
    return lines.every((l) => settled.has(l.id) || isExcused(l));
  };
  await waitFor(fetchRows, opts.settleMs ?? 20_000, () => 'every accepted send logged', 500).catch(() => {});
  const missing = lines.filter((l) => !settled.has(l.id) && !isExcused(l) && !latest.has(l.id));
  const wrongStatus = lines.filter((l) => !settled.has(l.id) && !isExcused(l) && latest.has(l.id));
  if (missing.length) {
    problems.push(
      `${missing.length} accepted send(s) have no message_logs row with their WhatsApp id (lost from the books): ${missing
        .slice(0, SAMPLE)
        .map(show)
        .join(' | ')}`,
    );
  }
  if (wrongStatus.length) {
    problems.push(
      `${wrongStatus.length} accepted send(s) logged without their real status (sent/delivered/read): ${wrongStatus
        .slice(0, SAMPLE)
        .map((l) => `${show(l)} → ${latest.get(l.id)?.status}`)
        .join(' | ')}`,
    );
  }
  const unpaid = [...settled.entries()].filter(([, r]) => r.fee !== FEE || r.fee_due !== 0);
  if (unpaid.length) {
    problems.push(
      `${unpaid.length} accepted send(s) not paid ${FEE} at once (payout_on 'accepted'): ${unpaid
        .slice(0, SAMPLE)
        .map(([id, r]) => `${r.target} (${id}) fee ${r.fee} due ${r.fee_due} status ${r.status}`)
        .join(' | ')}`,
    );
  }
  const devices = new Set(stack.devices);
  const strangers = lines.filter((l) => !devices.has(l.deviceId));
  if (strangers.length) problems.push(`sends by unknown devices: ${strangers.slice(0, SAMPLE).map(show).join(' | ')}`);

  if (opts.final) problems.push(...(await awaitFinishes(stack)));
  problems.push(...(await snapshotChecks(stack, opts.allowedUnknown, checkedAt, opts.final ?? false)));
  return problems;
}

/** How long the final books wait for the campaign supervisor (it looks every 5 s) to finish a campaign. */
const FINISH_WITHIN_MS = 30_000;

/** A campaign's row beside what its logs and claims say, read in the books' snapshot. */
interface CampaignBooks extends Record<string, unknown> {
  id: number;
  name: string;
  status: string;
  stop_reason: string | null;
  reserved: number;
  sent: number;
  failed: number;
  unknown: number;
  delivered: number;
  read: number;
  spent: number;
  price: number;
  cap: number | null;
  claims: number;
  targets_left: number;
  log_sent: number;
  log_failed: number;
  log_unknown: number;
  log_delivered: number;
  log_read: number;
}

/**
 * Every campaign's counters beside a recount of its logs and its claims (`cap` as the issue states
 * it: the message budget, and what the rupiah budget buys at the price; the smaller of the two).
 */
const CAMPAIGN_BOOKS = `
  select c.id, c.name, c.status, c.stop_reason, c.reserved, c.sent, c.failed, c.unknown, c.delivered, c.read,
         c.spent::float8 as spent, c.price_per_delivered as price,
         (case when c.budget_amount is not null and c.price_per_delivered > 0
                 then least(coalesce(c.budget_messages::bigint, c.budget_amount / c.price_per_delivered),
                            c.budget_amount / c.price_per_delivered)
               else c.budget_messages end)::int as cap,
         (select count(*)::int from phone_numbers p where p.campaign_id = c.id and p.in_use <> 0) as claims,
         (select count(*)::int from phone_numbers p
          where p.campaign_id = c.id and p.status = 'active' and p.last_sent is null) as targets_left,
         count(m.id) filter (where m.status in ('sent', 'delivered', 'read'))::int as log_sent,
         count(m.id) filter (where m.status = 'failed')::int as log_failed,
         count(m.id) filter (where m.status = 'unknown')::int as log_unknown,
         count(m.id) filter (where m.status in ('delivered', 'read'))::int as log_delivered,
         count(m.id) filter (where m.status = 'read')::int as log_read
  from campaigns c left join message_logs m on m.campaign_id = c.id
  group by c.id order by c.id`;

/** What a campaign's row says it should have become by now: finished for its budget, or completed. */
function dueFinish(c: CampaignBooks): 'budget' | 'completed' | null {
  if (c.cap !== null && c.reserved >= c.cap && c.claims === 0) return 'budget';
  if (c.targets_left === 0 && c.log_sent + c.log_failed + c.log_unknown > 0) return 'completed';
  return null;
}

/** Whether a campaign's figures differ from its logs (the supervisor counts them every 5 s). */
const figuresOff = (c: CampaignBooks) =>
  c.sent !== c.log_sent ||
  c.failed !== c.log_failed ||
  c.unknown !== c.log_unknown ||
  c.delivered !== c.log_delivered ||
  c.read !== c.log_read ||
  c.spent !== c.log_delivered * c.price;

/** A campaign's logs: every claim it gave out and did not take back is one (or is still held). */
const logsOf = (c: CampaignBooks) => c.log_sent + c.log_failed + c.log_unknown;

/**
 * After every blast stopped: the campaign supervisor (every 5 s, on each worker) finishes a campaign
 * whose budget is used ('budget') or whose targets were all messaged ('completed'), nothing of it in
 * flight. Waits a bounded while for it; what is still not finished is one problem. A seeded
 * campaign with a budget must have reached it over the run (the seeding sized it so).
 */
async function awaitFinishes(stack: FaultStack): Promise<string[]> {
  let last: CampaignBooks[] = [];
  const pending = () =>
    last.filter((c) => {
      const seeded = stack.campaigns.find((s) => s.id === c.id);
      // finished when due, and its figures counted from the log (the supervisor's next look)
      return ((seeded?.cap != null || dueFinish(c) !== null) && c.status !== 'finished') || figuresOff(c);
    });
  await waitFor(
    async () => {
      last = (await stack.pool.query<CampaignBooks>(CAMPAIGN_BOOKS)).rows;
      return pending().length === 0;
    },
    FINISH_WITHIN_MS,
    () => '',
    1000,
  ).catch(() => {});
  const late = pending();
  return late.length
    ? [
        `campaign(s) not finished, or not counted, ${FINISH_WITHIN_MS / 1000} s after every blast stopped: ${late
          .map(
            (c) =>
              `${c.name} (#${c.id}) ${c.status}, due ${dueFinish(c) ?? 'nothing'}: cap ${c.cap}, reserved ${c.reserved}, sent ${c.sent}, failed ${c.failed}, unknown ${c.unknown}, claims ${c.claims}, targets left ${c.targets_left}`,
          )
          .join(' | ')}`,
      ]
    : [];
}

/**
 * The campaigns' books in the snapshot (issue 22):
 * - reserved = claims held + the campaign's logs (a claim becomes a log in the statement that
 *   gives it back, a claim given back unsent returns its share), in every snapshot;
 * - no campaign has logged past its cap, nor reserved past it;
 * - every campaign log names a variant of its own campaign (an unknown one settled after a worker
 *   died may name none), belongs to a target of that campaign, and no pool log names a variant;
 * - `final` (every blast stopped, the supervisor's count caught up): no claim left; each
 *   campaign's sent / failed / unknown / delivered / read equal its logs and spent = delivered ×
 *   price (the supervisor counts them from the log every 5 s, so only here); each budgeted seeded
 *   campaign finished 'budget' exactly at its cap; a campaign due to finish did, for its reason.
 */
async function campaignChecks(
  q: <T extends Record<string, unknown>>(text: string, params?: unknown[]) => Promise<T[]>,
  seeded: readonly SeededCampaign[],
  final: boolean,
): Promise<string[]> {
  const problems: string[] = [];
  const books = await q<CampaignBooks>(CAMPAIGN_BOOKS);
  const figures = (c: CampaignBooks) =>
    `${c.name} (#${c.id}, ${c.status}${c.stop_reason ? `/${c.stop_reason}` : ''}): cap ${c.cap}, reserved ${c.reserved}, claims ${c.claims}, sent ${c.sent}/${c.log_sent} logs, failed ${c.failed}/${c.log_failed}, unknown ${c.unknown}/${c.log_unknown}, delivered ${c.delivered}/${c.log_delivered}, read ${c.read}/${c.log_read}, spent ${c.spent}`;

  const missingSeeded = seeded.filter((s) => !books.some((c) => c.id === s.id));
  if (missingSeeded.length) problems.push(`seeded campaign(s) gone: ${missingSeeded.map((s) => s.name).join(', ')}`);

  const offReserved = books.filter((c) => c.reserved !== c.claims + logsOf(c));
  if (offReserved.length) {
    problems.push(
      `campaign reserved ≠ claims held + its logs: ${offReserved.map((c) => `${figures(c)} → expected ${c.claims + logsOf(c)}`).join(' | ')}`,
    );
  }
  const overCap = books.filter((c) => c.cap !== null && (logsOf(c) > c.cap || c.reserved > c.cap));
  if (overCap.length) problems.push(`campaign(s) past their cap: ${overCap.map(figures).join(' | ')}`);

  const badVariant = await q<{
    id: number;
    target: string;
    status: string;
    campaign_id: number | null;
    variant_id: number | null;
    variant_campaign: number | null;
    target_campaign: number | null;
  }>(
    `select m.id, m.target, m.status, m.campaign_id, m.variant_id, t.campaign_id as variant_campaign,
            p.campaign_id as target_campaign
     from message_logs m
     left join message_templates t on t.id = m.variant_id
     left join phone_numbers p on p.id = m.phone_number_id
     where (m.campaign_id is not null and m.status <> 'unknown'
            and (m.variant_id is null or t.campaign_id is distinct from m.campaign_id))
        or (m.campaign_id is not null and m.status = 'unknown' and m.variant_id is not null
            and t.campaign_id is distinct from m.campaign_id)
        or (m.campaign_id is null and m.variant_id is not null)
        or (m.phone_number_id is not null and p.campaign_id is distinct from m.campaign_id)
     order by m.id limit ${SAMPLE}`,
  );
  if (badVariant.length) {
    problems.push(
      `message logs whose campaign, variant or target disagree: ${badVariant
        .map(
          (b) =>
            `log ${b.id} ${b.target} ${b.status}: campaign ${b.campaign_id}, variant ${b.variant_id} (of campaign ${b.variant_campaign}), target of campaign ${b.target_campaign}`,
        )
        .join(' | ')}`,
    );
  }
  const dupInCampaign = await q<{ campaign_id: number; target: string; n: number }>(
    `select campaign_id, target, count(*)::int as n from message_logs where campaign_id is not null
     group by 1, 2 having count(*) > 1 order by 1, 2 limit ${SAMPLE}`,
  );
  if (dupInCampaign.length) {
    problems.push(
      `numbers logged more than once within a campaign: ${dupInCampaign.map((d) => `#${d.campaign_id} ${d.target} ×${d.n}`).join(' | ')}`,
    );
  }

  if (final) {
    const held = books.filter((c) => c.claims > 0);
    if (held.length) {
      problems.push(`campaign claims still held after every blast stopped: ${held.map(figures).join(' | ')}`);
    }
    const offCounters = books.filter(figuresOff);
    if (offCounters.length) {
      problems.push(
        `campaign figures differ from their logs (figure/logs; spent should be delivered × price): ${offCounters.map(figures).join(' | ')}`,
      );
    }
    for (const s of seeded) {
      const c = books.find((b) => b.id === s.id);
      if (!c || s.cap === null) continue;
      if (c.status !== 'finished' || c.stop_reason !== 'budget' || logsOf(c) !== s.cap || c.reserved !== s.cap) {
        problems.push(
          `the budgeted campaign did not finish 'budget' exactly at its cap of ${s.cap} (logs = reserved = cap): ${figures(c)}`,
        );
      }
    }
    const wrongFinish = books.filter((c) => {
      const due = dueFinish(c);
      return (
        (c.status === 'finished' && c.stop_reason !== due) ||
        (c.status !== 'finished' && due !== null && c.status === 'active')
      );
    });
    if (wrongFinish.length) {
      problems.push(
        `campaign(s) not finished for the reason their figures give (budget: cap reserved; completed: every target messaged): ${wrongFinish
          .map((c) => `${figures(c)}, targets left ${c.targets_left}, due ${dueFinish(c) ?? 'nothing'}`)
          .join(' | ')}`,
      );
    }
  }
  return problems;
}

/** The checks of the database against itself, in one repeatable-read snapshot (the blasts keep writing). */
async function snapshotChecks(
  stack: FaultStack,
  allowedUnknown: ReadonlySet<number>,
  checkedAt: number,
  final: boolean,
): Promise<string[]> {
  const problems: string[] = [];
  const client = await stack.pool.connect();
  try {
    await client.query('begin isolation level repeatable read read only');
    const q = async <T extends Record<string, unknown>>(text: string, params: unknown[] = []) =>
      (await client.query<T>(text, params)).rows;

    const dupPhones = await q<{ phone_number_id: number; n: number; statuses: string[] }>(
      `select phone_number_id, count(*)::int as n, array_agg(status order by id) as statuses from message_logs
       where phone_number_id is not null group by 1 having count(*) > 1 order by 1 limit ${SAMPLE}`,
    );
    if (dupPhones.length) {
      problems.push(
        `phone_number_id logged more than once in message_logs: ${dupPhones
          .map((d) => `${d.phone_number_id} ×${d.n} (${d.statuses.join(',')})`)
          .join(' | ')}`,
      );
    }
    const dupTargets = await q<{ target: string; n: number }>(
      `select target, count(*)::int as n from message_logs group by 1 having count(*) > 1 order by 1 limit ${SAMPLE}`,
    );
    if (dupTargets.length) {
      problems.push(`targets logged more than once: ${dupTargets.map((d) => `${d.target} ×${d.n}`).join(' | ')}`);
    }
    const unknown = await q<{ id: number; target: string; clientid: string | null; error: string | null }>(
      `select m.id, m.target, w.clientid, m.error from message_logs m left join whatsapp_accounts w on w.id = m.whatsapp_id
       where m.status = 'unknown' order by m.id`,
    );
    const stray = unknown.filter((u) => !allowedUnknown.has(u.id));
    if (stray.length) {
      problems.push(
        `${stray.length} message(s) settled 'unknown' (allowed only for a worker SIGKILLed between send and write): ${stray
          .slice(0, SAMPLE)
          .map((u) => `${u.target} on ${u.clientid}: ${u.error}`)
          .join(' | ')}`,
      );
    }
    const pending = await q<{ id: number; target: string; created_at: Date }>(
      final
        ? `select id, target, created_at from message_logs where status = 'pending' order by id limit ${SAMPLE}`
        : `select id, target, created_at from message_logs where status = 'pending'
           and created_at < to_timestamp($1::double precision / 1000) - interval '20 seconds' order by id limit ${SAMPLE}`,
      final ? [] : [checkedAt],
    );
    if (pending.length) {
      problems.push(
        `message logs left pending: ${pending.map((p) => `${p.target} since ${p.created_at.toISOString()}`).join(' | ')}`,
      );
    }
    const misfee = await q<{ n: number; sample: string }>(
      `select count(*)::int as n, string_agg(target || ' ' || status || ' fee ' || fee || ' due ' || fee_due, ' | ') as sample
       from (select * from message_logs where (status in ('sent', 'delivered', 'read') and (fee <> $1 or fee_due <> 0))
                or (status not in ('sent', 'delivered', 'read', 'pending') and (fee <> 0 or fee_due <> 0))
             order by id limit 1000) x`,
      [FEE],
    );
    if (misfee[0] && misfee[0].n > 0) {
      problems.push(
        `${misfee[0].n} log(s) with a fee that does not match their status: ${misfee[0].sample.slice(0, 600)}`,
      );
    }
    const unlogged = await q<{ number: string; last_sent: Date }>(
      `select p.number, p.last_sent from phone_numbers p
       where p.last_sent is not null and not exists (select 1 from message_logs m where m.phone_number_id = p.id)
       order by p.id limit ${SAMPLE}`,
    );
    if (unlogged.length) {
      problems.push(`targets marked sent with no log (lost): ${unlogged.map((u) => u.number).join(', ')}`);
    }
    const counters = await q<{
      clientid: string;
      count_success: number;
      success: number;
      income: number;
      fees: number;
    }>(
      `select w.clientid, w.count_success, w.income::bigint::float8 as income,
              count(m.id) filter (where m.status in ('sent', 'delivered', 'read'))::int as success,
              coalesce(sum(m.fee), 0)::float8 as fees
       from whatsapp_accounts w left join message_logs m on m.whatsapp_id = w.id
       group by w.id having w.count_success <> count(m.id) filter (where m.status in ('sent', 'delivered', 'read'))
                        or w.income <> coalesce(sum(m.fee), 0)`,
    );
    if (counters.length) {
      problems.push(
        `account counters or income differ from the log: ${counters
          .map(
            (c) => `${c.clientid}: count_success ${c.count_success} vs ${c.success}, income ${c.income} vs ${c.fees}`,
          )
          .join(' | ')}`,
      );
    }
    problems.push(...(await campaignChecks(q, stack.campaigns, final)));
    if (final) {
      const claimed = await q<{ number: string; claimed_by: number | null }>(
        `select number, claimed_by from phone_numbers where in_use <> 0 order by id limit ${SAMPLE}`,
      );
      if (claimed.length) {
        problems.push(
          `targets still claimed after every blast stopped: ${claimed.map((c) => `${c.number} by ${c.claimed_by}`).join(', ')}`,
        );
      }
    }
    await client.query('commit');
  } catch (err) {
    await client.query('rollback').catch(() => {});
    throw err;
  } finally {
    client.release();
  }
  problems.push(...(await ledgerCheck(stack)));
  return problems;
}

/** account_daily = a recount of the log, both read in one snapshot; the hour rows and the folded tables = their recount. */
async function ledgerCheck(stack: FaultStack): Promise<string[]> {
  const { stored, recount } = await stack.database.db.transaction(
    async (tx) => ({ stored: await storedDaily(tx), recount: await recountDaily(tx, DEFAULT_TIMEZONE) }),
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );
  const key = (r: DailyRow) => `${r.whatsapp_id}|${r.day}`;
  const recounted = new Map(recount.map((r) => [key(r), r]));
  const kept = new Map(stored.map((r) => [key(r), r]));
  const diffs: string[] = [];
  for (const k of new Set([...recounted.keys(), ...kept.keys()])) {
    const a = kept.get(k);
    const b = recounted.get(k);
    if (JSON.stringify(a) !== JSON.stringify(b))
      diffs.push(`stored ${JSON.stringify(a)} vs recount ${JSON.stringify(b)}`);
  }
  const rollups = await rollupDifferences(stack.database.db, DEFAULT_TIMEZONE);
  return [
    ...(diffs.length
      ? [`ledger (account_daily) differs from a recount of the log: ${diffs.slice(0, 4).join(' | ')}`]
      : []),
    ...(rollups.length ? [`rollups differ from a recount (issue 23): ${rollups.slice(0, 4).join(' | ')}`] : []),
  ];
}
