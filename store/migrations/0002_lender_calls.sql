-- 0002_lender_calls: every lender step is claimed before the lender is
-- called, in a row unique by construction, and credit pulls are reserved
-- against their caps in the same transaction (docs/exactly-once.md).

-- The lender step being asked right now, '' when none: no other step may
-- start while it is set.
ALTER TABLE provider_applications ADD COLUMN in_flight_step TEXT NOT NULL DEFAULT '';

-- One row per lender step of a provider application: its claim, the
-- reference sent to the lender on every attempt, and the answer once
-- settled (masked JSON, never a request body).
CREATE TABLE lender_calls (
	provider_application_id TEXT NOT NULL REFERENCES provider_applications (id),
	step                    TEXT NOT NULL,
	session_id              TEXT NOT NULL,
	reference               TEXT NOT NULL,
	request_hash            TEXT NOT NULL,
	client_key              TEXT NOT NULL DEFAULT '',
	state                   TEXT NOT NULL,
	attempt                 INTEGER NOT NULL,
	claimed_at              BIGINT NOT NULL,
	lease_until             BIGINT NOT NULL,
	settled_at              BIGINT,
	response                TEXT NOT NULL DEFAULT '',
	PRIMARY KEY (provider_application_id, step)
);
CREATE UNIQUE INDEX lender_calls_reference ON lender_calls (reference);
CREATE INDEX lender_calls_session ON lender_calls (session_id);

-- Credit pulls taken per scope: a session, or an SSN's blind index on one
-- UTC day. A pull is reserved with one conditional upsert, so parallel
-- claims cannot pass a cap together.
CREATE TABLE pull_allowances (
	scope      TEXT PRIMARY KEY,
	pulls      INTEGER NOT NULL,
	created_at BIGINT NOT NULL
);
CREATE INDEX pull_allowances_created_at ON pull_allowances (created_at);

-- Replaced by lender_calls: a submit's claim is now its lender step's.
DROP TABLE idempotency_keys;
