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

// Locations returns the demo offices. Entity keys are fixed so links and
// tests keep working across restarts.
func Locations() []chairside.Location {
	step := func(key, role, mode string, auto bool) chairside.WaterfallStep {
		return chairside.WaterfallStep{ProviderKey: key, Role: role, ApplyMode: mode, AutoSubmit: auto}
	}
	return []chairside.Location{
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
