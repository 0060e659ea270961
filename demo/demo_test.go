package demo_test

import (
	"context"
	"testing"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/catalogue"
	"github.com/chairside/chairside/demo"
	"github.com/chairside/chairside/flow"
	"github.com/chairside/chairside/lender/sandbox"
	"github.com/chairside/chairside/officefile"
	"github.com/chairside/chairside/store/storetest"
)

// demoOffices are the demo offices as they were written in Go before they
// became demo/offices.yaml: entity key, name, state, group, brand and the
// waterfall (officefile.Describe). The demo table of docs/demo.md and many tests
// rely on these keys and waterfalls.
var demoOffices = []struct{ key, name, state, group, brand, waterfall string }{
	{"1000200030004000", "Bright Smile Dental", "CA", "grp-bright-smile", "Bright Smile Dental",
		"synchrony_standard(primary) → fortiva_standard(secondary,auto) → snap_standard(tertiary,auto) → proceed_standard(highline)"},
	{"1000200030005000", "Lakeshore Family Dentistry", "IL", "grp-lakeshore", "",
		"ads_standard(primary) → genesis_aspen(secondary,auto) → aff_standard(tertiary,auto) → vive_standard(quaternary)"},
	{"1000200030006000", "Hill Country Dental Care", "TX", "grp-hill-country", "Hill Country Dental Care",
		"lendingclub_standard(primary) → covered_care_standard(secondary,auto) → hfd_standard(highline_secondary,auto)"},
	{"1000200030011000", "Buckeye Family Dental", "OH", "grp-buckeye", "Buckeye Family Dental",
		"ads_standard(primary) → fortiva_standard(secondary,auto) → snap_standard(tertiary,auto)"},
	{"1000200030012000", "Lake Country Dental", "WI", "grp-lake-country", "Lake Country Dental",
		"aff_standard(primary) → vive_standard(secondary,auto)"},
	{"1000200030013000", "Peachtree Smiles", "GA", "grp-peachtree", "Peachtree Smiles",
		"covered_care_standard(primary) → genesis_aspen(secondary,auto) → hfd_standard(highline_secondary,auto)"},
	{"1000200030014000", "Sunshine Coast Dental", "FL", "grp-sunshine-coast", "Sunshine Coast Dental",
		"fortiva_standard(primary) → snap_standard(secondary,auto)"},
	{"1000200030015000", "Front Range Dental Studio", "CO", "grp-front-range", "Front Range Dental Studio",
		"genesis_aspen(primary) → aff_standard(secondary,auto)"},
	{"1000200030016000", "Bayou City Family Dentistry", "LA", "grp-bayou", "Bayou City Family Dentistry",
		"hfd_standard(primary) → snap_standard(secondary,auto)"},
	{"1000200030017000", "Cascade Dental Group", "WA", "grp-cascade", "Cascade Dental Group",
		"lendingclub_standard(primary) → proceed_standard(secondary,auto) → hfd_standard(highline_secondary,auto)"},
	{"1000200030018000", "Harborview Dental", "MA", "grp-harborview", "Harborview Dental",
		"proceed_standard(primary) → covered_care_standard(secondary,auto)"},
	{"1000200030019000", "Desert Bloom Dental", "NV", "grp-desert-bloom", "Desert Bloom Dental",
		"snap_standard(primary) → aff_standard(secondary,auto)"},
	{"1000200030020000", "Blue Ridge Dental Arts", "NC", "grp-blue-ridge", "Blue Ridge Dental Arts",
		"synchrony_standard(primary) → genesis_aspen(secondary,auto) → proceed_standard(highline)"},
	{"1000200030021000", "Riverbend Dental", "TN", "grp-riverbend", "Riverbend Dental",
		"vive_standard(primary) → fortiva_standard(secondary,auto)"},
	{"1000200030022000", "Golden Gate Dental", "CA", "grp-golden-gate", "Golden Gate Dental",
		"aff_standard(primary) → vive_standard(secondary,auto)"},
	{"1000200030023000", "Clínica Dental del Valle", "TX", "grp-del-valle", "Clínica Dental del Valle",
		"synchrony_standard(primary) → fortiva_standard(secondary,auto)"},
}

