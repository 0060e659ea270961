package httplender_test

import (
	"context"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/catalogue"
	"github.com/chairside/chairside/lender/sandbox"
)

// TestLanguageOverHTTP: the patient's language goes to the lender as
// Accept-Language and comes back in what the lender writes: documents
// (with their language and the hash of the Spanish text), plans,
// stipulations and the quiz are the sandbox's Spanish, as in process; a
// call without a language is answered in English.
func TestLanguageOverHTTP(t *testing.T) {
	r := newRig(t, catalogue.Snap, nil)
	es := context.Background() // the language is the request's
	sl, _ := sandbox.New(sandbox.Options{}).Lender(r.key)

	doc, err := r.l.Document(es, &chairside.DocumentRequest{LenderKey: r.key, Kind: "terms", Language: "es"})
	direct, _ := sl.Document(es, &chairside.DocumentRequest{LenderKey: r.key, Kind: "terms", Language: "es"})
	direct.FreshFor = 5 * time.Minute // the simulator's Cache-Control
	if err != nil || doc.Language != "es" || !reflect.DeepEqual(doc, direct) {
		t.Fatalf("Spanish document:\n got %+v %v\nwant %+v", doc, err, direct)
	}
	if en, err := r.l.Document(context.Background(), &chairside.DocumentRequest{LenderKey: r.key, Kind: "terms"}); err != nil || en.Language != "en" || en.SHA256 == doc.SHA256 || en.ID != doc.ID {
		t.Fatalf("English document: %+v %v", en, err)
	}

	req := decideReq(r.key, "ref-language", "Approve")
	req.TestCase = "identity-quiz"
	req.Language = "es"
	d, err := r.l.Decide(es, req)
	if err != nil || len(d.Stipulations) != 2 {
		t.Fatalf("decide: %+v %v", d, err)
	}
	for _, st := range d.Stipulations {
		if !strings.HasPrefix(st.Description, "Agregue") && !strings.HasPrefix(st.Description, "Responda") {
			t.Errorf("stipulation %s in English: %q", st.Type, st.Description)
		}
	}
	preq := &chairside.PlansRequest{LenderKey: r.key, Language: "es", LenderRef: d.LenderRef, AmountCents: 300_000}
	plans, err1 := r.l.Plans(es, preq)
	want, err2 := sl.Plans(es, preq)
	if err1 != nil || err2 != nil || len(plans) != len(want) {
		t.Fatalf("plans: %v %v", err1, err2)
	}
	for i := range plans {
		if plans[i].Description != want[i].Description || !strings.Contains(strings.ToLower(plans[i].Description), "arrendamiento") {
			t.Errorf("plan %d: %q, want %q", i, plans[i].Description, want[i].Description)
		}
	}
	q, err := r.l.Quiz(es, &chairside.QuizRequest{Language: "es", LenderKey: r.key, LenderRef: d.LenderRef, Attempt: 1})
	if err != nil || !strings.HasPrefix(q.Questions[0].Text, "¿") {
		t.Fatalf("quiz: %+v %v", q, err)
	}
}

// TestPendingInSpanish: what a pending application waits for comes in the
// patient's language, at the decision and when it is refreshed.
func TestPendingInSpanish(t *testing.T) {
	r := newRig(t, catalogue.Snap, nil)
	es := context.Background() // the language is the request's
	const wait = "El prestamista necesita confirmar su ingreso anual antes de impuestos."
	req := decideReq(r.key, "ref-pending-es", "Approve")
	req.TestCase = "patch-income" // pending until the lender has the income, which this test never sends
	req.Language = "es"
	d, err := r.l.Decide(es, req)
	if err != nil || d.ResponseCode != chairside.ResponsePending || len(d.Stipulations) != 1 || d.Stipulations[0].Description != wait {
		t.Fatalf("decide: %+v %v", d, err)
	}
	got, err := r.l.Stipulations(es, &chairside.StipulationsRequest{Language: "es", LenderKey: r.key, LenderRef: d.LenderRef,
		Known: d.Stipulations})
	if err != nil || len(got) != 1 || got[0].Description != wait {
		t.Fatalf("refresh: %+v %v", got, err)
	}
}
