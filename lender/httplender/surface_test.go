package httplender_test

import (
	"context"
	"net/http"
	"reflect"
	"testing"
	"time"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/catalogue"
	"github.com/chairside/chairside/lender"
	"github.com/chairside/chairside/lender/lendersim"
	"github.com/chairside/chairside/lender/sandbox"
)

// TestWholeSurface walks every method of chairside.Lender over HTTP for an
// approved applicant of a lender with a down payment, a contact, a card
// and the identity quiz: decide, plans, quiz, accept, the steps, e-sign,
// complete, status, documents.
func TestWholeSurface(t *testing.T) {
	r := newRig(t, catalogue.HFD, nil)
	ctx := context.Background()
	doc, err := r.l.Document(ctx, &chairside.DocumentRequest{LenderKey: r.key, Kind: "terms"})
	if err != nil || doc.ID != r.key+"/terms" || doc.Content == "" {
		t.Fatalf("document: %+v %v", doc, err)
	}
	if _, err := r.l.Document(ctx, &chairside.DocumentRequest{LenderKey: r.key, Kind: "nope"}); chairside.ErrorCode(err) != chairside.ENOTFOUND {
		t.Fatalf("unknown document: %v", err)
	}
	req := decideReq(r.key, "ref-surface", "Approve")
	req.TestCase = "identity-quiz"
	d, err := r.l.Decide(ctx, req)
	if err != nil || d.ResponseCode != chairside.ResponseApproved || !d.DownPaymentRequired || d.LenderRef == "" {
		t.Fatalf("decide: %+v %v", d, err)
	}
	id := d.LenderRef
	plans := surfacePlans(t, r, id)
	quizzed(t, r, id)

	offer := &chairside.OfferRequest{LenderKey: r.key, LenderRef: id, LenderPlanCode: plans[0].LenderPlanCode, AmountCents: 300_000, Reference: "ref-accept"}
	if err := r.l.AcceptOffer(ctx, offer); err != nil {
		t.Fatalf("accept: %v", err)
	}
	bogus := *offer
	bogus.LenderPlanCode, bogus.Reference = "HFD-NOPE", "ref-accept-bogus"
	if err := r.l.AcceptOffer(ctx, &bogus); chairside.ErrorCode(err) != chairside.ENOTFOUND {
		t.Fatalf("unknown plan: %v", err)
	}
	steps := map[string]error{
		"down payment": r.l.DownPayment(ctx, &chairside.DownPaymentRequest{LenderKey: r.key, LenderRef: id,
			AmountCents: d.DownPaymentCents, Method: chairside.DownPaymentCollected, Reference: "ref-down"}),
		"contact": r.l.AddContact(ctx, &chairside.ContactRequest{LenderKey: r.key, LenderRef: id,
			Name: "Grace Example", Relationship: "parent", Phone: "7025550199", Reference: "ref-contact"}),
		"card": r.l.AddCard(ctx, &chairside.BankCardRequest{LenderKey: r.key, LenderRef: id, CardholderName: "Ada Example",
			Number: "4111111111111111", ExpiryMonth: 12, ExpiryYear: time.Now().Year() + 2, CVV: "739", ZIP: "89501", Reference: "ref-card"}),
		"bank account": r.l.AddBankAccount(ctx, &chairside.BankAccountRequest{LenderKey: r.key, LenderRef: id,
			RoutingNumber: "011000015", AccountNumber: "000123456789", BankName: "First Test Bank", AccountType: "checking", Reference: "ref-acct"}),
		"consent": r.l.RecordConsent(ctx, &chairside.ConsentNotice{LenderKey: r.key, LenderRef: id,
			Kind: chairside.ConsentTerms, DocumentID: doc.ID, DocumentVersion: doc.Version, Reference: "ref-consent"}),
		"spouse": r.l.AddSpouse(ctx, &chairside.SpouseRequest{LenderKey: r.key, LenderRef: id, Married: false, Reference: "ref-spouse"}),
	}
	for name, err := range steps {
		if err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	offer.Reference = "ref-esign"
	if err := r.l.ESign(ctx, offer); err != nil {
		t.Fatalf("esign: %v", err)
	}
	offer.Reference = "ref-complete"
	done, err := r.l.Complete(ctx, offer)
	if err != nil || done.ResponseCode != chairside.ResponseApproved || done.LenderRef != id {
		t.Fatalf("complete: %+v %v", done, err)
	}
	st, err := r.l.Status(ctx, &chairside.StatusRequest{LenderKey: r.key, LenderRef: id})
	if err != nil || !reflect.DeepEqual(st, done) {
		t.Fatalf("status after complete:\n got %+v %v\nwant %+v", st, err, done)
	}
}

// surfacePlans checks that plans over HTTP are the sandbox's, field for
// field (but the expiry, which is worked out from the time of asking).
func surfacePlans(t *testing.T, r *rig, id string) []chairside.PaymentPlan {
	t.Helper()
	preq := &chairside.PlansRequest{LenderKey: r.key, LenderRef: id, AmountCents: 300_000}
	plans, err := r.l.Plans(context.Background(), preq)
	if err != nil || len(plans) == 0 {
		t.Fatalf("plans: %v %v", plans, err)
	}
	sl, _ := sandbox.New(sandbox.Options{}).Lender(r.key)
	direct, err := sl.Plans(context.Background(), preq)
	if err != nil {
		t.Fatal(err)
	}
	for i := range direct {
		if plans[i].ExpireDateTime.IsZero() {
			t.Fatalf("plan %d has no expiry", i)
		}
		got, want := plans[i], direct[i]
		got.ExpireDateTime, want.ExpireDateTime = time.Time{}, time.Time{}
		// The wire states the schedule; its totals are worked out on our
		// side (money.Settle in flow), and must come out the same.
		got.Tally()
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("plan %d\n got %+v\nwant %+v", i, got, want)
		}
	}
	return plans
}

