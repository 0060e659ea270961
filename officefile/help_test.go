package officefile_test

import (
	"context"
	"strings"
	"testing"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/officefile"
	"github.com/chairside/chairside/store"
	"github.com/chairside/chairside/store/storetest"
)

// withHelp is good with help content for its first office and for that
// office's group.
var withHelp = strings.Replace(good, "  brandLogo: /logos/lake.svg\n", `  brandLogo: /logos/lake.svg
  help:
    en:
      faqs:
        - title: Do you take insurance?
          facts: ["Yes, we bill your insurer first."]
          subFacts:
            - { title: Which insurers, description: Most PPO plans. }
  groupHelp:
    en:
      glossary:
        - { term: Copay, definition: What you pay at each visit. }
    es:
      glossary:
        - { term: Copago, definition: Lo que paga en cada visita., definition1: Segunda parte. }
`, 1)

func TestParseHelp(t *testing.T) {
	offices, err := officefile.Parse("offices.yaml", []byte(withHelp))
	if err != nil {
		t.Fatal(err)
	}
	h := offices[0].Help
	if len(h) != 1 || h[0].Language != "en" || len(h[0].Content.FAQs) != 1 || h[0].Content.Glossary != nil {
		t.Fatalf("help %+v", h)
	}
	f := h[0].Content.FAQs[0]
	if f.Title != "Do you take insurance?" || len(f.Facts) != 1 || f.SubFacts[0].Description != "Most PPO plans." {
		t.Errorf("faq %+v", f)
	}
	g := offices[0].GroupHelp
	if len(g) != 2 || g[1].Language != "es" || g[1].Content.Glossary[0].Definition1 != "Segunda parte." {
		t.Errorf("group help %+v", g)
	}
	if offices[1].Help == nil || len(offices[1].Help) != 0 || offices[1].GroupHelp != nil {
		t.Errorf("an office without help: %+v %+v", offices[1].Help, offices[1].GroupHelp)
	}
}

// TestParseHelpBad: a wrong help section is named with its line, the
// office and what is wrong.
func TestParseHelpBad(t *testing.T) {
	for _, tc := range []struct{ from, to, want string }{
		{"    en:\n      faqs:", "    english:\n      faqs:", `help: "english" is not a language code`},
		{`          facts: ["Yes, we bill your insurer first."]`, "          facts: []", "help en: faq 1: facts must list 1 to 20 answers"},
		{`          facts: ["Yes, we bill your insurer first."]`, "          fact: [x]", `"fact" is not a field of help en: faq 1`},
		{"        - title: Do you take insurance?", "        - title: \"\"", "help en: faq 1: title is missing"},
		{"{ title: Which insurers, description: Most PPO plans. }", "{ title: Which insurers }", "faq 1: subFact 1: description is missing"},
		{"        - { term: Copay, definition: What you pay at each visit. }", "        - { term: Copay }", "groupHelp en: glossary entry 1: definition is missing"},
		{"  groupId: grp-lake\n", "", "groupHelp needs the office's groupId"},
		{"      faqs:\n", "      questions:\n", `"questions" is not a field of help en`},
		{"  help:\n    en:", "  help:\n    en: {}\n    fr:", "help en gives neither faqs nor glossary"},
		{"      glossary:\n        - { term: Copay", "      glossary: Copay\n        # - { term: Copay", "glossary must be a list"},
	} {
		data := strings.Replace(withHelp, tc.from, tc.to, 1)
		if data == withHelp {
			t.Fatalf("%q is not in the file", tc.from)
		}
		_, err := officefile.Parse("offices.yaml", []byte(data))
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), `offices.yaml:`) {
			t.Errorf("%s → %s: %v, want %q", tc.from, tc.to, err, tc.want)
		}
	}
	twice := withHelp + `- entityKey: "1111222233335555"
  name: Lake Country North
  state: MN
  groupId: grp-lake
  groupHelp: {}
  waterfall:
    - { providerKey: synchrony_standard, role: primary, applyMode: prequalify }
`
	if _, err := officefile.Parse("offices.yaml", []byte(twice)); err == nil || !strings.Contains(err.Error(), `the help of group "grp-lake" is already given by office "Lake Country Dental"`) {
		t.Errorf("group help twice: %v", err)
	}
}

// TestImportHelp: an import stores an office's and its group's help;
// importing the office without help removes its own and leaves the
// group's; an empty groupHelp removes the group's.
func TestImportHelp(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		importFile(t, db, withHelp)
		lake, err := db.FindLocationByEntityKey(ctx, "1111222233334444")
		if err != nil {
			t.Fatal(err)
		}
		list := func() map[string]int {
			rows, err := db.ListHelpOverrides(ctx, lake.ID, "grp-lake")
			if err != nil {
				t.Fatal(err)
			}
			n := map[string]int{}
			for _, r := range rows {
				n[r.Scope]++
			}
			return n
		}
		if n := list(); n[chairside.HelpScopeLocation] != 1 || n[chairside.HelpScopeGroup] != 2 {
			t.Fatalf("after the import: %v", n)
		}
		importFile(t, db, good)
		if n := list(); n[chairside.HelpScopeLocation] != 0 || n[chairside.HelpScopeGroup] != 2 {
			t.Fatalf("after importing without help: %v", n)
		}
		importFile(t, db, strings.Replace(good, "  groupId: grp-lake\n", "  groupId: grp-lake\n  groupHelp: {}\n", 1))
		if n := list(); n[chairside.HelpScopeGroup] != 0 {
			t.Fatalf("after an empty groupHelp: %v", n)
		}
	})
}
