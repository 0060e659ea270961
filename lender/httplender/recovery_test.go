package httplender_test

import (
	"context"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/catalogue"
	"github.com/chairside/chairside/lender"
	"github.com/chairside/chairside/lender/httplender"
	"github.com/chairside/chairside/lender/lendersim"
	"github.com/chairside/chairside/lender/sandbox"
)

// TestDroppedDecideRecoveredByLookup: the lender creates the application
// and the connection drops before the answer. The adapter asks for the
// application by platform reference instead of sending the create again:
// the lender ran the create exactly once, and the decision returned is
// the lender's.
func TestDroppedDecideRecoveredByLookup(t *testing.T) {
	r := newRig(t, catalogue.Synchrony, nil)
	// A first call leaves an idle connection, which the create reuses:
	// net/http repeats on its own a request with an Idempotency-Key that
	// fails on a reused connection, unless the adapter prevents it.
	if _, err := r.l.Document(context.Background(), &chairside.DocumentRequest{LenderKey: r.key, Kind: "terms"}); err != nil {
		t.Fatal(err)
	}
	r.fault(t, lendersim.Fault{Kind: lendersim.FaultDrop, Op: lender.OpDecide, Count: 1})
	req := decideReq(r.key, "ref-drop", "Approve")
	got, err := r.l.Decide(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if n := r.sim.Creates(r.key, "ref-drop"); n != 1 {
		t.Fatalf("the create ran %d times, want 1", n)
	}
	if d, l := r.sim.Hits(r.key, lender.OpDecide), r.sim.Hits(r.key, lendersim.OpLookup); d != 1 || l != 1 {
		t.Fatalf("%d creates and %d lookups sent, want 1 and 1", d, l)
	}
	held, ok := r.sim.Application(r.key, got.LenderRef)
	if !ok {
		t.Fatalf("the lender holds no application %s", got.LenderRef)
	}
	if want := held.Chairside(r.key, "apply"); !reflect.DeepEqual(got, want) {
		t.Fatalf("decision\n got %+v\nwant %+v", got, want)
	}
	// And it is the sandbox's own decision, field for field.
	sl, _ := sandbox.New(sandbox.Options{}).Lender(r.key)
	direct, err := sl.Decide(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	direct.CreatedAt = time.Time{}
	if !reflect.DeepEqual(got, direct) {
		t.Fatalf("over HTTP\n got %+v\nsandbox %+v", got, direct)
	}
}

// TestSlowCreateLookedUpThenSent: a create that timed out before the
// lender ran it is looked up, not found, and sent again under the same
// key; it runs once.
func TestSlowCreateLookedUpThenSent(t *testing.T) {
	// The time-out leaves a loaded machine room for the look-up itself; the
	// slow create still outlasts it several times over.
	r := newRig(t, catalogue.Synchrony, func(c *httplender.Config) { c.Timeout = 600 * time.Millisecond })
	r.fault(t, lendersim.Fault{Kind: lendersim.FaultSlow, Delay: 2 * time.Second, Op: lender.OpDecide, Count: 1})
	d, err := r.l.Decide(context.Background(), decideReq(r.key, "ref-slow-create", "Approve"))
	if err != nil || d.ResponseCode != chairside.ResponseApproved {
		t.Fatalf("%+v %v", d, err)
	}
	if c, h, l := r.sim.Creates(r.key, "ref-slow-create"), r.sim.Hits(r.key, lender.OpDecide), r.sim.Hits(r.key, lendersim.OpLookup); c != 1 || h != 2 || l != 1 {
		t.Fatalf("creates %d, create requests %d, lookups %d; want 1, 2, 1", c, h, l)
	}
}

// TestConcurrentDecideCreatesOnce: twenty identical submits at once under
// one Reference make one application, and all get its id.
func TestConcurrentDecideCreatesOnce(t *testing.T) {
	r := newRig(t, catalogue.ADS, nil)
	var wg sync.WaitGroup
	ids := make([]string, 20)
	errs := make([]error, 20)
	for i := range ids {
		wg.Go(func() {
			d, err := r.l.Decide(context.Background(), decideReq(r.key, "ref-many", "Approve"))
			errs[i] = err
			if err == nil {
				ids[i] = d.LenderRef
			}
		})
	}
	wg.Wait()
	for i := range ids {
		if errs[i] != nil || ids[i] == "" || ids[i] != ids[0] {
			t.Fatalf("call %d: %q %v (first %q)", i, ids[i], errs[i], ids[0])
		}
	}
	if n := r.sim.Creates(r.key, "ref-many"); n != 1 {
		t.Fatalf("the create ran %d times, want 1", n)
	}
}

// TestCardNeverInErrorsOrLogs: the card number and CVV, bank numbers and
// the SSN appear in no error and no log line, whatever the failure.
func TestCardNeverInErrorsOrLogs(t *testing.T) {
	r := newRig(t, catalogue.HFD, func(c *httplender.Config) { c.MaxAttempts = 2 })
	ctx := context.Background()
	d, err := r.l.Decide(ctx, decideReq(r.key, "ref-card", "Approve"))
	if err != nil {
		t.Fatal(err)
	}
	card := &chairside.BankCardRequest{LenderKey: r.key, LenderRef: d.LenderRef, CardholderName: "Ada Example",
		Number: sandbox.RefusedCard, ExpiryMonth: 12, ExpiryYear: time.Now().Year() + 2, CVV: "739", ZIP: "89501", Reference: "ref-card-1"}
	err = r.l.AddCard(ctx, card)
	lenderErr(t, err, lender.KindRejected)
	fe := chairside.FieldErrorsOf(err)
	if chairside.ErrorCode(err) != chairside.EINVALID || len(fe) != 1 || fe[0].Field != "bankCard.cardNumber" {
		t.Fatalf("refused card: %v %+v", err, fe)
	}
	var errText []string
	errText = append(errText, err.Error())
	r.fault(t, lendersim.Fault{Kind: lendersim.Fault5xx})
	card.Number, card.Reference = "4111111111111111", "ref-card-2"
	errText = append(errText, r.l.AddCard(ctx, card).Error())
	acct := &chairside.BankAccountRequest{LenderKey: r.key, LenderRef: d.LenderRef, RoutingNumber: "011000015",
		AccountNumber: "000123456789", BankName: "First Test Bank", AccountType: "checking", Reference: "ref-acct"}
	errText = append(errText, r.l.AddBankAccount(ctx, acct).Error())
	r.fault(t, lendersim.Fault{Kind: lendersim.FaultDrop})
	_, err = r.l.Decide(ctx, decideReq(r.key, "ref-card-decide", "Approve"))
	errText = append(errText, err.Error())
	all := strings.Join(errText, "\n") + "\n" + r.logs.String()
	for _, secret := range []string{sandbox.RefusedCard, "4111111111111111", "011000015", "000123456789", "123456789", "Ada"} {
		if strings.Contains(all, secret) {
			t.Errorf("%q appears in an error or a log line:\n%s", secret, all)
		}
	}
	// Three digits may well be part of a duration in a log line; errors
	// carry none.
	if errs := strings.Join(errText, "\n"); strings.Contains(errs, "739") {
		t.Errorf("the CVV appears in an error:\n%s", errs)
	}
	if !strings.Contains(r.logs.String(), "lender call failed") {
		t.Fatalf("nothing was logged:\n%s", r.logs.String())
	}
}
