package store_test

import (
	"reflect"
	"testing"
	"time"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/store"
	"github.com/chairside/chairside/store/storetest"
)

func TestLocations(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		l := newLocation(t, db)
		if l.ID == "" {
			t.Fatal("CreateLocation did not assign an id")
		}
		got, err := db.FindLocationByID(ctx, l.ID)
		must(t, err)
		if !reflect.DeepEqual(got, l) {
			t.Fatalf("FindLocationByID = %+v, want %+v", got, l)
		}
		got, err = db.FindLocationByEntityKey(ctx, l.EntityKey)
		must(t, err)
		if !reflect.DeepEqual(got, l) {
			t.Fatalf("FindLocationByEntityKey = %+v, want %+v", got, l)
		}
		if got.Next("synchrony_standard").LenderKey != "proceed" {
			t.Fatal("waterfall order lost")
		}

		l2 := &chairside.Location{ID: "loc-2", EntityKey: randomDigits(16), Name: "Neutral", State: "DC", GroupID: "g2", PurchaserEnabled: true, CreatedAt: t0.Add(time.Second)}
		must(t, db.CreateLocation(ctx, l2))
		list, err := db.ListLocations(ctx)
		must(t, err)
		if len(list) != 2 || list[0].ID != l.ID || list[1].ID != "loc-2" {
			t.Fatalf("ListLocations = %v", list)
		}
		if list[0].PurchaserEnabled || !list[1].PurchaserEnabled {
			t.Fatalf("purchaserEnabled %v, %v; want false, true", list[0].PurchaserEnabled, list[1].PurchaserEnabled)
		}
		if list[1].Waterfall != nil {
			t.Fatalf("nil waterfall came back as %#v", list[1].Waterfall)
		}

		dup := *l
		dup.ID = ""
		wantCode(t, db.CreateLocation(ctx, &dup), chairside.ECONFLICT)
		_, err = db.FindLocationByID(ctx, "nope")
		wantCode(t, err, chairside.ENOTFOUND)
		_, err = db.FindLocationByEntityKey(ctx, "0000000000000000")
		wantCode(t, err, chairside.ENOTFOUND)
	})
}

func TestLocationsEmptyList(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		list, err := db.ListLocations(ctx)
		must(t, err)
		if len(list) != 0 {
			t.Fatalf("ListLocations on an empty store = %v", list)
		}
	})
}

// TestUpsertLocation: an upsert creates a location, and for an entity key
// that exists updates it in place — same id and creation time — without a
// second row.
func TestUpsertLocation(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		l := &chairside.Location{EntityKey: randomDigits(16), Name: "First", State: "CA", GroupID: "g",
			Waterfall: []chairside.WaterfallStep{{LenderKey: "synchrony_standard", Role: chairside.RolePrimary, ApplyMode: chairside.ModePrequalify}}}
		must(t, db.UpsertLocation(ctx, l))
		if l.ID == "" {
			t.Fatal("UpsertLocation did not assign an id")
		}
		created, err := db.FindLocationByEntityKey(ctx, l.EntityKey)
		must(t, err)
		changed := &chairside.Location{EntityKey: l.EntityKey, Name: "Second", State: "NY", GroupID: "g2", BrandName: "Brand",
			BrandLogo: "/logos/b.svg", PurchaserEnabled: true, Waterfall: []chairside.WaterfallStep{{LenderKey: "snap_standard", Role: chairside.RolePrimary,
				ApplyMode: chairside.ModeFull}}}
		must(t, db.UpsertLocation(ctx, changed))
		got, err := db.FindLocationByEntityKey(ctx, l.EntityKey)
		must(t, err)
		if changed.ID != created.ID || !changed.CreatedAt.Equal(created.CreatedAt) || !reflect.DeepEqual(got, changed) {
			t.Fatalf("after the update %+v, given back %+v, first %+v", got, changed, created)
		}
		list, err := db.ListLocations(ctx)
		must(t, err)
		if len(list) != 1 {
			t.Fatalf("%d locations after two upserts of one entity key", len(list))
		}
	})
}
