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

// TestRecordsRefundWaitsForThePayment: a refund or a cancellation of a
// case made from the office's records is a candidate for a post only once
// the case's payment is on the ledger (docs/practice-records.md): not while
// that payment is due, nor once it failed or waits for a refused key.
// Once it is posted, both are, the cancellation for the payment's amount.
func TestRecordsRefundWaitsForThePayment(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := newSession(t, db, t0)
		a := &chairside.Application{ID: s.ApplicationID, SessionID: s.ID, LocationID: s.LocationID, PurchaseAmountCents: 186750,
			Primary: applicant("Maria", "Lopez", "078051120"), RecordPatientID: "15", CreatedAt: t0}
		must(t, db.CreateApplication(ctx, a))
		pa := newLenderApplication(t, db, a, "synchrony_standard")
		must(t, db.SaveRecordsConnection(ctx, &chairside.RecordsConnection{LocationID: a.LocationID, System: chairside.RecordsOpenDental,
			CustomerKey: "CUSTKEY", PostOn: chairside.RecordsPostSigned, State: chairside.RecordsConnected, CheckedAt: t0, CreatedAt: t0}))
		add := func(kind string, amount int64, at time.Time) {
			t.Helper()
			_, err := db.AppendMoney(ctx, &chairside.MoneyEntry{LenderApplicationID: pa.ID, Kind: kind, AmountCents: amount, Reference: kind + "-ref",
				On: at, RecordedAt: at}, false)
			must(t, err)
		}
		candidates := func() map[string]int64 {
			t.Helper()
			cands, err := db.RecordsCandidates(ctx, 20)
			must(t, err)
			out := map[string]int64{}
			for _, c := range cands {
				if c.ApplicationID == a.ID {
					out[c.Kind] = c.AmountCents
				}
			}
			return out
		}
		add(chairside.MoneySigned, 186750, t0.Add(time.Minute))
		c, err := db.RecordsCandidates(ctx, 20)
		must(t, err)
		if len(c) != 1 || c[0].Kind != chairside.MoneySigned || c[0].PatientID != "15" {
			t.Fatalf("the signature's candidates: %+v", c)
		}
		must(t, db.AddRecordsPost(ctx, &chairside.RecordsPost{MoneyEntryID: c[0].MoneyEntryID, LocationID: a.LocationID, ApplicationID: a.ID,
			Kind: chairside.RecordsPayment, PatientID: "15", AmountCents: 186750, PayDate: "2026-11-21", Reference: "CS X", CreatedAt: t0.Add(time.Minute)}))
		add(chairside.MoneyRefunded, 50000, t0.Add(2*time.Minute))
		add(chairside.MoneyVoided, 0, t0.Add(3*time.Minute))

		// The payment's post goes through each state short of posted.
		now := t0.Add(4 * time.Minute)
		for _, state := range []string{chairside.RecordsDue, chairside.RecordsPosting, chairside.RecordsWaiting, chairside.RecordsFailed} {
			if state != chairside.RecordsDue {
				claimed, err := db.ClaimRecordsPosts(ctx, now, "2026-11-21", time.Minute, 20)
				must(t, err)
				if len(claimed) != 1 {
					t.Fatalf("claimed %d posts before %s", len(claimed), state)
				}
				if state != chairside.RecordsPosting {
					must(t, db.SettleRecordsPost(ctx, claimed[0].ID, state, "", "not yet", now, now))
				}
				now = now.Add(2 * time.Minute) // past the claim's lease
			}
			if got := candidates(); len(got) != 0 {
				t.Fatalf("while the payment is %s: %v", state, got)
			}
		}
		if n, err := db.RetryRecordsPosts(ctx, a.LocationID, a.ID, now); err != nil || n != 1 {
			t.Fatalf("retried %d posts: %v", n, err)
		}
		claimed, err := db.ClaimRecordsPosts(ctx, now, "2026-11-21", time.Minute, 20)
		must(t, err)
		if len(claimed) != 1 {
			t.Fatalf("claimed %d posts", len(claimed))
		}
		must(t, db.SettleRecordsPost(ctx, claimed[0].ID, chairside.RecordsPosted, "501", "", now, now))
		if got := candidates(); len(got) != 2 || got[chairside.MoneyRefunded] != 50000 || got[chairside.MoneyVoided] != 186750 {
			t.Fatalf("once the payment is posted: %v", got)
		}
	})
}
