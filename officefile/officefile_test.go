package officefile_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/officefile"
	"github.com/chairside/chairside/store"
	"github.com/chairside/chairside/store/storetest"
)

// good is a file of two offices; the tests below change one line of it.
const good = `# two offices
- entityKey: "1111222233334444"
  name: Lake Country Dental
  state: MN
  groupId: grp-lake
  brandName: Lake Country Dental
  brandLogo: /logos/lake.svg
  waterfall:
    - providerKey: synchrony_standard
      role: primary
      applyMode: full
    - providerKey: fortiva_standard
      role: secondary
      applyMode: prequalify
      autoSubmit: true
    - providerKey: hfd_standard:role=highline_secondary
      role: secondary
      applyMode: prequalify
- entityKey: "5555666677778888"
  name: Harbor Smiles
  state: NY
  waterfall:
    - { providerKey: snap_standard, role: primary, applyMode: prequalify }
`

func TestParseGood(t *testing.T) {
	offices, err := officefile.Parse("offices.yaml", []byte(good))
	if err != nil {
		t.Fatal(err)
	}
	if len(offices) != 2 || offices[0].Line != 2 || offices[1].Line != 19 {
		t.Fatalf("offices %+v", offices)
	}
	l := offices[0].Location
	if l.EntityKey != "1111222233334444" || l.Name != "Lake Country Dental" || l.State != "MN" || l.GroupID != "grp-lake" ||
		l.BrandName != "Lake Country Dental" || l.BrandLogo != "/logos/lake.svg" {
		t.Errorf("office %+v", l)
	}
	want := "synchrony_standard(primary,full) → fortiva_standard(secondary,auto) → hfd_standard:role=highline_secondary(secondary)"
	if got := officefile.Describe(l.Waterfall); got != want {
		t.Errorf("waterfall %s, want %s", got, want)
	}
	if l := offices[1].Location; l.BrandName != "" || l.GroupID != "" || officefile.Describe(l.Waterfall) != "snap_standard(primary)" {
		t.Errorf("second office %+v", l)
	}
}

// TestParsePurchaserEnabled: an office lets a parent or guardian apply for
// the patient only when its file says so (docs/behaviour.md, "The patient
// check").
func TestParsePurchaserEnabled(t *testing.T) {
	offices, err := officefile.Parse("offices.yaml", []byte(strings.Replace(good, "state: NY", "state: NY\n  purchaserEnabled: true", 1)))
	if err != nil {
		t.Fatal(err)
	}
	if offices[0].Location.PurchaserEnabled || !offices[1].Location.PurchaserEnabled {
		t.Errorf("purchaserEnabled %v, %v; want false (left out), true", offices[0].Location.PurchaserEnabled, offices[1].Location.PurchaserEnabled)
	}
}

// TestParseJSON: JSON is YAML, with lines too.
func TestParseJSON(t *testing.T) {
	data := `[
  {"entityKey": "1111222233334444", "name": "Lake Country Dental", "state": "WI",
   "waterfall": [{"providerKey": "aff_standard", "role": "primary", "applyMode": "prequalify", "autoSubmit": false}]},
  {"entityKey": "1111222233334444", "name": "Twin", "state": "WI",
   "waterfall": [{"providerKey": "aff_standard", "role": "primary", "applyMode": "prequalify"}]}
]`
	_, err := officefile.Parse("offices.json", []byte(data))
	want := `offices.json:4: office "Twin": entity key 1111222233334444 is already office "Lake Country Dental"'s (line 2)`
	if err == nil || err.Error() != want {
		t.Fatalf("err %v, want %s", err, want)
	}
}

