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
	"github.com/chairside/chairside/validate"
)

const affKey = "aff_standard"

// affAccepted starts a session at an office in officeState whose waterfall
// starts with AFF, prequalifies an applicant living in applicantState,
// and accepts a plan; it answers the caller and the accept's answer.
func (f *fixture) affAccepted(t *testing.T, e storetest.Engine, entityKey, officeState, applicantState, ssn string) (*flow.Caller, *chairside.LenderApplication) {
	t.Helper()
	ctx := context.Background()
	loc := &chairside.Location{EntityKey: entityKey, Name: "AFF Dental", State: officeState, GroupID: "group-400",
		Waterfall: []chairside.WaterfallStep{{LenderKey: affKey, Role: chairside.RolePrimary, ApplyMode: chairside.ModePrequalify}}}
	if err := e.DB.CreateLocation(ctx, loc); err != nil {
		t.Fatal(err)
	}
	c := f.callerAt(t, entityKey, flow.StartOptions{PurchaseAmountCents: testkit.Ptr(int64(450_000))})
	req := f.request(t, c, affKey, flow.OpPrequalify, "Approve", ssn)
	if applicantState == "WI" {
		req.Primary.AddressLine1, req.Primary.AddressCity, req.Primary.AddressState, req.Primary.AddressZipCode = "22 State St", "Madison", "WI", "53703"
	}
	if _, err := f.svc.Submit(ctx, c, affKey, flow.OpPrequalify, req); err != nil {
		t.Fatal(err)
	}
	f.confirmPlan(t, c, affKey)
	pa, err := value(f.svc.AcceptOffer(ctx, c, affKey, nil))
	if err != nil {
		t.Fatal(err)
	}
	return c, pa
}

// TestAFFOpenStepsByPlace: AFF's agreement is always its own step; the
// Wisconsin question only for an applicant living in Wisconsin; the
// California notice only in an office in California.
func TestAFFOpenStepsByPlace(t *testing.T) {
	storetest.EachEngine(t, func(t *testing.T, e storetest.Engine) {
		f := newFixture(t, e, flow.Options{})
		for i, tc := range []struct {
			office, applicant string
			want              []string
		}{
			{"TX", "CA", []string{chairside.JourneyAgreement}},
			{"CA", "CA", []string{chairside.JourneyAgreement, chairside.JourneyCalifornia}},
			{"TX", "WI", []string{chairside.JourneyAgreement, chairside.JourneyWisconsin}},
			{"CA", "WI", []string{chairside.JourneyAgreement, chairside.JourneyWisconsin, chairside.JourneyCalifornia}},
		} {
			_, pa := f.affAccepted(t, e, "10002000300095"+string(rune('0'+i))+"0", tc.office, tc.applicant, testkit.SSN(600+i))
			if !slices.Equal(pa.OpenSteps, tc.want) {
				t.Errorf("office %s, applicant %s: %v, want %v", tc.office, tc.applicant, pa.OpenSteps, tc.want)
			}
		}
	})
}

