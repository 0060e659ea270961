package store_test

import (
	"strings"
	"testing"
	"time"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/store"
	"github.com/chairside/chairside/store/storetest"
)

// TestAudit: a status without its evidence is reported; with the evidence
// recorded, nothing is.
func TestAudit(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := newSession(t, db, t0)
		a := newApplication(t, db, s, applicant("Ann", "Lee", "078051120"), nil)
		pa := newLenderApplication(t, db, a, "synchrony_standard")
		problems, err := db.Audit(ctx)
		must(t, err)
		if len(problems) != 0 {
			t.Fatalf("a started application: %v", problems)
		}

		// "signed" with nothing behind it, as a crash used to leave it.
		pa.Status = chairside.StatusSigned
		must(t, db.UpdateLenderApplication(ctx, pa))
		problems, err = db.Audit(ctx)
		must(t, err)
		for _, want := range []string{"no decision", "no answered credit request", "no answered accept", "no answered e-sign", "no e-sign consent"} {
			if !strings.Contains(strings.Join(problems, "\n"), want) {
				t.Errorf("audit missed %q: %v", want, problems)
			}
		}

		// The evidence, step by step.
		must(t, db.CreateDecision(ctx, &chairside.Decision{LenderApplicationID: pa.ID, LenderKey: pa.LenderKey, Operation: "prequalify", ResponseCode: chairside.ResponseApproved}))
		must(t, db.CreateConsent(ctx, &chairside.Consent{SessionID: s.ID, ApplicationID: a.ID, LenderKey: pa.LenderKey, Kind: chairside.ConsentSoftPull}))
		now := t0
		must(t, db.CreateConsent(ctx, &chairside.Consent{SessionID: s.ID, ApplicationID: a.ID, LenderKey: pa.LenderKey, Kind: chairside.ConsentESign,
			SignedAt: &now, SignaturePNG: []byte("png"), SignatureMethod: chairside.SignatureDrawn}))
		answered(t, db, s, pa, chairside.StepPrequalify, chairside.StepAccept, chairside.StepESign)
		// Signed after a soft pull, with only the E-SIGN consent: neither the
		// agreement nor the hard pull was agreed to.
		problems, err = db.Audit(ctx)
		must(t, err)
		for _, want := range []string{"no consent to the agreement", "no hard-pull authorisation"} {
			if !strings.Contains(strings.Join(problems, "\n"), want) {
				t.Errorf("audit missed %q: %v", want, problems)
			}
		}
		// Both given at signing, naming the plan signed.
		must(t, db.CreateConsent(ctx, &chairside.Consent{SessionID: s.ID, ApplicationID: a.ID, LenderKey: pa.LenderKey, Kind: chairside.ConsentTerms, LenderPlanCode: "P1"}))
		must(t, db.CreateConsent(ctx, &chairside.Consent{SessionID: s.ID, ApplicationID: a.ID, LenderKey: pa.LenderKey, Kind: chairside.ConsentHardPull, LenderPlanCode: "P1"}))
		problems, err = db.Audit(ctx)
		must(t, err)
		if len(problems) != 0 {
			t.Fatalf("with its evidence: %v", problems)
		}

		// A second credit authorisation with no request behind it.
		must(t, db.CreateConsent(ctx, &chairside.Consent{SessionID: s.ID, ApplicationID: a.ID, LenderKey: pa.LenderKey, Kind: chairside.ConsentHardPull}))
		// A step marked in flight with no running call.
		pa.InFlight = chairside.StepComplete
		must(t, db.UpdateLenderApplication(ctx, pa))
		// A session finished as completed with nothing completed.
		must(t, db.FinishSession(ctx, s.ID, chairside.OutcomeCompleted, t0))
		problems, err = db.Audit(ctx)
		must(t, err)
		joined := strings.Join(problems, "\n")
		for _, want := range []string{"more credit authorisations", "in flight has no running call", "finished as completed"} {
			if !strings.Contains(joined, want) {
				t.Errorf("audit missed %q: %v", want, problems)
			}
		}
	})
}

