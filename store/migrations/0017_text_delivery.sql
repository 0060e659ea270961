-- 0017_text_delivery: what becomes of a text after it leaves
-- (docs/behaviour.md, "Texts and emails"). The outbox row learns the
-- provider's id of its message and the furthest status reported
-- (delivery_rank orders them, so a late report never moves it back);
-- message_statuses keeps each (message, status) once; text_opt_outs the
-- numbers that asked a sender to stop, by blind index, never in clear.
ALTER TABLE outbox ADD COLUMN invite_id TEXT NOT NULL DEFAULT '';
ALTER TABLE outbox ADD COLUMN provider_ref TEXT NOT NULL DEFAULT '';
ALTER TABLE outbox ADD COLUMN delivery TEXT NOT NULL DEFAULT '';
ALTER TABLE outbox ADD COLUMN delivery_rank INTEGER NOT NULL DEFAULT 0;
ALTER TABLE outbox ADD COLUMN delivery_error INTEGER NOT NULL DEFAULT 0;
ALTER TABLE outbox ADD COLUMN delivery_at BIGINT NOT NULL DEFAULT 0;
CREATE INDEX outbox_provider_ref ON outbox (provider_ref);
CREATE INDEX outbox_invite ON outbox (invite_id);

CREATE TABLE message_statuses (
	provider_ref TEXT NOT NULL,
	status       TEXT NOT NULL,
	error_code   INTEGER NOT NULL DEFAULT 0,
	received_at  BIGINT NOT NULL,
	PRIMARY KEY (provider_ref, status)
);

CREATE TABLE text_opt_outs (
	sender      TEXT NOT NULL,
	phone_index TEXT NOT NULL,
	since       BIGINT NOT NULL,
	source      TEXT NOT NULL,
	PRIMARY KEY (sender, phone_index)
);
