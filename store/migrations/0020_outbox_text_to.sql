-- 0020_outbox_text_to: which sender texted which number (by its blind
-- index, never in clear), kept on the text's outbox row when it is sent,
-- so that a STOP the number sends later shows on that invitation's row
-- too, not only on the next one (docs/behaviour.md, "Texts and emails").
ALTER TABLE outbox ADD COLUMN text_sender TEXT NOT NULL DEFAULT '';
ALTER TABLE outbox ADD COLUMN phone_index TEXT NOT NULL DEFAULT '';
