// Package demo seeds the locations a person needs to try Chairside: offices
// with entity keys, states, brands and lender waterfalls. It runs in envs
// dev, demo and test only, and is safe to run on every start.
package demo

import (
	"context"
	"fmt"

	"github.com/chairside/chairside"
)

// EntityKey is the demo office the README and the browser tests start at:
// a California practice whose waterfall starts with synchrony_standard.
const EntityKey = "1000200030004000"

// Locations returns the demo offices: the three first ones, then one per
// lender (lenderOffices), then those of state-specific steps
// (stateOffices). Entity keys are fixed so links and tests keep
// working across restarts.
func Locations() []chairside.Location {
	step := func(key, role, mode string, auto bool) chairside.WaterfallStep {
		return chairside.WaterfallStep{ProviderKey: key, Role: role, ApplyMode: mode, AutoSubmit: auto}
	}
	return append([]chairside.Location{
		{
			ID: "loc-bright-smile", EntityKey: EntityKey,
			Name: "Bright Smile Dental", State: "CA", GroupID: "grp-bright-smile",
			BrandName: "Bright Smile Dental",
			Waterfall: []chairside.WaterfallStep{
				step("synchrony_standard", chairside.RolePrimary, chairside.ModePrequalify, false),
				step("fortiva_standard", chairside.RoleSecondary, chairside.ModePrequalify, true),
				step("snap_standard", chairside.RoleTertiary, chairside.ModePrequalify, true),
				step("proceed_standard", chairside.RoleHighline, chairside.ModePrequalify, false),
			},
		},
		{
			// Illinois: the browser hides the logo for IL sessions, and
			// this office uses the neutral wording (no brand).
			ID: "loc-lakeshore", EntityKey: "1000200030005000",
			Name: "Lakeshore Family Dentistry", State: "IL", GroupID: "grp-lakeshore",
			Waterfall: []chairside.WaterfallStep{
				step("ads_standard", chairside.RolePrimary, chairside.ModePrequalify, false),
				step("genesis_aspen", chairside.RoleSecondary, chairside.ModePrequalify, true),
				step("aff_standard", chairside.RoleTertiary, chairside.ModePrequalify, true),
				step("vive_standard", chairside.RoleQuaternary, chairside.ModePrequalify, false),
			},
		},
		{
			ID: "loc-hill-country", EntityKey: "1000200030006000",
			Name: "Hill Country Dental Care", State: "TX", GroupID: "grp-hill-country",
			BrandName: "Hill Country Dental Care",
			Waterfall: []chairside.WaterfallStep{
				step("lendingclub_standard", chairside.RolePrimary, chairside.ModePrequalify, false),
				step("covered_care_standard", chairside.RoleSecondary, chairside.ModePrequalify, true),
				step("hfd_standard", chairside.RoleHighlineSecondary, chairside.ModePrequalify, true),
			},
		},
	}, append(lenderOffices(), stateOffices()...)...)
}

// stateOffices are offices where a lender's state-specific steps show
// (docs/behaviour.md, "Signing"): AFF in California, whose patients read
// the notice for patients in California before signing. (AFF's Wisconsin
// question depends on where the applicant lives: any office, a Wisconsin
// address.)
func stateOffices() []chairside.Location {
	return []chairside.Location{{
		ID: "loc-golden-gate", EntityKey: "1000200030022000", Name: "Golden Gate Dental", State: "CA", GroupID: "grp-golden-gate",
		BrandName: "Golden Gate Dental",
		Waterfall: []chairside.WaterfallStep{
			{ProviderKey: "aff_standard", Role: chairside.RolePrimary, ApplyMode: chairside.ModePrequalify},
			{ProviderKey: "vive_standard", Role: chairside.RoleSecondary, ApplyMode: chairside.ModePrequalify, AutoSubmit: true},
		},
	}}
}

