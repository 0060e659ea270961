package demo_test

import (
	"context"
	"regexp"
	"testing"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/demo"
	"github.com/chairside/chairside/flow"
	"github.com/chairside/chairside/lender/sandbox"
	"github.com/chairside/chairside/provider"
	"github.com/chairside/chairside/store/storetest"
)

var entityKey = regexp.MustCompile(`^[0-9]{16}$`)

// TestOfficesAreSensible: entity keys and ids are unique, the first three
// offices keep their keys, and every step names a known lender, a role and
// a mode that lender takes.
func TestOfficesAreSensible(t *testing.T) {
	locs := demo.Locations()
	if len(locs) != 3+len(provider.All())+1 {
		t.Fatalf("%d offices, want the three first ones, one per lender and AFF's California office", len(locs))
	}
	for i, key := range []string{demo.EntityKey, "1000200030005000", "1000200030006000"} {
		if locs[i].EntityKey != key {
			t.Errorf("office %d has entity key %s, want %s", i, locs[i].EntityKey, key)
		}
	}
	keys, ids := map[string]bool{}, map[string]bool{}
	roles := map[string]bool{chairside.RolePrimary: true, chairside.RoleSecondary: true, chairside.RoleTertiary: true,
		chairside.RoleHighline: true, chairside.RoleHighlineSecondary: true, chairside.RoleQuaternary: true}
	for _, l := range locs {
		if !entityKey.MatchString(l.EntityKey) || keys[l.EntityKey] || ids[l.ID] || l.Name == "" || len(l.State) != 2 {
			t.Errorf("%s (%s): entity key, id, name or state is wrong or repeated", l.Name, l.EntityKey)
		}
		keys[l.EntityKey], ids[l.ID] = true, true
		for i, st := range l.Waterfall {
			p, err := provider.Get(st.ProviderKey)
			switch {
			case err != nil:
				t.Errorf("%s: unknown lender %s", l.Name, st.ProviderKey)
			case !roles[st.Role] || (i == 0) != (st.Role == chairside.RolePrimary):
				t.Errorf("%s: %s has role %s", l.Name, st.ProviderKey, st.Role)
			case st.ApplyMode == chairside.ModeFull && !p.SupportsFullAppMode, !chairside.ValidMode(st.ApplyMode):
				t.Errorf("%s: %s in mode %s", l.Name, st.ProviderKey, st.ApplyMode)
			case i == 0 && st.AutoSubmit:
				t.Errorf("%s: the first step cannot be submitted by itself", l.Name)
			}
		}
	}
}

// TestEveryLenderHasAnOffice: for every lender an office's waterfall starts
// with it, and a flow started there (as the README's link does) answers
// that lender first and its form. Seeding again adds nothing.
func TestEveryLenderHasAnOffice(t *testing.T) {
	storetest.EachEngine(t, func(t *testing.T, e storetest.Engine) {
		ctx := context.Background()
		for range 2 {
			if err := demo.Seed(ctx, e.DB); err != nil {
				t.Fatal(err)
			}
		}
		svc := flow.New(e.DB, sandbox.New(sandbox.Options{}), e.Keys, flow.Options{Env: chairside.EnvTest})
		offices := map[string]string{} // lender → entity key of its office
		for _, l := range demo.Locations()[3:] {
			offices[l.Waterfall[0].ProviderKey] = l.EntityKey
		}
		for _, p := range provider.All() {
			key, ok := offices[p.Key]
			if !ok {
				t.Errorf("no office starts with %s", p.Key)
				continue
			}
			start, err := svc.StartByEntityKey(ctx, key, flow.StartOptions{})
			if err != nil {
				t.Fatalf("%s: %v", p.Key, err)
			}
			if start.Session.DynamicProviderKey != p.Key {
				t.Errorf("office %s starts with %s, want %s", key, start.Session.DynamicProviderKey, p.Key)
			}
			sess, err := svc.Authenticate(ctx, start.Session.WebSessionID)
			if err != nil {
				t.Fatal(err)
			}
			form, err := svc.ApplyStart(ctx, &flow.Caller{Session: sess}, p.Key, "")
			if err != nil || form.ProviderKey != p.Key || form.ApplyMode != chairside.ModePrequalify {
				t.Errorf("%s: form %+v, %v", p.Key, form, err)
			}
		}
		for _, l := range demo.Locations() {
			got, err := e.DB.FindLocationByEntityKey(ctx, l.EntityKey)
			if err != nil || got.ID != l.ID || len(got.Waterfall) != len(l.Waterfall) {
				t.Errorf("%s seeded as %+v, %v", l.EntityKey, got, err)
			}
		}
	})
}