// TestAFFStepsThenSigning: the agreement, the Wisconsin answer and the
// California notice, each checked, each once (repeats answer the first
// answer, other details are idempotency_mismatch), each closing its step;
// the e-sign is refused while one is open and then signs without asking
// for the agreement again; every consent is its own record.
func TestAFFStepsThenSigning(t *testing.T) {
	storetest.EachEngine(t, func(t *testing.T, e storetest.Engine) {
		f := newFixture(t, e, flow.Options{})
		ctx := context.Background()
		c, _ := f.affAccepted(t, e, "1000200030009600", "CA", "WI", testkit.SSN(610))
		esign := f.esignRequest(t, c, affKey, true)
		if _, err := f.svc.ESign(ctx, c, affKey, esign); chairside.ErrorCode(err) != chairside.ECONFLICT || !strings.Contains(chairside.ErrorMessage(err), "agreement") {
			t.Fatalf("esign with the agreement open: %v", err)
		}
		if _, err := f.svc.AgreeAgreement(ctx, c, affKey, &flow.ConsentStepRequest{}); chairside.ErrorCode(err) != chairside.ECONSENT {
			t.Fatalf("agreement without a consent: %v", err)
		}
		pa, err := value(f.svc.AgreeAgreement(ctx, c, affKey, &flow.ConsentStepRequest{Consent: esign.AgreementConsent}))
		if err != nil || !slices.Equal(pa.OpenSteps, []string{chairside.JourneyWisconsin, chairside.JourneyCalifornia}) {
			t.Fatalf("agreement: %v %v", pa, err)
		}
		if _, err := f.svc.AgreeAgreement(ctx, c, affKey, &flow.ConsentStepRequest{Consent: esign.AgreementConsent}); err != nil {
			t.Fatalf("the same agreement again: %v", err)
		}

		yes, no := true, false
		spouse := &validate.SpouseInput{FirstName: "Sam", LastName: "Approve", AddressLine1: "22 State St", City: "Madison", State: "wi", ZipCode: "53703"}
		for name, tc := range map[string]struct {
			req   flow.WisconsinRequest
			field string
		}{
			"no answer":        {flow.WisconsinRequest{}, "wisconsin.married"},
			"married, no one":  {flow.WisconsinRequest{Married: &yes}, "spouse.firstName,spouse.lastName,spouse.addressLine1,spouse.city,spouse.state,spouse.zipCode"},
			"zip of Texas":     {flow.WisconsinRequest{Married: &yes, Spouse: &validate.SpouseInput{FirstName: "Sam", LastName: "A", AddressLine1: "1 Main", City: "Madison", State: "WI", ZipCode: "77002"}}, "spouse.zipCode"},
			"P.O. box":         {flow.WisconsinRequest{Married: &yes, Spouse: &validate.SpouseInput{FirstName: "Sam", LastName: "A", AddressLine1: "PO Box 12", City: "Madison", State: "WI", ZipCode: "53703"}}, "spouse.addressLine1"},
			"digits in a name": {flow.WisconsinRequest{Married: &yes, Spouse: &validate.SpouseInput{FirstName: "S4m", LastName: "A", AddressLine1: "1 Main", City: "Madison", State: "WI", ZipCode: "53703"}}, "spouse.firstName"},
		} {
			_, err := f.svc.AnswerWisconsin(ctx, c, affKey, &tc.req)
			if chairside.ErrorCode(err) != chairside.EINVALID || fieldsOf(err) != tc.field {
				t.Errorf("%s: %v (%s)", name, err, fieldsOf(err))
			}
		}
		if _, err := f.svc.AnswerWisconsin(ctx, c, affKey, &flow.WisconsinRequest{Married: &no, Spouse: spouse}); chairside.ErrorCode(err) != chairside.EBADREQUEST {
			t.Fatalf("a spouse for an unmarried applicant: %v", err)
		}
		if n, _ := f.log.count(sandbox.OpSpouse); n != 0 {
			t.Fatalf("refused answers reached the lender %d times", n)
		}
		if pa, err = value(f.svc.AnswerWisconsin(ctx, c, affKey, &flow.WisconsinRequest{Married: &yes, Spouse: spouse})); err != nil || !slices.Equal(pa.OpenSteps, []string{chairside.JourneyCalifornia}) {
			t.Fatalf("wisconsin: %v %v", pa, err)
		}
		if _, err := f.svc.AnswerWisconsin(ctx, c, affKey, &flow.WisconsinRequest{Married: &no}); chairside.ErrorCode(err) != chairside.EIDEMPOTENCY {
			t.Fatalf("another answer: %v", err)
		}

		notice, err := f.svc.Disclosures(ctx, c, affKey, flow.DocCaliforniaNotice)
		if err != nil || !strings.Contains(notice.Content, "15 business days") {
			t.Fatalf("california notice: %v %v", notice, err)
		}
		stale := *consentTo(notice)
		stale.DocumentVersion = "old"
		if _, err := f.svc.AcknowledgeCaliforniaNotice(ctx, c, affKey, &flow.ConsentStepRequest{Consent: &stale}); chairside.ErrorCode(err) != chairside.ECONSENT {
			t.Fatalf("an old notice: %v", err)
		}
		if pa, err = value(f.svc.AcknowledgeCaliforniaNotice(ctx, c, affKey, &flow.ConsentStepRequest{Consent: consentTo(notice)})); err != nil || len(pa.OpenSteps) != 0 {
			t.Fatalf("california: %v %v", pa, err)
		}

		if _, err := f.svc.ESign(ctx, c, affKey, esign); chairside.ErrorCode(err) != chairside.EBADREQUEST {
			t.Fatalf("esign naming the agreement again: %v", err)
		}
		esign.AgreementConsent = nil
		if pa, err := value(f.svc.ESign(ctx, c, affKey, esign)); err != nil || pa.Status != chairside.StatusSigned {
			t.Fatalf("esign: %v %v", pa, err)
		}
		kinds := f.consentKinds(t, c)
		for kind, want := range map[string]int{chairside.ConsentTerms: 1, chairside.ConsentCaliforniaNotice: 1, chairside.ConsentESign: 1, chairside.ConsentHardPull: 1} {
			if len(kinds[kind]) != want {
				t.Errorf("%d %s consents, want %d", len(kinds[kind]), kind, want)
			}
		}
		for _, op := range []string{sandbox.OpConsent, sandbox.OpSpouse} {
			if n, _ := f.log.count(op); n != map[string]int{sandbox.OpConsent: 2, sandbox.OpSpouse: 1}[op] {
				t.Errorf("%s reached the lender %d times", op, n)
			}
		}
		if _, err := f.svc.Complete(ctx, c, affKey); err != nil {
			t.Fatal(err)
		}
	})
}