// lenderOffices are one office per lender, whose waterfall starts with that
// lender, so each lender's own journey can be tried from a link (README.md,
// the demo table). Every step is a soft-pull check: the two card issuers
// that also take a full application (provider.Provider.SupportsFullAppMode)
// offer it from their no-offer screen. A card issuer is followed by a
// second-look card or a loan, a loan by a lease or a payment plan, and HFD,
// which asks for a down payment, comes last as highline_secondary (the role
// its down-payment acknowledgement is for) when it is not first.
func lenderOffices() []chairside.Location {
	office := func(id, key, name, state, brand string, steps ...chairside.WaterfallStep) chairside.Location {
		return chairside.Location{ID: "loc-" + id, EntityKey: key, Name: name, State: state, GroupID: "grp-" + id,
			BrandName: brand, Waterfall: steps}
	}
	step := func(key, role string, auto bool) chairside.WaterfallStep {
		return chairside.WaterfallStep{ProviderKey: key, Role: role, ApplyMode: chairside.ModePrequalify, AutoSubmit: auto}
	}
	const p, s, t, h, hs = chairside.RolePrimary, chairside.RoleSecondary, chairside.RoleTertiary,
		chairside.RoleHighline, chairside.RoleHighlineSecondary
	return []chairside.Location{
		office("buckeye", "1000200030011000", "Buckeye Family Dental", "OH", "Buckeye Family Dental",
			step("ads_standard", p, false), step("fortiva_standard", s, true), step("snap_standard", t, true)),
		office("lake-country", "1000200030012000", "Lake Country Dental", "WI", "Lake Country Dental",
			step("aff_standard", p, false), step("vive_standard", s, true)),
		office("peachtree", "1000200030013000", "Peachtree Smiles", "GA", "Peachtree Smiles",
			step("covered_care_standard", p, false), step("genesis_aspen", s, true), step("hfd_standard", hs, true)),
		office("sunshine-coast", "1000200030014000", "Sunshine Coast Dental", "FL", "Sunshine Coast Dental",
			step("fortiva_standard", p, false), step("snap_standard", s, true)),
		office("front-range", "1000200030015000", "Front Range Dental Studio", "CO", "Front Range Dental Studio",
			step("genesis_aspen", p, false), step("aff_standard", s, true)),
		office("bayou", "1000200030016000", "Bayou City Family Dentistry", "LA", "Bayou City Family Dentistry",
			step("hfd_standard", p, false), step("snap_standard", s, true)),
		office("cascade", "1000200030017000", "Cascade Dental Group", "WA", "Cascade Dental Group",
			step("lendingclub_standard", p, false), step("proceed_standard", s, true), step("hfd_standard", hs, true)),
		office("harborview", "1000200030018000", "Harborview Dental", "MA", "Harborview Dental",
			step("proceed_standard", p, false), step("covered_care_standard", s, true)),
		office("desert-bloom", "1000200030019000", "Desert Bloom Dental", "NV", "Desert Bloom Dental",
			step("snap_standard", p, false), step("aff_standard", s, true)),
		office("blue-ridge", "1000200030020000", "Blue Ridge Dental Arts", "NC", "Blue Ridge Dental Arts",
			step("synchrony_standard", p, false), step("genesis_aspen", s, true), step("proceed_standard", h, false)),
		office("riverbend", "1000200030021000", "Riverbend Dental", "TN", "Riverbend Dental",
			step("vive_standard", p, false), step("fortiva_standard", s, true)),
	}
}

// Seed creates the demo locations that do not exist yet.
func Seed(ctx context.Context, store chairside.Store) error {
	for _, l := range Locations() {
		_, err := store.FindLocationByEntityKey(ctx, l.EntityKey)
		switch chairside.ErrorCode(err) {
		case "":
			continue // already there
		case chairside.ENOTFOUND:
			if err := store.CreateLocation(ctx, &l); err != nil {
				return fmt.Errorf("seed location %s: %w", l.EntityKey, err)
			}
		default:
			return fmt.Errorf("find location %s: %w", l.EntityKey, err)
		}
	}
	return nil
}

// Enabled reports whether an environment gets demo data.
func Enabled(env string) bool {
	return env == chairside.EnvDev || env == chairside.EnvDemo || env == chairside.EnvTest
}