// TestParseBad: each wrong entry is named with its file, line and office,
// in plain words.
func TestParseBad(t *testing.T) {
	for _, tc := range []struct {
		name, old, new, want string
	}{
		{"unknown lender", "providerKey: fortiva_standard", "providerKey: foo_standard",
			`offices.yaml:12: office "Lake Country Dental": lender "foo_standard" is not a lender Chairside knows`},
		{"short entity key", `"1111222233334444"`, `"11112222"`,
			`offices.yaml:2: office "Lake Country Dental": entity key "11112222" is not 16 digits`},
		{"letters in the entity key", `"5555666677778888"`, `"55556666777788AB"`,
			`offices.yaml:19: office "Harbor Smiles": entity key "55556666777788AB" is not 16 digits`},
		{"duplicate entity key", `"5555666677778888"`, `"1111222233334444"`,
			`offices.yaml:19: office "Harbor Smiles": entity key 1111222233334444 is already office "Lake Country Dental"'s (line 2)`},
		{"unknown state", "state: NY", "state: PR",
			`offices.yaml:21: office "Harbor Smiles": state "PR" is not one of the 50 states or DC`},
		{"lower-case state", "state: NY", "state: ny", `offices.yaml:21: office "Harbor Smiles": state "ny"`},
		{"a language we do not speak", "state: NY", "state: NY\n  language: fr",
			`offices.yaml:22: office "Harbor Smiles": language "fr" is not one we speak: en or es`},
		{"a language with a region", "state: NY", "state: NY\n  language: es-MX",
			`offices.yaml:22: office "Harbor Smiles": language "es-MX" is not one we speak`},
		{"missing state", "  state: NY\n", "",
			`offices.yaml:19: office "Harbor Smiles": state is missing`},
		{"a lender that does not serve the state", "state: NY", "state: WI",
			`offices.yaml:23: office "Harbor Smiles": lender "snap_standard" does not serve offices in WI`},
		{"unknown role", "role: secondary\n      applyMode: prequalify\n      autoSubmit", "role: backup\n      applyMode: prequalify\n      autoSubmit",
			`offices.yaml:12: office "Lake Country Dental": lender "fortiva_standard": role "backup" is not a role`},
		{"unknown role modifier", "role=highline_secondary", "role=last",
			`offices.yaml:16: office "Lake Country Dental": lender "hfd_standard:role=last": role="last" is not a role`},
		{"unknown modifier", "role=highline_secondary", "tier=gold",
			`offices.yaml:16: office "Lake Country Dental": lender "hfd_standard:tier=gold": "tier" is not a modifier`},
		{"unknown apply mode", "applyMode: full", "applyMode: fast",
			`offices.yaml:9: office "Lake Country Dental": lender "synchrony_standard": apply mode "fast" is not one of full, prequalify, prescreen`},
		{"full application at a lender without one", "{ providerKey: snap_standard, role: primary, applyMode: prequalify }",
			"{ providerKey: snap_standard, role: primary, applyMode: full }",
			`offices.yaml:23: office "Harbor Smiles": lender "snap_standard" does not take a full application`},
		{"first step not primary", "role: primary\n      applyMode: full", "role: secondary\n      applyMode: full",
			`offices.yaml:9: office "Lake Country Dental": lender "synchrony_standard" comes first, so its role must be primary`},
		{"a second primary", "role: secondary\n      applyMode: prequalify\n      autoSubmit", "role: primary\n      applyMode: prequalify\n      autoSubmit",
			`offices.yaml:12: office "Lake Country Dental": lender "fortiva_standard": only the first lender is primary`},
		{"first step submitted by itself", "applyMode: prequalify }", "applyMode: prequalify, autoSubmit: true }",
			`offices.yaml:23: office "Harbor Smiles": lender "snap_standard" comes first, so it cannot be submitted by itself`},
		{"a lender twice", "providerKey: hfd_standard:role=highline_secondary", "providerKey: fortiva_standard",
			`offices.yaml:16: office "Lake Country Dental": lender "fortiva_standard" is listed twice (also on line 12)`},
		{"empty waterfall", "  waterfall:\n    - { providerKey: snap_standard, role: primary, applyMode: prequalify }\n", "  waterfall: []\n",
			`offices.yaml:22: office "Harbor Smiles": the waterfall must list at least one lender`},
		{"no waterfall", "  waterfall:\n    - { providerKey: snap_standard, role: primary, applyMode: prequalify }\n", "",
			`offices.yaml:19: office "Harbor Smiles": waterfall is missing`},
		{"unknown office field", "  groupId: grp-lake\n", "  groupId: grp-lake\n  colour: blue\n",
			`offices.yaml:6: office "Lake Country Dental": "colour" is not a field of an office`},
		{"unknown step field", "      autoSubmit: true\n", "      autoSubmit: true\n      weight: 3\n",
			`offices.yaml:16: office "Lake Country Dental": "weight" is not a field of a waterfall step`},
		{"a field twice", "  groupId: grp-lake\n", "  groupId: grp-lake\n  groupId: grp-other\n",
			`offices.yaml:6: office "Lake Country Dental": groupId is given twice`},
		{"purchaserEnabled not a boolean", "state: NY", "state: NY\n  purchaserEnabled: parents",
			`offices.yaml:22: office "Harbor Smiles": purchaserEnabled must be true or false, not "parents"`},
		{"autoSubmit not a boolean", "autoSubmit: true", "autoSubmit: often",
			`offices.yaml:15: office "Lake Country Dental": autoSubmit must be true or false, not "often"`},
		{"no name", "  name: Harbor Smiles\n", "",
			`offices.yaml:19: office "5555666677778888": name is missing`},
		{"a logo from anywhere", "/logos/lake.svg", "javascript:alert(1)",
			`offices.yaml:7: office "Lake Country Dental": brandLogo must be a path`},
		{"not YAML", "  name: Harbor Smiles\n", "  name: [Harbor\n", "offices.yaml: not YAML or JSON:"},
		{"not a list", good, "name: Harbor Smiles\n", "offices.yaml:1: the file must be a list of offices"},
		{"nothing", good, "# nothing yet\n", "offices.yaml: the file holds no offices"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if !strings.Contains(good, tc.old) {
				t.Fatalf("%q is not in the good file", tc.old)
			}
			data := strings.Replace(good, tc.old, tc.new, 1)
			offices, err := officefile.Parse("offices.yaml", []byte(data))
			var perr *officefile.Error
			if !errors.As(err, &perr) || offices != nil {
				t.Fatalf("Parse = %v, %v; want an *officefile.Error and no offices", offices, err)
			}
			if !strings.HasPrefix(err.Error(), tc.want) {
				t.Errorf("error\n%s\nwant it to start with\n%s", err, tc.want)
			}
		})
	}
}

