package flow_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/flow"
	"github.com/chairside/chairside/store/storetest"
)

// completedCase completes a Synchrony case under the fixture's clock and
// answers its application id.
func (f *fixture) completedCase(t *testing.T) string {
	t.Helper()
	c := f.caller(t)
	f.acceptedOffer(t, c, "synchrony_standard")
	f.signAndComplete(t, c)
	return c.Session.ApplicationID
}

func (f *fixture) line(t *testing.T, applicationID string) []*chairside.MoneyEntry {
	t.Helper()
	line, err := f.db.MoneyLine(context.Background(), applicationID)
	if err != nil {
		t.Fatal(err)
	}
	return line
}

func sumOf(line []*chairside.MoneyEntry, kind string) (amount, fee int64, n int) {
	for _, e := range line {
		if e.Kind == kind {
			amount, fee, n = amount+e.AmountCents, fee+e.FeeCents, n+1
		}
	}
	return amount, fee, n
}

// TestVoidBeforeFunding: a case canceled before the lender funds is voided
// once: the lender is asked once, the line says voided, the funding poll
// ends; the same request again gets the same answer, another is refused
// without asking the lender.
func TestVoidBeforeFunding(t *testing.T) {
	t.Parallel()
	storetest.EachEngine(t, func(t *testing.T, e storetest.Engine) {
		clk := &quizClock{t: time.Date(2026, 11, 30, 15, 0, 0, 0, time.UTC)}
		f := newFixture(t, e, flow.Options{Now: clk.now})
		ctx := context.Background()
		id := f.completedCase(t)
		void := &flow.CaseChange{Kind: flow.ChangeVoid, Reason: "The patient chose another treatment."}
		plan, err := f.svc.PreviewChange(ctx, id, void)
		if err != nil || plan.AmountCents <= 0 || plan.AmountCents != plan.FinancedCents || plan.LenderName == "" {
			t.Fatalf("preview: %+v %v", plan, err)
		}
		got, err := f.svc.ChangeCase(ctx, id, "void-1", void)
		if err != nil || got.Status != chairside.ChangeDone || got.Reference == "" || got.AmountCents != plan.AmountCents {
			t.Fatalf("void: %+v %v", got, err)
		}
		again, err := f.svc.ChangeCase(ctx, id, "void-1", void)
		if err != nil || *again != *got {
			t.Fatalf("the same void again: %+v %v", again, err)
		}
		if _, err := f.svc.ChangeCase(ctx, id, "void-2", void); chairside.ErrorCode(err) != chairside.ECONFLICT {
			t.Fatalf("another void: %v", err)
		}
		if _, err := f.svc.ChangeCase(ctx, id, "refund-1", &flow.CaseChange{Kind: flow.ChangeRefund, Reason: "Refund it anyway."}); chairside.ErrorCode(err) != chairside.ECONFLICT {
			t.Fatalf("a refund of a voided case: %v", err)
		}
		if n, _ := f.log.count("void"); n != 1 {
			t.Errorf("the lender was asked to void %d times", n)
		}
		if amount, _, n := sumOf(f.line(t, id), chairside.MoneyVoided); n != 1 || amount != plan.FinancedCents {
			t.Errorf("voided entries: %d of %d", n, amount)
		}
		clk.add(30 * 24 * time.Hour)
		if polls, err := f.svc.ReconcileFunding(ctx, 10); err != nil || len(polls) != 0 {
			t.Errorf("a voided case is still followed: %+v %v", polls, err)
		}
		// A stray funding webhook for the voided case changes nothing.
		pa, err := f.db.FindLenderApplication(ctx, id, "synchrony_standard")
		if err != nil {
			t.Fatal(err)
		}
		stray := &chairside.FundingStatus{State: chairside.FundingFunded, FundingRef: "F", GrossCents: plan.FinancedCents, NetCents: plan.FinancedCents,
			DepositRef: "D", FundedOn: clk.now(), DepositOn: clk.now()}
		if got, err := f.svc.FundingEvent(ctx, "synchrony_standard", "evt-stray", "funding.updated", pa.LenderRef, stray); err != nil || got != chairside.EventIgnored {
			t.Errorf("a funding webhook for a voided case: %q %v", got, err)
		}
		if _, _, n := sumOf(f.line(t, id), chairside.MoneyFunded); n != 0 {
			t.Errorf("%d fundings on a voided case's line", n)
		}
		if _, err := f.svc.ChangeCase(ctx, id, "x", &flow.CaseChange{Kind: flow.ChangeVoid, Reason: "no"}); chairside.ErrorCode(err) != chairside.EINVALID {
			t.Errorf("a change without a reason: %v", err)
		}
	})
}

