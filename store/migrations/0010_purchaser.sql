-- 0010_purchaser: whether an office lets someone other than the patient
-- (a parent or guardian who pays) apply for the patient's treatment
-- (docs/offices.md). Offices made before this did not.

ALTER TABLE locations ADD COLUMN purchaser_enabled INTEGER NOT NULL DEFAULT 0;
