-- 0014_money_line: what happens to a lender application's money after the
-- lender's approval (docs/behaviour.md, "After the signature").

-- One row per fact, added once and never changed: approved, signed,
-- completed, held, funded, deposited. The unique key keeps a fact heard
-- twice (a webhook and a poll, two servers) once. on_at is when the fact
-- happened; deposit_on when the deposit is sent or expected (0: none);
-- seq the order entries were added in.
CREATE TABLE money_entries (
	id                    TEXT PRIMARY KEY,
	lender_application_id TEXT NOT NULL REFERENCES provider_applications (id),
	kind                  TEXT NOT NULL,
	amount_cents          BIGINT NOT NULL,
	fee_cents             BIGINT NOT NULL DEFAULT 0,
	fee_rate_bp           INTEGER NOT NULL DEFAULT 0,
	net_cents             BIGINT NOT NULL DEFAULT 0,
	reference             TEXT NOT NULL,
	deposit_ref           TEXT NOT NULL DEFAULT '',
	deposit_on            BIGINT NOT NULL DEFAULT 0,
	on_at                 BIGINT NOT NULL,
	recorded_at           BIGINT NOT NULL,
	seq                   BIGINT NOT NULL,
	UNIQUE (lender_application_id, kind, reference)
);
CREATE INDEX money_entries_deposit ON money_entries (deposit_ref);
CREATE INDEX money_entries_deposit_on ON money_entries (deposit_on);

-- A completed lender application whose lender funds has a row here until
-- its money is deposited; next_poll_at is also the claim, as in
-- pending_polls. expected_at is when the lender last said it would fund
-- (0 until it said), for the late-funding alert.
CREATE TABLE funding_polls (
	lender_application_id TEXT PRIMARY KEY REFERENCES provider_applications (id),
	next_poll_at          BIGINT NOT NULL,
	polls                 INTEGER NOT NULL DEFAULT 0,
	since                 BIGINT NOT NULL,
	expected_at           BIGINT NOT NULL DEFAULT 0
);
CREATE INDEX funding_polls_due ON funding_polls (next_poll_at);

-- Cases completed before the money line existed get their completed
-- entry, from the answered complete step and the plan chosen, so that
-- every completed case has one (store/audit.go).
INSERT INTO money_entries (id, lender_application_id, kind, amount_cents, reference, on_at, recorded_at, seq)
SELECT 'completed-' || pa.id, pa.id, 'completed',
	COALESCE((SELECT pp.amount_financed_cents FROM payment_plans pp
		WHERE pp.provider_application_id = pa.id AND pp.provider_plan_code = pa.selected_plan_code), 0),
	c.reference, COALESCE(c.settled_at, c.claimed_at), COALESCE(c.settled_at, c.claimed_at), COALESCE(c.settled_at, c.claimed_at) * 1000000
FROM provider_applications pa
JOIN lender_calls c ON c.provider_application_id = pa.id AND c.step = 'complete' AND c.state = 'done'
WHERE pa.status = 'completed';
