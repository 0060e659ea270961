-- 0001_init: the first schema. One file for SQLite and PostgreSQL alike, so
-- it uses only portable SQL: TEXT ids made in Go, BIGINT unix-millisecond
-- timestamps, BIGINT cents, INTEGER 0/1 booleans, TEXT JSON, and TEXT for
-- sealed (encrypted) personal data. There is deliberately no column for card
-- numbers or CVV anywhere.

CREATE TABLE locations (
	id         TEXT PRIMARY KEY,
	entity_key TEXT NOT NULL UNIQUE,
	name       TEXT NOT NULL,
	state      TEXT NOT NULL,
	group_id   TEXT NOT NULL,
	brand_name TEXT NOT NULL DEFAULT '',
	brand_logo TEXT NOT NULL DEFAULT '',
	waterfall  TEXT NOT NULL,          -- JSON array of WaterfallStep
	created_at BIGINT NOT NULL
);

-- Only the SHA-256 of a flow token is stored. The optional patient name is
-- personal data and is sealed (name_sealed, '' when there is none).
CREATE TABLE flow_tokens (
	hash                     TEXT PRIMARY KEY,
	location_id              TEXT NOT NULL REFERENCES locations (id),
	purchase_amount_cents    BIGINT NOT NULL,
	insurance_benefits_cents BIGINT NOT NULL,
	name_sealed              TEXT NOT NULL DEFAULT '',
	experience_type          TEXT NOT NULL,
	expires_at               BIGINT NOT NULL,
	used_at                  BIGINT,
	created_at               BIGINT NOT NULL
);

-- id is the SHA-256 of the browser's webSessionId, never the id itself.
CREATE TABLE sessions (
	id                    TEXT PRIMARY KEY,
	location_id           TEXT NOT NULL REFERENCES locations (id),
	application_id        TEXT NOT NULL DEFAULT '',
	env                   TEXT NOT NULL,
	group_id              TEXT NOT NULL,
	experience_type       TEXT NOT NULL,
	flow_type             TEXT NOT NULL,
	warn_countdown_millis BIGINT NOT NULL,
	timeout_after_millis  BIGINT NOT NULL,
	dynamic_provider_key  TEXT NOT NULL,
	created_at            BIGINT NOT NULL,
	last_seen_at          BIGINT NOT NULL,
	finished_at           BIGINT,
	outcome               TEXT NOT NULL DEFAULT ''
);
CREATE INDEX sessions_finished_at ON sessions (finished_at);
CREATE INDEX sessions_created_at ON sessions (created_at);

-- Applicants are sealed as whole JSON documents; ssn_index is the HMAC blind
-- index of the primary SSN. purged_at is set when the retention purge blanks
-- the sealed columns.
CREATE TABLE applications (
	id                       TEXT PRIMARY KEY,
	session_id               TEXT NOT NULL,
	location_id              TEXT NOT NULL,
	purchase_amount_cents    BIGINT NOT NULL,
	insurance_benefits_cents BIGINT NOT NULL,
	external_customer_id     TEXT NOT NULL DEFAULT '',
	joint_enabled            INTEGER NOT NULL DEFAULT 0,
	test_case                TEXT NOT NULL DEFAULT '',
	ssn_index                TEXT NOT NULL DEFAULT '',
	primary_sealed           TEXT NOT NULL DEFAULT '',
	joint_sealed             TEXT NOT NULL DEFAULT '',
	created_at               BIGINT NOT NULL,
	updated_at               BIGINT NOT NULL,
	purged_at                BIGINT
);
CREATE INDEX applications_session_id ON applications (session_id);
CREATE INDEX applications_ssn_index ON applications (ssn_index);

CREATE TABLE provider_applications (
	id                    TEXT PRIMARY KEY,
	application_id        TEXT NOT NULL REFERENCES applications (id),
	provider_key          TEXT NOT NULL,
	role                  TEXT NOT NULL DEFAULT '',
	apply_mode            TEXT NOT NULL DEFAULT '',
	status                TEXT NOT NULL,
	lender_application_id TEXT NOT NULL DEFAULT '',
	selected_plan_code    TEXT NOT NULL DEFAULT '',
	version               BIGINT NOT NULL,
	created_at            BIGINT NOT NULL,
	updated_at            BIGINT NOT NULL,
	UNIQUE (application_id, provider_key)
);

