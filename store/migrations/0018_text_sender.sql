-- 0018_text_sender: an office's own sender of texts (a Twilio Messaging
-- Service or number), since a patient's STOP applies to the sender it was
-- sent to (docs/behaviour.md, "Texts and emails"); '' uses the server's.
ALTER TABLE locations ADD COLUMN text_sender TEXT NOT NULL DEFAULT '';
