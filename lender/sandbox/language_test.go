package sandbox

import (
	"context"
	"maps"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/catalogue"
	"github.com/chairside/chairside/locale"
)

// inSpanish is req asking for the patient's words in Spanish.
func inSpanish(req *chairside.DecisionRequest) *chairside.DecisionRequest {
	req.Language = "es"
	return req
}

// everyDocument is every kind of document the sandbox serves.
var everyDocument = []string{
	"disclosures", "agreement", "terms", "esign", "prequalification", "california_notice", "cardholder_agreement",
	chairside.DocKindArbitration, chairside.DocKindArbitrationProvision, chairside.DocKindPrequalificationTerms,
	chairside.DocKindCreditReport, chairside.DocKindParticipatingCreditors, chairside.DocKindElectronicDisclosures,
	chairside.DocKindAccountTerms, chairside.DocKindRates,
}

// TestDocumentsInSpanish: asked in Spanish, every document of every lender
// is the Spanish text, marked as a sample, with the same id and version as
// the English and the hash of its own content; asked in English or in no
// language, it is the English one, said to be English.
func TestDocumentsInSpanish(t *testing.T) {
	for _, p := range catalogue.All() {
		l := mustLender(t, New(Options{}), p.Key)
		for _, kind := range everyDocument {
			en, err := l.Document(context.Background(), &chairside.DocumentRequest{LenderKey: p.Key, Kind: kind})
			if err != nil {
				t.Fatal(err)
			}
			asked, _ := l.Document(context.Background(), &chairside.DocumentRequest{LenderKey: p.Key, Kind: kind, Language: string(locale.English)})
			es, err := l.Document(context.Background(), &chairside.DocumentRequest{LenderKey: p.Key, Kind: kind, Language: "es"})
			if err != nil {
				t.Fatal(err)
			}
			where := p.Key + " " + kind
			if en.Language != "en" || *asked != *en {
				t.Errorf("%s: English %+v, asked in English %+v", where, en, asked)
			}
			if es.Language != "es" || es.ID != en.ID || es.Version != en.Version || es.ContentType != en.ContentType {
				t.Errorf("%s: Spanish %+v, English %+v", where, es, en)
			}
			if es.SHA256 != sha(es.Content) || es.SHA256 == en.SHA256 || es.Title == en.Title {
				t.Errorf("%s: hash %s of Spanish %q (English %s %q)", where, es.SHA256, es.Title, en.SHA256, en.Title)
			}
			if !strings.Contains(es.Content, "MUESTRA") || strings.Contains(es.Content, "SAMPLE") || strings.Contains(es.Content, "{{") {
				t.Errorf("%s: %s", where, es.Content)
			}
			if !strings.Contains(es.Content, p.FinancingName) && !strings.Contains(es.Content, p.Name) {
				t.Errorf("%s: names no lender: %s", where, es.Content)
			}
			if got, want := links(es.Content), links(en.Content); !slices.Equal(got, want) {
				t.Errorf("%s: links %v, English %v", where, got, want)
			}
		}
	}
}

// TestSpanishDocumentsCachedApart: the cache keeps each language's
// document, whichever is asked first.
func TestSpanishDocumentsCachedApart(t *testing.T) {
	l := mustLender(t, New(Options{}), catalogue.Genesis)
	for range 2 {
		es, _ := l.Document(context.Background(), &chairside.DocumentRequest{LenderKey: catalogue.Genesis, Kind: "esign", Language: "es"})
		en, _ := l.Document(context.Background(), &chairside.DocumentRequest{LenderKey: catalogue.Genesis, Kind: "esign"})
		if es.Language != "es" || en.Language != "en" || es.Content == en.Content {
			t.Fatalf("es %+v\nen %+v", es, en)
		}
	}
}

var href = regexp.MustCompile(`href="([^"]*)"`)

// links lists the links of a text, in order.
func links(s string) []string {
	var out []string
	for _, m := range href.FindAllStringSubmatch(s, -1) {
		out = append(out, m[1])
	}
	return out
}

