-- 0019_records_connections: an office's connection to its practice-
-- management system (docs/practice-records.md), one per office. The
-- customer key is sealed; the state is how the system last answered.
CREATE TABLE records_connections (
	location_id  TEXT PRIMARY KEY,
	system       TEXT NOT NULL,
	base_url     TEXT NOT NULL,
	key_sealed   TEXT NOT NULL,
	post_on      TEXT NOT NULL,
	state        TEXT NOT NULL,
	detail       TEXT NOT NULL DEFAULT '',
	checked_at   BIGINT NOT NULL,
	created_at   BIGINT NOT NULL
);

-- The patient's id in the office's system (Open Dental's PatNum) when the
-- invitation was made from the record: the payment is posted to it.
ALTER TABLE applications ADD COLUMN record_patient_id TEXT NOT NULL DEFAULT '';

-- One post to a patient's ledger in the office's system for each money
-- fact that calls for one (docs/practice-records.md): the payment when the
-- case is signed or funded (as the office chose), a negative one for a
-- refund or a cancellation. The money fact's id makes it once; the claim
-- (state posting, next_at its lease) comes before the call, and a post
-- tried before is looked for by its reference before it is sent again.
CREATE TABLE records_posts (
	id              TEXT PRIMARY KEY,
	money_entry_id  TEXT NOT NULL UNIQUE,
	location_id     TEXT NOT NULL,
	application_id  TEXT NOT NULL REFERENCES applications (id),
	kind            TEXT NOT NULL,
	patient_id      TEXT NOT NULL,
	amount_cents    BIGINT NOT NULL,
	pay_date        TEXT NOT NULL,
	reference       TEXT NOT NULL,
	note            TEXT NOT NULL,
	state           TEXT NOT NULL,
	attempts        INTEGER NOT NULL DEFAULT 0,
	next_at         BIGINT NOT NULL,
	first_try_on    TEXT NOT NULL DEFAULT '',
	remote_id       TEXT NOT NULL DEFAULT '',
	last_error      TEXT NOT NULL DEFAULT '',
	created_at      BIGINT NOT NULL,
	posted_at       BIGINT NOT NULL DEFAULT 0
);
CREATE INDEX records_posts_due ON records_posts (state, next_at);
CREATE INDEX records_posts_application ON records_posts (application_id);
