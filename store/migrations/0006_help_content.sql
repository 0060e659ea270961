-- 0006_help_content: an office's (or a group's) own help page content, per
-- language, from the office file (docs/content.md, "Help"). faqs and
-- glossary hold a JSON list each, '' where the office keeps the defaults.

CREATE TABLE help_overrides (
	scope      TEXT NOT NULL,
	scope_id   TEXT NOT NULL,
	language   TEXT NOT NULL,
	faqs       TEXT NOT NULL DEFAULT '',
	glossary   TEXT NOT NULL DEFAULT '',
	updated_at BIGINT NOT NULL,
	PRIMARY KEY (scope, scope_id, language)
);
