package flow_test

import (
	"context"
	"testing"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/flow"
	"github.com/chairside/chairside/lender/sandbox"
	"github.com/chairside/chairside/store/storetest"
	"github.com/chairside/chairside/testkit"
)

// TestResubmitAfterTheAmountIsKept: at a link without an amount, the first
// submit carries the amount the patient typed; the form then stops asking
// for it, so the same application sent again (Back, then "Check my options")
// carries none. It is the same submit: the recorded decision answers it,
// without asking the lender again (docs/behaviour.md, "Decision routing").
func TestResubmitAfterTheAmountIsKept(t *testing.T) {
	storetest.EachEngine(t, func(t *testing.T, e storetest.Engine) {
		f := newFixture(t, e, flow.Options{})
		c := f.callerWith(t, flow.StartOptions{})
		ctx := context.Background()
		req := f.request(t, c, "synchrony_standard", flow.OpPrequalify, "Approve", "123450031")
		req.PurchaseAmountCents = testkit.Ptr(int64(300_000))
		first, err := value(f.svc.Submit(ctx, c, "synchrony_standard", flow.OpPrequalify, req))
		if err != nil {
			t.Fatal(err)
		}
		again := f.request(t, c, "synchrony_standard", flow.OpPrequalify, "Approve", "123450031")
		c.IdempotencyKey = "another-page"
		second, err := value(f.svc.Submit(ctx, c, "synchrony_standard", flow.OpPrequalify, again))
		if err != nil {
			t.Fatalf("the same application again: %v", err)
		}
		if n, _ := f.log.count(sandbox.OpDecide); second.ResponseCode != first.ResponseCode || n != 1 {
			t.Fatalf("answered %s after %s, %d lender calls", second.ResponseCode, first.ResponseCode, n)
		}
		// Naming the amount on record is the same submit too; another amount is not.
		again.PurchaseAmountCents = testkit.Ptr(int64(300_000))
		if _, err := value(f.svc.Submit(ctx, c, "synchrony_standard", flow.OpPrequalify, again)); err != nil {
			t.Fatalf("with the amount on record: %v", err)
		}
		again.PurchaseAmountCents = testkit.Ptr(int64(310_000))
		if _, err := value(f.svc.Submit(ctx, c, "synchrony_standard", flow.OpPrequalify, again)); chairside.ErrorCode(err) != chairside.EIDEMPOTENCY {
			t.Fatalf("another amount: %v", err)
		}
	})
}
