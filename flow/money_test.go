package flow_test

import (
	"context"
	"testing"
	"time"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/flow"
	"github.com/chairside/chairside/store/storetest"
)

// kinds lists the kinds of a money line in order.
func kinds(line []*chairside.MoneyEntry) []string {
	out := make([]string, len(line))
	for i, e := range line {
		out[i] = e.Kind
	}
	return out
}

func sameKinds(got []*chairside.MoneyEntry, want ...string) bool {
	k := kinds(got)
	if len(k) != len(want) {
		return false
	}
	for i := range k {
		if k[i] != want[i] {
			return false
		}
	}
	return true
}

// TestMoneyLineFollowsTheCase: a case's money line is written as it goes —
// approved at the decision, signed and completed with the plan's amount —
// and after completion the reconciler asks the lender about the funding
// until the money is deposited: nothing before the lender funds, then the
// funding with its fee and net, then the deposit, each once however often
// it is asked, and no more polls after the deposit.
func TestMoneyLineFollowsTheCase(t *testing.T) {
	t.Parallel()
	storetest.EachEngine(t, func(t *testing.T, e storetest.Engine) {
		clk := &quizClock{t: time.Date(2026, 11, 30, 15, 0, 0, 0, time.UTC)} // a Monday
		f := newFixture(t, e, flow.Options{Now: clk.now})
		ctx := context.Background()
		const key = "synchrony_standard"
		c := f.caller(t)
		code := f.acceptedOffer(t, c, key)
		f.signAndComplete(t, c)

		line, err := f.db.MoneyLine(ctx, c.Session.ApplicationID)
		if err != nil {
			t.Fatal(err)
		}
		if !sameKinds(line, chairside.MoneyApproved, chairside.MoneySigned, chairside.MoneyCompleted) {
			t.Fatalf("money line after completing: %v", kinds(line))
		}
		plans, err := f.db.ListPaymentPlans(ctx, line[0].LenderApplicationID)
		if err != nil {
			t.Fatal(err)
		}
		var financed int64
		for _, p := range plans {
			if p.LenderPlanCode == code {
				financed = p.AmountFinancedCents
			}
		}
		if financed == 0 || line[1].AmountCents != financed || line[2].AmountCents != financed {
			t.Fatalf("signed %d and completed %d, want the plan's %d", line[1].AmountCents, line[2].AmountCents, financed)
		}

		round := func() []flow.PollResult {
			t.Helper()
			got, err := f.svc.ReconcileFunding(ctx, 10)
			if err != nil {
				t.Fatal(err)
			}
			return got
		}
		if got := round(); len(got) != 0 {
			t.Fatalf("polled before the first poll was due: %+v", got)
		}
		clk.add(chairside.FundingFirstPoll)
		if got := round(); len(got) != 1 || got[0].Result != "unchanged" {
			t.Fatalf("a poll before the lender funds: %+v", got)
		}
		// Synchrony funds two business days after completion (Wednesday)
		// and deposits the next business day (Thursday).
		clk.add(2 * 24 * time.Hour)
		if got := round(); len(got) != 1 || got[0].Result != "changed" {
			t.Fatalf("the poll after funding: %+v", got)
		}
		line, _ = f.db.MoneyLine(ctx, c.Session.ApplicationID)
		if !sameKinds(line, chairside.MoneyApproved, chairside.MoneySigned, chairside.MoneyCompleted, chairside.MoneyFunded) {
			t.Fatalf("money line after funding: %v", kinds(line))
		}
		funded := line[3]
		if funded.AmountCents != financed || funded.FeeCents <= 0 || funded.NetCents != funded.AmountCents-funded.FeeCents ||
			funded.FeeRateBP <= 0 || funded.Reference == "" || funded.DepositRef == "" || funded.DepositOn.Weekday() != time.Thursday {
			t.Fatalf("funded entry: %+v", funded)
		}
		if want := (financed*int64(funded.FeeRateBP) + 5_000) / 10_000; funded.FeeCents != want {
			t.Errorf("fee %d at %d bp of %d, want %d", funded.FeeCents, funded.FeeRateBP, financed, want)
		}

		// Asked again before the deposit: nothing new.
		clk.add(chairside.FundingFirstPoll)
		if got := round(); len(got) != 0 {
			t.Fatalf("polled again before the deposit is due: %+v", got)
		}
		clk.add(24 * time.Hour)
		if got := round(); len(got) != 1 || got[0].Result != "changed" {
			t.Fatalf("the poll after the deposit: %+v", got)
		}
		line, _ = f.db.MoneyLine(ctx, c.Session.ApplicationID)
		if !sameKinds(line, chairside.MoneyApproved, chairside.MoneySigned, chairside.MoneyCompleted, chairside.MoneyFunded, chairside.MoneyDeposited) {
			t.Fatalf("money line after the deposit: %v", kinds(line))
		}
		if dep := line[4]; dep.Reference != funded.DepositRef || dep.NetCents != funded.NetCents {
			t.Errorf("deposited entry %+v, funded %+v", dep, funded)
		}
		clk.add(30 * 24 * time.Hour)
		if got := round(); len(got) != 0 {
			t.Fatalf("polled after the deposit: %+v", got)
		}
		if n, _ := f.log.count("funding"); n != 3 {
			t.Errorf("the lender was asked about the funding %d times, want 3", n)
		}
	})
}

