-- 0004_office_invites: invitations made from the office screen (flow tokens
-- with an id, their author and a cancel time), the outbox of texts and
-- emails that carry them, and the indexes behind the office's day list
-- (docs/behaviour.md, "The office side").

ALTER TABLE flow_tokens ADD COLUMN id TEXT NOT NULL DEFAULT '';
ALTER TABLE flow_tokens ADD COLUMN staff_id TEXT NOT NULL DEFAULT '';
ALTER TABLE flow_tokens ADD COLUMN canceled_at BIGINT;
CREATE INDEX flow_tokens_id ON flow_tokens (id);
CREATE INDEX flow_tokens_location_created ON flow_tokens (location_id, created_at);
CREATE INDEX sessions_location_created ON sessions (location_id, created_at);

-- The recipient and the body are sealed together (body_sealed), and blanked once the message is sent or
-- given up: the body holds a one-time link.
CREATE TABLE outbox (
	id               TEXT PRIMARY KEY,
	location_id      TEXT NOT NULL,
	channel          TEXT NOT NULL,
	recipient_masked TEXT NOT NULL,
	body_sealed      TEXT NOT NULL DEFAULT '',
	state            TEXT NOT NULL,
	attempts         INTEGER NOT NULL DEFAULT 0,
	next_attempt_at  BIGINT NOT NULL,
	last_error       TEXT NOT NULL DEFAULT '',
	created_at       BIGINT NOT NULL,
	sent_at          BIGINT
);
CREATE INDEX outbox_due ON outbox (state, next_attempt_at);
