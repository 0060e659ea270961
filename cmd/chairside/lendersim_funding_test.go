package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/lender/httplender"
	"github.com/chairside/chairside/lender/protocol"
)

// TestLenderSimFundingDay: `chairside lendersim -funding-day 50ms`, with a
// webhook-reorder fault on funding.updated from the command line, funds
// and deposits a case completed over our protocol in well under a second
// of business days: its two webhooks come signed with -webhook-secret,
// the deposit before its funding, and GET …/funding answers deposited. A
// negative -funding-day is refused.
func TestLenderSimFundingDay(t *testing.T) {
	const secret, key = "sim-secret", "synchrony_standard"
	var mu sync.Mutex
	var types []string
	rcv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var ev protocol.Event
		if protocol.VerifySignature([]byte(secret), r.Header.Get(protocol.SignatureHeader), body, time.Now()) != nil || json.Unmarshal(body, &ev) != nil {
			w.WriteHeader(http.StatusForbidden)
			return
		}
		mu.Lock()
		types = append(types, ev.Type)
		mu.Unlock()
	}))
	t.Cleanup(rcv.Close)
	base := startSubcommand(t, "-api-key", "k1", "-funding-day", "50ms", "-webhook-url", rcv.URL+"/{providerKey}",
		"-webhook-secret", secret, "-fault", key+"=webhook-reorder,op="+protocol.EventFundingUpdated)
	l, err := httplender.New(httplender.Config{LenderKey: key, BaseURL: base + "/lenders/" + key, APIKey: "k1"})
	if err != nil {
		t.Fatal(err)
	}
	id := completeAtLender(t, l, key)
	var got []string
	for deadline := time.Now().Add(10 * time.Second); len(got) < 2 && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		mu.Lock()
		got = slices.Clone(types)
		mu.Unlock()
	}
	if want := []string{protocol.EventDepositSent, protocol.EventFundingUpdated}; !slices.Equal(got, want) {
		t.Fatalf("webhooks %v, want %v", got, want)
	}
	st, err := l.Funding(context.Background(), &chairside.FundingRequest{LenderKey: key, LenderRef: id})
	if err != nil || st.State != chairside.FundingDeposited {
		t.Fatalf("funding: %+v %v", st, err)
	}
	if err := run(context.Background(), []string{"lendersim", "-funding-day", "-1s"}, &lockedBuffer{}, &lockedBuffer{}); err == nil {
		t.Fatal("a negative -funding-day was accepted")
	}
}

// startSubcommand runs `chairside lendersim` with args on a free port
// until the test ends, and answers its base URL.
func startSubcommand(t *testing.T, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	out := &lockedBuffer{}
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, append([]string{"lendersim", "-addr", "127.0.0.1:0"}, args...), out, &lockedBuffer{})
	}()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("lendersim ended with %v", err)
		}
	})
	listening := regexp.MustCompile(`listening on (http://[0-9.:]+)/lenders/\{providerKey\}`)
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if m := listening.FindStringSubmatch(out.String()); m != nil {
			return m[1]
		}
	}
	t.Fatalf("no listening line: %q", out.String())
	return ""
}

// completeAtLender decides an Approve applicant at the lender, accepts its
// first plan, signs and completes it, and answers the application's id.
func completeAtLender(t *testing.T, l *httplender.Lender, key string) string {
	t.Helper()
	ctx := context.Background()
	income := int64(9_000_000)
	d, err := l.Decide(ctx, &chairside.DecisionRequest{LenderKey: key, Operation: "apply", Reference: "fd-1", Role: "primary",
		LocationState: "NV", PurchaseAmountCents: 300_000, Now: time.Now().UTC(), Primary: chairside.Applicant{FirstName: "Ada",
			LastName: "Approve", DateOfBirth: "1980-04-02", SSN: "123456789", AddressLine1: "1 Main St", AddressCity: "Reno",
			AddressState: "NV", AddressZipCode: "89501", AnnualGrossIncome: &income}})
	if err != nil || !chairside.Positive(d.ResponseCode) {
		t.Fatalf("decide: %+v %v", d, err)
	}
	plans, err := l.Plans(ctx, &chairside.PlansRequest{LenderKey: key, LenderRef: d.LenderRef, AmountCents: 300_000})
	if err != nil || len(plans) == 0 {
		t.Fatalf("plans: %v %v", plans, err)
	}
	offer := &chairside.OfferRequest{LenderKey: key, LenderRef: d.LenderRef, LenderPlanCode: plans[0].LenderPlanCode,
		AmountCents: plans[0].AmountFinancedCents}
	for _, step := range []string{"accept", "esign", "complete"} {
		offer.Reference = "fd-1-" + step
		switch step {
		case "accept":
			err = l.AcceptOffer(ctx, offer)
		case "esign":
			err = l.ESign(ctx, offer)
		default:
			_, err = l.Complete(ctx, offer)
		}
		if err != nil {
			t.Fatalf("%s: %v", step, err)
		}
	}
	return d.LenderRef
}
