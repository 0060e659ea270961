package office

import (
	"context"
	"time"

	"github.com/chairside/chairside"
)

// What the office sees of a case's money (docs/behaviour.md, "After the
// signature"): on its row, where the money stands and what the practice
// will receive; on its page, the whole money line.

// Money is where a completed case's money stands, from the latest fact
// of its money line: completed (waiting for the lender to fund), held
// (the lender is reviewing it), funded (the deposit is on its way),
// deposited, voided (canceled before funding) or refunded (in full;
// RefundedCents says how much of a partly refunded case was).
type Money struct {
	State      string `json:"state"`
	LenderKey  string `json:"providerKey"`
	LenderName string `json:"lenderName"`
	// AmountCents is the amount financed; FeeCents, FeeRateBP and
	// NetCents are the lender's fee and what the practice receives, once
	// funded.
	AmountCents int64      `json:"amountCents"`
	FeeCents    int64      `json:"feeCents,omitempty"`
	FeeRateBP   int        `json:"feeRateBp,omitempty"`
	NetCents    int64      `json:"netCents,omitempty"`
	FundingRef  string     `json:"fundingRef,omitempty"`
	DepositRef  string     `json:"depositRef,omitempty"`
	FundedOn    *time.Time `json:"fundedOn,omitempty"`
	// DepositOn is when the deposit is expected (funded) or was sent
	// (deposited).
	DepositOn     *time.Time `json:"depositOn,omitempty"`
	RefundedCents int64      `json:"refundedCents,omitempty"`
}

// MoneyEntry is one fact of a case's money line as its page shows it.
type MoneyEntry struct {
	*chairside.MoneyEntry
	LenderName string `json:"lenderName"`
}

// moneyStates are the money-line kinds that say where a completed case's
// money stands, by how far along they are.
var moneyStates = map[string]int{chairside.MoneyCompleted: 1, chairside.MoneyHeld: 2, chairside.MoneyFunded: 3, chairside.MoneyDeposited: 4,
	chairside.MoneyVoided: 5}

// moneyOf sums a case's money line up for its row: nil until a lender
// completed it. It also answers when the line last changed.
func moneyOf(line []*chairside.MoneyEntry) (*Money, time.Time) {
	var m *Money
	var changed time.Time
	for _, e := range line {
		changed = latest(changed, e.RecordedAt)
		if e.Kind == chairside.MoneyRefunded && m != nil && m.LenderKey == e.LenderKey {
			m.RefundedCents += e.AmountCents
			if m.RefundedCents >= m.AmountCents {
				m.State = chairside.MoneyRefunded
			}
			continue
		}
		rank, ok := moneyStates[e.Kind]
		if !ok || m != nil && (m.LenderKey != e.LenderKey || moneyStates[m.State] > rank) {
			continue
		}
		if m == nil {
			m = &Money{LenderKey: e.LenderKey, LenderName: lenderName(e.LenderKey), AmountCents: e.AmountCents}
		}
		m.State = e.Kind
		switch e.Kind {
		case chairside.MoneyFunded, chairside.MoneyDeposited:
			m.AmountCents, m.FeeCents, m.FeeRateBP, m.NetCents, m.DepositRef = e.AmountCents, e.FeeCents, e.FeeRateBP, e.NetCents, e.DepositRef
			if !e.DepositOn.IsZero() {
				on := e.DepositOn
				m.DepositOn = &on
			}
		}
		if e.Kind == chairside.MoneyFunded {
			on := e.On
			m.FundedOn, m.FundingRef = &on, e.Reference
		}
	}
	return m, changed
}

// moneyLine reads a case's money line with each entry's lender name.
func (s *Service) moneyLine(ctx context.Context, applicationID string) ([]MoneyEntry, error) {
	line, err := s.store.MoneyLine(ctx, applicationID)
	if err != nil {
		return nil, err
	}
	out := make([]MoneyEntry, len(line))
	for i, e := range line {
		out[i] = MoneyEntry{MoneyEntry: e, LenderName: lenderName(e.LenderKey)}
	}
	return out, nil
}
