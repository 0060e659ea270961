package store_test

import (
	"reflect"
	"testing"
	"time"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/store"
	"github.com/chairside/chairside/store/storetest"
)

func TestDecisions(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := newSession(t, db, t0)
		a := newApplication(t, db, s, applicant("Ann", "Lee", "078051120"), nil)
		pa := newLenderApplication(t, db, a, "synchrony_standard")
		expires := t0.Add(30 * 24 * time.Hour)
		d1 := &chairside.Decision{
			LenderApplicationID: pa.ID, LenderKey: "synchrony_standard", Operation: "prequalify",
			ResponseCode: chairside.ResponsePending, PendingReasons: []string{"identity", "income"},
			Stipulations:        []chairside.Stipulation{{ID: "s1", Type: "id_check", Description: "Upload ID", Status: "open"}},
			DownPaymentRequired: true, DownPaymentCents: 10000, ExistingAccount: true, LenderRef: "L-9",
			OfferedLenderID: "partner", ExpiresAt: &expires, CreatedAt: t0,
		}
		must(t, db.CreateDecision(ctx, d1))
		got, err := db.FindLenderApplication(ctx, a.ID, "synchrony_standard")
		must(t, err)
		if !reflect.DeepEqual(got.Decision, d1) {
			t.Fatalf("Decision = %+v, want %+v", got.Decision, d1)
		}
		// Several decisions in the same millisecond: the last written is
		// the latest.
		for _, code := range []string{chairside.ResponseDeclined, chairside.ResponseError, chairside.ResponseApproved} {
			must(t, db.CreateDecision(ctx, &chairside.Decision{LenderApplicationID: pa.ID, LenderKey: "synchrony_standard", Operation: "apply", ResponseCode: code, CreatedAt: t0.Add(time.Minute)}))
		}
		got, _ = db.FindLenderApplication(ctx, a.ID, "synchrony_standard")
		if got.Decision.ResponseCode != chairside.ResponseApproved {
			t.Fatalf("latest decision = %q, want approved", got.Decision.ResponseCode)
		}
		if got.Decision.Stipulations != nil || got.Decision.PendingReasons != nil || got.Decision.ExpiresAt != nil {
			t.Fatalf("nil fields came back non-nil: %+v", got.Decision)
		}
		wantCode(t, db.CreateDecision(ctx, &chairside.Decision{LenderApplicationID: "missing", Operation: "apply", ResponseCode: "error"}), chairside.ENOTFOUND)
		wantCode(t, db.CreateDecision(ctx, d1), chairside.ECONFLICT)
	})
}
