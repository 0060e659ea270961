package main

import (
	"context"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/demo"
	"github.com/chairside/chairside/lender"
	"github.com/chairside/chairside/lender/lendersim"
	"github.com/chairside/chairside/lender/protocol"
	"github.com/chairside/chairside/testkit"
)

// TestFundingWebhooksOverHTTP: with two lenders over HTTP (Synchrony at
// the demo office, Fortiva at its own), a case completed over the API
// reaches funded and deposited on the money line, with fee and net adding
// up to the amount signed, however the simulator's funding webhooks come:
//   - twice each, with the same id: kept once, the repeats answered
//     duplicate;
//   - out of order, the deposit before its funding: the deposit brings
//     the funding, and the funding after it is ignored;
//   - never: the server's own reconciler asks GET …/funding and catches
//     up.
//
// Each lender goes through the three in turn, beside the other; on both
// engines.
func TestFundingWebhooksOverHTTP(t *testing.T) {
	t.Parallel()
	eachDB(t, func(t *testing.T, dsn string) {
		t.Parallel() // the engines side by side: each waits for the reconciler's first poll
		s := startWithSim(t, dsn)
		for i, lc := range []moneyCase{
			{key: "synchrony_standard", office: demo.EntityKey},
			{key: "fortiva_standard", office: fortivaOffice, cardholder: true},
		} {
			t.Run(lc.key, func(t *testing.T) {
				t.Parallel()
				lc.ssn = fmt.Sprintf("1234513%d", i)
				fundingScenarios(t, s, lc)
			})
		}
	})
}

// moneyCase is a lender whose cases a test completes at an office whose
// first lender it is: cardholder when its cardholder agreement comes
// between signing and completing (Fortiva); ssn the first seven digits
// of its patients' numbers.
type moneyCase struct {
	key, office string
	cardholder  bool
	ssn         string
}

// fundingScenarios completes one case of lc's lender under each webhook
// fault in turn, each deposited before the next begins (a deposit carries
// every case of the lender funded that day).
func fundingScenarios(t *testing.T, s *simSetup, lc moneyCase) {
	fault(t, s, lc.key, lendersim.Fault{Kind: lendersim.FaultWebhookTwice})
	dup := webhookCount(t, s, lc.key, chairside.EventDuplicate)
	id, ref := completeCase(t, s, lc, lc.ssn+"1")
	checkDeposited(t, "twice", waitDeposited(t, s, id))
	// Each event is delivered twice with its id. Deliveries run side by
	// side, so on a loaded machine the deposit's may overtake the
	// funding's: the order is the reorder scenario's business, not this one's.
	got := waitDeliveries(t, s, lc.key, ref, "funding.updated ×2 and deposit.sent ×2", func(ds []lendersim.Delivery) bool {
		return len(ds) == 4
	})
	byType := map[string]map[string]int{}
	for _, d := range got {
		if byType[d.Type] == nil {
			byType[d.Type] = map[string]int{}
		}
		byType[d.Type][d.EventID]++
	}
	for _, typ := range []string{protocol.EventFundingUpdated, protocol.EventDepositSent} {
		if ids := byType[typ]; len(ids) != 1 || slices.Max(slices.Collect(maps.Values(ids))) != 2 {
			t.Fatalf("twice: %s delivered %v, want one event twice (deliveries %+v)", typ, ids, got)
		}
	}
	if n := webhookCount(t, s, lc.key, chairside.EventDuplicate) - dup; n != 2 {
		t.Errorf("twice: %d deliveries answered duplicate, want 2", n)
	}

	fault(t, s, lc.key, lendersim.Fault{Kind: lendersim.FaultWebhookReorder, Op: protocol.EventFundingUpdated, Count: 1})
	ignored := webhookCount(t, s, lc.key, chairside.EventIgnored)
	id, ref = completeCase(t, s, lc, lc.ssn+"2")
	checkDeposited(t, "out of order", waitDeposited(t, s, id))
	got = waitDeliveries(t, s, lc.key, ref, "deposit.sent, then funding.updated", func(ds []lendersim.Delivery) bool { return len(ds) == 2 })
	if got[0].Type != protocol.EventDepositSent || got[1].Type != protocol.EventFundingUpdated {
		t.Fatalf("out of order: deliveries %+v", got)
	}
	if n := webhookCount(t, s, lc.key, chairside.EventIgnored) - ignored; n != 1 {
		t.Errorf("out of order: %d deliveries answered ignored, want 1 (the funding after its deposit)", n)
	}

	fault(t, s, lc.key, lendersim.Fault{Kind: lendersim.FaultWebhookNever})
	polls := s.sim.Hits(lc.key, lender.OpFunding)
	id, ref = completeCase(t, s, lc, lc.ssn+"3")
	checkDeposited(t, "never", waitDeposited(t, s, id))
	if s.sim.Hits(lc.key, lender.OpFunding) == polls {
		t.Error("never: deposited, yet the reconciler never asked the lender")
	}
	if ds := deliveriesOf(s, lc.key, ref); len(ds) != 0 {
		t.Errorf("never: delivered %+v", ds)
	}
}

func fault(t *testing.T, s *simSetup, key string, f lendersim.Fault) {
	t.Helper()
	if err := s.sim.SetFault(key, f); err != nil {
		t.Fatal(err)
	}
}

