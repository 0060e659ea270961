package flow_test

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/flow"
	"github.com/chairside/chairside/lender/sandbox"
	"github.com/chairside/chairside/store/storetest"
)

// TestAmountChangeLetsTheAcceptedOfferGo: the office changes the
// treatment amount after the patient accepted an offer. Twenty presses of
// the same change ask the lender once and put one entry on the money line;
// the patient's browser, which has not heard of it, is told amount_changed
// wherever it is; the patient then chooses, accepts and signs again, each
// step once more with the lender, and the store's audit holds.
func TestAmountChangeLetsTheAcceptedOfferGo(t *testing.T) {
	t.Parallel()
	storetest.EachEngine(t, func(t *testing.T, e storetest.Engine) {
		f := newFixture(t, e, flow.Options{})
		ctx := context.Background()
		c := f.caller(t)
		const key = "synchrony_standard"
		f.acceptedOffer(t, c, key)
		id := c.Session.ApplicationID
		ch := &flow.AmountChange{FromCents: 450_000, AmountCents: 380_000, Reason: "One crown less in the treatment plan."}

		plan, err := f.svc.PreviewAmount(ctx, id, ch)
		if err != nil || plan.FromCents != 450_000 || plan.ToCents != 380_000 || len(plan.Lenders) != 1 || !plan.Lenders[0].Accepted {
			t.Fatalf("preview: %+v %v", plan, err)
		}
		if n, _ := f.log.count(sandbox.OpAmount); n != 0 {
			t.Fatalf("the preview asked the lender %d times", n)
		}

		var wg sync.WaitGroup
		answers := make(chan string, 20)
		for range 20 {
			wg.Go(func() {
				got, err := f.svc.ChangeAmount(ctx, id, "press", ch)
				if err != nil {
					answers <- chairside.ErrorCode(err)
					return
				}
				answers <- fmt.Sprintf("%s %s %d", got.Status, got.Reference, got.ToCents)
			})
		}
		wg.Wait()
		close(answers)
		done := ""
		for a := range answers {
			switch {
			case a == chairside.EINFLIGHT:
			case done == "" && a[:4] == "done":
				done = a
			case a != done:
				t.Errorf("an answer %q beside %q", a, done)
			}
		}
		if done == "" {
			t.Fatal("no press was answered done")
		}
		if n, _ := f.log.count(sandbox.OpAmount); n != 1 {
			t.Errorf("the lender was asked %d times", n)
		}
		if amount, _, n := sumOf(f.line(t, id), chairside.MoneyAmountChanged); n != 1 || amount != 380_000 {
			t.Errorf("amount_changed entries: %d of %d", n, amount)
		}
		if _, err := f.svc.ChangeAmount(ctx, id, "another", &flow.AmountChange{FromCents: 450_000, AmountCents: 400_000, Reason: "Seen before the change."}); chairside.ErrorCode(err) != chairside.ECONFLICT {
			t.Errorf("a second change from the old amount: %v", err)
		}

		// The patient's browser still on the signing screen.
		if _, err := f.svc.ESign(ctx, c, key, f.esignRequest(t, c, key, true)); chairside.ErrorCode(err) != chairside.EAMOUNT {
			t.Errorf("a stale e-sign: %v", err)
		}
		if _, err := f.svc.AcceptOffer(ctx, c, key, nil); chairside.ErrorCode(err) != chairside.EAMOUNT {
			t.Errorf("a stale accept: %v", err)
		}
		if _, err := f.svc.PlansFor(ctx, c, key, &flow.PlansRequest{AmountCents: 200_000, PurchaseAmountCents: 450_000}); chairside.ErrorCode(err) != chairside.EAMOUNT {
			t.Errorf("plans for the old amount: %v", err)
		}
		if got, err := f.svc.Amounts(ctx, c); err != nil || got.PurchaseAmountCents != 380_000 {
			t.Fatalf("amounts: %+v %v", got, err)
		}

		// Chosen, accepted and signed again at the new amount.
		if _, err := f.svc.PlansFor(ctx, c, key, &flow.PlansRequest{AmountCents: 200_000, PurchaseAmountCents: 380_000}); err != nil {
			t.Fatal(err)
		}
		f.confirmPlan(t, c, key)
		if _, err := f.svc.AcceptOffer(ctx, c, key, nil); err != nil {
			t.Fatalf("accept again: %v", err)
		}
		f.signAndComplete(t, c)
		if n, refs := f.log.count(sandbox.OpAcceptOffer); n != 2 || len(refs) != 2 {
			t.Errorf("accepts at the lender: %d under %d references, want 2 under 2", n, len(refs))
		}
		if _, err := f.svc.ChangeAmount(ctx, id, "late", &flow.AmountChange{FromCents: 380_000, AmountCents: 400_000, Reason: "Too late."}); chairside.ErrorCode(err) != chairside.ECONFLICT {
			t.Errorf("a change after completion: %v", err)
		}
		if broken, err := f.db.Audit(ctx); err != nil || len(broken) != 0 {
			t.Errorf("audit: %v %v", broken, err)
		}
	})
}