// TestFundingEventsInAnyOrder: a lender's funding news by webhook is kept
// once per event id and in any order: a deposit first brings its funding
// with it, the funding after it adds nothing, a repeat is a duplicate, a
// held event on a funded case changes nothing, and an unknown application
// is not recorded.
func TestFundingEventsInAnyOrder(t *testing.T) {
	t.Parallel()
	storetest.EachEngine(t, func(t *testing.T, e storetest.Engine) {
		clk := &quizClock{t: time.Date(2026, 11, 30, 15, 0, 0, 0, time.UTC)}
		f := newFixture(t, e, flow.Options{Now: clk.now})
		ctx := context.Background()
		id := f.completedCase(t)
		line := f.line(t, id)
		completed := line[len(line)-1]
		pa, err := f.db.FindLenderApplication(ctx, id, "synchrony_standard")
		if err != nil {
			t.Fatal(err)
		}
		funded := &chairside.FundingStatus{State: chairside.FundingFunded, FundingRef: "SYN-F-1", GrossCents: completed.AmountCents,
			FeeCents: 100, FeeRateBP: 3, NetCents: completed.AmountCents - 100, FundedOn: clk.now().Add(48 * time.Hour),
			DepositRef: "SYN-D-1", DepositOn: clk.now().Add(72 * time.Hour)}
		deposited := *funded
		deposited.State = chairside.FundingDeposited
		for _, step := range []struct {
			event string
			st    *chairside.FundingStatus
			want  string
		}{
			{"evt-dep", &deposited, chairside.EventApplied},
			{"evt-dep", &deposited, chairside.EventDuplicate},
			{"evt-fund", funded, chairside.EventIgnored},
			{"evt-held", &chairside.FundingStatus{State: chairside.FundingHeld, ExpectedOn: clk.now()}, chairside.EventIgnored},
		} {
			got, err := f.svc.FundingEvent(ctx, "synchrony_standard", step.event, "funding.updated", pa.LenderRef, step.st)
			if err != nil || got != step.want {
				t.Fatalf("%s: %q %v, want %q", step.event, got, err, step.want)
			}
		}
		if !sameKinds(f.line(t, id), chairside.MoneyApproved, chairside.MoneySigned, chairside.MoneyCompleted,
			chairside.MoneyFunded, chairside.MoneyDeposited) {
			t.Fatalf("money line: %v", kinds(f.line(t, id)))
		}
		if got, err := f.svc.FundingEvent(ctx, "synchrony_standard", "evt-x", "funding.updated", "SYN-NOPE", funded); chairside.ErrorCode(err) != chairside.ENOTFOUND || got != chairside.EventUnknownApplication {
			t.Fatalf("an unknown application: %q %v", got, err)
		}
		clk.add(30 * 24 * time.Hour)
		if polls, err := f.svc.ReconcileFunding(ctx, 10); err != nil || len(polls) != 0 {
			t.Fatalf("a deposited case is still polled: %+v %v", polls, err)
		}
	})
}
