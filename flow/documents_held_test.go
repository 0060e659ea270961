package flow_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/flow"
	"github.com/chairside/chairside/lender/sandbox"
	"github.com/chairside/chairside/store/storetest"
)

// TestDocumentsHeld: a lender's document shown on the consent screen is
// not asked for again by the submit that checks the consent, nor for the
// next patients while it is fresh. Past half its freshness it is asked
// for again in the background; when the lender has changed it meanwhile, a
// consent to the old text is asked again. Once stale, a caller waits for
// the lender.
func TestDocumentsHeld(t *testing.T) {
	storetest.EachEngine(t, func(t *testing.T, e storetest.Engine) {
		ctx := context.Background()
		clk := &quizClock{t: time.Date(2026, 12, 7, 15, 0, 0, 0, time.UTC)}
		f := newFixture(t, e, flow.Options{Now: clk.now, DocumentsFreshFor: time.Minute})
		const key = "synchrony_standard"
		docCalls := func() int { n, _ := f.log.count(sandbox.OpDocument); return n }

		c := f.caller(t)
		req := f.request(t, c, key, flow.OpPrequalify, "Approve", "123456781") // the consent screen
		if d, err := value(f.svc.Submit(ctx, c, key, flow.OpPrequalify, req)); err != nil || !chairside.Positive(d.ResponseCode) {
			t.Fatalf("submit: %+v %v", d, err)
		}
		if n := docCalls(); n != 1 {
			t.Fatalf("the consent screen and the submit asked the lender for the document %d times, want once", n)
		}
		clk.add(20 * time.Second)
		next := f.caller(t)
		if _, err := f.svc.Disclosures(ctx, next, key, flow.DocPrequalification); err != nil || docCalls() != 1 {
			t.Fatalf("the next patient, 20 s on: %d lender calls (%v)", docCalls(), err)
		}

		// The lender changes its text. Past half the freshness the held copy
		// is still shown, and the lender asked again behind it.
		f.lenders.revision.Store("2026-12")
		clk.add(15 * time.Second)
		late := f.caller(t)
		old := f.request(t, late, key, flow.OpPrequalify, "Approve", "123456782")
		if !strings.HasPrefix(old.Consent.DocumentVersion, "sandbox-") || strings.HasSuffix(old.Consent.DocumentVersion, "2026-12") {
			t.Fatalf("past half its freshness, the held copy was not shown: %q", old.Consent.DocumentVersion)
		}
		deadline := time.Now().Add(10 * time.Second)
		for docCalls() < 2 && time.Now().Before(deadline) {
			time.Sleep(10 * time.Millisecond)
		}
		var shown *chairside.Document
		for time.Now().Before(deadline) {
			var err error
			if shown, err = f.svc.Disclosures(ctx, late, key, flow.DocPrequalification); err != nil {
				t.Fatal(err)
			}
			if strings.HasSuffix(shown.Version, "2026-12") {
				break
			}
			time.Sleep(10 * time.Millisecond)
		}
		if !strings.HasSuffix(shown.Version, "2026-12") || docCalls() != 2 {
			t.Fatalf("the background fetch: version %q after %d lender calls", shown.Version, docCalls())
		}
		_, err := f.svc.Submit(ctx, late, key, flow.OpPrequalify, old)
		if chairside.ErrorCode(err) != chairside.ECONSENT {
			t.Fatalf("a consent to the text the lender changed: %v, want %s", err, chairside.ECONSENT)
		}

		// Stale: the caller waits for the lender.
		clk.add(2 * time.Minute)
		if _, err := f.svc.Disclosures(ctx, late, key, flow.DocPrequalification); err != nil || docCalls() != 3 {
			t.Fatalf("a stale document: %d lender calls (%v)", docCalls(), err)
		}
	})
}
