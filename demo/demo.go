// Package demo seeds the locations a person needs to try Chairside: offices
// with entity keys, states, brands and lender waterfalls, kept in one office
// file (demo/offices.yaml) that is loaded through the same import as
// `chairside office import` (docs/offices.md). It runs in envs dev, demo
// and test only, and is safe to run on every start.
package demo

import (
	"context"
	_ "embed"
	"fmt"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/officefile"
)

// EntityKey is the demo office the README and the browser tests start at:
// a California practice whose waterfall starts with synchrony_standard.
const EntityKey = "1000200030004000"

// File is the demo offices' office file, and FileName its name in messages.
//
//go:embed offices.yaml
var File []byte

const FileName = "demo/offices.yaml"

// Offices parses the demo office file: the three first ones, then one per
// lender, then AFF's California office. Entity keys are fixed so links and
// tests keep working across restarts; ids are given by the store.
func Offices() ([]officefile.Office, error) {
	return officefile.Parse(FileName, File)
}

// Locations returns the demo offices' locations (without ids). The file is
// part of the program and its test parses it: a problem in it panics.
func Locations() []chairside.Location {
	offices, err := Offices()
	if err != nil {
		panic(fmt.Sprintf("demo offices: %v", err))
	}
	out := make([]chairside.Location, len(offices))
	for i, o := range offices {
		out[i] = o.Location
	}
	return out
}

// IsDemoKey reports whether an entity key is one of the demo offices'.
func IsDemoKey(entityKey string) bool {
	for _, l := range Locations() {
		if l.EntityKey == entityKey {
			return true
		}
	}
	return false
}

// Seed imports the demo offices: it creates those missing and brings the
// others back to the file's content, all in one transaction.
func Seed[T officefile.Store](ctx context.Context, store officefile.Batcher[T]) error {
	offices, err := Offices()
	if err != nil {
		return err
	}
	if err := officefile.Import(ctx, store, offices); err != nil {
		return fmt.Errorf("demo offices: %w", err)
	}
	return nil
}

// Enabled reports whether an environment gets demo data.
func Enabled(env string) bool {
	return env == chairside.EnvDev || env == chairside.EnvDemo || env == chairside.EnvTest
}
