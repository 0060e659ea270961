-- 0013_staff_passkeys: passkeys (WebAuthn credentials) of staff members,
-- a second factor or a sign-in of their own (docs/behaviour.md, "The office
-- side"), and the short-lived challenges of their ceremonies.

-- id is the credential id (base64url); credential the library's record of
-- it as JSON: the public key, its algorithm, the signature counter and
-- flags. Nothing in it is secret.
CREATE TABLE staff_passkeys (
	id           TEXT PRIMARY KEY,
	staff_id     TEXT NOT NULL REFERENCES staff (id),
	credential   TEXT NOT NULL,
	created_at   BIGINT NOT NULL,
	last_used_at BIGINT
);
CREATE INDEX staff_passkeys_staff ON staff_passkeys (staff_id);

-- One row per ceremony begun, by the SHA-256 of the id the browser holds,
-- taken (deleted) by the ceremony's end: a challenge answers once. kind is
-- register, check (the second factor) or sign_in; staff_id and
-- session_hash are '' for a sign-in, which has neither yet.
CREATE TABLE passkey_ceremonies (
	id_hash      TEXT PRIMARY KEY,
	kind         TEXT NOT NULL,
	staff_id     TEXT NOT NULL,
	session_hash TEXT NOT NULL,
	data         TEXT NOT NULL,
	expires_at   BIGINT NOT NULL
);
