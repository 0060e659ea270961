package flow_test

import (
	"context"
	"testing"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/flow"
	"github.com/chairside/chairside/lender/sandbox"
	"github.com/chairside/chairside/store/storetest"
)

// consentKinds answers the consents recorded for c's application, by kind.
func (f *fixture) consentKinds(t *testing.T, c *flow.Caller) map[string][]*chairside.Consent {
	t.Helper()
	all, err := f.db.ListConsents(context.Background(), c.Session.ApplicationID)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]*chairside.Consent{}
	for _, k := range all {
		out[k.Kind] = append(out[k.Kind], k)
	}
	return out
}

// acceptedOffer prequalifies the Approve applicant (Maria Approve) with a
// lender, chooses a plan and accepts it, ready to sign; it answers the plan
// code.
func (f *fixture) acceptedOffer(t *testing.T, c *flow.Caller, key string) string {
	t.Helper()
	if _, err := f.submit(t, c, key, "Approve", "123450031"); err != nil {
		t.Fatal(err)
	}
	code := f.confirmPlan(t, c, key)
	if _, err := f.svc.AcceptOffer(context.Background(), c, key, nil); err != nil {
		t.Fatal(err)
	}
	return code
}

// TestSigningAfterSoftPull: a prequalification becomes an account only
// after the patient agreed to the agreement and to the hard pull, each its
// own consent naming the lender's current document (docs/behaviour.md,
// "Signing"). Without either, or naming another version, the e-sign
// answers consent_required, records nothing and never reaches the lender;
// with both, each is a record naming the plan, beside the signed E-SIGN one.
func TestSigningAfterSoftPull(t *testing.T) {
	storetest.EachEngine(t, func(t *testing.T, e storetest.Engine) {
		f := newFixture(t, e, flow.Options{})
		ctx := context.Background()
		c := f.caller(t)
		const key = "synchrony_standard"
		code := f.acceptedOffer(t, c, key)
		full := f.esignRequest(t, c, key, true)
		stale := *full.AgreementConsent
		stale.DocumentVersion = "older"
		for name, change := range map[string]func(r *flow.ESignRequest){
			"no agreement consent":      func(r *flow.ESignRequest) { r.AgreementConsent = nil },
			"no hard-pull consent":      func(r *flow.ESignRequest) { r.HardPullConsent = nil },
			"another agreement version": func(r *flow.ESignRequest) { r.AgreementConsent = &stale },
			"agreement not agreed":      func(r *flow.ESignRequest) { r.AgreementConsent = &flow.ConsentInput{} },
			"the e-sign document as the hard pull": func(r *flow.ESignRequest) {
				r.HardPullConsent = r.Consent
			},
		} {
			r := *full
			change(&r)
			if _, err := f.svc.ESign(ctx, c, key, &r); chairside.ErrorCode(err) != chairside.ECONSENT {
				t.Errorf("%s: %v, want consent_required", name, err)
			}
		}
		if n, _ := f.log.count(sandbox.OpESign); n != 0 {
			t.Fatalf("a refused e-sign reached the lender %d times", n)
		}
		if kinds := f.consentKinds(t, c); len(kinds[chairside.ConsentTerms])+len(kinds[chairside.ConsentHardPull])+len(kinds[chairside.ConsentESign]) != 0 {
			t.Fatalf("a refused e-sign left consents: %v", kinds)
		}

		pa, err := value(f.svc.ESign(ctx, c, key, full))
		if err != nil || pa.Status != chairside.StatusSigned {
			t.Fatalf("esign: %+v %v", pa, err)
		}
		kinds := f.consentKinds(t, c)
		for kind, want := range map[string]*flow.ConsentInput{
			chairside.ConsentESign:    full.Consent,
			chairside.ConsentTerms:    full.AgreementConsent,
			chairside.ConsentHardPull: full.HardPullConsent,
		} {
			if len(kinds[kind]) != 1 {
				t.Fatalf("%s consents: %d, want 1", kind, len(kinds[kind]))
			}
			k := kinds[kind][0]
			if k.DocumentID != want.DocumentID || k.DocumentVersion != want.DocumentVersion || k.DocumentSHA256 != want.DocumentSHA256 || k.LenderPlanCode != code {
				t.Errorf("%s consent %+v does not name the document shown and the plan %s", kind, k, code)
			}
			if (kind == chairside.ConsentESign) != (len(k.SignaturePNG) > 0) {
				t.Errorf("%s consent: signature kept with the wrong record", kind)
			}
			if kind == chairside.ConsentESign && k.SignatureMethod != chairside.SignatureDrawn {
				t.Errorf("a signature from the pad recorded as %q, want drawn", k.SignatureMethod)
			}
		}
		if len(kinds[chairside.ConsentSoftPull]) != 1 {
			t.Errorf("soft-pull consents: %d", len(kinds[chairside.ConsentSoftPull]))
		}
		if _, err := f.svc.Complete(ctx, c, key); err != nil {
			t.Fatal(err)
		}
	})
}

