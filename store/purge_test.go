package store_test

import (
	"reflect"
	"testing"
	"time"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/store"
	"github.com/chairside/chairside/store/storetest"
)

func TestPurgePersonalData(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		cutoff := t0.Add(24 * time.Hour)
		type app struct {
			a      *chairside.Application
			purged bool
		}
		var apps []app
		mk := func(created time.Time, finish *time.Time, wantPurged bool) {
			s := newSession(t, db, created)
			j := applicant("Joint", "Person", "222334444")
			a := newApplication(t, db, s, applicant("Ann", "O'Hara", "078051120"), &j)
			if finish != nil {
				must(t, db.FinishSession(ctx, s.ID, chairside.OutcomeCompleted, *finish))
			}
			pa := newLenderApplication(t, db, a, "synchrony_standard")
			must(t, db.CreateDecision(ctx, &chairside.Decision{LenderApplicationID: pa.ID, Operation: "apply", ResponseCode: chairside.ResponseApproved, CreatedAt: created}))
			must(t, db.CreateConsent(ctx, &chairside.Consent{SessionID: s.ID, ApplicationID: a.ID, Kind: chairside.ConsentHardPull, ConsentedAt: created, SignaturePNG: []byte("png")}))
			must(t, db.AppendEvent(ctx, &chairside.Event{SessionID: s.ID, ApplicationID: a.ID, Type: "flow.finished", CreatedAt: created}))
			apps = append(apps, app{a, wantPurged})
		}
		before, after := cutoff.Add(-time.Minute), cutoff.Add(time.Minute)
		mk(t0, &before, true)                                                                                                                  // finished before the cutoff
		mk(t0, &after, false)                                                                                                                  // finished after it
		mk(cutoff.Add(-chairside.SessionMaxAge-time.Minute), nil, true)                                                                        // abandoned long enough ago
		mk(cutoff.Add(-chairside.SessionMaxAge+time.Minute), nil, false)                                                                       // maybe still live at the cutoff
		mk(cutoff.Add(-time.Hour), nil, false)                                                                                                 // live
		must(t, db.CreateFlowToken(ctx, &chairside.FlowToken{Hash: "old", LocationID: apps[0].a.LocationID, FirstName: "Ann", ExpiresAt: t0})) // expired before the cutoff

		db.Now = func() time.Time { return cutoff }
		n, err := db.PurgePersonalData(ctx, cutoff)
		must(t, err)
		if n != 2 {
			t.Fatalf("purged %d applications, want 2", n)
		}
		for i, x := range apps {
			got, err := db.FindApplication(ctx, x.a.ID)
			must(t, err)
			if x.purged {
				if got.PurgedAt == nil || !got.PurgedAt.Equal(cutoff) || got.Primary != (chairside.Applicant{}) || got.Joint != nil {
					t.Errorf("app %d not purged: %+v", i, got)
				}
				// Everything that is not personal data stays.
				if got.PurchaseAmountCents != x.a.PurchaseAmountCents || got.SSNIndex != x.a.SSNIndex || got.SessionID != x.a.SessionID {
					t.Errorf("app %d lost non-personal fields: %+v", i, got)
				}
				wantCode(t, db.UpdateApplication(ctx, x.a), chairside.ECONFLICT)
			} else if got.PurgedAt != nil || !reflect.DeepEqual(got, x.a) {
				t.Errorf("app %d changed by the purge: %+v", i, got)
			}
			pa, err := db.FindLenderApplication(ctx, x.a.ID, "synchrony_standard")
			must(t, err)
			if pa.Decision == nil || pa.Decision.ResponseCode != chairside.ResponseApproved {
				t.Errorf("app %d lost its decision", i)
			}
			consents, err := db.ListConsents(ctx, x.a.ID)
			must(t, err)
			if len(consents) != 1 || string(consents[0].SignaturePNG) != "png" {
				t.Errorf("app %d lost its consent: %+v", i, consents)
			}
			events, err := db.ListEvents(ctx, x.a.SessionID)
			must(t, err)
			if len(events) != 1 {
				t.Errorf("app %d lost its events", i)
			}
		}
		// Purging again finds nothing new.
		n, err = db.PurgePersonalData(ctx, cutoff)
		must(t, err)
		if n != 0 {
			t.Fatalf("second purge purged %d", n)
		}
		var sealed string
		must(t, store.RawDB(db).QueryRow(store.Rebind(db, `SELECT name_sealed FROM flow_tokens WHERE hash = ?`), "old").Scan(&sealed))
		if sealed != "" {
			t.Fatal("expired flow token kept its sealed name")
		}
	})
}