// completeCase walks a patient through lc's journey over the API at its
// office — prequalify, the first plan for $3,000, accept, e-sign (and
// Fortiva's cardholder agreement), complete — and answers the
// application's id and its lender's id for it.
func completeCase(t *testing.T, s *simSetup, lc moneyCase, ssn string) (string, string) {
	t.Helper()
	p := "/providers/" + lc.key
	c := s.client()
	if _, err := c.Start(lc.office); err != nil {
		t.Fatal(err)
	}
	if d := s.submit(t, c, lc.key, "Approve", ssn); !chairside.Positive(fmt.Sprint(d["responseCode"])) {
		t.Fatalf("%s prequalify: %v", lc.key, d)
	}
	var plans struct {
		PaymentPlans []struct {
			Code string `json:"providerPlanCode"`
		} `json:"paymentPlans"`
	}
	if err := c.Call("POST", p+"/payment/plans", map[string]any{"amountCents": 300_000}, &plans); err != nil || len(plans.PaymentPlans) == 0 {
		t.Fatalf("plans: %v", err)
	}
	code := plans.PaymentPlans[0].Code
	for _, path := range []string{p + "/payment/plans/" + code + "/select", p + "/payment/plans/" + code + "/confirm-selection", p + "/acceptOffer"} {
		if err := c.Call("POST", path, map[string]any{}, nil); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
	}
	esign, err := c.SigningConsents(lc.key, testkit.SignaturePNG(t))
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Call("POST", p+"/application/esign", esign, nil); err != nil {
		t.Fatalf("esign: %v", err)
	}
	if lc.cardholder {
		cardholder, err := c.Consent(lc.key, "cardholder_agreement")
		if err != nil {
			t.Fatal(err)
		}
		if err := c.Call("POST", p+"/application/cardholder-agreement", map[string]any{"consent": cardholder}, nil); err != nil {
			t.Fatalf("cardholder agreement: %v", err)
		}
	}
	if err := c.Call("POST", p+"/application/complete", map[string]any{}, nil); err != nil {
		t.Fatalf("complete: %v", err)
	}
	ctx := context.Background()
	sess, err := s.m.svc.Authenticate(ctx, c.SessionID)
	if err != nil {
		t.Fatal(err)
	}
	pa, err := s.m.store.FindLenderApplication(ctx, sess.ApplicationID, lc.key)
	if err != nil {
		t.Fatal(err)
	}
	return sess.ApplicationID, pa.LenderRef
}

// waitDeposited polls the application's money line until it ends
// deposited, or a deadline passes (long enough for the reconciler: its
// first poll comes chairside.FundingFirstPoll after completion), and
// answers the last line read.
func waitDeposited(t *testing.T, s *simSetup, id string) []*chairside.MoneyEntry {
	t.Helper()
	deadline := time.Now().Add(45 * time.Second)
	for {
		line, err := s.m.store.MoneyLine(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		if line[len(line)-1].Kind == chairside.MoneyDeposited || time.Now().After(deadline) {
			return line
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// checkDeposited fails unless line is a whole funding: approved, signed,
// completed, funded for the amount signed with fee and net adding up to
// it, and deposited with the funding's net under its deposit reference.
func checkDeposited(t *testing.T, name string, line []*chairside.MoneyEntry) {
	t.Helper()
	var kinds []string
	for _, e := range line {
		kinds = append(kinds, e.Kind)
	}
	if fmt.Sprint(kinds) != "[approved signed completed funded deposited]" {
		t.Fatalf("%s: money line %v", name, kinds)
	}
	signed, funded, deposited := line[1], line[3], line[4]
	if funded.AmountCents != signed.AmountCents || funded.FeeCents <= 0 || funded.FeeCents+funded.NetCents != funded.AmountCents {
		t.Fatalf("%s: funded %+v, signed for %d", name, funded, signed.AmountCents)
	}
	if deposited.Reference != funded.DepositRef || deposited.NetCents != funded.NetCents || !deposited.On.Equal(funded.DepositOn) {
		t.Fatalf("%s: deposited %+v, funded %+v", name, deposited, funded)
	}
}

// deliveriesOf are the lender's webhook deliveries about the lender's
// application ref, in the order the server answered them.
func deliveriesOf(s *simSetup, key, ref string) []lendersim.Delivery {
	var out []lendersim.Delivery
	for _, d := range s.sim.Deliveries(key) {
		if slices.Contains(d.ApplicationIDs, ref) {
			out = append(out, d)
		}
	}
	return out
}

// waitDeliveries polls the deliveries about ref until ok accepts them, or
// fails after a while.
func waitDeliveries(t *testing.T, s *simSetup, key, ref, what string, ok func([]lendersim.Delivery) bool) []lendersim.Delivery {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		ds := deliveriesOf(s, key, ref)
		if ok(ds) {
			return ds
		}
		if time.Now().After(deadline) {
			t.Fatalf("waited for %s; delivered %+v", what, ds)
		}
	}
}

// webhookCount reads /metrics' count of the lender's webhooks with a
// result (0 before the first).
func webhookCount(t *testing.T, s *simSetup, key, result string) int {
	t.Helper()
	re := regexp.MustCompile(fmt.Sprintf(`(?m)^chairside_lender_webhooks_total\{lender=%q,result=%q\} (\d+)$`, key, result))
	m := re.FindStringSubmatch(s.scrape(t))
	if m == nil {
		return 0
	}
	n, _ := strconv.Atoi(m[1])
	return n
}
