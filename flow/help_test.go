package flow_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/content"
	"github.com/chairside/chairside/flow"
	"github.com/chairside/chairside/locale"
	"github.com/chairside/chairside/store/storetest"
)

// helpBody reads a help answer's JSON: helpBody[T](t)(f.svc.HelpFAQs(…)).
func helpBody[T any](t *testing.T) func(*flow.HelpAnswer, error) T {
	return func(a *flow.HelpAnswer, err error) T {
		t.Helper()
		var out T
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(a.Body, &out); err != nil {
			t.Fatal(err)
		}
		return out
	}
}

// terms lists the terms of glossary entries.
func terms(es []chairside.GlossaryEntry) []string {
	out := []string{}
	for _, e := range es {
		out = append(out, e.Term)
	}
	return out
}

// TestHelpInSpanish: Spanish is asked by lang or Accept-Language and
// served as Spanish, from the defaults or an office's own Spanish; a
// language without content is served in English and says so.
func TestHelpInSpanish(t *testing.T) {
	for _, tc := range []struct {
		lang    string
		request locale.Language
		want    string
	}{
		{"es", locale.English, "es"}, {"es-MX", locale.English, "es"}, {"", locale.Spanish, "es"}, {"", locale.English, "en"},
		{"fr", locale.Spanish, "fr"}, // an office may have help in French: asked for by name, it is looked for
	} {
		if got, err := flow.HelpLanguage(tc.lang, tc.request); err != nil || got != tc.want {
			t.Errorf("%q %q: %q %v", tc.lang, tc.request, got, err)
		}
	}
	if _, err := flow.HelpLanguage("not a language!", locale.English); err == nil {
		t.Error("a lang that is not a language code should be refused")
	}
	f := newFixture(t, storetest.SQLite(t), flow.Options{})
	ctx := context.Background()
	es, _ := content.Help("es")
	faqs := helpBody[flow.HelpFAQs](t)(f.svc.HelpFAQs(ctx, nil, "es"))
	if faqs.Language != "es" || len(faqs.FAQs) != len(es.FAQs) || faqs.FAQs[0].Title != es.FAQs[0].Title {
		t.Errorf("faqs: %+v", faqs)
	}
	if g := helpBody[flow.HelpGlossary](t)(f.svc.HelpGlossary(ctx, nil, "es")); g.Language != "es" || g.Entries[1].Term != "Intereses diferidos" {
		t.Errorf("glossary: %+v", g)
	}
	if g := helpBody[flow.HelpGlossary](t)(f.svc.HelpGlossary(ctx, nil, "fr")); g.Language != "en" || g.Entries[1].Term != "Deferred interest" {
		t.Errorf("French: %s %v", g.Language, terms(g.Entries))
	}

	c := f.caller(t)
	loc, err := f.db.FindLocationByID(ctx, c.Session.LocationID)
	if err != nil {
		t.Fatal(err)
	}
	own := []chairside.GlossaryEntry{{Term: "Copago", Definition: "La parte del costo de una visita que usted paga."}}
	if err := f.db.ReplaceHelpOverrides(ctx, chairside.HelpScopeLocation, loc.ID, []*chairside.HelpOverride{
		{Language: "es", Content: chairside.HelpContent{Glossary: own}}}); err != nil {
		t.Fatal(err)
	}
	if g := helpBody[flow.HelpGlossary](t)(f.svc.HelpGlossary(ctx, c.Session, "es")); g.Language != "es" || len(g.Entries) != 1 || g.Entries[0].Term != "Copago" {
		t.Errorf("the office's Spanish: %+v", g)
	}
	if faqs := helpBody[flow.HelpFAQs](t)(f.svc.HelpFAQs(ctx, c.Session, "es")); faqs.Language != "es" || faqs.FAQs[0].Title != es.FAQs[0].Title {
		t.Errorf("the default Spanish questions, not replaced: %+v", faqs)
	}
}

// TestGlossarySearchInSpanish: a Spanish search reads the Spanish
// glossary, terms first, in any case and with or without accents.
func TestGlossarySearchInSpanish(t *testing.T) {
	f := newFixture(t, storetest.SQLite(t), flow.Options{})
	search := func(q string) (string, []string) {
		g := helpBody[flow.HelpGlossary](t)(f.svc.SearchGlossary(context.Background(), nil, "es", q))
		return g.Language, terms(g.Entries)
	}
	lang, got := search("crédito")
	if lang != "es" || len(got) < 4 || got[0] != "Consulta de crédito suave" || got[1] != "Consulta de crédito rigurosa" || got[2] != "Límite de crédito" {
		t.Fatalf("crédito: %s %v", lang, got)
	}
	for _, q := range []string{"CREDITO", "Crédito", "credito"} {
		if _, again := search(q); len(again) != len(got) || again[0] != got[0] {
			t.Errorf("%s: %v, want %v", q, again, got)
		}
	}
	if _, got := search("interes"); len(got) == 0 || got[0] != "Intereses diferidos" {
		t.Errorf("interes: %v", got)
	}
	if _, got := search("arrendamiento"); len(got) == 0 || got[0] != "Arrendamiento con opción a compra" {
		t.Errorf("arrendamiento: %v", got)
	}
	if _, got := search("deferred"); len(got) != 0 {
		t.Errorf("an English word in the Spanish glossary: %v", got)
	}
}
