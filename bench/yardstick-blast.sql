-- pgbench script: the minimal one-transaction design of a blast message (issue 11's yardstick):
-- claim the next target with SKIP LOCKED, log the message, mark the target, count on the account.
\set aid random(1, 20)
BEGIN;
WITH t AS (SELECT id FROM yard_targets WHERE NOT sent ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED)
UPDATE yard_targets p SET sent = true FROM t WHERE p.id = t.id;
INSERT INTO yard_logs (account, target, status) VALUES (:aid, 1, 'sent');
UPDATE yard_accounts SET sent = sent + 1 WHERE id = :aid;
END;