// TestFortivaCardholderAgreementBeforeCompleting: after signing, Fortiva's
// answer lists its cardholder agreement; completing is refused until it is
// agreed, and then completes. Other lenders complete right after signing.
func TestFortivaCardholderAgreementBeforeCompleting(t *testing.T) {
	storetest.EachEngine(t, func(t *testing.T, e storetest.Engine) {
		f := newFixture(t, e, flow.Options{})
		ctx := context.Background()
		const key = "fortiva_standard"
		c := f.caller(t)
		if _, err := f.submit(t, c, key, "Approve", testkit.SSN(620)); err != nil {
			t.Fatal(err)
		}
		f.confirmPlan(t, c, key)
		pa, err := value(f.svc.AcceptOffer(ctx, c, key, nil))
		if err != nil || len(pa.OpenSteps) != 0 {
			t.Fatalf("accept: %v %v", pa, err)
		}
		if _, err := f.svc.AgreeCardholderAgreement(ctx, c, key, &flow.ConsentStepRequest{}); err == nil {
			t.Fatal("the cardholder agreement before signing was accepted")
		}
		pa, err = value(f.svc.ESign(ctx, c, key, f.esignRequest(t, c, key, true)))
		if err != nil || !slices.Equal(pa.OpenSteps, []string{chairside.JourneyCompleteAgreement}) {
			t.Fatalf("esign: %v %v", pa, err)
		}
		if _, err := f.svc.Complete(ctx, c, key); chairside.ErrorCode(err) != chairside.ECONFLICT || !strings.Contains(chairside.ErrorMessage(err), "cardholder agreement") {
			t.Fatalf("complete before the cardholder agreement: %v", err)
		}
		if n, _ := f.log.count(sandbox.OpComplete); n != 0 {
			t.Fatalf("complete reached the lender %d times", n)
		}
		doc, err := f.svc.Disclosures(ctx, c, key, flow.DocCardholder)
		if err != nil {
			t.Fatal(err)
		}
		if pa, err = value(f.svc.AgreeCardholderAgreement(ctx, c, key, &flow.ConsentStepRequest{Consent: consentTo(doc)})); err != nil || len(pa.OpenSteps) != 0 {
			t.Fatalf("cardholder agreement: %v %v", pa, err)
		}
		if pa, err = value(f.svc.Complete(ctx, c, key)); err != nil || pa.Status != chairside.StatusCompleted {
			t.Fatalf("complete: %v %v", pa, err)
		}
		if kinds := f.consentKinds(t, c); len(kinds[chairside.ConsentCardholder]) != 1 {
			t.Errorf("cardholder consents: %v", kinds)
		}
	})
}
