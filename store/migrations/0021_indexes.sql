-- 0021_indexes: indexes to fit what the queries read.
--
-- Two indexes no query reads are dropped. Every lender step's claim wrote
-- an entry into lender_calls_session (a random key, so a page of its own
-- in each group commit) and every decision one into decisions_created_at;
-- lender calls are found by their lender application and step or by their
-- reference, decisions by their lender application (docs/performance.md,
-- "Indexes no query reads").
DROP INDEX IF EXISTS lender_calls_session;
DROP INDEX IF EXISTS decisions_created_at;

-- Indexes the background work needed, which read whole tables: the
-- outbox's counts by day (OutboxStats, for /metrics), the purge of sealed
-- names and message bodies past their keeping (store/purge.go), and the
-- money alerts counted every minute (ListMoneyAlerts: refunds refused and
-- deposits since a day). All but the first are partial: the purge's hold
-- only what is still to purge, the alerts' only their kind of entry, so a
-- journey's own money entries write none of them.
CREATE INDEX outbox_created ON outbox (created_at);
CREATE INDEX outbox_sealed_created ON outbox (created_at) WHERE body_sealed <> '';
CREATE INDEX flow_tokens_sealed_expires ON flow_tokens (expires_at) WHERE name_sealed <> '';
CREATE INDEX money_entries_refused_on ON money_entries (on_at) WHERE kind = 'refund_refused';
CREATE INDEX money_entries_deposited_on ON money_entries (on_at) WHERE kind = 'deposited';
