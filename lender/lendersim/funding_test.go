package lendersim_test

import (
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"slices"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/catalogue"
	"github.com/chairside/chairside/lender/lendersim"
	"github.com/chairside/chairside/lender/protocol"
)

// fundingDay is the simulator's business day in these tests: Synchrony,
// ADS, Genesis and CoveredCare fund two of them after completion and
// deposit one later; a case held for review funds two days later still.
const fundingDay = 100 * time.Millisecond

// completedApp creates an Approve application at key (under testCase,
// when set), accepts its first plan for $3,000, signs and completes it
// over the protocol, and answers its id.
func completedApp(t *testing.T, srv *httptest.Server, key, ref, testCase string) string {
	t.Helper()
	in := create(ref, "Approve")
	in.TestCase = testCase
	var d protocol.Decision
	send(t, srv, "POST", lenderPath(key, "/applications"), ref, in).decode(t, &d)
	if d.Status != protocol.StatusApproved {
		t.Fatalf("%s create: %+v", key, d)
	}
	var plans protocol.Plans
	send(t, srv, "GET", lenderPath(key, protocol.ApplicationPath(d.ApplicationID, protocol.SubPlans)+"?amountCents=300000"), "", nil).decode(t, &plans)
	if len(plans.Plans) == 0 {
		t.Fatalf("%s: no plans", key)
	}
	for i, sub := range []string{protocol.SubAccept, protocol.SubESign, protocol.SubComplete} {
		k := fmt.Sprintf("%s-%d", ref, i)
		offer := protocol.Offer{PlatformReference: k, PlanCode: plans.Plans[0].PlanCode, AmountCents: 300_000, Currency: protocol.Currency}
		if a := send(t, srv, "POST", lenderPath(key, protocol.ApplicationPath(d.ApplicationID, sub)), k, offer); a.status != 200 {
			t.Fatalf("%s %s: %d %s", key, sub, a.status, a.body)
		}
	}
	return d.ApplicationID
}

// about is what an event says of application id: its type, and the
// funding state it carries for id ("" when it names id nowhere).
func about(ev protocol.Event, id string) string {
	if f := ev.Data.Funding; f != nil && ev.Data.ApplicationID == id {
		return ev.Type + " " + f.State
	}
	if d := ev.Data.Deposit; d != nil {
		for _, f := range d.Fundings {
			if f.ApplicationID == id {
				return ev.Type + " " + f.State
			}
		}
	}
	return ""
}

// story is what the events say of application id, in order.
func story(evs []protocol.Event, id string) []string {
	var out []string
	for _, ev := range evs {
		if a := about(ev, id); a != "" {
			out = append(out, a)
		}
	}
	return out
}

// depositedBy reports whether a deposit.sent has carried each of ids.
func depositedBy(ids ...string) func([]protocol.Event) bool {
	return func(evs []protocol.Event) bool {
		for _, id := range ids {
			if !slices.Contains(story(evs, id), protocol.EventDepositSent+" "+chairside.FundingDeposited) {
				return false
			}
		}
		return true
	}
}

// TestFundingWebhooks: after completion the simulator announces the money
// on its own, as the sandbox's funding clock moves: a case is funded, then
// deposited; a case held for review is held, funded, then deposited. Each
// event is signed, passes the protocol's checks and matches
// api/lender-protocol.yaml; the deposit carries what GET …/funding answers.
func TestFundingWebhooks(t *testing.T) {
	rc, url := newReceiver(t, 0)
	sim, srv := start(t, lendersim.Options{WebhookURL: url, WebhookSecret: webhookSecret, FundingDay: fundingDay})
	key := catalogue.Synchrony
	plain := completedApp(t, srv, key, "ref-fund-plain", "")
	held := completedApp(t, srv, key, "ref-fund-held", "funding-held")
	evs := rc.until(t, "both deposits", depositedBy(plain, held))

	for id, want := range map[string][]string{
		plain: {"funding.updated funded", "deposit.sent deposited"},
		held:  {"funding.updated held", "funding.updated funded", "deposit.sent deposited"},
	} {
		if got := story(evs, id); !slices.Equal(got, want) {
			t.Errorf("events of %s: %v, want %v", id, got, want)
		}
	}
	_, doc := loadContractDoc(t, srv.URL)
	rc.mu.Lock()
	raws := slices.Clone(rc.raws)
	rc.mu.Unlock()
	for i, ev := range evs {
		if err := ev.Validate(); err != nil {
			t.Errorf("event %d: %v", i, err)
		}
		conformEvent(t, doc, raws[i])
	}
	var st protocol.Funding
	send(t, srv, "GET", lenderPath(key, protocol.ApplicationPath(plain, protocol.SubFunding)), "", nil).decode(t, &st)
	for _, ev := range evs {
		if ev.Type != protocol.EventDepositSent {
			continue
		}
		var sum int64
		for _, f := range ev.Data.Deposit.Fundings {
			sum += f.NetCents
			if f.ApplicationID == plain && (f.FundingRef != st.FundingRef || f.NetCents != st.NetCents || f.DepositRef != st.DepositRef) {
				t.Errorf("deposited %+v, GET funding %+v", f, st)
			}
		}
		// Each deposit carries its cases whole here, so the total it
		// states is their nets' sum.
		if ev.Data.Deposit.NetCents != sum || sum == 0 {
			t.Errorf("deposit %s states %d, its cases' nets add up to %d", ev.Data.Deposit.Reference, ev.Data.Deposit.NetCents, sum)
		}
	}
	if n := sim.Webhooks(key); n != len(evs) {
		t.Errorf("the simulator counts %d deliveries, the receiver %d", n, len(evs))
	}
}

