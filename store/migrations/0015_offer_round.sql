-- 0015_offer_round: the office may change the treatment amount before the
-- patient signs (docs/behaviour.md, "Changing the amount"); each change
-- starts a new offer round of a lender application, whose steps after the
-- decision are lender calls of their own ("accept@1", …).
ALTER TABLE provider_applications ADD COLUMN offer_round INTEGER NOT NULL DEFAULT 0;