// TestParseReportsEveryProblem: all problems at once, in file order.
func TestParseReportsEveryProblem(t *testing.T) {
	data := strings.NewReplacer("state: NY", "state: XX", "providerKey: fortiva_standard", "providerKey: foo").Replace(good)
	_, err := officefile.Parse("offices.yaml", []byte(data))
	var perr *officefile.Error
	if !errors.As(err, &perr) || len(perr.Problems) != 2 || perr.Problems[0].Line != 12 || perr.Problems[1].Line != 21 {
		t.Fatalf("err %v", err)
	}
}

// TestImport: an import creates the offices; importing again updates them
// in place (same ids and creation times, no duplicates); a write that fails
// keeps none of the file (the command's test shows a bad entry changes
// nothing).
func TestImport(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		importFile(t, db, good)
		first, err := db.ListLocations(ctx)
		if err != nil || len(first) != 2 {
			t.Fatalf("after one import: %v, %v", first, err)
		}
		changed := strings.Replace(good, "name: Harbor Smiles", "name: Harbor Smiles Dental", 1)
		importFile(t, db, changed)
		again, err := db.ListLocations(ctx)
		if err != nil || len(again) != 2 || again[0].ID != first[0].ID || again[1].ID != first[1].ID ||
			!again[0].CreatedAt.Equal(first[0].CreatedAt) {
			t.Fatalf("after the second import: %v, %v; first %v", again, err, first)
		}
		if h, _ := db.FindLocationByEntityKey(ctx, "5555666677778888"); h.Name != "Harbor Smiles Dental" {
			t.Errorf("the second import did not update the name: %+v", h)
		}

		// A write that fails (an id already taken) keeps nothing.
		offices, err := officefile.Parse("offices.yaml", []byte(strings.Replace(changed, "Harbor Smiles Dental", "Harbor", 1)))
		if err != nil {
			t.Fatal(err)
		}
		clash := officefile.Office{Location: chairside.Location{ID: first[0].ID, EntityKey: "9999000099990000", Name: "Clash",
			State: "CA", Waterfall: offices[1].Location.Waterfall}}
		if err := officefile.Import(ctx, db, append(offices, clash)); chairside.ErrorCode(err) != chairside.ECONFLICT {
			t.Fatalf("import with a clashing id: %v", err)
		}
		after, err := db.ListLocations(ctx)
		h, herr := db.FindLocationByEntityKey(ctx, "5555666677778888")
		if err != nil || herr != nil || len(after) != 2 || h.Name != "Harbor Smiles Dental" {
			t.Fatalf("a failed import changed the store: %v, %v, %+v, %v", after, err, h, herr)
		}
	})
}

func importFile(t *testing.T, db *store.DB, data string) {
	t.Helper()
	offices, err := officefile.Parse("offices.yaml", []byte(data))
	if err != nil {
		t.Fatal(err)
	}
	if err := officefile.Import(context.Background(), db, offices); err != nil {
		t.Fatal(err)
	}
}
