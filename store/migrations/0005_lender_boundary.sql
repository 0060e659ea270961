-- 0005_lender_boundary: what the network boundary to lenders needs
-- (docs/lender-protocol.md, "Webhooks"): the webhook events already
-- applied, the pending applications the reconciler polls, the leases that
-- let one server at a time run a background loop, and the look-up of a
-- provider application by the lender's id.

-- One row per webhook event applied (or refused as unknown); its primary
-- key is what makes a repeated delivery change nothing.
CREATE TABLE lender_events (
	provider_key          TEXT NOT NULL,
	event_id              TEXT NOT NULL,
	event_type            TEXT NOT NULL,
	lender_application_id TEXT NOT NULL DEFAULT '',
	result                TEXT NOT NULL,
	received_at           BIGINT NOT NULL,
	PRIMARY KEY (provider_key, event_id)
);
CREATE INDEX lender_events_received_at ON lender_events (received_at);

-- A provider application whose latest decision is pending has a row here,
-- kept by the store as decisions are written; next_poll_at is also the
-- claim: a server takes a row by moving it forward with a conditional
-- update, so one server at a time polls it.
CREATE TABLE pending_polls (
	provider_application_id TEXT PRIMARY KEY REFERENCES provider_applications (id),
	next_poll_at            BIGINT NOT NULL,
	polls                   INTEGER NOT NULL DEFAULT 0,
	since                   BIGINT NOT NULL
);
CREATE INDEX pending_polls_due ON pending_polls (next_poll_at);

-- A named background loop's lease: the server holding it runs the loop
-- until until_at, and renews it while it does.
CREATE TABLE leases (
	name     TEXT PRIMARY KEY,
	holder   TEXT NOT NULL,
	until_at BIGINT NOT NULL
);

CREATE INDEX provider_applications_lender_id ON provider_applications (lender_application_id);