// TestSpanishTextsMatchEnglish: the Spanish tables have the English keys,
// placeholders and links, and the quiz the same number of questions.
func TestSpanishTextsMatchEnglish(t *testing.T) {
	placeholder := regexp.MustCompile(`\{\{[a-z]+\}\}`)
	same := func(what, en, es string) {
		pe, ps := placeholder.FindAllString(en, -1), placeholder.FindAllString(es, -1)
		slices.Sort(pe)
		slices.Sort(ps)
		if !slices.Equal(slices.Compact(pe), slices.Compact(ps)) || !slices.Equal(links(en), links(es)) {
			t.Errorf("%s: placeholders %v / %v, links %v / %v", what, pe, ps, links(en), links(es))
		}
		if strings.Count(en, "SAMPLE") != strings.Count(es, "MUESTRA") {
			t.Errorf("%s: sample markers differ", what)
		}
	}
	if !slices.Equal(slices.Sorted(maps.Keys(documentTexts)), slices.Sorted(maps.Keys(documentTextsES))) {
		t.Errorf("documents: %v / %v", slices.Sorted(maps.Keys(documentTexts)), slices.Sorted(maps.Keys(documentTextsES)))
	}
	for k, en := range documentTexts {
		same(k, en.text, documentTextsES[k].text)
	}
	if !slices.Equal(slices.Sorted(maps.Keys(pageTexts)), slices.Sorted(maps.Keys(pageTextsES))) {
		t.Errorf("pages: %v / %v", slices.Sorted(maps.Keys(pageTexts)), slices.Sorted(maps.Keys(pageTextsES)))
	}
	for k, en := range pageTexts {
		same(k, en.body, pageTextsES[k].body)
	}
	if len(quizPool) != len(quizPoolES) {
		t.Errorf("quiz: %d questions, %d in Spanish", len(quizPool), len(quizPoolES))
	}
	for k, w := range stipulationWords {
		if w.en == "" || w.es == "" {
			t.Errorf("stipulation %s: %+v", k, w)
		}
	}
}

// TestPlansInSpanish: every plan of every lender has a Spanish description,
// and the plans asked in Spanish are the English ones but for it.
func TestPlansInSpanish(t *testing.T) {
	for _, p := range catalogue.All() {
		for _, score := range []int{500, 620, 700, 850} {
			for _, tm := range products[p.Key].terms(score) {
				if tm.description.en == "" || tm.description.es == "" || tm.description.es == tm.description.en {
					t.Errorf("%s %s: %+v", p.Key, tm.code, tm.description)
				}
			}
		}
		l := mustLender(t, New(Options{}), p.Key)
		d, err := l.Decide(context.Background(), inSpanish(request(p.Key, "apply", "plans-es", "Approve")))
		if err != nil || !chairside.Positive(d.ResponseCode) {
			t.Fatalf("%s: %+v %v", p.Key, d, err)
		}
		preq := &chairside.PlansRequest{LenderKey: p.Key, LenderRef: d.LenderRef, AmountCents: 300_000, Now: now}
		en, err1 := l.Plans(context.Background(), preq)
		esReq := *preq
		esReq.Language = "es"
		es, err2 := l.Plans(context.Background(), &esReq)
		if err1 != nil || err2 != nil || len(en) != len(es) {
			t.Fatalf("%s: %v %v", p.Key, err1, err2)
		}
		for i := range en {
			if es[i].Description == en[i].Description || strings.Contains(es[i].Description, "month") {
				t.Errorf("%s %s: %q", p.Key, es[i].LenderPlanCode, es[i].Description)
			}
			es[i].Description = en[i].Description
			if es[i] != en[i] {
				t.Errorf("%s: plan %d differs but for its words:\n%+v\n%+v", p.Key, i, es[i], en[i])
			}
		}
	}
	syn := mustLender(t, New(Options{}), catalogue.Synchrony)
	rates, _ := syn.Document(context.Background(), &chairside.DocumentRequest{LenderKey: catalogue.Synchrony, Kind: chairside.DocKindRates, Language: "es"})
	if rates.Title != "Tasas de Synchrony Health Card" || !strings.Contains(rates.Content, "- Sin intereses si paga el total en 6 meses. ") {
		t.Errorf("Synchrony's rates in Spanish: %s\n%s", rates.Title, rates.Content)
	}
}

