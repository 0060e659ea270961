package store_test

import (
	"reflect"
	"testing"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/store"
	"github.com/chairside/chairside/store/storetest"
)

// TestHelpOverrides: an office's and a group's help content round-trip per
// language, a list not given stays nil (the defaults apply), a replace
// drops what it does not repeat, and one office never sees another's.
func TestHelpOverrides(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		faqs := []chairside.FAQ{{Title: "Ask O'Hara?", Facts: []string{"Yes — ねこ."}, SubFacts: []chairside.SubFact{{Title: "A", Description: "B"}}}}
		glossary := []chairside.GlossaryEntry{{Term: "APR", Definition: "Yearly cost.", Definition1: "More."}}
		must(t, db.ReplaceHelpOverrides(ctx, chairside.HelpScopeLocation, "loc-1", []*chairside.HelpOverride{
			{Language: "en", Content: chairside.HelpContent{FAQs: faqs}, UpdatedAt: t0},
			{Language: "es", Content: chairside.HelpContent{Glossary: glossary}, UpdatedAt: t0},
		}))
		must(t, db.ReplaceHelpOverrides(ctx, chairside.HelpScopeGroup, "grp-1", []*chairside.HelpOverride{
			{Language: "en", Content: chairside.HelpContent{Glossary: glossary}, UpdatedAt: t0},
		}))

		got, err := db.ListHelpOverrides(ctx, "loc-1", "grp-1")
		must(t, err)
		if len(got) != 3 {
			t.Fatalf("ListHelpOverrides = %d rows, want 3", len(got))
		}
		byKey := map[string]*chairside.HelpOverride{}
		for _, o := range got {
			byKey[o.Scope+"/"+o.ScopeID+"/"+o.Language] = o
		}
		en := byKey["location/loc-1/en"]
		if en == nil || !reflect.DeepEqual(en.Content.FAQs, faqs) || en.Content.Glossary != nil || !en.UpdatedAt.Equal(t0) {
			t.Errorf("location en = %+v", en)
		}
		if g := byKey["group/grp-1/en"]; g == nil || !reflect.DeepEqual(g.Content.Glossary, glossary) || g.Content.FAQs != nil {
			t.Errorf("group en = %+v", g)
		}

		// Another office of no group sees nothing; the same group sees the group's.
		if other, err := db.ListHelpOverrides(ctx, "loc-2", ""); err != nil || len(other) != 0 {
			t.Errorf("another office: %v %v", other, err)
		}
		if other, err := db.ListHelpOverrides(ctx, "loc-2", "grp-1"); err != nil || len(other) != 1 || other[0].Scope != chairside.HelpScopeGroup {
			t.Errorf("another office of the group: %v %v", other, err)
		}

		// A replace keeps only what it gives; none removes them all.
		must(t, db.ReplaceHelpOverrides(ctx, chairside.HelpScopeLocation, "loc-1", []*chairside.HelpOverride{
			{Language: "en", Content: chairside.HelpContent{Glossary: glossary}},
		}))
		got, err = db.ListHelpOverrides(ctx, "loc-1", "")
		must(t, err)
		if len(got) != 1 || got[0].Language != "en" || got[0].Content.FAQs != nil {
			t.Fatalf("after a replace: %+v", got)
		}
		must(t, db.ReplaceHelpOverrides(ctx, chairside.HelpScopeLocation, "loc-1", nil))
		if got, _ = db.ListHelpOverrides(ctx, "loc-1", ""); len(got) != 0 {
			t.Fatalf("after removing: %+v", got)
		}

		// A language given twice is refused, and nothing of the replace is kept.
		err = db.ReplaceHelpOverrides(ctx, chairside.HelpScopeGroup, "grp-1", []*chairside.HelpOverride{
			{Language: "fr", Content: chairside.HelpContent{FAQs: faqs}}, {Language: "fr", Content: chairside.HelpContent{FAQs: faqs}},
		})
		wantCode(t, err, chairside.ECONFLICT)
		if got, _ = db.ListHelpOverrides(ctx, "", "grp-1"); len(got) != 1 || got[0].Language != "en" {
			t.Fatalf("after a refused replace: %+v", got)
		}
	})
}