// conformEvent holds one delivered event to the document's webhooks
// section.
func conformEvent(t *testing.T, doc *openapi3.T, raw []byte) {
	t.Helper()
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatal(err)
	}
	schema := doc.Webhooks["applicationUpdated"].Post.RequestBody.Value.Content.Get("application/json").Schema.Value
	if err := schema.VisitJSON(v, openapi3.EnableJSONSchema2020()); err != nil {
		t.Errorf("event %s: %v", raw, err)
	}
}

// TestFundingWebhookFaults: the webhook faults aimed at one event type
// make the money's news come out of order (webhook-reorder: the deposit
// before its funding), twice with the same id (webhook-twice), never
// (webhook-never: the deposit still comes, and GET …/funding still
// answers), or late (webhook-late: not before its delay).
func TestFundingWebhookFaults(t *testing.T) {
	rc, url := newReceiver(t, 0)
	sim, srv := start(t, lendersim.Options{WebhookURL: url, WebhookSecret: webhookSecret, FundingDay: fundingDay})
	const late = 300 * time.Millisecond
	faults := map[string]lendersim.Fault{
		catalogue.Synchrony:   {Kind: lendersim.FaultWebhookReorder, Op: protocol.EventFundingUpdated},
		catalogue.ADS:         {Kind: lendersim.FaultWebhookTwice, Op: protocol.EventDepositSent},
		catalogue.Genesis:     {Kind: lendersim.FaultWebhookNever, Op: protocol.EventFundingUpdated},
		catalogue.CoveredCare: {Kind: lendersim.FaultWebhookLate, Op: protocol.EventFundingUpdated, Delay: late},
	}
	ids := map[string]string{}
	for key, f := range faults {
		if err := sim.SetFault(key, f); err != nil {
			t.Fatal(err)
		}
		ids[key] = completedApp(t, srv, key, "ref-fault-"+key, "")
	}
	evs := rc.until(t, "every deposit, and the late funding", func(evs []protocol.Event) bool {
		return depositedBy(ids[catalogue.Synchrony], ids[catalogue.ADS], ids[catalogue.Genesis], ids[catalogue.CoveredCare])(evs) &&
			len(story(evs, ids[catalogue.CoveredCare])) == 2 && len(story(evs, ids[catalogue.Synchrony])) == 2
	})
	funded, deposit := "funding.updated funded", "deposit.sent deposited"
	for key, want := range map[string][]string{
		catalogue.Synchrony: {deposit, funded},
		catalogue.Genesis:   {deposit},
	} {
		if got := story(evs, ids[key]); !slices.Equal(got, want) {
			t.Errorf("%s under %s: %v, want %v", key, faults[key].Kind, got, want)
		}
	}
	// webhook-twice repeats the deposit; its funding goes out beside the
	// deposit, so a loaded machine may deliver either first.
	if got := slices.Sorted(slices.Values(story(evs, ids[catalogue.ADS]))); !slices.Equal(got, []string{deposit, deposit, funded}) {
		t.Errorf("ADS under webhook-twice: %v", story(evs, ids[catalogue.ADS]))
	}
	// The deposit went twice under one id. The funding's delivery and the
	// deposit's run side by side, so the sim may record either first.
	twice := sim.Deliveries(catalogue.ADS)
	var deposits []string
	for _, d := range twice {
		if d.Type == protocol.EventDepositSent {
			deposits = append(deposits, d.EventID)
		}
	}
	if len(twice) != 3 || len(deposits) != 2 || deposits[0] != deposits[1] {
		t.Errorf("ADS deliveries: %+v", twice)
	}
	var st protocol.Funding
	send(t, srv, "GET", lenderPath(catalogue.Genesis, protocol.ApplicationPath(ids[catalogue.Genesis], protocol.SubFunding)), "", nil).decode(t, &st)
	if st.State != chairside.FundingDeposited {
		t.Errorf("Genesis's funding without its webhook: %+v", st)
	}
	rc.mu.Lock()
	defer rc.mu.Unlock()
	for i, ev := range rc.events {
		if ev.Type == protocol.EventFundingUpdated && ev.Data.ApplicationID == ids[catalogue.CoveredCare] {
			if took := rc.at[i].Sub(ev.CreatedAt); took < late {
				t.Errorf("the late funding arrived %s after it was made, before its delay", took)
			}
		}
	}
}