// TestStipulationsInSpanish: what a decision waits for, or asks before
// signing, is said in the call's language, at the decision and after.
func TestStipulationsInSpanish(t *testing.T) {
	for _, p := range catalogue.All() {
		l := mustLender(t, New(Options{}), p.Key)
		d, err := l.Decide(context.Background(), inSpanish(request(p.Key, "apply", "stip-es", "Pending")))
		if err != nil || d.ResponseCode != chairside.ResponsePending || len(d.Stipulations) == 0 {
			t.Fatalf("%s: %+v %v", p.Key, d, err)
		}
		for _, st := range d.Stipulations {
			if st.Description != stipulationWords[st.Type].es {
				t.Errorf("%s %s: %q", p.Key, st.Type, st.Description)
			}
		}
		en, _ := l.Status(context.Background(), &chairside.StatusRequest{LenderKey: p.Key, LenderRef: d.LenderRef})
		es, _ := l.Status(context.Background(), &chairside.StatusRequest{LenderKey: p.Key, LenderRef: d.LenderRef, Language: "es"})
		if en.Stipulations[0].Description != stipulationWords[en.Stipulations[0].Type].en || es.Stipulations[0].Description != d.Stipulations[0].Description {
			t.Errorf("%s status: %+v / %+v", p.Key, en.Stipulations, es.Stipulations)
		}
	}
	ctx := context.Background()
	l := mustLender(t, New(Options{}), catalogue.Snap)
	req := inSpanish(request(catalogue.Snap, "apply", "quiz-es", "Approve"))
	req.TestCase = "identity-quiz"
	d, err := l.Decide(ctx, req)
	if err != nil || len(d.Stipulations) != 2 {
		t.Fatalf("snap: %+v %v", d, err)
	}
	want := map[string]string{
		"bank_account":                    "Agregue la cuenta de cheques en la que recibe su sueldo; de ella salen los pagos del arrendamiento.",
		chairside.StipulationIdentityQuiz: "Responda algunas preguntas para que el prestamista pueda confirmar que es usted.",
	}
	for _, st := range d.Stipulations {
		if st.Description != want[st.Type] {
			t.Errorf("snap %s: %q", st.Type, st.Description)
		}
	}
	refreshed, err := mustStep[chairside.Stipulations](t, l).Stipulations(ctx, &chairside.StipulationsRequest{LenderKey: catalogue.Snap, Language: "es", LenderRef: d.LenderRef,
		Known: []chairside.Stipulation{{ID: "STIP-SNP-BANK", Status: "open"}}})
	if err != nil || refreshed[0].Description != want["bank_account"] {
		t.Errorf("refreshed: %+v %v", refreshed, err)
	}
	plans, _ := l.Plans(ctx, &chairside.PlansRequest{LenderKey: catalogue.Snap, LenderRef: d.LenderRef})
	done, err := l.Complete(ctx, &chairside.OfferRequest{LenderKey: catalogue.Snap, Language: "es", LenderRef: d.LenderRef,
		LenderPlanCode: plans[0].LenderPlanCode, Reference: "complete-es"})
	if err != nil || done.Stipulations[0].Description != want["bank_account"] {
		t.Errorf("complete: %+v %v", done, err)
	}

	income := inSpanish(request(catalogue.Synchrony, "apply", "income-es", "Approve"))
	income.TestCase = "patch-income"
	d, err = mustLender(t, New(Options{}), catalogue.Synchrony).Decide(ctx, income)
	if err != nil || len(d.Stipulations) != 1 || d.Stipulations[0].Description != "El prestamista necesita confirmar su ingreso anual antes de impuestos." {
		t.Errorf("income: %+v %v", d, err)
	}
}

// TestQuizInSpanish: the Spanish quiz asks the same questions, with the
// same ids and choices in the same order, so the same answers pass.
func TestQuizInSpanish(t *testing.T) {
	const key = catalogue.ADS
	l := mustLender(t, New(Options{}), key)
	req := request(key, "prequalify", "quiz-es", "Approve")
	req.TestCase = "identity-quiz"
	d, err := l.Decide(context.Background(), inSpanish(req))
	if err != nil {
		t.Fatal(err)
	}
	qreq := &chairside.QuizRequest{LenderKey: key, LenderRef: d.LenderRef, Attempt: 3, Now: now}
	quizzes := mustStep[chairside.Quizzes](t, l)
	en, _ := quizzes.Quiz(context.Background(), qreq)
	esReq := *qreq
	esReq.Language = "es"
	es, err := quizzes.Quiz(context.Background(), &esReq)
	if err != nil || es.ID != en.ID || len(es.Questions) != 3 {
		t.Fatalf("quiz: %+v %v", es, err)
	}
	for i, q := range es.Questions {
		e := en.Questions[i]
		if q.ID != e.ID || q.Text == e.Text || !strings.HasPrefix(q.Text, "¿") || len(q.Choices) != 4 {
			t.Errorf("question %d: %+v / %+v", i, q, e)
		}
		for j, c := range q.Choices {
			if c.ID != e.Choices[j].ID {
				t.Errorf("question %d choice %d: %+v / %+v", i, j, c, e.Choices[j])
			}
		}
	}
	res, err := quizzes.Answers(context.Background(), &chairside.AnswersRequest{Language: "es", LenderKey: key, LenderRef: d.LenderRef,
		QuizID: es.ID, Answers: RightAnswers(d.LenderRef, es.ID), Reference: "answers-es", Now: now})
	if err != nil || res.Result != chairside.QuizPassed {
		t.Errorf("answers: %+v %v", res, err)
	}
}