-- Append-only. seq orders rows created in the same millisecond.
CREATE TABLE decisions (
	id                      TEXT PRIMARY KEY,
	provider_application_id TEXT NOT NULL REFERENCES provider_applications (id),
	provider_key            TEXT NOT NULL,
	operation               TEXT NOT NULL,
	response_code           TEXT NOT NULL,
	approved_amount_cents   BIGINT NOT NULL DEFAULT 0,
	stipulations            TEXT NOT NULL DEFAULT 'null', -- JSON
	pending_reasons         TEXT NOT NULL DEFAULT 'null', -- JSON
	down_payment_required   INTEGER NOT NULL DEFAULT 0,
	down_payment_cents      BIGINT NOT NULL DEFAULT 0,
	existing_account        INTEGER NOT NULL DEFAULT 0,
	lender_application_id   TEXT NOT NULL DEFAULT '',
	offered_provider_id     TEXT NOT NULL DEFAULT '',
	expires_at              BIGINT,
	created_at              BIGINT NOT NULL,
	seq                     BIGINT NOT NULL
);
CREATE INDEX decisions_provider_application ON decisions (provider_application_id, created_at, seq);
CREATE INDEX decisions_created_at ON decisions (created_at);

-- Replaced as a set per provider application; plan_order keeps the lender's order.
CREATE TABLE payment_plans (
	provider_application_id TEXT NOT NULL REFERENCES provider_applications (id),
	plan_order              INTEGER NOT NULL,
	provider_key            TEXT NOT NULL,
	type_id                 TEXT NOT NULL,
	provider_plan_code      TEXT NOT NULL,
	duration_months         INTEGER NOT NULL,
	monthly_amount_cents    BIGINT NOT NULL,
	total_cost_cents        BIGINT NOT NULL,
	apr                     DOUBLE PRECISION NOT NULL,
	promo_apr               DOUBLE PRECISION NOT NULL,
	description             TEXT NOT NULL DEFAULT '',
	expire_at               BIGINT NOT NULL,
	min_amount_cents        BIGINT NOT NULL,
	max_amount_cents        BIGINT NOT NULL,
	amount_financed_cents   BIGINT NOT NULL,
	down_payment_cents      BIGINT NOT NULL,
	product_type            TEXT NOT NULL DEFAULT '',
	sub_lender_id           TEXT NOT NULL DEFAULT '',
	PRIMARY KEY (provider_application_id, plan_order)
);

-- Append-only, and kept through the purge: the proof of what was agreed.
-- The signature PNG is stored as base64 text, portable across engines.
CREATE TABLE consents (
	id                 TEXT PRIMARY KEY,
	session_id         TEXT NOT NULL,
	application_id     TEXT NOT NULL,
	provider_key       TEXT NOT NULL DEFAULT '',
	kind               TEXT NOT NULL,
	document_id        TEXT NOT NULL DEFAULT '',
	document_version   TEXT NOT NULL DEFAULT '',
	document_sha256    TEXT NOT NULL DEFAULT '',
	consent_text       TEXT NOT NULL DEFAULT '',
	provider_plan_code TEXT NOT NULL DEFAULT '',
	shown_at           BIGINT NOT NULL,
	consented_at       BIGINT NOT NULL,
	signed_at          BIGINT,
	ip                 TEXT NOT NULL DEFAULT '',
	user_agent         TEXT NOT NULL DEFAULT '',
	signature_png      TEXT NOT NULL DEFAULT '',
	seq                BIGINT NOT NULL
);
CREATE INDEX consents_application ON consents (application_id, consented_at, seq);

-- Append-only audit log; data is JSON without personal data.
CREATE TABLE events (
	id             TEXT PRIMARY KEY,
	session_id     TEXT NOT NULL DEFAULT '',
	application_id TEXT NOT NULL DEFAULT '',
	provider_key   TEXT NOT NULL DEFAULT '',
	type           TEXT NOT NULL,
	data           TEXT NOT NULL DEFAULT 'null',
	created_at     BIGINT NOT NULL,
	seq            BIGINT NOT NULL
);
CREATE INDEX events_session ON events (session_id, created_at, seq);

-- A hash of the request and the already-masked answer, never the raw body.
CREATE TABLE idempotency_keys (
	key          TEXT PRIMARY KEY,
	request_hash TEXT NOT NULL,
	done         INTEGER NOT NULL DEFAULT 0,
	status       INTEGER NOT NULL DEFAULT 0,
	body         TEXT NOT NULL DEFAULT '', -- base64
	created_at   BIGINT NOT NULL,
	expires_at   BIGINT NOT NULL
);
CREATE INDEX idempotency_keys_expires_at ON idempotency_keys (expires_at);
