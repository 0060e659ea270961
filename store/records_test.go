package store_test

import (
	"strings"
	"testing"
	"time"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/store"
	"github.com/chairside/chairside/store/storetest"
)

// TestRecordsConnection: an office's connection to its practice records
// is kept once per office, its customer key sealed (in no column in the
// clear), its state changed as the system answers, and forgotten whole.
func TestRecordsConnection(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		loc := newLocation(t, db)
		_, err := db.RecordsConnection(ctx, loc.ID)
		wantCode(t, err, chairside.ENOTFOUND)
		const key = "CANARYKEY7f3a9c1"
		c := &chairside.RecordsConnection{LocationID: loc.ID, System: chairside.RecordsOpenDental, CustomerKey: "OLDKEY", PostOn: chairside.RecordsPostSigned,
			State: chairside.RecordsConnected, CheckedAt: t0}
		must(t, db.SaveRecordsConnection(ctx, c))
		c.CustomerKey, c.PostOn = key, chairside.RecordsPostFunded
		must(t, db.SaveRecordsConnection(ctx, c))
		got, err := db.RecordsConnection(ctx, loc.ID)
		must(t, err)
		if got.CustomerKey != key || got.PostOn != chairside.RecordsPostFunded || !got.CheckedAt.Equal(t0) || got.State != chairside.RecordsConnected {
			t.Fatalf("read back: %+v", got)
		}
		if strings.Contains(dumpTables(t, db), key) {
			t.Fatal("the customer key is in the database in the clear")
		}
		must(t, db.SetRecordsState(ctx, loc.ID, chairside.RecordsRefused, "refused", t0.Add(time.Hour)))
		if got, _ := db.RecordsConnection(ctx, loc.ID); got.State != chairside.RecordsRefused || !got.CheckedAt.Equal(t0.Add(time.Hour)) {
			t.Fatalf("after a refusal: %+v", got)
		}
		must(t, db.DeleteRecordsConnection(ctx, loc.ID))
		_, err = db.RecordsConnection(ctx, loc.ID)
		wantCode(t, err, chairside.ENOTFOUND)
	})
}
