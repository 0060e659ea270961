package flow_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/flow"
	"github.com/chairside/chairside/lender/sandbox"
	"github.com/chairside/chairside/store/storetest"
	"github.com/chairside/chairside/testkit"
)

const (
	hfdKey       = "hfd_standard"
	hfdEntityKey = "1000200030009100"
)

// seedHFDOffice adds an office whose waterfall starts with HFD in role
// (one of the lender's own roles, or a role= modifier in its key).
func seedHFDOffice(t *testing.T, e storetest.Engine, entityKey, role, state string) {
	t.Helper()
	loc := &chairside.Location{EntityKey: entityKey, Name: "Lender Steps Dental", State: state, GroupID: "group-200",
		Waterfall: []chairside.WaterfallStep{{LenderKey: hfdKey, Role: role, ApplyMode: chairside.ModePrequalify}}}
	if err := e.DB.CreateLocation(context.Background(), loc); err != nil {
		t.Fatal(err)
	}
}

// hfdAccepted (below) notes the confirmed plan's down payment here.
type hfdFixture struct {
	*fixture
	downPayment int64
}

// hfdAccepted starts a session at the HFD office (experience in_store or
// at_home), gets an approval with a down payment and accepts a plan; it
// answers the caller and the accept's answer.
func (f *hfdFixture) hfdAccepted(t *testing.T, entityKey, experience, ssn string) (*flow.Caller, *chairside.LenderApplication) {
	t.Helper()
	ctx := context.Background()
	start, err := f.svc.StartByEntityKey(ctx, entityKey, flow.StartOptions{ExperienceType: experience, PurchaseAmountCents: testkit.Ptr(int64(450_000))})
	if err != nil {
		t.Fatal(err)
	}
	sess, err := f.svc.Authenticate(ctx, start.Session.WebSessionID)
	if err != nil {
		t.Fatal(err)
	}
	c := &flow.Caller{Session: sess, IP: "127.0.0.1", UserAgent: "test"}
	if _, err := f.submit(t, c, hfdKey, "Approve", ssn); err != nil {
		t.Fatal(err)
	}
	plans, err := f.svc.Plans(ctx, c, hfdKey, 200000)
	if err != nil || len(plans.PaymentPlans) == 0 {
		t.Fatalf("plans: %v", err)
	}
	f.downPayment = plans.PaymentPlans[0].DownPaymentCents
	f.confirmPlan(t, c, hfdKey)
	pa, err := value(f.svc.AcceptOffer(ctx, c, hfdKey, nil))
	if err != nil {
		t.Fatal(err)
	}
	return c, pa
}

func goodContact() *flow.ContactRequest {
	return &flow.ContactRequest{Name: "Rosa Díaz-Ortega", Relationship: "sibling", Phone: "(312) 555-0187"}
}

