package flow_test

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/flow"
	"github.com/chairside/chairside/lender/sandbox"
	"github.com/chairside/chairside/locale"
	"github.com/chairside/chairside/store/storetest"
)

// TestDocumentsInSpanish: the documents pages answer in the request's
// language, ours and the lender's alike, and say which they are in; the
// rates sheet is printed in each language, accents kept.
func TestDocumentsInSpanish(t *testing.T) {
	f := newFixture(t, storetest.SQLite(t), flow.Options{})
	ctx := context.Background()
	en, es := locale.English, locale.Spanish
	c := f.caller(t)

	ours, err := f.svc.Document(ctx, es, c.Session, "privacyNotice", "")
	if err != nil || ours.Language != "es" || !strings.Contains(ours.Content, "en Bright Smiles") || ours.Title != "Aviso de privacidad" {
		t.Fatalf("privacy notice in Spanish: %+v %v", ours, err)
	}
	if d, _ := f.svc.Document(ctx, es, nil, "privacy", ""); d.Language != "es" || !strings.Contains(d.Content, "el consultorio dental") {
		t.Errorf("privacy without a session: %+v", d)
	}
	if d, _ := f.svc.Document(ctx, en, c.Session, "privacyNotice", ""); d.Language != "en" || d.ID != ours.ID || d.SHA256 == ours.SHA256 {
		t.Errorf("privacy notice in English: %+v", d)
	}
	theirs, err := f.svc.Document(ctx, es, c.Session, "arbitration", "")
	if err != nil || theirs.Language != "es" || theirs.ID != "synchrony_standard/arbitration" || !strings.Contains(theirs.Content, "MUESTRA") {
		t.Fatalf("the lender's page in Spanish: %+v %v", theirs, err)
	}

	const sheet = "synchrony_standard-rates.pdf"
	enPDF, err1 := f.svc.DocumentPDF(ctx, en, sheet)
	esPDF, err2 := f.svc.DocumentPDF(ctx, es, sheet)
	if err1 != nil || err2 != nil {
		t.Fatal(err1, err2)
	}
	if !bytes.Contains(enPDF, []byte("(Synchrony Health Card rates)")) || !bytes.Contains(esPDF, []byte("(Tasas de Synchrony Health Card)")) ||
		!bytes.Contains(esPDF, []byte(`cr\351dito`)) {
		t.Errorf("rates sheets: the Spanish one came out as %.600s", esPDF)
	}
	if again, _ := f.svc.DocumentPDF(ctx, en, sheet); !bytes.Equal(again, enPDF) {
		t.Error("the English sheet changed once the Spanish one was printed")
	}
}

// TestDocumentFetchedOnceAtATime: callers asking at once for the same lender
// document share one lender call, each gets a copy of its own, a caller who
// gives up leaves without ending the call for the others, and a document in
// another language is a call of its own.
func TestDocumentFetchedOnceAtATime(t *testing.T) {
	f := newFixture(t, storetest.SQLite(t), flow.Options{})
	c := f.caller(t)
	f.lenders.holdDocs, f.lenders.docEntered = make(chan struct{}), make(chan struct{}, 16)
	fetchIn := func(ctx context.Context, lang locale.Language) (*chairside.Document, error) {
		in := *c
		in.Language = lang
		return f.svc.Disclosures(ctx, &in, "synchrony_standard", flow.DocPrequalification)
	}
	fetch := func(ctx context.Context) (*chairside.Document, error) { return fetchIn(ctx, locale.English) }

	// The first caller reaches the lender and is held there; the others arrive while it is.
	const callers = 6
	docs := make([]*chairside.Document, callers)
	errs := make([]error, callers)
	var wg sync.WaitGroup
	wg.Go(func() { docs[0], errs[0] = fetch(context.Background()) })
	<-f.lenders.docEntered
	for i := 1; i < callers; i++ {
		wg.Go(func() { docs[i], errs[i] = fetch(context.Background()) })
	}
	gaveUp, giveUp := context.WithCancel(context.Background())
	left := make(chan error, 1)
	go func() { _, err := fetch(gaveUp); left <- err }()
	giveUp()
	select {
	case err := <-left:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("a caller who gave up got %v, want context.Canceled", err)
		}
	case <-time.After(5 * time.Second):
		close(f.lenders.holdDocs)
		t.Fatal("a caller who gave up is still waiting for the lender")
	}
	// A Spanish caller's document is another one: it reaches the lender too.
	spanish := make(chan *chairside.Document, 1)
	go func() {
		d, _ := fetchIn(context.Background(), locale.Spanish)
		spanish <- d
	}()
	<-f.lenders.docEntered
	time.Sleep(50 * time.Millisecond) // the English callers are waiting on the held call by now
	close(f.lenders.holdDocs)
	wg.Wait()
	// The Spanish call is on record once it has returned: count after it.
	es := <-spanish

	// English once (a caller the scheduler kept back past the release may
	// make a second call) and Spanish once; one call a caller would be seven.
	if n, _ := f.log.count(sandbox.OpDocument); n < 2 || n > 3 {
		t.Errorf("the lender was asked %d times, want twice (English once, Spanish once)", n)
	}
	for i, d := range docs {
		if errs[i] != nil || d == nil || d.ID != docs[0].ID || d.SHA256 != docs[0].SHA256 {
			t.Fatalf("caller %d: %+v %v", i, d, errs[i])
		}
	}
	docs[1].Content = "changed by one caller"
	if docs[0].Content == docs[1].Content {
		t.Error("callers share one document value")
	}
	if es == nil || es.Language != "es" || es.SHA256 == docs[0].SHA256 {
		t.Errorf("the Spanish caller got %+v", es)
	}
}

// TestLenderWordsInTheCallersLanguage: what a lender writes for the
// patient comes in the language the call carries (Caller.Language), with
// nothing else changed: the same plans, described in Spanish for a
// Spanish call.
func TestLenderWordsInTheCallersLanguage(t *testing.T) {
	f := newFixture(t, storetest.SQLite(t), flow.Options{})
	ctx := context.Background()
	c := f.caller(t)
	if d, err := f.submit(t, c, "synchrony_standard", "Approve", "123456701"); err != nil || !chairside.Positive(d.ResponseCode) {
		t.Fatalf("Approve: %+v %v", d, err)
	}
	en, err := f.svc.Plans(ctx, c, "synchrony_standard", 450_000)
	if err != nil {
		t.Fatal(err)
	}
	spanish := *c
	spanish.Language = locale.Spanish
	es, err := f.svc.Plans(ctx, &spanish, "synchrony_standard", 450_000)
	if err != nil {
		t.Fatal(err)
	}
	if len(en.PaymentPlans) == 0 || len(es.PaymentPlans) != len(en.PaymentPlans) {
		t.Fatalf("%d English plans, %d Spanish", len(en.PaymentPlans), len(es.PaymentPlans))
	}
	for i, p := range es.PaymentPlans {
		q := en.PaymentPlans[i]
		if p.LenderPlanCode != q.LenderPlanCode || p.MonthlyAmountCents != q.MonthlyAmountCents {
			t.Errorf("plan %d: %s %d in Spanish, %s %d in English", i, p.LenderPlanCode, p.MonthlyAmountCents, q.LenderPlanCode, q.MonthlyAmountCents)
		}
		if p.Description == q.Description {
			t.Errorf("plan %s is described in English for a Spanish call: %q", p.LenderPlanCode, p.Description)
		}
	}
}
