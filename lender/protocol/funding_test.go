package protocol_test

import (
	"reflect"
	"testing"
	"time"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/lender/protocol"
)

// TestFundingCarriesEveryField: every field of a funding answer and of a
// change's answer goes to the wire and back unchanged.
func TestFundingCarriesEveryField(t *testing.T) {
	var st chairside.FundingStatus
	fill(t, &st)
	wire := roundTrip(t, protocol.FromFunding("A1", &st))
	if wire.ApplicationID != "A1" || wire.Currency != protocol.Currency {
		t.Fatalf("wire %+v", wire)
	}
	if got := wire.Chairside(); !reflect.DeepEqual(*got, st) {
		t.Fatalf("funding round trip\n got %+v\nwant %+v", *got, st)
	}
	var a chairside.ChangeAnswer
	fill(t, &a)
	w := roundTrip(t, protocol.FromChangeAnswer("A1", "ref-1", &a))
	if got := w.Chairside(); w.ApplicationID != "A1" || w.PlatformReference != "ref-1" || !reflect.DeepEqual(*got, a) {
		t.Fatalf("change answer round trip\n got %+v\nwant %+v", *got, a)
	}
	// A waiting answer carries no zero days.
	if w := protocol.FromFunding("A1", &chairside.FundingStatus{State: chairside.FundingWaiting}); w.FundedOn != nil || w.DepositOn != nil || w.ExpectedOn != nil {
		t.Fatalf("zero days on the wire: %+v", w)
	}
}

// deposited is a deposited funding of application id whose amounts add up.
func deposited(id string) protocol.Funding {
	on := time.Date(2026, 3, 4, 0, 0, 0, 0, time.UTC)
	return protocol.Funding{ApplicationID: id, State: chairside.FundingDeposited, FundingRef: "F-" + id, Currency: protocol.Currency,
		GrossCents: 100_000, FeeCents: 2_500, FeeRateBP: 250, NetCents: 97_500, FundedOn: &on, DepositRef: "D-1", DepositOn: &on}
}

// TestFundingValidate refuses a funding answer whose money could not be
// kept, and takes a waiting or held one without amounts.
func TestFundingValidate(t *testing.T) {
	good := deposited("A1")
	if err := good.Validate("A1"); err != nil {
		t.Fatal(err)
	}
	for _, f := range []protocol.Funding{
		{ApplicationID: "A1", State: chairside.FundingWaiting, Currency: protocol.Currency},
		{ApplicationID: "A1", State: chairside.FundingHeld, HeldReason: "review", Currency: protocol.Currency},
	} {
		if err := f.Validate("A1"); err != nil {
			t.Errorf("%s: %v", f.State, err)
		}
	}
	for name, edit := range map[string]func(*protocol.Funding){
		"another application": func(f *protocol.Funding) { f.ApplicationID = "A2" },
		"another currency":    func(f *protocol.Funding) { f.Currency = "EUR" },
		"unknown state":       func(f *protocol.Funding) { f.State = "lost" },
		"no funding ref":      func(f *protocol.Funding) { f.FundingRef = "" },
		"no deposit ref":      func(f *protocol.Funding) { f.DepositRef = "" },
		"no funded day":       func(f *protocol.Funding) { f.FundedOn = nil },
		"no deposit day":      func(f *protocol.Funding) { f.DepositOn = nil },
		"no gross":            func(f *protocol.Funding) { f.GrossCents, f.FeeCents, f.NetCents = 0, 0, 0 },
		"negative fee":        func(f *protocol.Funding) { f.FeeCents, f.NetCents = -1, 100_001 },
		"negative rate":       func(f *protocol.Funding) { f.FeeRateBP = -1 },
		"not adding up":       func(f *protocol.Funding) { f.NetCents++ },
	} {
		f := deposited("A1")
		edit(&f)
		if f.Validate("A1") == nil {
			t.Errorf("%s accepted", name)
		}
	}
}

// TestChangeAnswerValidate refuses an answer for another change, an
// unknown status, a done one without the lender's reference, a negative
// fee.
func TestChangeAnswerValidate(t *testing.T) {
	good := protocol.ChangeAnswer{ApplicationID: "A1", PlatformReference: "ref-1", Status: chairside.ChangeDone, Reference: "R-1", FeeReturnedCents: 10}
	if err := good.Validate("A1", "ref-1"); err != nil {
		t.Fatal(err)
	}
	for _, status := range []string{chairside.ChangeTooLate, chairside.ChangeRefused} {
		a := protocol.ChangeAnswer{ApplicationID: "A1", PlatformReference: "ref-1", Status: status, Message: "why"}
		if err := a.Validate("A1", "ref-1"); err != nil {
			t.Errorf("%s: %v", status, err)
		}
	}
	for name, edit := range map[string]func(*protocol.ChangeAnswer){
		"another application": func(a *protocol.ChangeAnswer) { a.ApplicationID = "A2" },
		"another change":      func(a *protocol.ChangeAnswer) { a.PlatformReference = "ref-2" },
		"unknown status":      func(a *protocol.ChangeAnswer) { a.Status = "maybe" },
		"done without ref":    func(a *protocol.ChangeAnswer) { a.Reference = "" },
		"negative fee":        func(a *protocol.ChangeAnswer) { a.FeeReturnedCents = -1 },
	} {
		a := good
		edit(&a)
		if a.Validate("A1", "ref-1") == nil {
			t.Errorf("%s accepted", name)
		}
	}
}