// quizzed fetches the identity quiz and answers it wrongly, then rightly.
func quizzed(t *testing.T, r *rig, id string) {
	t.Helper()
	ctx := context.Background()
	q, err := r.l.Quiz(ctx, &chairside.QuizRequest{LenderKey: r.key, LenderRef: id, Attempt: 1})
	if err != nil || len(q.Questions) != 3 || q.ID == "" {
		t.Fatalf("quiz: %+v %v", q, err)
	}
	right := sandbox.RightAnswers(id, q.ID)
	wrong := map[string]string{}
	for k, v := range right {
		wrong[k] = map[bool]string{true: "c2", false: "c1"}[v == "c1"]
	}
	for answers, want := range map[*map[string]string]string{&wrong: chairside.QuizFailed, &right: chairside.QuizPassed} {
		res, err := r.l.Answers(ctx, &chairside.AnswersRequest{LenderKey: r.key, LenderRef: id, QuizID: q.ID,
			Answers: *answers, Reference: "ref-answers-" + want})
		if err != nil || res.Result != want {
			t.Fatalf("answers: %+v %v, want %s", res, err, want)
		}
	}
}

// TestDecisionsOverHTTP: a decline and a lender without an offer are
// ordinary decisions; the Error magic name is a lender failing (5xx,
// repeated under the key); a pending application refuses its plans until
// the lender approves it.
func TestDecisionsOverHTTP(t *testing.T) {
	r := newRig(t, catalogue.Genesis, nil)
	ctx := context.Background()
	for last, want := range map[string]string{"Decline": chairside.ResponseDeclined, "Nooffer": chairside.ResponseNoOffer, "Existing": chairside.ResponseApproved} {
		d, err := r.l.Decide(ctx, decideReq(r.key, "ref-"+last, last))
		if err != nil || d.ResponseCode != want || d.LenderRef == "" {
			t.Fatalf("%s: %+v %v", last, d, err)
		}
	}
	_, err := r.l.Decide(ctx, decideReq(r.key, "ref-error", "Error"))
	if le := lenderErr(t, err, lender.KindUnavailable); le.Status != http.StatusInternalServerError {
		t.Fatalf("status %d", le.Status)
	}
	if n := r.sim.Hits(r.key, lender.OpDecide); n != 3+3 {
		t.Fatalf("%d create requests, want 3 decisions and 3 attempts of the failing one", n)
	}

	d, err := r.l.Decide(ctx, decideReq(r.key, "ref-pending", "Pending"))
	if err != nil || d.ResponseCode != chairside.ResponsePending {
		t.Fatalf("pending: %+v %v", d, err)
	}
	preq := &chairside.PlansRequest{LenderKey: r.key, LenderRef: d.LenderRef, AmountCents: 300_000}
	if _, err := r.l.Plans(ctx, preq); chairside.ErrorCode(err) != chairside.ECONFLICT {
		t.Fatalf("plans of a pending application: %v", err)
	}
	if st, err := r.l.Status(ctx, &chairside.StatusRequest{LenderKey: r.key, LenderRef: d.LenderRef}); err != nil || st.ResponseCode != chairside.ResponsePending {
		t.Fatalf("status while pending: %+v %v", st, err)
	}
	time.Sleep(250 * time.Millisecond)
	st, err := r.l.Status(ctx, &chairside.StatusRequest{LenderKey: r.key, LenderRef: d.LenderRef})
	if err != nil || st.ResponseCode != chairside.ResponseApproved || st.Operation != "apply" {
		t.Fatalf("status after PendingFor: %+v %v", st, err)
	}
	if plans, err := r.l.Plans(ctx, preq); err != nil || len(plans) == 0 {
		t.Fatalf("plans once approved: %v %v", plans, err)
	}
}