// TestAuditSignedAfterFullApplication: an offer decided by a full
// application was authorised as a hard pull before applying; signing it
// needs the agreement consent and no second hard-pull authorisation.
func TestAuditSignedAfterFullApplication(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := newSession(t, db, t0)
		a := newApplication(t, db, s, applicant("Ann", "Lee", "078051120"), nil)
		pa := newLenderApplication(t, db, a, "synchrony_standard")
		pa.Status = chairside.StatusSigned
		must(t, db.UpdateLenderApplication(ctx, pa))
		must(t, db.CreateDecision(ctx, &chairside.Decision{LenderApplicationID: pa.ID, LenderKey: pa.LenderKey, Operation: "apply", ResponseCode: chairside.ResponseApproved}))
		must(t, db.CreateConsent(ctx, &chairside.Consent{SessionID: s.ID, ApplicationID: a.ID, LenderKey: pa.LenderKey, Kind: chairside.ConsentHardPull}))
		now := t0
		must(t, db.CreateConsent(ctx, &chairside.Consent{SessionID: s.ID, ApplicationID: a.ID, LenderKey: pa.LenderKey, Kind: chairside.ConsentESign,
			SignedAt: &now, SignaturePNG: []byte("png"), SignatureMethod: chairside.SignatureDrawn}))
		answered(t, db, s, pa, chairside.StepApply, chairside.StepAccept, chairside.StepESign)
		problems, err := db.Audit(ctx)
		must(t, err)
		if got := strings.Join(problems, "\n"); !strings.Contains(got, "no consent to the agreement") || strings.Contains(got, "hard-pull") {
			t.Fatalf("signed without the agreement: %v", problems)
		}
		must(t, db.CreateConsent(ctx, &chairside.Consent{SessionID: s.ID, ApplicationID: a.ID, LenderKey: pa.LenderKey, Kind: chairside.ConsentTerms, LenderPlanCode: "P1"}))
		problems, err = db.Audit(ctx)
		must(t, err)
		if len(problems) != 0 {
			t.Fatalf("with its evidence: %v", problems)
		}
	})
}

// answered records each step of pa as claimed and answered by the lender.
func answered(t *testing.T, db *store.DB, s *chairside.Session, pa *chairside.LenderApplication, steps ...string) {
	t.Helper()
	for _, step := range steps {
		c := &chairside.LenderCall{LenderApplicationID: pa.ID, Step: step, SessionID: s.ID, Reference: "ref-" + pa.ID + "-" + step,
			RequestHash: "h", ClaimedAt: t0, LeaseUntil: t0.Add(time.Minute)}
		_, _, err := db.ClaimLenderCall(ctx, c)
		must(t, err)
		c.State = chairside.CallDone
		must(t, db.SettleLenderCall(ctx, c))
	}
}