// TestRefundsNeverPassTheFunding: once funded a case is refunded, not
// voided (a void the lender finds too late makes the funding poll due at
// once); a partial refund then the rest refund exactly what was funded,
// with the lender's whole fee given back; more is refused before the
// lender is asked; after the lender's refund window it refuses.
func TestRefundsNeverPassTheFunding(t *testing.T) {
	t.Parallel()
	storetest.EachEngine(t, func(t *testing.T, e storetest.Engine) {
		clk := &quizClock{t: time.Date(2026, 11, 30, 15, 0, 0, 0, time.UTC)}
		f := newFixture(t, e, flow.Options{Now: clk.now})
		ctx := context.Background()
		id := f.completedCase(t)
		clk.add(3 * 24 * time.Hour) // funded at the lender; our line does not know yet
		void := &flow.CaseChange{Kind: flow.ChangeVoid, Reason: "Canceled at the desk."}
		got, err := f.svc.ChangeCase(ctx, id, "late-void", void)
		if err != nil || got.Status != chairside.ChangeTooLate || got.Message == "" {
			t.Fatalf("a late void: %+v %v", got, err)
		}
		if polls, err := f.svc.ReconcileFunding(ctx, 10); err != nil || len(polls) != 1 || polls[0].Result != "changed" {
			t.Fatalf("the poll after a late void: %+v %v", polls, err)
		}
		if _, err := f.svc.ChangeCase(ctx, id, "void-again", void); chairside.ErrorCode(err) != chairside.ECONFLICT {
			t.Fatalf("a void once the line knows of the funding: %v", err)
		}
		_, fee, _ := sumOf(f.line(t, id), chairside.MoneyFunded)
		financed, _, _ := sumOf(f.line(t, id), chairside.MoneyCompleted)

		part := &flow.CaseChange{Kind: flow.ChangeRefund, AmountCents: 100_000, Reason: "One crown not done."}
		if got, err := f.svc.ChangeCase(ctx, id, "r1", part); err != nil || got.Status != chairside.ChangeDone || got.LeftCents != financed-100_000 {
			t.Fatalf("a partial refund: %+v %v", got, err)
		}
		if _, err := f.svc.ChangeCase(ctx, id, "r2", &flow.CaseChange{Kind: flow.ChangeRefund, AmountCents: financed, Reason: "All of it."}); chairside.ErrorCode(err) != chairside.EINVALID {
			t.Fatalf("a refund of more than is left: %v", err)
		}
		rest, err := f.svc.ChangeCase(ctx, id, "r3", &flow.CaseChange{Kind: flow.ChangeRefund, Reason: "The rest."})
		if err != nil || rest.Status != chairside.ChangeDone || rest.AmountCents != financed-100_000 || rest.LeftCents != 0 {
			t.Fatalf("the rest: %+v %v", rest, err)
		}
		if _, err := f.svc.ChangeCase(ctx, id, "r4", &flow.CaseChange{Kind: flow.ChangeRefund, Reason: "Again."}); chairside.ErrorCode(err) != chairside.ECONFLICT {
			t.Fatalf("a refund of a case refunded in full: %v", err)
		}
		refunded, returned, n := sumOf(f.line(t, id), chairside.MoneyRefunded)
		if n != 2 || refunded != financed || returned != fee {
			t.Fatalf("%d refunds of %d in all with %d of fee back; funded %d with fee %d", n, refunded, returned, financed, fee)
		}
		if n, _ := f.log.count("refund"); n != 2 {
			t.Errorf("the lender was asked to refund %d times, want 2", n)
		}

		// Another case, funded, asked after Synchrony's window.
		other := f.completedCase(t)
		clk.add(200 * 24 * time.Hour)
		if _, err := f.svc.ReconcileFunding(ctx, 10); err != nil {
			t.Fatal(err)
		}
		late, err := f.svc.ChangeCase(ctx, other, "late", &flow.CaseChange{Kind: flow.ChangeRefund, Reason: "Too late."})
		if err != nil || late.Status != chairside.ChangeRefused || late.Message == "" {
			t.Fatalf("a refund past the window: %+v %v", late, err)
		}
		if _, _, n := sumOf(f.line(t, other), chairside.MoneyRefundRefused); n != 1 {
			t.Errorf("%d refused refunds on the line", n)
		}
		if _, _, n := sumOf(f.line(t, other), chairside.MoneyRefunded); n != 0 {
			t.Errorf("%d refunds on the line after a refusal", n)
		}
	})
}

// TestTwentyRefundPresses: twenty requests for the same refund at once
// make one lender call and one entry on the money line; every one that
// is answered gets the same answer.
func TestTwentyRefundPresses(t *testing.T) {
	t.Parallel()
	storetest.EachEngine(t, func(t *testing.T, e storetest.Engine) {
		clk := &quizClock{t: time.Date(2026, 11, 30, 15, 0, 0, 0, time.UTC)}
		f := newFixture(t, e, flow.Options{Now: clk.now})
		ctx := context.Background()
		id := f.completedCase(t)
		clk.add(10 * 24 * time.Hour)
		clk.add(chairside.FundingFirstPoll)
		if _, err := f.svc.ReconcileFunding(ctx, 10); err != nil {
			t.Fatal(err)
		}
		refund := &flow.CaseChange{Kind: flow.ChangeRefund, AmountCents: 50_000, Reason: "A filling not needed."}
		var wg sync.WaitGroup
		answers := make(chan string, 20)
		for range 20 {
			wg.Go(func() {
				got, err := f.svc.ChangeCase(ctx, id, "press", refund)
				if err != nil {
					answers <- chairside.ErrorCode(err)
					return
				}
				answers <- fmt.Sprintf("%s %s %d", got.Status, got.Reference, got.AmountCents)
			})
		}
		wg.Wait()
		close(answers)
		seen := map[string]int{}
		for a := range answers {
			seen[a]++
		}
		for a := range seen {
			if a != chairside.EINFLIGHT && a != chairside.ECONFLICT && !isDone(a) {
				t.Errorf("answer %q", a)
			}
		}
		if n, _ := f.log.count("refund"); n != 1 {
			t.Errorf("the lender was asked to refund %d times, want 1 (answers %v)", n, seen)
		}
		if amount, _, n := sumOf(f.line(t, id), chairside.MoneyRefunded); n != 1 || amount != 50_000 {
			t.Errorf("%d refund entries of %d in all", n, amount)
		}
	})
}

func isDone(answer string) bool { return len(answer) > 5 && answer[:5] == "done " }