// TestHFDOpenSteps: after accepting, HFD's answer lists its own steps in
// the catalogue's order; each closes when its lender step is answered; the
// e-sign is refused (409, in the patient's words, nothing recorded) while
// any is open and goes through once none is.
func TestHFDOpenSteps(t *testing.T) {
	storetest.EachEngine(t, func(t *testing.T, e storetest.Engine) {
		f := &hfdFixture{fixture: newFixture(t, e, flow.Options{})}
		seedHFDOffice(t, e, hfdEntityKey, chairside.RolePrimary, "TX")
		ctx := context.Background()
		c, pa := f.hfdAccepted(t, hfdEntityKey, chairside.ExperienceInStore, "123450301")
		want := []string{chairside.JourneyDownPayment, chairside.JourneyAdditionalContact, chairside.JourneyLoanPayment}
		if !slices.Equal(pa.OpenSteps, want) {
			t.Fatalf("open steps after accept: %v, want %v", pa.OpenSteps, want)
		}
		esign := func() error {
			_, err := f.svc.ESign(ctx, c, hfdKey, f.esignRequest(t, c, hfdKey, true))
			return err
		}
		if err := esign(); chairside.ErrorCode(err) != chairside.ECONFLICT || !strings.Contains(chairside.ErrorMessage(err), "down payment") {
			t.Fatalf("e-sign with the down payment open: %v", err)
		}
		down := f.downPayment
		if down <= 0 {
			t.Fatalf("HFD plan without a down payment: %d", down)
		}
		pa, err := value(f.svc.DownPayment(ctx, c, hfdKey, &flow.DownPaymentRequest{AmountCents: down, Method: chairside.DownPaymentCollected}))
		if err != nil || !slices.Equal(pa.OpenSteps, want[1:]) {
			t.Fatalf("down payment: %v %v", pa, err)
		}
		if err := esign(); chairside.ErrorCode(err) != chairside.ECONFLICT || !strings.Contains(chairside.ErrorMessage(err), "reach you") {
			t.Fatalf("e-sign with the contact open: %v", err)
		}
		if pa, err = value(f.svc.AddContact(ctx, c, hfdKey, goodContact())); err != nil || !slices.Equal(pa.OpenSteps, want[2:]) {
			t.Fatalf("contact: %v %v", pa, err)
		}
		if err := esign(); chairside.ErrorCode(err) != chairside.ECONFLICT || !strings.Contains(chairside.ErrorMessage(err), "monthly payments") {
			t.Fatalf("e-sign with the payment method open: %v", err)
		}
		if pa, err = value(f.svc.AddCard(ctx, c, hfdKey, goodCard())); err != nil || len(pa.OpenSteps) != 0 {
			t.Fatalf("card: %v %v", pa, err)
		}
		if got, _ := f.svc.LenderApplication(ctx, c, hfdKey); len(got.OpenSteps) != 0 {
			t.Fatalf("GET after every step: %v", got.OpenSteps)
		}
		if err := esign(); err != nil {
			t.Fatalf("e-sign with every step done: %v", err)
		}
		for _, op := range []string{sandbox.OpDownPayment, sandbox.OpContact, sandbox.OpBankCard, sandbox.OpESign} {
			if n, _ := f.log.count(op); n != 1 {
				t.Errorf("%s reached the lender %d times", op, n)
			}
		}
	})
}

