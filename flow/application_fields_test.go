package flow_test

import (
	"context"
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/catalogue"
	"github.com/chairside/chairside/flow"
	"github.com/chairside/chairside/locale"
	"github.com/chairside/chairside/store/storetest"
	"github.com/chairside/chairside/testkit"
)

// fieldErrors answers the field errors of a validation error by field.
func fieldErrors(t *testing.T, err error) map[string]string {
	t.Helper()
	var ce *chairside.Error
	if !errors.As(err, &ce) || ce.Code != chairside.EINVALID {
		t.Fatalf("want a validation error, got %v", err)
	}
	out := map[string]string{}
	for _, fe := range ce.FieldErrors {
		out[fe.Field] = fe.Message
	}
	return out
}

// application reads the caller's application as stored.
func (f *fixture) application(t *testing.T, c *flow.Caller) *chairside.Application {
	t.Helper()
	app, err := f.db.FindApplication(context.Background(), c.Session.ApplicationID)
	if err != nil {
		t.Fatal(err)
	}
	return app
}

// TestAtHomeAmount: a patient who starts from a link without an amount is
// asked for the treatment amount (the form lists it first, required and
// bounded); the server refuses a submit without it or out of bounds, keeps
// the first amount a lender decided on, and lets no later submit change it.
func TestAtHomeAmount(t *testing.T) {
	storetest.EachEngine(t, func(t *testing.T, e storetest.Engine) {
		f := newFixture(t, e, flow.Options{})
		ctx := context.Background()
		c := f.callerWith(t, flow.StartOptions{})
		form, err := f.svc.ApplyStart(ctx, c, "synchrony_standard", "")
		if err != nil {
			t.Fatal(err)
		}
		if first := form.Fields[0]; first.ID != catalogue.PurchaseAmountID || first.Type != chairside.FieldCurrency ||
			first.Rules[chairside.RuleRequired].Min != nil || first.Rules[chairside.RuleMax].Max == nil {
			t.Fatalf("first field %+v, want the treatment amount", first)
		}
		const ssn = "123450031"
		req := f.request(t, c, "synchrony_standard", flow.OpPrequalify, "Decline", ssn)
		for amount, want := range map[int64]string{0: "Required Field", 99: "Must be at least $1.00", 10_000_001: "Must be at most $100,000.00"} {
			req.PurchaseAmountCents = nil
			if amount > 0 {
				req.PurchaseAmountCents = testkit.Ptr(amount)
			}
			_, err := f.svc.Submit(ctx, c, "synchrony_standard", flow.OpPrequalify, req)
			if got := fieldErrors(t, err)[catalogue.PurchaseAmountID]; got != want {
				t.Errorf("amount %d: %q, want %q", amount, got, want)
			}
		}
		req.PurchaseAmountCents = testkit.Ptr(int64(320_000))
		req.Insurance = &flow.Insurance{InsuranceBenefitsCents: 400_000}
		if got := fieldErrors(t, submitErr(f, c, req))[catalogue.InsuranceBenefitsID]; got != "Must be at most the treatment amount" {
			t.Errorf("insurance over the amount: %q", got)
		}
		req.Insurance = &flow.Insurance{InsuranceBenefitsCents: 20_000}
		if _, err := f.svc.Submit(ctx, c, "synchrony_standard", flow.OpPrequalify, req); err != nil {
			t.Fatal(err)
		}
		if app := f.application(t, c); app.PurchaseAmountCents != 320_000 || app.InsuranceBenefitsCents != 20_000 {
			t.Fatalf("stored %d and %d, want 320000 and 20000", app.PurchaseAmountCents, app.InsuranceBenefitsCents)
		}
		// The next lender's form no longer asks; a submit naming another amount is refused, the same one is fine.
		form, err = f.svc.ApplyStart(ctx, c, "fortiva_standard", "")
		if err != nil || form.Fields[0].ID == catalogue.PurchaseAmountID {
			t.Fatalf("the amount is asked again: %v", err)
		}
		next := f.request(t, c, "fortiva_standard", flow.OpPrequalify, "Decline", ssn)
		next.PurchaseAmountCents = testkit.Ptr(int64(900_000))
		if _, err := f.svc.Submit(ctx, c, "fortiva_standard", flow.OpPrequalify, next); chairside.ErrorCode(err) != chairside.ECONFLICT {
			t.Fatalf("another amount: %v, want conflict", err)
		}
		next.PurchaseAmountCents = testkit.Ptr(int64(320_000))
		if _, err := f.svc.Submit(ctx, c, "fortiva_standard", flow.OpPrequalify, next); err != nil {
			t.Fatalf("the same amount again: %v", err)
		}
		if app := f.application(t, c); app.PurchaseAmountCents != 320_000 {
			t.Fatalf("amount %d after the second lender", app.PurchaseAmountCents)
		}
	})
}

func submitErr(f *fixture, c *flow.Caller, req *flow.SubmitRequest) error {
	_, err := f.svc.Submit(context.Background(), c, "synchrony_standard", flow.OpPrequalify, req)
	return err
}