// TestEventValidate: each event type needs what its receiver acts on; a
// funding.updated is held or funded news, a deposit carries each of its
// applications once, deposited in it; an event of a type we do not know
// is valid (and ignored by the receiver).
func TestEventValidate(t *testing.T) {
	at := time.Date(2026, 3, 4, 0, 0, 0, 0, time.UTC)
	funded := deposited("A1")
	funded.State = chairside.FundingFunded
	held := protocol.Funding{ApplicationID: "A1", State: chairside.FundingHeld, HeldReason: "review", Currency: protocol.Currency}
	ev := func(typ string, d protocol.EventData) protocol.Event {
		return protocol.Event{ID: "evt-1", Type: typ, CreatedAt: at, Data: d}
	}
	dep := func(fs ...protocol.Funding) protocol.EventData {
		return protocol.EventData{Deposit: &protocol.Deposit{Reference: "D-1", On: at, Fundings: fs}}
	}
	for name, e := range map[string]protocol.Event{
		"application.updated": ev(protocol.EventApplicationUpdated, protocol.EventData{ApplicationID: "A1"}),
		"funded":              ev(protocol.EventFundingUpdated, protocol.EventData{ApplicationID: "A1", Funding: &funded}),
		"held":                ev(protocol.EventFundingUpdated, protocol.EventData{ApplicationID: "A1", Funding: &held}),
		"deposit":             ev(protocol.EventDepositSent, dep(deposited("A1"), deposited("A2"))),
		"another type":        ev("account.closed", protocol.EventData{}),
	} {
		if err := e.Validate(); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	waiting := protocol.Funding{ApplicationID: "A1", State: chairside.FundingWaiting, Currency: protocol.Currency}
	asDeposited, otherDeposit, notAddingUp := deposited("A1"), deposited("A2"), funded
	otherDeposit.DepositRef = "D-2"
	notAddingUp.FeeCents++
	for name, e := range map[string]protocol.Event{
		"no id":                     {Type: protocol.EventApplicationUpdated, Data: protocol.EventData{ApplicationID: "A1"}},
		"no type":                   {ID: "evt-1", Data: protocol.EventData{ApplicationID: "A1"}},
		"application without id":    ev(protocol.EventApplicationUpdated, protocol.EventData{}),
		"funding without funding":   ev(protocol.EventFundingUpdated, protocol.EventData{ApplicationID: "A1"}),
		"funding of another app":    ev(protocol.EventFundingUpdated, protocol.EventData{ApplicationID: "A2", Funding: &funded}),
		"funding waiting":           ev(protocol.EventFundingUpdated, protocol.EventData{ApplicationID: "A1", Funding: &waiting}),
		"funding deposited":         ev(protocol.EventFundingUpdated, protocol.EventData{ApplicationID: "A1", Funding: &asDeposited}),
		"funding not adding up":     ev(protocol.EventFundingUpdated, protocol.EventData{ApplicationID: "A1", Funding: &notAddingUp}),
		"deposit without deposit":   ev(protocol.EventDepositSent, protocol.EventData{}),
		"deposit without fundings":  ev(protocol.EventDepositSent, dep()),
		"deposit of a funded":       ev(protocol.EventDepositSent, dep(funded)),
		"deposit of another's":      ev(protocol.EventDepositSent, dep(deposited("A1"), otherDeposit)),
		"deposit with an app twice": ev(protocol.EventDepositSent, dep(deposited("A1"), deposited("A1"))),
		"deposit without a day": {ID: "evt-1", Type: protocol.EventDepositSent, Data: protocol.EventData{Deposit: &protocol.Deposit{
			Reference: "D-1", Fundings: []protocol.Funding{deposited("A1")}}}},
		"deposit without a reference": {ID: "evt-1", Type: protocol.EventDepositSent, Data: protocol.EventData{Deposit: &protocol.Deposit{
			On: at, Fundings: []protocol.Funding{deposited("A1")}}}},
	} {
		if e.Validate() == nil {
			t.Errorf("%s accepted", name)
		}
	}
}
