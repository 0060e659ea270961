package store_test

import (
	"reflect"
	"testing"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/store"
	"github.com/chairside/chairside/store/storetest"
)

func TestEvents(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		var want []*chairside.Event
		for i, typ := range []string{"flow.started", "decision.recorded", "offer.accepted", "flow.finished"} {
			e := &chairside.Event{SessionID: "s1", ApplicationID: "a1", LenderKey: "proceed", Type: typ,
				Data: map[string]any{"step": float64(i), "ok": true, "name": "ok"}, CreatedAt: t0} // same millisecond
			must(t, db.AppendEvent(ctx, e))
			want = append(want, e)
		}
		must(t, db.AppendEvent(ctx, &chairside.Event{SessionID: "s2", Type: "other"}))
		got, err := db.ListEvents(ctx, "s1")
		must(t, err)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("ListEvents = %v, want %v", got, want)
		}
		none, err := db.ListEvents(ctx, "missing")
		must(t, err)
		if len(none) != 0 {
			t.Fatalf("events of a missing session: %v", none)
		}
		wantCode(t, db.AppendEvent(ctx, want[0]), chairside.ECONFLICT)
	})
}
