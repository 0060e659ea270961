package testkit

import (
	"context"
	"testing"

	"github.com/chairside/chairside"
)

// EntityKey is the entity key of the test office (SeedOffice).
const EntityKey = "1000200030004000"

// SeedOffice creates the office the flow and API tests apply at: Bright
// Smiles Dental in California, whose waterfall is synchrony (primary) →
// fortiva (secondary, submitted by itself after a decline) → snap
// (tertiary), all in prequalify mode.
func SeedOffice(t testing.TB, st interface {
	CreateLocation(ctx context.Context, l *chairside.Location) error
}) *chairside.Location {
	t.Helper()
	loc := &chairside.Location{
		EntityKey: EntityKey,
		Name:      "Bright Smiles Dental",
		State:     "CA",
		GroupID:   "group-100",
		BrandName: "Bright Smiles",
		Waterfall: []chairside.WaterfallStep{
			{LenderKey: "synchrony_standard", Role: chairside.RolePrimary, ApplyMode: chairside.ModePrequalify},
			{LenderKey: "fortiva_standard", Role: chairside.RoleSecondary, ApplyMode: chairside.ModePrequalify, AutoSubmit: true},
			{LenderKey: "snap_standard", Role: chairside.RoleTertiary, ApplyMode: chairside.ModePrequalify},
		},
	}
	if err := st.CreateLocation(context.Background(), loc); err != nil {
		t.Fatal(err)
	}
	return loc
}

// Auditor checks every status against its evidence (store.DB.Audit).
type Auditor interface {
	Audit(ctx context.Context) ([]string, error)
}

// AuditAfter fails the test when, at its end, the audit finds a lender
// application whose status lacks its evidence (docs/exactly-once.md). It
// runs before the cleanups registered before it.
func AuditAfter(t testing.TB, db Auditor) {
	t.Helper()
	t.Cleanup(func() {
		problems, err := db.Audit(context.Background())
		if err != nil {
			t.Errorf("audit: %v", err)
		}
		for _, p := range problems {
			t.Errorf("audit: %s", p)
		}
	})
}
