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