// TestOfficesAreSensible: the demo file passes every check of an office
// file (officefile.Parse applies the waterfall rules, catalogue.CheckStep),
// and holds exactly the demo offices: the three first ones, one per lender
// AFF's California office and the Spanish-speaking office, with their keys and waterfalls unchanged.
func TestOfficesAreSensible(t *testing.T) {
	offices, err := demo.Offices()
	if err != nil {
		t.Fatal(err)
	}
	if len(offices) != 3+len(catalogue.All())+2 || len(offices) != len(demoOffices) {
		t.Fatalf("%d offices, want the three first ones, one per lender, AFF's California office and the Spanish-speaking one", len(offices))
	}
	if offices[0].Location.EntityKey != demo.EntityKey {
		t.Errorf("the first office is %s, want the demo link's %s", offices[0].Location.EntityKey, demo.EntityKey)
	}
	for i, o := range offices {
		l, want := o.Location, demoOffices[i]
		got := [...]string{l.EntityKey, l.Name, l.State, l.GroupID, l.BrandName, officefile.Describe(l.Waterfall)}
		if got != [...]string{want.key, want.name, want.state, want.group, want.brand, want.waterfall} {
			t.Errorf("office %d is %q, want %+v", i, got, want)
		}
		if wantLang := map[bool]string{true: "es"}[l.Name == "Clínica Dental del Valle"]; l.Language != wantLang {
			t.Errorf("%s speaks %q by default, want %q", l.Name, l.Language, wantLang)
		}
		for j, st := range l.Waterfall {
			if msg := catalogue.CheckStep(j, st, l.State); msg != "" {
				t.Errorf("%s: %s", l.Name, msg)
			}
		}
	}
}

// TestEveryLenderHasAnOffice: for every lender an office's waterfall starts
// with it, and a flow started there (as the README's link does) answers
// that lender first and its form. Seeding again adds nothing and keeps each
// office's id; an office changed in the store is brought back to the file.
func TestEveryLenderHasAnOffice(t *testing.T) {
	storetest.EachEngine(t, func(t *testing.T, e storetest.Engine) {
		ctx := context.Background()
		if err := demo.Seed(ctx, e.DB); err != nil {
			t.Fatal(err)
		}
		first, err := e.DB.ListLocations(ctx)
		if err != nil {
			t.Fatal(err)
		}
		changed := *first[0]
		changed.Name, changed.Waterfall = "Renamed", changed.Waterfall[:1]
		if err := e.DB.UpsertLocation(ctx, &changed); err != nil {
			t.Fatal(err)
		}
		if err := demo.Seed(ctx, e.DB); err != nil {
			t.Fatal(err)
		}
		again, err := e.DB.ListLocations(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if len(again) != len(first) || len(first) != len(demo.Locations()) {
			t.Fatalf("%d offices after seeding twice, %d after once, want %d", len(again), len(first), len(demo.Locations()))
		}
		for i := range first {
			if again[i].ID != first[i].ID || again[i].Name != first[i].Name || len(again[i].Waterfall) != len(first[i].Waterfall) {
				t.Errorf("seeding again changed %+v into %+v", first[i], again[i])
			}
		}
		checkLenderOffices(t, e)
	})
}

func checkLenderOffices(t *testing.T, e storetest.Engine) {
	ctx := context.Background()
	svc := flow.New(e.DB, sandbox.New(sandbox.Options{}), e.Keys, flow.Options{Env: chairside.EnvTest})
	offices := map[string]string{} // lender → entity key of its office
	for _, l := range demo.Locations()[3:] {
		offices[l.Waterfall[0].LenderKey] = l.EntityKey
	}
	for _, p := range catalogue.All() {
		key, ok := offices[p.Key]
		if !ok {
			t.Errorf("no office starts with %s", p.Key)
			continue
		}
		start, err := svc.StartByEntityKey(ctx, key, flow.StartOptions{})
		if err != nil {
			t.Fatalf("%s: %v", p.Key, err)
		}
		if start.Session.DynamicLenderKey != p.Key {
			t.Errorf("office %s starts with %s, want %s", key, start.Session.DynamicLenderKey, p.Key)
		}
		sess, err := svc.Authenticate(ctx, start.Session.WebSessionID)
		if err != nil {
			t.Fatal(err)
		}
		form, err := svc.ApplyStart(ctx, &flow.Caller{Session: sess}, p.Key, "")
		if err != nil || form.LenderKey != p.Key || form.ApplyMode != chairside.ModePrequalify {
			t.Errorf("%s: form %+v, %v", p.Key, form, err)
		}
	}
}
