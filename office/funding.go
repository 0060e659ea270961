package office

import (
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"slices"
	"sort"
	"time"

	"github.com/chairside/chairside"
)

// The office's funding screen (docs/behaviour.md, "After the signature"):
// the deposits of a day, a week or a month by lender — sent, or expected
// for cases funded and not yet deposited — with gross, fee and net, the
// cases each covers, the cases a lender holds back, and the totals; and
// the same as CSV for the practice's bookkeeping.

// Funding periods (FundingFilter.Period).
const (
	PeriodDay   = "day"
	PeriodWeek  = "week"
	PeriodMonth = "month"
)

// FundingFilter is the funding screen's query: the period around a day
// in a time zone. A week starts on Monday; a month on its first day.
type FundingFilter struct {
	Filter
	Period string
}

// ParseFundingFilter reads the funding screen's query: day and tz as the
// list's, period day (the default), week or month.
func ParseFundingFilter(day, tz, period string, now time.Time) (FundingFilter, error) {
	f, err := ParseFilter(day, tz, "", now)
	if err != nil {
		return FundingFilter{}, err
	}
	ff := FundingFilter{Filter: f, Period: period}
	switch period {
	case "", PeriodDay:
		ff.Period = PeriodDay
	case PeriodWeek:
		back := (int(f.From.Weekday()) + 6) % 7 // days since Monday
		ff.From = f.From.AddDate(0, 0, -back)
		ff.To = ff.From.AddDate(0, 0, 7)
	case PeriodMonth:
		ff.From = time.Date(f.From.Year(), f.From.Month(), 1, 0, 0, 0, 0, f.Zone)
		ff.To = ff.From.AddDate(0, 1, 0)
	default:
		return FundingFilter{}, chairside.Errorf(chairside.EBADREQUEST, "period must be day, week or month.")
	}
	return ff, nil
}

// Funding is the funding screen of a period.
type Funding struct {
	From     string `json:"from"` // YYYY-MM-DD, the period's first day
	To       string `json:"to"`   // its last day
	Period   string `json:"period"`
	TimeZone string `json:"timeZone"`
	// Deposits are the period's deposits by day, then lender: sent ones
	// and expected ones (their cases funded, not yet deposited).
	Deposits []*Deposit `json:"deposits"`
	// Held are the cases a lender holds back for a review.
	Held []*FundedCase `json:"held"`
	// Changes are the voids, refunds and changes of amount of the
	// period (a refund refused too), in the order made.
	Changes []*CaseChange `json:"changes"`
	// Sent and Expected total the sent and the expected deposits.
	Sent     Totals `json:"sent"`
	Expected Totals `json:"expected"`
	// Alerts are the office's cases to look at now, whatever the period.
	Alerts []*Alert `json:"alerts"`
}

// Alert is a case the practice should look at (store.ListMoneyAlerts):
// funded late, a refund refused, a deposit that did not match.
type Alert struct {
	Kind string `json:"kind"`
	*FundedCase
	Since time.Time `json:"since"`
}

// CaseChange is a void or refund on the funding screen: what the lender
// did and, for a refund, what the practice gives back (the amount less
// the fee the lender returns).
type CaseChange struct {
	Kind string `json:"kind"` // voided, refunded, refund_refused or amount_changed (AmountCents the new treatment amount)
	*FundedCase
	AmountCents      int64     `json:"amountCents"`
	FeeReturnedCents int64     `json:"feeReturnedCents"`
	ReturnedCents    int64     `json:"returnedCents"`
	ChangeRef        string    `json:"changeRef"` // the lender's reference of the change
	On               time.Time `json:"on"`
}

// Totals add deposits up.
type Totals struct {
	Deposits   int   `json:"deposits"`
	Cases      int   `json:"cases"`
	GrossCents int64 `json:"grossCents"`
	FeeCents   int64 `json:"feeCents"`
	NetCents   int64 `json:"netCents"`
}

// Deposit is one lender's deposit of a day: the cases it carries and
// their sums, which are the bank deposit.
type Deposit struct {
	Reference  string        `json:"reference"`
	LenderKey  string        `json:"providerKey"`
	LenderName string        `json:"lenderName"`
	On         time.Time     `json:"on"`
	Sent       bool          `json:"sent"`
	GrossCents int64         `json:"grossCents"`
	FeeCents   int64         `json:"feeCents"`
	NetCents   int64         `json:"netCents"`
	Cases      []*FundedCase `json:"cases"`
}