// TestOfficeAmountStays: the amount of an office's flow token is never
// replaced by the patient; the form does not ask for it, and the office's
// customer id is kept once given.
func TestOfficeAmountStays(t *testing.T) {
	storetest.EachEngine(t, func(t *testing.T, e storetest.Engine) {
		f := newFixture(t, e, flow.Options{})
		ctx := context.Background()
		loc, err := e.DB.FindLocationByEntityKey(ctx, testkit.EntityKey)
		if err != nil {
			t.Fatal(err)
		}
		token := "tok_office_amount_0123456789abcdef"
		if err := e.DB.CreateFlowToken(ctx, &chairside.FlowToken{
			Hash: chairside.HashSecret(token), LocationID: loc.ID, PurchaseAmountCents: 450_000, InsuranceBenefitsCents: 50_000,
			ExperienceType: chairside.ExperienceInStore, ExpiresAt: time.Now().Add(time.Hour), CreatedAt: time.Now(),
		}); err != nil {
			t.Fatal(err)
		}
		start, err := f.svc.StartByToken(ctx, token)
		if err != nil {
			t.Fatal(err)
		}
		sess, err := f.svc.Authenticate(ctx, start.Session.WebSessionID)
		if err != nil {
			t.Fatal(err)
		}
		c := &flow.Caller{Session: sess, IP: "127.0.0.1", UserAgent: "test"}
		form, err := f.svc.ApplyStart(ctx, c, "synchrony_standard", "")
		if err != nil || form.Fields[0].ID == catalogue.PurchaseAmountID {
			t.Fatalf("the office gave an amount, yet the form asks: %v", err)
		}
		req := f.request(t, c, "synchrony_standard", flow.OpPrequalify, "Approve", "123450032")
		req.PurchaseAmountCents = testkit.Ptr(int64(100))
		if err := submitErr(f, c, req); chairside.ErrorCode(err) != chairside.ECONFLICT {
			t.Fatalf("the patient's amount over the office's: %v, want conflict", err)
		}
		req.PurchaseAmountCents = nil
		req.Insurance = &flow.Insurance{InsuranceBenefitsCents: 0}
		if err := submitErr(f, c, req); chairside.ErrorCode(err) != chairside.ECONFLICT {
			t.Fatalf("other insurance benefits: %v, want conflict", err)
		}
		req.Insurance = nil
		req.ExternalCustomerID = "bad id!"
		if got := fieldErrors(t, submitErr(f, c, req))[catalogue.ExternalCustomerIDID]; got == "" {
			t.Fatal("an external customer id with a space and ! was taken")
		}
		req.ExternalCustomerID = "PMS-10042"
		if err := submitErr(f, c, req); err != nil {
			t.Fatal(err)
		}
		app := f.application(t, c)
		if app.PurchaseAmountCents != 450_000 || app.InsuranceBenefitsCents != 50_000 || app.ExternalCustomerID != "PMS-10042" {
			t.Fatalf("stored %d, %d, %q", app.PurchaseAmountCents, app.InsuranceBenefitsCents, app.ExternalCustomerID)
		}
	})
}

// TestStartAnswersFirstForm: the start answers the first lender's form in its
// mode exactly as ApplyStart would, so the first screen needs no second
// call; with an amount from the office the form does not ask for one. (Both
// are put into the patient's language by the transport: httpapi's
// TestAnswersInTheRequestLanguage.)
func TestStartAnswersFirstForm(t *testing.T) {
	storetest.EachEngine(t, func(t *testing.T, e storetest.Engine) {
		f := newFixture(t, e, flow.Options{})
		for _, tc := range []struct {
			lang   locale.Language
			amount *int64
		}{{locale.English, nil}, {locale.English, testkit.Ptr(int64(450_000))}} {
			ctx := context.Background()
			start, err := f.svc.StartByEntityKey(ctx, testkit.EntityKey, flow.StartOptions{PurchaseAmountCents: tc.amount})
			if err != nil {
				t.Fatal(err)
			}
			if start.Form == nil {
				t.Fatalf("%s: the start answered no form", tc.lang)
			}
			sess, err := f.svc.Authenticate(ctx, start.Session.WebSessionID)
			if err != nil {
				t.Fatal(err)
			}
			c := &flow.Caller{Session: sess, IP: "127.0.0.1", UserAgent: "test", Language: tc.lang}
			want, err := f.svc.ApplyStart(ctx, c, start.Session.DynamicLenderKey, start.Session.Properties.ApplyMode)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(start.Form, want) {
				t.Errorf("%s: the start's form differs from ApplyStart's:\n%+v\n%+v", tc.lang, start.Form, want)
			}
			if asks := start.Form.Fields[0].ID == catalogue.PurchaseAmountID; asks != (tc.amount == nil) {
				t.Errorf("%s amount %v: the form asks for the amount: %v", tc.lang, tc.amount, asks)
			}
		}
	})
}
