-- 0011_sign_in_throttle: wrong staff passwords are counted per email and
-- client address (store/sign_in.go), not per account: an outsider's five
-- tries lock that pair, never the worker at the office, and an email with
-- no account locks exactly as one with an account does. The account's own
-- count and lock go.

-- scope is the SHA-256 of the lower-cased email and the client address.
-- failures counts the tries since updated_at's window began, each counted
-- before its password is checked; locked_until is set by the try that
-- reached the limit.
CREATE TABLE sign_in_throttle (
	scope        TEXT PRIMARY KEY,
	failures     INTEGER NOT NULL,
	locked_until BIGINT,
	updated_at   BIGINT NOT NULL
);

ALTER TABLE staff DROP COLUMN failed_attempts;
ALTER TABLE staff DROP COLUMN locked_until;