// FundedCase is one case on the funding screen: the patient's name and
// the case's reference, as the office's list shows them, and its funding.
type FundedCase struct {
	ApplicationID string     `json:"applicationId"`
	Reference     string     `json:"reference"`
	FirstName     string     `json:"firstName"`
	LastName      string     `json:"lastName"`
	LenderKey     string     `json:"providerKey"`
	LenderName    string     `json:"lenderName"`
	GrossCents    int64      `json:"grossCents"`
	FeeCents      int64      `json:"feeCents"`
	FeeRateBP     int        `json:"feeRateBp"`
	NetCents      int64      `json:"netCents"`
	FundingRef    string     `json:"fundingRef,omitempty"`
	FundedOn      *time.Time `json:"fundedOn,omitempty"`
	HeldOn        *time.Time `json:"heldOn,omitempty"`
}

// Funding answers the funding screen of the caller's office for f.
func (s *Service) Funding(ctx context.Context, c *Caller, f FundingFilter) (*Funding, error) {
	entries, err := s.store.ListLocationMoney(ctx, c.Location.ID, f.From, f.To)
	if err != nil {
		return nil, err
	}
	out := &Funding{From: f.From.Format("2006-01-02"), To: f.To.AddDate(0, 0, -1).Format("2006-01-02"), Period: f.Period,
		TimeZone: f.Zone.String(), Deposits: []*Deposit{}, Held: []*FundedCase{}, Changes: []*CaseChange{}, Alerts: []*Alert{}}
	deposits := map[string]*Deposit{}
	cases := map[string]*FundedCase{} // by lender application
	amounts := map[string]bool{}      // changes of amount by reference: one row each
	for _, e := range entries {
		if e.Kind == chairside.MoneyAmountChanged {
			// One change of amount is on the line of every lender that
			// approved the patient; the screen shows it once.
			if amounts[e.Reference] {
				continue
			}
			amounts[e.Reference] = true
		}
		fc, err := s.fundedCase(ctx, cases, e)
		if err != nil {
			return nil, err
		}
		switch e.Kind {
		case chairside.MoneyVoided, chairside.MoneyRefunded, chairside.MoneyRefundRefused, chairside.MoneyAmountChanged:
			out.Changes = append(out.Changes, &CaseChange{Kind: e.Kind, FundedCase: fc, AmountCents: e.AmountCents,
				FeeReturnedCents: e.FeeCents, ReturnedCents: e.NetCents, ChangeRef: e.Reference, On: e.On})
			continue
		case chairside.MoneyHeld:
			on := e.On
			fc.HeldOn = &on
			out.Held = append(out.Held, fc)
			continue
		case chairside.MoneyFunded:
			on := e.On
			fc.FundedOn, fc.FundingRef = &on, e.Reference
		}
		fc.GrossCents, fc.FeeCents, fc.FeeRateBP, fc.NetCents = e.AmountCents, e.FeeCents, e.FeeRateBP, e.NetCents
		d := deposits[e.DepositRef]
		if d == nil {
			d = &Deposit{Reference: e.DepositRef, LenderKey: e.LenderKey, LenderName: lenderName(e.LenderKey), On: e.DepositOn}
			deposits[e.DepositRef] = d
			out.Deposits = append(out.Deposits, d)
		}
		d.Sent = d.Sent || e.Kind == chairside.MoneyDeposited
		if !slices.Contains(d.Cases, fc) {
			d.Cases = append(d.Cases, fc)
		}
	}
	for _, d := range out.Deposits {
		t := &out.Expected
		if d.Sent {
			t = &out.Sent
		}
		t.Deposits++
		for _, fc := range d.Cases {
			d.GrossCents, d.FeeCents, d.NetCents = d.GrossCents+fc.GrossCents, d.FeeCents+fc.FeeCents, d.NetCents+fc.NetCents
		}
		t.Cases += len(d.Cases)
		t.GrossCents, t.FeeCents, t.NetCents = t.GrossCents+d.GrossCents, t.FeeCents+d.FeeCents, t.NetCents+d.NetCents
	}
	if err := s.alerts(ctx, c, out); err != nil {
		return nil, err
	}
	sort.SliceStable(out.Deposits, func(i, j int) bool {
		a, b := out.Deposits[i], out.Deposits[j]
		if !a.On.Equal(b.On) {
			return a.On.Before(b.On)
		}
		return a.LenderName < b.LenderName
	})
	return out, nil
}

// alerts adds the office's money alerts to fd.
func (s *Service) alerts(ctx context.Context, c *Caller, fd *Funding) error {
	now := s.Now()
	found, err := s.store.ListMoneyAlerts(ctx, c.Location.ID, now.Add(-chairside.MoneyAlertWindow), now)
	if err != nil {
		return err
	}
	cases := map[string]*FundedCase{}
	for _, a := range found {
		fc, err := s.fundedCase(ctx, cases, &chairside.MoneyEntry{LenderApplicationID: a.LenderApplicationID,
			ApplicationID: a.ApplicationID, LenderKey: a.LenderKey})
		if err != nil {
			return err
		}
		fd.Alerts = append(fd.Alerts, &Alert{Kind: a.Kind, FundedCase: fc, Since: a.Since})
	}
	return nil
}

