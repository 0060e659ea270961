package store_test

import (
	"reflect"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/store"
	"github.com/chairside/chairside/store/storetest"
)

func TestFlowTokens(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		l := newLocation(t, db)
		tok := &chairside.FlowToken{
			Hash: "h1", LocationID: l.ID, PurchaseAmountCents: 123456, InsuranceBenefitsCents: 500,
			FirstName: "Siobhán", LastName: "O'Hara", ExperienceType: chairside.ExperienceInStore,
			ExpiresAt: t0.Add(chairside.FlowTokenTTL), CreatedAt: t0,
		}
		must(t, db.CreateFlowToken(ctx, tok))
		wantCode(t, db.CreateFlowToken(ctx, tok), chairside.ECONFLICT)

		used := t0.Add(time.Hour)
		got, err := db.ConsumeFlowToken(ctx, "h1", used)
		must(t, err)
		want := *tok
		want.UsedAt = &used
		if !reflect.DeepEqual(got, &want) {
			t.Fatalf("ConsumeFlowToken = %+v, want %+v", got, &want)
		}
		// Consumed twice: the second is refused.
		_, err = db.ConsumeFlowToken(ctx, "h1", used)
		wantCode(t, err, chairside.ENOTFOUND)

		// Expired: refused at and after ExpiresAt.
		must(t, db.CreateFlowToken(ctx, &chairside.FlowToken{Hash: "h2", LocationID: l.ID, ExperienceType: chairside.ExperienceAtHome, ExpiresAt: t0.Add(time.Minute)}))
		_, err = db.ConsumeFlowToken(ctx, "h2", t0.Add(time.Minute))
		wantCode(t, err, chairside.ENOTFOUND)
		// … and still usable just before, without a name.
		got, err = db.ConsumeFlowToken(ctx, "h2", t0.Add(time.Minute-time.Millisecond))
		must(t, err)
		if got.FirstName != "" || got.LastName != "" {
			t.Fatalf("token without a name came back with %q %q", got.FirstName, got.LastName)
		}

		_, err = db.ConsumeFlowToken(ctx, "missing", t0)
		wantCode(t, err, chairside.ENOTFOUND)
		wantCode(t, db.CreateFlowToken(ctx, &chairside.FlowToken{Hash: "h3", LocationID: "nope", ExpiresAt: t0}), chairside.ENOTFOUND)
		wantCode(t, db.CreateFlowToken(ctx, &chairside.FlowToken{LocationID: l.ID}), chairside.EINVALID)
	})
}

func TestConsumeFlowTokenConcurrent(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		l := newLocation(t, db)
		must(t, db.CreateFlowToken(ctx, &chairside.FlowToken{Hash: "race", LocationID: l.ID, ExpiresAt: t0.Add(time.Hour)}))
		var ok, notFound atomic.Int32
		var wg sync.WaitGroup
		for range 20 {
			wg.Go(func() {
				_, err := db.ConsumeFlowToken(ctx, "race", t0)
				switch chairside.ErrorCode(err) {
				case "":
					ok.Add(1)
				case chairside.ENOTFOUND:
					notFound.Add(1)
				default:
					t.Error(err)
				}
			})
		}
		wg.Wait()
		if ok.Load() != 1 || notFound.Load() != 19 {
			t.Fatalf("%d consumed, %d refused; want 1 and 19", ok.Load(), notFound.Load())
		}
	})
}