// TestAmountChangeBeforeAnOffer: before the patient accepted an offer no
// lender is asked; the plans shown are set aside, the choice undone, and
// the patient asked to choose again. A repeat is answered from the record
// and the checks refuse what cannot be: the same amount, less than the
// insurance, no reason.
func TestAmountChangeBeforeAnOffer(t *testing.T) {
	t.Parallel()
	storetest.EachEngine(t, func(t *testing.T, e storetest.Engine) {
		f := newFixture(t, e, flow.Options{})
		ctx := context.Background()
		c := f.caller(t)
		const key = "synchrony_standard"
		if _, err := f.submit(t, c, key, "Approve", "123450031"); err != nil {
			t.Fatal(err)
		}
		code := f.confirmPlan(t, c, key)
		id := c.Session.ApplicationID
		for _, bad := range []*flow.AmountChange{
			{FromCents: 450_000, AmountCents: 450_000, Reason: "Same."},
			{FromCents: 450_000, AmountCents: 50, Reason: "Too small."},
			{FromCents: 450_000, AmountCents: 300_000, Reason: ""},
		} {
			if _, err := f.svc.ChangeAmount(ctx, id, "bad", bad); chairside.ErrorCode(err) != chairside.EINVALID {
				t.Errorf("%+v: %v", bad, err)
			}
		}
		ch := &flow.AmountChange{FromCents: 450_000, AmountCents: 520_000, Reason: "An implant added."}
		got, err := f.svc.ChangeAmount(ctx, id, "up", ch)
		if err != nil || got.Status != chairside.ChangeDone || got.Replayed || len(got.Lenders) != 1 || got.Lenders[0].Accepted {
			t.Fatalf("change: %+v %v", got, err)
		}
		again, err := f.svc.ChangeAmount(ctx, id, "up", ch)
		if err != nil || !again.Replayed || again.ToCents != 520_000 {
			t.Fatalf("the same change again: %+v %v", again, err)
		}
		if n, _ := f.log.count(sandbox.OpAmount); n != 0 {
			t.Errorf("the lender was asked %d times", n)
		}
		pa, err := f.db.FindLenderApplication(ctx, id, key)
		if err != nil || pa.Status != chairside.StatusDecided || pa.SelectedPlanCode != "" || pa.OfferRound != 1 {
			t.Fatalf("after the change: %+v %v", pa, err)
		}
		if _, err := f.svc.ConfirmPlan(ctx, c, key, code); chairside.ErrorCode(err) != chairside.EAMOUNT {
			t.Errorf("confirming the old plan: %v", err)
		}
		if _, err := f.svc.SelectPlan(ctx, c, key, code); chairside.ErrorCode(err) != chairside.EAMOUNT {
			t.Errorf("selecting the old plan: %v", err)
		}
		if amount, _, n := sumOf(f.line(t, id), chairside.MoneyAmountChanged); n != 1 || amount != 520_000 {
			t.Errorf("amount_changed entries: %d of %d", n, amount)
		}
	})
}