// TestOpenStepsPerLender: which steps each lender reports after accepting,
// and the conditions: no down payment step without a required down
// payment, the quiz first only when the decision asks for it, nothing open
// for a lender without steps of its own.
func TestOpenStepsPerLender(t *testing.T) {
	storetest.EachEngine(t, func(t *testing.T, e storetest.Engine) {
		f := &hfdFixture{fixture: newFixture(t, e, flow.Options{})}
		ctx := context.Background()
		for _, tc := range []struct {
			key, testCase string
			want          []string
		}{
			{"synchrony_standard", "", nil},
			{"snap_standard", "", []string{chairside.JourneyBankAccount, chairside.JourneyAgreement}},
			{"synchrony_standard", "identity-quiz", []string{chairside.JourneyQuiz}},
			{"snap_standard", "identity-quiz", []string{chairside.JourneyQuiz, chairside.JourneyBankAccount, chairside.JourneyAgreement}},
		} {
			c := f.caller(t)
			if tc.testCase != "" {
				if _, err := f.svc.ApplyTestCase(ctx, c, tc.testCase); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := f.submit(t, c, tc.key, "Approve", "123450311"); err != nil {
				t.Fatal(err)
			}
			f.confirmPlan(t, c, tc.key)
			pa, err := value(f.svc.AcceptOffer(ctx, c, tc.key, nil))
			if err != nil || !slices.Equal(pa.OpenSteps, tc.want) {
				t.Errorf("%s %s: open %v (%v), want %v", tc.key, tc.testCase, pa.OpenSteps, err, tc.want)
			}
		}
	})
}

// TestDownPaymentRules: the amount must be the plan's; in the office only
// the staff's confirmation counts and at home only the patient's promise to
// pay at the office; the acknowledgement is required for HFD as
// highline_secondary (its own role or a role= modifier) and not otherwise.
// Refused requests reach no lender; the step is not offered to a lender
// without it.
func TestDownPaymentRules(t *testing.T) {
	storetest.EachEngine(t, func(t *testing.T, e storetest.Engine) {
		f := &hfdFixture{fixture: newFixture(t, e, flow.Options{})}
		ctx := context.Background()
		seedHFDOffice(t, e, hfdEntityKey, chairside.RolePrimary, "TX")
		seedHFDOffice(t, e, "1000200030009200", chairside.RoleHighlineSecondary, "TX")
		inStore, _ := f.hfdAccepted(t, hfdEntityKey, chairside.ExperienceInStore, "123450321")
		down := f.downPayment
		for name, tc := range map[string]struct {
			req   flow.DownPaymentRequest
			field string
		}{
			"other amount":        {flow.DownPaymentRequest{AmountCents: down - 100, Method: chairside.DownPaymentCollected}, "downPayment.amountCents"},
			"home method in shop": {flow.DownPaymentRequest{AmountCents: down, Method: chairside.DownPaymentAtOffice}, "downPayment.method"},
			"unknown method":      {flow.DownPaymentRequest{AmountCents: down, Method: "cash"}, "downPayment.method"},
		} {
			_, err := f.svc.DownPayment(ctx, inStore, hfdKey, &tc.req)
			if chairside.ErrorCode(err) != chairside.EINVALID || fieldsOf(err) != tc.field {
				t.Errorf("%s: %v (%s)", name, err, fieldsOf(err))
			}
		}
		if n, _ := f.log.count(sandbox.OpDownPayment); n != 0 {
			t.Fatalf("refused down payments reached the lender %d times", n)
		}
		// No acknowledgement needed as primary.
		if _, err := f.svc.DownPayment(ctx, inStore, hfdKey, &flow.DownPaymentRequest{AmountCents: down, Method: chairside.DownPaymentCollected}); err != nil {
			t.Fatal(err)
		}

		home, _ := f.hfdAccepted(t, "1000200030009200", chairside.ExperienceAtHome, "123450322")
		down = f.downPayment
		_, err := f.svc.DownPayment(ctx, home, hfdKey, &flow.DownPaymentRequest{AmountCents: down, Method: chairside.DownPaymentAtOffice})
		if fieldsOf(err) != "downPayment.acknowledged" {
			t.Fatalf("highline_secondary without the acknowledgement: %v", err)
		}
		_, err = f.svc.DownPayment(ctx, home, hfdKey, &flow.DownPaymentRequest{AmountCents: down, Method: chairside.DownPaymentCollected, Acknowledged: true})
		if fieldsOf(err) != "downPayment.method" {
			t.Fatalf("staff confirmation at home: %v", err)
		}
		if _, err := f.svc.DownPayment(ctx, home, hfdKey, &flow.DownPaymentRequest{AmountCents: down, Method: chairside.DownPaymentAtOffice, Acknowledged: true}); err != nil {
			t.Fatal(err)
		}

		// A lender without the step.
		c := f.caller(t)
		if _, err := f.submit(t, c, "synchrony_standard", "Approve", "123450323"); err != nil {
			t.Fatal(err)
		}
		f.confirmPlan(t, c, "synchrony_standard")
		if _, err := f.svc.AcceptOffer(ctx, c, "synchrony_standard", nil); err != nil {
			t.Fatal(err)
		}
		if _, err := f.svc.DownPayment(ctx, c, "synchrony_standard", &flow.DownPaymentRequest{AmountCents: 100, Method: chairside.DownPaymentAtOffice}); chairside.ErrorCode(err) != chairside.ENOTFOUND {
			t.Fatalf("down payment for synchrony: %v", err)
		}
		if _, err := f.svc.AddContact(ctx, c, "synchrony_standard", goodContact()); chairside.ErrorCode(err) != chairside.ENOTFOUND {
			t.Fatalf("contact for synchrony: %v", err)
		}
	})
}

// TestLenderStepsExactlyOnce: the down payment and the contact are each one
// lender call: the same request again with its Idempotency-Key gets the
// recorded answer, other details are idempotency_mismatch, and the contact
// is validated in the patient's words before anything is claimed.
func TestLenderStepsExactlyOnce(t *testing.T) {
	storetest.EachEngine(t, func(t *testing.T, e storetest.Engine) {
		f := &hfdFixture{fixture: newFixture(t, e, flow.Options{})}
		seedHFDOffice(t, e, hfdEntityKey, chairside.RolePrimary, "TX")
		ctx := context.Background()
		c, _ := f.hfdAccepted(t, hfdEntityKey, chairside.ExperienceInStore, "123450331")
		down := f.downPayment
		c.IdempotencyKey = "down-1"
		req := flow.DownPaymentRequest{AmountCents: down, Method: chairside.DownPaymentCollected}
		first, err := value(f.svc.DownPayment(ctx, c, hfdKey, &req))
		if err != nil {
			t.Fatal(err)
		}
		again, err := value(f.svc.DownPayment(ctx, c, hfdKey, &req))
		if err != nil || again.Status != first.Status || !slices.Equal(again.OpenSteps, first.OpenSteps) {
			t.Fatalf("replay: %v %v", again, err)
		}
		c.IdempotencyKey = "down-2"
		if _, err := f.svc.DownPayment(ctx, c, hfdKey, &req); chairside.ErrorCode(err) != chairside.ECONFLICT {
			t.Fatalf("same down payment, another key: %v", err)
		}
		if n, _ := f.log.count(sandbox.OpDownPayment); n != 1 {
			t.Fatalf("down payment reached the lender %d times", n)
		}

		for name, tc := range map[string]struct {
			change func(*flow.ContactRequest)
			field  string
		}{
			"no name":          {func(r *flow.ContactRequest) { r.Name = "  " }, "contact.name"},
			"digits in name":   {func(r *flow.ContactRequest) { r.Name = "R2D2 Smith" }, "contact.name"},
			"bad relationship": {func(r *flow.ContactRequest) { r.Relationship = "landlord" }, "contact.relationship"},
			"short phone":      {func(r *flow.ContactRequest) { r.Phone = "555-0187" }, "contact.phone"},
			"N11 area code":    {func(r *flow.ContactRequest) { r.Phone = "9115550187" }, "contact.phone"},
		} {
			r := goodContact()
			tc.change(r)
			_, err := f.svc.AddContact(ctx, c, hfdKey, r)
			if chairside.ErrorCode(err) != chairside.EINVALID || fieldsOf(err) != tc.field {
				t.Errorf("%s: %v (%s)", name, err, fieldsOf(err))
			}
			if err != nil && strings.Contains(err.Error(), "555") {
				t.Errorf("%s: the error repeats the number", name)
			}
		}
		if _, err := f.svc.AddContact(ctx, c, hfdKey, goodContact()); err != nil {
			t.Fatal(err)
		}
		if _, err := f.svc.AddContact(ctx, c, hfdKey, goodContact()); err != nil {
			t.Fatalf("the same contact again: %v", err)
		}
		other := goodContact()
		other.Phone = "3125550199"
		if _, err := f.svc.AddContact(ctx, c, hfdKey, other); chairside.ErrorCode(err) != chairside.EIDEMPOTENCY {
			t.Fatalf("another contact: %v", err)
		}
		if n, _ := f.log.count(sandbox.OpContact); n != 1 {
			t.Fatalf("contact reached the lender %d times", n)
		}
	})
}

// TestRefusedCardMayBeReplaced: a card the issuer refuses answers a field
// error on the card number (not "no answer"), and another card may then be
// given: the step is handed back.
func TestRefusedCardMayBeReplaced(t *testing.T) {
	storetest.EachEngine(t, func(t *testing.T, e storetest.Engine) {
		f := &hfdFixture{fixture: newFixture(t, e, flow.Options{})}
		seedHFDOffice(t, e, hfdEntityKey, chairside.RolePrimary, "TX")
		ctx := context.Background()
		c, _ := f.hfdAccepted(t, hfdEntityKey, chairside.ExperienceInStore, "123450341")
		refused := goodCard()
		refused.CardNumber = sandbox.RefusedCard
		_, err := f.svc.AddCard(ctx, c, hfdKey, refused)
		if chairside.ErrorCode(err) != chairside.EINVALID || fieldsOf(err) != "bankCard.cardNumber" {
			t.Fatalf("refused card: %v", err)
		}
		if strings.Contains(err.Error(), sandbox.RefusedCard) {
			t.Fatal("the error repeats the card number")
		}
		pa, err := value(f.svc.AddCard(ctx, c, hfdKey, goodCard()))
		if err != nil || slices.Contains(pa.OpenSteps, chairside.JourneyLoanPayment) {
			t.Fatalf("another card: %v %v", pa, err)
		}
	})
}
