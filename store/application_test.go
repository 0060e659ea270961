package store_test

import (
	"reflect"
	"testing"
	"time"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/store/storetest"
)

func TestApplications(t *testing.T) {
	storetest.EachEngine(t, func(t *testing.T, e storetest.Engine) {
		db := e.DB
		s := newSession(t, db, t0)
		joint := applicant("ねこ", "Nakamura-Ōta", "123456789")
		a := newApplication(t, db, s, applicant("Seán", "O'Hara", "078051120"), &joint)
		if a.SSNIndex != e.Keys.BlindIndex("078051120") {
			t.Fatalf("SSNIndex = %q, want the blind index of the SSN", a.SSNIndex)
		}
		got, err := db.FindApplication(ctx, a.ID)
		must(t, err)
		if !reflect.DeepEqual(got, a) {
			t.Fatalf("FindApplication =\n%+v\nwant\n%+v", got, a)
		}
		if got.Primary.LastName != "O'Hara" || got.Joint.FirstName != "ねこ" {
			t.Fatalf("names changed: %q, %q", got.Primary.LastName, got.Joint.FirstName)
		}
		wantCode(t, db.CreateApplication(ctx, a), chairside.ECONFLICT)

		// Update: drop the joint applicant, change the SSN and amounts.
		db.Now = func() time.Time { return t0.Add(time.Hour) }
		got.Joint, got.JointEnabled = nil, false
		got.Primary.SSN = "111223333"
		got.Primary.AddressLine2 = `Apt "4"; DROP TABLE applications; --`
		got.PurchaseAmountCents = 750000
		must(t, db.UpdateApplication(ctx, got))
		if !got.UpdatedAt.Equal(t0.Add(time.Hour)) || got.SSNIndex != e.Keys.BlindIndex("111223333") {
			t.Fatalf("after update: UpdatedAt %v, SSNIndex %q", got.UpdatedAt, got.SSNIndex)
		}
		again, err := db.FindApplication(ctx, a.ID)
		must(t, err)
		if !reflect.DeepEqual(again, got) {
			t.Fatalf("after update FindApplication =\n%+v\nwant\n%+v", again, got)
		}

		// An application without any applicant data yet.
		s2 := newSession(t, db, t0)
		empty := &chairside.Application{ID: s2.ApplicationID, SessionID: s2.ID, LocationID: s2.LocationID}
		must(t, db.CreateApplication(ctx, empty))
		if empty.SSNIndex != "" {
			t.Fatalf("empty SSN got index %q", empty.SSNIndex)
		}
		gotEmpty, err := db.FindApplication(ctx, empty.ID)
		must(t, err)
		if gotEmpty.Joint != nil || gotEmpty.Primary != (chairside.Applicant{}) {
			t.Fatalf("empty application came back as %+v", gotEmpty)
		}

		_, err = db.FindApplication(ctx, "missing")
		wantCode(t, err, chairside.ENOTFOUND)
		wantCode(t, db.UpdateApplication(ctx, &chairside.Application{ID: "missing"}), chairside.ENOTFOUND)

		// Generated ids.
		gen := &chairside.Application{SessionID: s2.ID}
		must(t, db.CreateApplication(ctx, gen))
		if len(gen.ID) != 32 || gen.CreatedAt.IsZero() {
			t.Fatalf("generated id %q, CreatedAt %v", gen.ID, gen.CreatedAt)
		}
	})
}