// TestAuditSnapSignedWithoutBankAccount: Snap draws its payments from a
// checking account it must have before signing, so a signed Snap
// application needs an answered bank-account step; other lenders do not.
func TestAuditSnapSignedWithoutBankAccount(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := newSession(t, db, t0)
		a := newApplication(t, db, s, applicant("Ann", "Lee", "078051120"), nil)
		pa := newLenderApplication(t, db, a, "snap_standard")
		pa.Status = chairside.StatusSigned
		must(t, db.UpdateLenderApplication(ctx, pa))
		must(t, db.CreateDecision(ctx, &chairside.Decision{LenderApplicationID: pa.ID, LenderKey: pa.LenderKey, Operation: "prequalify", ResponseCode: chairside.ResponseApproved}))
		must(t, db.CreateConsent(ctx, &chairside.Consent{SessionID: s.ID, ApplicationID: a.ID, LenderKey: pa.LenderKey, Kind: chairside.ConsentSoftPull}))
		now := t0
		must(t, db.CreateConsent(ctx, &chairside.Consent{SessionID: s.ID, ApplicationID: a.ID, LenderKey: pa.LenderKey, Kind: chairside.ConsentESign,
			SignedAt: &now, SignaturePNG: []byte("png"), SignatureMethod: chairside.SignatureDrawn}))
		must(t, db.CreateConsent(ctx, &chairside.Consent{SessionID: s.ID, ApplicationID: a.ID, LenderKey: pa.LenderKey, Kind: chairside.ConsentTerms, LenderPlanCode: "P1"}))
		must(t, db.CreateConsent(ctx, &chairside.Consent{SessionID: s.ID, ApplicationID: a.ID, LenderKey: pa.LenderKey, Kind: chairside.ConsentHardPull, LenderPlanCode: "P1"}))
		answered(t, db, s, pa, chairside.StepPrequalify, chairside.StepAccept, chairside.StepESign)
		problems, err := db.Audit(ctx)
		must(t, err)
		if got := strings.Join(problems, "\n"); len(problems) != 1 || !strings.Contains(got, "no answered bank-account step") {
			t.Fatalf("signed Snap without a bank account: %v", problems)
		}
		answered(t, db, s, pa, chairside.StepBankAccount)
		problems, err = db.Audit(ctx)
		must(t, err)
		if len(problems) != 0 {
			t.Fatalf("with its bank account: %v", problems)
		}
	})
}

// TestAuditSignedWithoutPassedQuiz: a lender that asked for the identity
// quiz signs only after a passed quiz (flow/quiz.go); a lender that did not
// ask needs none.
func TestAuditSignedWithoutPassedQuiz(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := newSession(t, db, t0)
		a := newApplication(t, db, s, applicant("Ann", "Lee", "078051120"), nil)
		pa := newLenderApplication(t, db, a, "synchrony_standard")
		pa.Status = chairside.StatusSigned
		must(t, db.UpdateLenderApplication(ctx, pa))
		must(t, db.CreateDecision(ctx, &chairside.Decision{LenderApplicationID: pa.ID, LenderKey: pa.LenderKey, Operation: "apply", ResponseCode: chairside.ResponseApproved,
			Stipulations: []chairside.Stipulation{{ID: "kba", Type: chairside.StipulationIdentityQuiz, Status: "open"}}}))
		must(t, db.CreateConsent(ctx, &chairside.Consent{SessionID: s.ID, ApplicationID: a.ID, LenderKey: pa.LenderKey, Kind: chairside.ConsentHardPull}))
		must(t, db.CreateConsent(ctx, &chairside.Consent{SessionID: s.ID, ApplicationID: a.ID, LenderKey: pa.LenderKey, Kind: chairside.ConsentTerms, LenderPlanCode: "P1"}))
		now := t0
		must(t, db.CreateConsent(ctx, &chairside.Consent{SessionID: s.ID, ApplicationID: a.ID, LenderKey: pa.LenderKey, Kind: chairside.ConsentESign,
			SignedAt: &now, SignaturePNG: []byte("png"), SignatureMethod: chairside.SignatureDrawn}))
		answered(t, db, s, pa, chairside.StepApply, chairside.StepAccept, chairside.StepESign)
		problems, err := db.Audit(ctx)
		must(t, err)
		if got := strings.Join(problems, "\n"); len(problems) != 1 || !strings.Contains(got, "no passed quiz") {
			t.Fatalf("signed without passing the quiz: %v", problems)
		}
		must(t, db.AppendEvent(ctx, &chairside.Event{ID: "ev-quiz", SessionID: s.ID, ApplicationID: a.ID, LenderKey: pa.LenderKey, Type: "quiz.passed", CreatedAt: t0}))
		problems, err = db.Audit(ctx)
		must(t, err)
		if len(problems) != 0 {
			t.Fatalf("with a passed quiz: %v", problems)
		}
	})
}
