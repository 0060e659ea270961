-- 0012_staff_roles_second_factor: what a staff member may do (their role),
-- their second factor (docs/behaviour.md, "The office side"), and which
-- office a session works in.

-- role: front_desk, manager or group_admin. Accounts made before roles
-- existed were each office's only kind, made from the command line: they
-- become managers. totp_secret is the sealed TOTP key ('' when none);
-- totp_confirmed_at is set once a code from it was typed back, and only
-- then is it asked at sign-in. totp_last_step is the last 30-second step
-- a code was accepted for: a code is good once.
ALTER TABLE staff ADD COLUMN role TEXT NOT NULL DEFAULT 'manager';
ALTER TABLE staff ADD COLUMN totp_secret TEXT NOT NULL DEFAULT '';
ALTER TABLE staff ADD COLUMN totp_confirmed_at BIGINT;
ALTER TABLE staff ADD COLUMN totp_last_step BIGINT NOT NULL DEFAULT 0;

-- One-time recovery codes by their SHA-256, for a lost authenticator.
CREATE TABLE staff_recovery_codes (
	staff_id TEXT NOT NULL REFERENCES staff (id),
	hash     TEXT NOT NULL,
	used_at  BIGINT,
	PRIMARY KEY (staff_id, hash)
);

-- second_factor_at: when this session passed the second factor (NULL:
-- the password alone so far). location_id: the office the session works
-- in, the staff member's own unless a group administrator chose another
-- of the group.
ALTER TABLE staff_sessions ADD COLUMN second_factor_at BIGINT;
ALTER TABLE staff_sessions ADD COLUMN location_id TEXT NOT NULL DEFAULT '';
