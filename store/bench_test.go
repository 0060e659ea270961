package store_test

import (
	"strconv"
	"testing"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/store"
	"github.com/chairside/chairside/store/storetest"
)

// eachEngineB runs a benchmark on every available engine.
func eachEngineB(b *testing.B, fn func(b *testing.B, db *store.DB)) {
	for _, e := range storetest.Open(b) {
		b.Run(e.Name, func(b *testing.B) { fn(b, e.DB) })
	}
}

// BenchmarkCreateApplication measures sealing and inserting an application
// with two applicants.
func BenchmarkCreateApplication(b *testing.B) {
	eachEngineB(b, func(b *testing.B, db *store.DB) {
		p, j := applicant("Ann", "O'Hara", "078051120"), applicant("Bo", "Lee", "111223333")
		i := 0
		for b.Loop() {
			i++
			a := &chairside.Application{ID: b.Name() + strconv.Itoa(i), SessionID: "s", LocationID: "l",
				PurchaseAmountCents: 500000, Primary: p, Joint: &j}
			if err := db.CreateApplication(ctx, a); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkFindApplication measures reading and opening an application.
func BenchmarkFindApplication(b *testing.B) {
	eachEngineB(b, func(b *testing.B, db *store.DB) {
		j := applicant("Bo", "Lee", "111223333")
		a := &chairside.Application{SessionID: "s", LocationID: "l", Primary: applicant("Ann", "O'Hara", "078051120"), Joint: &j}
		if err := db.CreateApplication(ctx, a); err != nil {
			b.Fatal(err)
		}
		for b.Loop() {
			if _, err := db.FindApplication(ctx, a.ID); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkFindSession measures the look-up every API call makes.
func BenchmarkFindSession(b *testing.B) {
	eachEngineB(b, func(b *testing.B, db *store.DB) {
		l := &chairside.Location{EntityKey: "1234567890123456", Name: "x", State: "CA", GroupID: "g"}
		if err := db.CreateLocation(ctx, l); err != nil {
			b.Fatal(err)
		}
		s := &chairside.Session{ID: "bench-session", LocationID: l.ID, Env: chairside.EnvTest, FlowType: chairside.FlowApply}
		if err := db.CreateSession(ctx, s); err != nil {
			b.Fatal(err)
		}
		for b.Loop() {
			if _, err := db.FindSession(ctx, s.ID); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkFindSessionParallel measures session look-ups from many requests
// at once. RunParallel calls its body several times, so the fixtures are
// made once, outside it.
func BenchmarkFindSessionParallel(b *testing.B) {
	for _, e := range storetest.Open(b) {
		l := &chairside.Location{EntityKey: "1234567890123456", Name: "x", State: "CA", GroupID: "g"}
		if err := e.DB.CreateLocation(ctx, l); err != nil {
			b.Fatal(err)
		}
		s := &chairside.Session{ID: "bench-session", LocationID: l.ID, Env: chairside.EnvTest, FlowType: chairside.FlowApply}
		if err := e.DB.CreateSession(ctx, s); err != nil {
			b.Fatal(err)
		}
		b.Run(e.Name, func(b *testing.B) {
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					if _, err := e.DB.FindSession(ctx, s.ID); err != nil {
						b.Error(err)
						return
					}
				}
			})
		})
	}
}

// BenchmarkFindLenderApplication measures the look-up most patient steps
// make: a lender application with its latest decision, outside a Batch
// and inside one (the step's own transaction).
func BenchmarkFindLenderApplication(b *testing.B) {
	eachEngineB(b, func(b *testing.B, db *store.DB) {
		s := newSession(b, db, t0)
		a := newApplication(b, db, s, applicant("Ann", "Lee", "078051120"), nil)
		pa := newLenderApplication(b, db, a, "synchrony_standard")
		for range 2 {
			must(b, db.CreateDecision(ctx, &chairside.Decision{LenderApplicationID: pa.ID, LenderKey: "synchrony_standard", Operation: "prequalify", ResponseCode: chairside.ResponseApproved, CreatedAt: t0}))
		}
		b.Run("read", func(b *testing.B) {
			for b.Loop() {
				if _, err := db.FindLenderApplication(ctx, a.ID, "synchrony_standard"); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("batch", func(b *testing.B) {
			for b.Loop() {
				err := db.Batch(ctx, func(st *store.DB) error {
					_, err := st.FindLenderApplication(ctx, a.ID, "synchrony_standard")
					return err
				})
				if err != nil {
					b.Fatal(err)
				}
			}
		})
	})
}