// AuditFundingView records that the caller looked at a funding screen.
func (s *Service) AuditFundingView(ctx context.Context, c *Caller, fd *Funding) {
	s.did(ctx, c, chairside.AuditViewFunding, fmt.Sprintf("%s %s to %s", fd.Period, fd.From, fd.To))
}

// fundedCase answers the case of e, read once per lender application.
func (s *Service) fundedCase(ctx context.Context, cases map[string]*FundedCase, e *chairside.MoneyEntry) (*FundedCase, error) {
	if fc := cases[e.LenderApplicationID]; fc != nil {
		return fc, nil
	}
	a, err := s.store.FindApplication(ctx, e.ApplicationID)
	if err != nil {
		return nil, err
	}
	fc := &FundedCase{ApplicationID: a.ID, Reference: a.Reference(), FirstName: a.Primary.FirstName, LastName: a.Primary.LastName,
		LenderKey: e.LenderKey, LenderName: lenderName(e.LenderKey), GrossCents: e.AmountCents}
	cases[e.LenderApplicationID] = fc
	return fc, nil
}

// fundingCSVHeader names the funding CSV's columns. A deposit's row
// carries its sums; each of its cases' rows follows it, and the cases'
// nets add up to the deposit's to the cent.
var fundingCSVHeader = []string{"Row", "Lender", "Deposit date", "Deposit reference", "Sent", "Case reference",
	"Patient first name", "Patient last name", "Funding reference", "Gross", "Fee", "Fee rate", "Net"}

// ExportFundingCSV writes the funding screen of f as CSV: one row per
// deposit, then one per case within it, then one per void, refund or
// change of amount of the period; cells a spreadsheet would run as a formula are guarded as
// the day's CSV guards them. The export is audited.
func (s *Service) ExportFundingCSV(ctx context.Context, c *Caller, f FundingFilter, w io.Writer) error {
	fd, err := s.Funding(ctx, c, f)
	if err != nil {
		return err
	}
	cw := csv.NewWriter(w)
	if err := cw.Write(fundingCSVHeader); err != nil {
		return err
	}
	for _, d := range fd.Deposits {
		day, sent := d.On.In(f.Zone).Format("2006-01-02"), yesNo(d.Sent)
		rows := [][]string{{"deposit", d.LenderName, day, d.Reference, sent, "", "", "", "",
			cents(d.GrossCents), cents(d.FeeCents), "", cents(d.NetCents)}}
		for _, fc := range d.Cases {
			rows = append(rows, []string{"case", d.LenderName, day, d.Reference, sent, fc.Reference, fc.FirstName, fc.LastName,
				fc.FundingRef, cents(fc.GrossCents), cents(fc.FeeCents), rate(fc.FeeRateBP), cents(fc.NetCents)})
		}
		for _, r := range rows {
			if err := cw.Write(safeCells(r)); err != nil {
				return err
			}
		}
	}
	for _, ch := range fd.Changes {
		// A change's row: its date, the case, the lender's reference of
		// the change, the amount, and for a refund what the practice gives
		// back as negative fee and net.
		rec := append(safeCells([]string{changeRows[ch.Kind], ch.LenderName, ch.On.In(f.Zone).Format("2006-01-02"), "", "",
			ch.FundedCase.Reference, ch.FirstName, ch.LastName, ch.ChangeRef}), cents(ch.AmountCents), "", "", "")
		if ch.Kind == chairside.MoneyRefunded {
			rec[10], rec[12] = cents(-ch.FeeReturnedCents), cents(-ch.ReturnedCents)
		}
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return err
	}
	s.did(ctx, c, chairside.AuditExportFunding, fmt.Sprintf("%s %s to %s, %d deposits", fd.Period, fd.From, fd.To, len(fd.Deposits)))
	return nil
}

// changeRows name a change's row in the funding CSV.
var changeRows = map[string]string{chairside.MoneyVoided: "void", chairside.MoneyRefunded: "refund", chairside.MoneyRefundRefused: "refund refused",
	chairside.MoneyAmountChanged: "amount change"}

// FundingCSVFileName is the funding export's file name.
func FundingCSVFileName(c *Caller, f FundingFilter) string {
	return "chairside-funding-" + c.Location.EntityKey + "-" + f.Period + "-" + f.From.Format("2006-01-02") + ".csv"
}

// cents writes an amount in dollars with two decimals, no symbol: what a
// spreadsheet reads as a number.
func cents(c int64) string {
	sign := ""
	if c < 0 {
		sign, c = "-", -c
	}
	return fmt.Sprintf("%s%d.%02d", sign, c/100, c%100)
}

// rate writes basis points as a percent with two decimals.
func rate(bp int) string { return fmt.Sprintf("%d.%02d%%", bp/100, bp%100) }