// TestVoidEndsFunding: a case voided before it funds is never funded: no
// funding webhook names it (a case completed after it is deposited
// first), GET …/funding answers 409, a void under another key answers the
// first void, and a refund is refused.
func TestVoidEndsFunding(t *testing.T) {
	rc, url := newReceiver(t, 0)
	_, srv := start(t, lendersim.Options{WebhookURL: url, WebhookSecret: webhookSecret, FundingDay: fundingDay})
	key := catalogue.Synchrony
	voided := completedApp(t, srv, key, "ref-void", "")
	change := func(sub, ref string, amount int64) protocol.ChangeAnswer {
		t.Helper()
		var a protocol.ChangeAnswer
		body := protocol.Change{PlatformReference: ref, AmountCents: amount, Currency: protocol.Currency, Reason: "changed their mind"}
		send(t, srv, "POST", lenderPath(key, protocol.ApplicationPath(voided, sub)), ref, body).decode(t, &a)
		if err := a.Validate(voided, ref); err != nil {
			t.Fatalf("%s %s: %v", sub, ref, err)
		}
		return a
	}
	first := change(protocol.SubVoid, "void-1", 0)
	if first.Status != chairside.ChangeDone {
		t.Fatalf("a void before funding: %+v", first)
	}
	later := completedApp(t, srv, key, "ref-after-void", "")
	evs := rc.until(t, "the later case's deposit", depositedBy(later))
	if got := story(evs, voided); len(got) != 0 {
		t.Errorf("the voided case was announced: %v", got)
	}
	if a := send(t, srv, "GET", lenderPath(key, protocol.ApplicationPath(voided, protocol.SubFunding)), "", nil); a.status != 409 {
		t.Errorf("GET funding of a voided case: %d %s", a.status, a.body)
	}
	if again := change(protocol.SubVoid, "void-2", 0); again.Status != chairside.ChangeDone || again.Reference != first.Reference {
		t.Errorf("a second void: %+v, first %+v", again, first)
	}
	if r := change(protocol.SubRefunds, "refund-1", 10_000); r.Status != chairside.ChangeRefused || r.Message == "" {
		t.Errorf("a refund of a voided case: %+v", r)
	}
}

// TestAmountLetsTheOfferGo: a change of amount after the offer is
// accepted lets it go (done, with the lender's reference), so the patient
// accepts again at the new amount; with no accepted offer, or once the
// application is completed, it is a 409, and a completed case keeps its
// amount.
func TestAmountLetsTheOfferGo(t *testing.T) {
	_, srv := start(t, lendersim.Options{})
	key := catalogue.Synchrony
	in := create("ref-amount", "Approve")
	var d protocol.Decision
	send(t, srv, "POST", lenderPath(key, "/applications"), "ref-amount", in).decode(t, &d)
	var plans protocol.Plans
	send(t, srv, "GET", lenderPath(key, protocol.ApplicationPath(d.ApplicationID, protocol.SubPlans)+"?amountCents=300000"), "", nil).decode(t, &plans)
	if len(plans.Plans) == 0 {
		t.Fatal("no plans")
	}
	accept := func(ref string) {
		t.Helper()
		offer := protocol.Offer{PlatformReference: ref, PlanCode: plans.Plans[0].PlanCode, AmountCents: 300_000, Currency: protocol.Currency}
		if a := send(t, srv, "POST", lenderPath(key, protocol.ApplicationPath(d.ApplicationID, protocol.SubAccept)), ref, offer); a.status != 200 {
			t.Fatalf("accept %s: %d %s", ref, a.status, a.body)
		}
	}
	amount := func(ref string) answer {
		body := protocol.Change{PlatformReference: ref, AmountCents: 250_000, Currency: protocol.Currency, Reason: "one crown less"}
		return send(t, srv, "POST", lenderPath(key, protocol.ApplicationPath(d.ApplicationID, protocol.SubAmount)), ref, body)
	}
	if a := amount("amount-0"); a.status != 409 {
		t.Fatalf("a change of amount before any acceptance: %d %s", a.status, a.body)
	}
	accept("accept-1")
	var a protocol.ChangeAnswer
	amount("amount-1").decode(t, &a)
	if err := a.Validate(d.ApplicationID, "amount-1"); err != nil || a.Status != chairside.ChangeDone || a.Reference == "" {
		t.Fatalf("a change of amount after acceptance: %+v %v", a, err)
	}
	if again := amount("amount-2"); again.status != 409 {
		t.Errorf("a second change with the offer already let go: %d %s", again.status, again.body)
	}
	accept("accept-2")
}
