-- 0016_lender_deposits: the total a lender says it sent to the bank in a
-- deposit (deposit.sent's netCents, docs/lender-protocol.md), kept once per
-- lender and deposit, so the money alerts can check it against the nets of
-- the cases the deposit carries (docs/behaviour.md, "After the signature").
CREATE TABLE lender_deposits (
	lender_key  TEXT NOT NULL,
	reference   TEXT NOT NULL,
	on_at       BIGINT NOT NULL,
	net_cents   BIGINT NOT NULL,
	recorded_at BIGINT NOT NULL,
	PRIMARY KEY (lender_key, reference)
);
CREATE INDEX lender_deposits_on ON lender_deposits (on_at);