// TestPatchAndStipulationsOverHTTP: an income patch answers a new
// application, recovered by lookup when its answer is dropped; the
// stipulations of a pending application move on at each read.
func TestPatchAndStipulationsOverHTTP(t *testing.T) {
	r := newRig(t, catalogue.LendingClub, nil)
	ctx := context.Background()
	req := decideReq(r.key, "ref-income", "Anyname")
	req.TestCase = "patch-income"
	d, err := r.l.Decide(ctx, req)
	if err != nil || d.ResponseCode != chairside.ResponsePending {
		t.Fatalf("decide: %+v %v", d, err)
	}
	r.fault(t, lendersim.Fault{Kind: lendersim.FaultDrop, Op: lender.OpPatch, Count: 1})
	p, err := r.l.Patch(ctx, &chairside.PatchRequest{LenderKey: r.key, LenderRef: d.LenderRef,
		PatchType: chairside.PatchIncome, AnnualGrossIncomeCents: 6_500_000, Reference: "ref-patch"})
	if err != nil || p.ResponseCode != chairside.ResponseApproved || p.LenderRef == d.LenderRef {
		t.Fatalf("patch: %+v %v", p, err)
	}
	if n := r.sim.Creates(r.key, "ref-patch"); n != 1 {
		t.Fatalf("the patch ran %d times", n)
	}

	req = decideReq(r.key, "ref-review", "Anyname")
	req.TestCase = "lendingclub-true-pending"
	d, err = r.l.Decide(ctx, req)
	if err != nil || len(d.Stipulations) != 1 {
		t.Fatalf("decide: %+v %v", d, err)
	}
	for _, want := range []string{"received", "satisfied"} {
		got, err := r.l.Stipulations(ctx, &chairside.StipulationsRequest{LenderKey: r.key, LenderRef: d.LenderRef, Known: d.Stipulations})
		if err != nil || len(got) != 1 || got[0].Status != want || got[0].ID != d.Stipulations[0].ID {
			t.Fatalf("stipulations, want %s: %+v %v", want, got, err)
		}
	}
}
