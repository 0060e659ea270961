-- 0009_plan_schedule: a plan keeps its schedule, not only its regular
-- payment: how many payments and the last one, which carries the rounding
-- (docs/money.md). The totals follow from these (PaymentPlan.Tally). Plans
-- saved before this have 0 payments and keep their total cost as saved.

ALTER TABLE payment_plans ADD COLUMN payment_count INTEGER NOT NULL DEFAULT 0;
ALTER TABLE payment_plans ADD COLUMN final_payment_cents BIGINT NOT NULL DEFAULT 0;