// TestSigningAfterFullApplication: an offer from a full application was
// authorised as a hard pull before applying, so signing asks for the
// agreement but not for a second hard-pull authorisation, and refuses one.
func TestSigningAfterFullApplication(t *testing.T) {
	storetest.EachEngine(t, func(t *testing.T, e storetest.Engine) {
		f := newFixture(t, e, flow.Options{})
		ctx := context.Background()
		c := f.caller(t)
		const key = "synchrony_standard"
		d, err := value(f.svc.Submit(ctx, c, key, flow.OpApply, f.request(t, c, key, flow.OpApply, "Approve", "123450032")))
		if err != nil || d.ResponseCode != chairside.ResponseApproved {
			t.Fatalf("apply: %+v %v", d, err)
		}
		f.confirmPlan(t, c, key)
		if _, err := f.svc.AcceptOffer(ctx, c, key, nil); err != nil {
			t.Fatal(err)
		}
		if _, err := f.svc.ESign(ctx, c, key, f.esignRequest(t, c, key, true)); chairside.ErrorCode(err) != chairside.EBADREQUEST {
			t.Fatalf("a second hard-pull authorisation: %v, want bad_request", err)
		}
		noAgreement := f.esignRequest(t, c, key, false)
		noAgreement.AgreementConsent = nil
		if _, err := f.svc.ESign(ctx, c, key, noAgreement); chairside.ErrorCode(err) != chairside.ECONSENT {
			t.Fatalf("without the agreement: %v, want consent_required", err)
		}
		if pa, err := value(f.svc.ESign(ctx, c, key, f.esignRequest(t, c, key, false))); err != nil || pa.Status != chairside.StatusSigned {
			t.Fatalf("esign: %+v %v", pa, err)
		}
		kinds := f.consentKinds(t, c)
		if len(kinds[chairside.ConsentHardPull]) != 1 || kinds[chairside.ConsentHardPull][0].LenderPlanCode != "" {
			t.Errorf("hard-pull consents: want only the one given with the application: %+v", kinds[chairside.ConsentHardPull])
		}
		if len(kinds[chairside.ConsentTerms]) != 1 {
			t.Errorf("agreement consents: %d, want 1", len(kinds[chairside.ConsentTerms]))
		}
		if _, err := f.svc.Complete(ctx, c, key); err != nil {
			t.Fatal(err)
		}
		if n, _ := f.log.count(sandbox.OpESign); n != 1 {
			t.Errorf("e-sign reached the lender %d times, want 1", n)
		}
	})
}

// TestSigningWithAnExistingAccount: a lender that found an account the
// patient already has opens nothing, so signing a plan on it asks for no
// hard-pull authorisation — there is no new inquiry to allow — and refuses
// one (docs/behaviour.md, "Consents").
func TestSigningWithAnExistingAccount(t *testing.T) {
	storetest.EachEngine(t, func(t *testing.T, e storetest.Engine) {
		f := newFixture(t, e, flow.Options{})
		ctx := context.Background()
		c := f.caller(t)
		const key = "synchrony_standard"
		d, err := f.submit(t, c, key, "Existing", "123450033")
		if err != nil || !d.ExistingAccount {
			t.Fatalf("existing account: %+v %v", d, err)
		}
		f.confirmPlan(t, c, key)
		if _, err := f.svc.AcceptOffer(ctx, c, key, nil); err != nil {
			t.Fatal(err)
		}
		if _, err := f.svc.ESign(ctx, c, key, f.esignRequest(t, c, key, true)); chairside.ErrorCode(err) != chairside.EBADREQUEST {
			t.Fatalf("a hard-pull authorisation for an existing account: %v, want bad_request", err)
		}
		if pa, err := value(f.svc.ESign(ctx, c, key, f.esignRequest(t, c, key, false))); err != nil || pa.Status != chairside.StatusSigned {
			t.Fatalf("esign without a hard pull: %+v %v", pa, err)
		}
		if kinds := f.consentKinds(t, c); len(kinds[chairside.ConsentHardPull]) != 0 {
			t.Errorf("hard-pull consents for an existing account: %d, want none", len(kinds[chairside.ConsentHardPull]))
		}
		if _, err := f.svc.Complete(ctx, c, key); err != nil {
			t.Fatal(err)
		}
	})
}

// TestExistingCardNeedsNoNewCardholderAgreement: Fortiva's cardholder
// agreement, asked between signing and completing, covers a card "once it
// is opened"; a patient using a Fortiva card they already have opens
// nothing and is not asked it (docs/behaviour.md, "Signing").
func TestExistingCardNeedsNoNewCardholderAgreement(t *testing.T) {
	storetest.EachEngine(t, func(t *testing.T, e storetest.Engine) {
		f := newFixture(t, e, flow.Options{})
		ctx := context.Background()
		c := f.caller(t)
		const key = "fortiva_standard"
		if d, err := f.submit(t, c, key, "Existing", "123450034"); err != nil || !d.ExistingAccount {
			t.Fatalf("existing account: %+v %v", d, err)
		}
		f.confirmPlan(t, c, key)
		if _, err := f.svc.AcceptOffer(ctx, c, key, nil); err != nil {
			t.Fatal(err)
		}
		pa, err := value(f.svc.ESign(ctx, c, key, f.esignRequest(t, c, key, false)))
		if err != nil || pa.Status != chairside.StatusSigned {
			t.Fatalf("esign: %+v %v", pa, err)
		}
		if pa, err := value(f.svc.Complete(ctx, c, key)); err != nil || pa.Status != chairside.StatusCompleted {
			t.Fatalf("complete without a new cardholder agreement: %+v %v", pa, err)
		}
	})
}
