-- 0003_staff: staff accounts of the offices, their sign-in sessions, one-time
-- setup links and the office audit log (docs/behaviour.md, "The office
-- side").

-- One row per staff member. password_hash is an encoded argon2id hash with
-- its parameters and salt ('' until a setup link is used).
CREATE TABLE staff (
	id              TEXT PRIMARY KEY,
	location_id     TEXT NOT NULL REFERENCES locations (id),
	email           TEXT NOT NULL UNIQUE,
	password_hash   TEXT NOT NULL DEFAULT '',
	failed_attempts INTEGER NOT NULL DEFAULT 0,
	locked_until    BIGINT,
	disabled_at     BIGINT,
	created_at      BIGINT NOT NULL
);
CREATE INDEX staff_location ON staff (location_id);

-- Sessions by the SHA-256 of their id; the CSRF token is kept hashed too.
CREATE TABLE staff_sessions (
	id_hash      TEXT PRIMARY KEY,
	staff_id     TEXT NOT NULL REFERENCES staff (id),
	csrf_hash    TEXT NOT NULL,
	created_at   BIGINT NOT NULL,
	last_seen_at BIGINT NOT NULL,
	expires_at   BIGINT NOT NULL,
	revoked_at   BIGINT
);
CREATE INDEX staff_sessions_staff ON staff_sessions (staff_id);

-- One-time links to choose a password, by the SHA-256 of their token.
CREATE TABLE staff_setup_tokens (
	hash       TEXT PRIMARY KEY,
	staff_id   TEXT NOT NULL REFERENCES staff (id),
	expires_at BIGINT NOT NULL,
	used_at    BIGINT,
	created_at BIGINT NOT NULL
);

-- Every office action. Append-only: the store has no UPDATE or DELETE for
-- it. Details never hold personal data.
CREATE TABLE office_audit (
	id          TEXT PRIMARY KEY,
	location_id TEXT NOT NULL,
	staff_id    TEXT NOT NULL,
	action      TEXT NOT NULL,
	ip          TEXT NOT NULL,
	details     TEXT NOT NULL,
	at          BIGINT NOT NULL
);
CREATE INDEX office_audit_location_at ON office_audit (location_id, at);
