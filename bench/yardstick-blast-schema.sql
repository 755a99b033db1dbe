-- pgbench script: the minimal one-transaction design of a blast message (bench/yardstick-blast.sql)
-- on the product's own tables, indexes, foreign keys and triggers (a database migrated with
-- core/src/db/migrations): claim the next pool target with SKIP LOCKED and mark it sent, log the
-- message, count it on the account, and upsert the account's day row, hour row and template use,
-- as workers/src/engine/outcome.repo.ts (outcomesSql) writes them for a sent message. Each pgbench
-- client is its own account, so no two clients ever write the same account, day, hour or use row.
-- Set by the bench (-D): first_account (the first of the clients' consecutive account ids), uid
-- (the member holding them), tpl (the template), fee. The time zone is APP_TIMEZONE's default
-- (DEFAULT_TIMEZONE in core/src/config.ts).
\set acc :first_account + :client_id
BEGIN;
WITH t AS (
  SELECT id FROM phone_numbers
  WHERE campaign_id IS NULL AND status = 'active' AND last_sent IS NULL AND in_use = 0
  ORDER BY campaign_id, id LIMIT 1 FOR UPDATE SKIP LOCKED
)
UPDATE phone_numbers p SET last_sent = now(), count_success = p.count_success + 1
FROM t WHERE p.id = t.id
RETURNING p.id AS tid, p.number AS tnum \gset
-- numbers are digits, so `:tnum::text` reads the same whether pgbench substitutes it into the text
-- (simple protocol) or sends it as a parameter (prepared)
INSERT INTO message_logs (user_id, whatsapp_id, phone_number_id, template_id, target, status, fee, text,
  wa_message_id, sent_at)
VALUES (:uid, :acc, :tid, :tpl, :tnum::text, 'sent', :fee, 'Halo ' || :tnum::text, 'yard-' || :tid::text, now());
UPDATE whatsapp_accounts
SET count_success = count_success + 1, income = income + :fee, fail_streak = 0,
    sent_today = CASE WHEN sent_day_end > now() THEN sent_today + 1 ELSE 1 END,
    sent_day_end = (date_trunc('day', now() AT TIME ZONE 'Asia/Jakarta') + interval '1 day') AT TIME ZONE 'Asia/Jakarta',
    updated_at = now()
WHERE id = :acc;
INSERT INTO account_daily AS d (whatsapp_id, day, user_id, sent, income)
VALUES (:acc, (now() AT TIME ZONE 'Asia/Jakarta')::date, :uid, 1, :fee)
ON CONFLICT (whatsapp_id, day) DO UPDATE SET sent = d.sent + excluded.sent, income = d.income + excluded.income;
INSERT INTO account_hourly AS h (whatsapp_id, hour, user_id, sent)
VALUES (:acc, date_trunc('hour', now(), 'Asia/Jakarta'), :uid, 1)
ON CONFLICT (whatsapp_id, hour) DO UPDATE SET sent = h.sent + excluded.sent;
INSERT INTO template_uses AS u (template_id, whatsapp_id, uses) VALUES (:tpl, :acc, 1)
ON CONFLICT (template_id, whatsapp_id) DO UPDATE SET uses = u.uses + 1;
END;
