-- 0008_languages: the patient's language (docs/languages.md). An office
-- may speak Spanish to its patients by default; a consent records the
-- language of the document the patient was shown, since a lender may give
-- a document in English only. Records made before this were in English.

ALTER TABLE locations ADD COLUMN language TEXT NOT NULL DEFAULT '';
ALTER TABLE consents ADD COLUMN document_language TEXT NOT NULL DEFAULT 'en';
