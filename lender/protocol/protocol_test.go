package protocol_test

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/lender/protocol"
)

// fill sets every field of the struct v points to a value of its own, so
// that a field a conversion forgets shows up as a difference.
func fill(t *testing.T, v any, skip ...string) {
	t.Helper()
	rv := reflect.ValueOf(v).Elem()
	for i := range rv.NumField() {
		name := rv.Type().Field(i).Name
		if strings.Contains(strings.Join(skip, ","), name) {
			continue
		}
		f := rv.Field(i)
		switch f.Kind() {
		case reflect.String:
			f.SetString("v-" + name)
		case reflect.Int, reflect.Int64:
			f.SetInt(int64(100 + i))
		case reflect.Float64:
			f.SetFloat(float64(i) + 0.25)
		case reflect.Bool:
			f.SetBool(true)
		case reflect.Pointer:
			p := reflect.New(f.Type().Elem())
			p.Elem().SetInt(int64(1000 + i))
			f.Set(p)
		case reflect.Struct:
			f.Set(reflect.ValueOf(time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)))
		default:
			t.Fatalf("fill: field %s of kind %s", name, f.Kind())
		}
	}
}

// roundTrip sends v through JSON into a fresh value of its type.
func roundTrip[T any](t *testing.T, v T) T {
	t.Helper()
	raw, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out T
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestApplicantCarriesEveryField: every field of chairside.Applicant
// survives the wire and back, a field added later included.
func TestApplicantCarriesEveryField(t *testing.T) {
	var a chairside.Applicant
	fill(t, &a)
	joint := a
	joint.FirstName = "Other"
	req := &chairside.DecisionRequest{LenderKey: "hfd_standard", Operation: "apply", Reference: "ref", Role: "primary",
		LocationState: "NV", PurchaseAmountCents: 12345, Primary: a, Joint: &joint, TestCase: "all-approve"}
	wire := roundTrip(t, *protocol.NewCreateApplication(req))
	got := wire.Chairside("hfd_standard")
	if !reflect.DeepEqual(got, req) {
		t.Fatalf("round trip\n got %+v\nwant %+v", got, req)
	}
}

// TestPlansCarryEveryField: every field of a payment plan survives the
// wire and back.
func TestPlansCarryEveryField(t *testing.T) {
	var p chairside.PaymentPlan
	fill(t, &p)
	p.LenderKey = "synchrony_standard"
	wire := roundTrip(t, *protocol.FromPlans("app-1", []chairside.PaymentPlan{p}))
	if err := wire.Validate(); err != nil {
		t.Fatal(err)
	}
	// Figures that follow from the schedule are not on the wire: our side
	// works them out (money.Settle) rather than take a lender's word.
	p.TotalOfPaymentsCents, p.FinanceChargeCents = 0, 0
	if got := wire.Chairside(p.LenderKey); !reflect.DeepEqual(got, []chairside.PaymentPlan{p}) {
		t.Fatalf("round trip\n got %+v\nwant %+v", got, p)
	}
}

// TestDecisionRoundTrip: a decision survives the wire, its operation
// included, and a status read without an operation keeps the wire's.
func TestDecisionRoundTrip(t *testing.T) {
	exp := time.Date(2026, 5, 1, 23, 59, 59, 0, time.UTC)
	d := &chairside.Decision{LenderKey: "proceed_standard", Operation: "prequalify", ResponseCode: chairside.ResponsePrequalified,
		ApprovedAmountCents: 500_000, DownPaymentRequired: true, DownPaymentCents: 5000, LenderRef: "A1",
		OfferedLenderID: "cedarline", ExpiresAt: &exp, PendingReasons: []string{},
		Stipulations: []chairside.Stipulation{{ID: "s", Type: "t", Description: "d", Status: "open"}}}
	wire := roundTrip(t, *protocol.FromChairside(d, "ref"))
	if err := wire.Validate(); err != nil || wire.PlatformReference != "ref" {
		t.Fatalf("%+v %v", wire, err)
	}
	if got := wire.Chairside("proceed_standard", ""); !reflect.DeepEqual(got, d) {
		t.Fatalf("round trip\n got %+v\nwant %+v", got, d)
	}
}

// TestDecisionValidate refuses what cannot be acted on.
func TestDecisionValidate(t *testing.T) {
	good := protocol.Decision{ApplicationID: "A1", Status: protocol.StatusApproved, ApprovedAmountCents: 100, Currency: protocol.Currency}
	if err := good.Validate(); err != nil {
		t.Fatal(err)
	}
	for name, edit := range map[string]func(*protocol.Decision){
		"unknown status":  func(d *protocol.Decision) { d.Status = "maybe" },
		"error status":    func(d *protocol.Decision) { d.Status = chairside.ResponseError },
		"no id":           func(d *protocol.Decision) { d.ApplicationID = "" },
		"negative amount": func(d *protocol.Decision) { d.ApprovedAmountCents = -1 },
		"negative down":   func(d *protocol.Decision) { d.DownPaymentCents = -5 },
		"other currency":  func(d *protocol.Decision) { d.Currency = "EUR" },
		"no currency":     func(d *protocol.Decision) { d.Currency = "" },
	} {
		d := good
		edit(&d)
		if d.Validate() == nil {
			t.Errorf("%s accepted", name)
		}
	}
	declined := protocol.Decision{ApplicationID: "A2", Status: protocol.StatusDeclined}
	if err := declined.Validate(); err != nil {
		t.Fatalf("a decline without amounts needs no currency: %v", err)
	}
}

// TestCreateValidate names the fields a lender refuses.
func TestCreateValidate(t *testing.T) {
	neg := int64(-1)
	c := protocol.CreateApplication{Operation: "guess", PurchaseAmountCents: -5, Currency: "USD",
		Primary: protocol.Applicant{SSN: "12-34", AnnualGrossIncome: &neg}, Joint: &protocol.Applicant{FirstName: "J", LastName: "K"}}
	var got []string
	for _, f := range c.Validate() {
		got = append(got, f.Field)
	}
	want := []string{"platformReference", "operation", "purchaseAmountCents", "primary.firstName", "primary.lastName",
		"primary.ssn", "primary.annualGrossIncomeCents"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("fields %v, want %v", got, want)
	}
}

// TestDocumentValidate: a document's hash must be its content's.
func TestDocumentValidate(t *testing.T) {
	d := protocol.Document{ID: "x/terms", Version: "1", Content: "hello",
		SHA256: "2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824"}
	if err := d.Validate(); err != nil {
		t.Fatal(err)
	}
	d.Content = "hello!"
	if d.Validate() == nil {
		t.Fatal("a hash of other content was accepted")
	}
}

// TestSameEntityTag: a GET's comparison of entity tags ignores W/ on
// either side, and nothing else.
func TestSameEntityTag(t *testing.T) {
	for _, c := range []struct {
		a, b string
		same bool
	}{
		{`"v1"`, `"v1"`, true},
		{`W/"v1"`, `"v1"`, true},
		{`"v1"`, `W/"v1"`, true},
		{`"v1"`, `"v2"`, false},
		{`"v1"`, `v1`, false},
		{`w/"v1"`, `"v1"`, false},
	} {
		if got := protocol.SameEntityTag(c.a, c.b); got != c.same {
			t.Errorf("SameEntityTag(%s, %s) = %v", c.a, c.b, got)
		}
	}
}
