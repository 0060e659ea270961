-- 0007_signature_method: how an e-signature was made (docs/behaviour.md,
-- "Signing"): drawn on the pad, or the patient's typed name adopted as
-- their signature. Records made before this are drawn.

ALTER TABLE consents ADD COLUMN signature_method TEXT NOT NULL DEFAULT '';
UPDATE consents SET signature_method = 'drawn' WHERE signature_png <> '';
