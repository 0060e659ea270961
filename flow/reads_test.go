package flow_test

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/flow"
	"github.com/chairside/chairside/lender/sandbox"
	"github.com/chairside/chairside/store"
	"github.com/chairside/chairside/store/storetest"
	"github.com/chairside/chairside/testkit"
)

// readCounter counts the reads of lender applications that reach the
// store, through the store and each batch of it.
type readCounter struct {
	flow.Store
	db    *store.DB
	reads *atomic.Int64
}

func (r readCounter) Batch(ctx context.Context, fn func(tx flow.Store) error) error {
	return r.db.Batch(ctx, func(tx *store.DB) error { return fn(readCounter{tx, r.db, r.reads}) })
}

func (r readCounter) FindLenderApplication(ctx context.Context, applicationID, lenderKey string) (*chairside.LenderApplication, error) {
	r.reads.Add(1)
	return r.Store.FindLenderApplication(ctx, applicationID, lenderKey)
}

func (r readCounter) ListLenderApplications(ctx context.Context, applicationID string) ([]*chairside.LenderApplication, error) {
	r.reads.Add(1)
	return r.Store.ListLenderApplications(ctx, applicationID)
}

// TestOfferStepsReadTheApplicationOnce: accepting, signing and completing
// each read the lender application once, from the handler's call to the
// SQL: the claim's versioned update proves nothing moved it since, and the
// answer is recorded from the application as the claim left it.
func TestOfferStepsReadTheApplicationOnce(t *testing.T) {
	e := storetest.SQLite(t)
	testkit.SeedOffice(t, e.DB)
	reads := &atomic.Int64{}
	counted := readCounter{e.DB, e.DB, reads}
	f := &fixture{svc: flow.New[flow.Store](counted, sandbox.New(sandbox.Options{}), e.Keys, flow.Options{}), db: e.DB}
	ctx := context.Background()
	const key = "synchrony_standard"
	c := f.planConfirmed(t, "123450077")
	esign := f.esignRequest(t, c, key, true)
	for _, step := range []struct {
		name string
		run  func() (*chairside.LenderApplication, error)
		want string
	}{
		{"accept", func() (*chairside.LenderApplication, error) { return value(f.svc.AcceptOffer(ctx, c, key, nil)) }, chairside.StatusOfferAccepted},
		{"esign", func() (*chairside.LenderApplication, error) { return value(f.svc.ESign(ctx, c, key, esign)) }, chairside.StatusSigned},
		{"complete", func() (*chairside.LenderApplication, error) { return value(f.svc.Complete(ctx, c, key)) }, chairside.StatusCompleted},
	} {
		reads.Store(0)
		pa, err := step.run()
		if err != nil || pa.Status != step.want {
			t.Fatalf("%s: %+v %v", step.name, pa, err)
		}
		if n := reads.Load(); n != 1 {
			t.Errorf("%s read the provider application %d times, want 1", step.name, n)
		}
	}
}

// TestOfferStepRecordsOverNewsMeanwhile: when something moves the lender
// application while its step is with the lender (a lender's news adopted
// by a webhook), the answer is recorded over the application as it is
// then, read again, not refused as a conflict.
func TestOfferStepRecordsOverNewsMeanwhile(t *testing.T) {
	e := storetest.SQLite(t)
	f := newFixture(t, e, flow.Options{})
	ctx := context.Background()
	const key = "synchrony_standard"
	c := f.planConfirmed(t, "123450078")
	gate := &gatedLenders{Lenders: f.lenders, op: sandbox.OpAcceptOffer, arrived: make(chan struct{}), release: make(chan struct{})}
	done := make(chan error, 1)
	go func() {
		_, err := flow.New(e.DB, gate, e.Keys, flow.Options{}).AcceptOffer(ctx, c, key, nil)
		done <- err
	}()
	<-gate.arrived // the accept is with the lender
	moved, err := e.DB.FindLenderApplication(ctx, c.Session.ApplicationID, key)
	if err != nil {
		t.Fatal(err)
	}
	moved.LenderRef = "moved-by-news"
	if err := e.DB.UpdateLenderApplication(ctx, moved); err != nil {
		t.Fatal(err)
	}
	close(gate.release)
	if err := <-done; err != nil {
		t.Fatalf("accept over a moved application: %v", err)
	}
	pa, err := e.DB.FindLenderApplication(ctx, c.Session.ApplicationID, key)
	if err != nil {
		t.Fatal(err)
	}
	if pa.Status != chairside.StatusOfferAccepted || pa.InFlight != "" || pa.LenderRef != "moved-by-news" {
		t.Errorf("after the accept: status %s, in flight %q, lender id %q", pa.Status, pa.InFlight, pa.LenderRef)
	}
}

// planConfirmed prequalifies a new patient with Synchrony and confirms
// the first plan: the offer is ready to accept.
func (f *fixture) planConfirmed(t *testing.T, ssn string) *flow.Caller {
	t.Helper()
	c := f.caller(t)
	if d, err := f.submit(t, c, "synchrony_standard", "Approve", ssn); err != nil || !chairside.Positive(d.ResponseCode) {
		t.Fatalf("prequalify: %+v %v", d, err)
	}
	f.confirmPlan(t, c, "synchrony_standard")
	return c
}
