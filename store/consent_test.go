package store_test

import (
	"reflect"
	"testing"
	"time"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/store"
	"github.com/chairside/chairside/store/storetest"
)

func TestConsents(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		signed := t0.Add(3 * time.Minute)
		png := []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR binary \x00\xff")
		c1 := &chairside.Consent{SessionID: "s1", ApplicationID: "a1", LenderKey: "synchrony_standard", Kind: chairside.ConsentSoftPull,
			DocumentID: "prequalification", DocumentVersion: "2026-01", DocumentSHA256: "abc123", DocumentLanguage: "en", ConsentText: "I agree to a soft pull.",
			ShownAt: t0, ConsentedAt: t0.Add(time.Minute), IP: "203.0.113.9", UserAgent: "Mozilla/5.0"}
		c2 := &chairside.Consent{SessionID: "s1", ApplicationID: "a1", LenderKey: "synchrony_standard", Kind: chairside.ConsentTerms,
			DocumentID: "agreement", DocumentVersion: "v3", DocumentSHA256: "def456", DocumentLanguage: "es", ConsentText: "I sign.", LenderPlanCode: "P12",
			ShownAt: t0.Add(2 * time.Minute), ConsentedAt: t0.Add(3 * time.Minute), SignedAt: &signed, SignaturePNG: png, SignatureMethod: chairside.SignatureTyped}
		// Written out of order; listed by ConsentedAt.
		must(t, db.CreateConsent(ctx, c2))
		must(t, db.CreateConsent(ctx, c1))
		must(t, db.CreateConsent(ctx, &chairside.Consent{SessionID: "s2", ApplicationID: "a2", Kind: chairside.ConsentESign}))
		got, err := db.ListConsents(ctx, "a1")
		must(t, err)
		if len(got) != 2 || !reflect.DeepEqual(got[0], c1) || !reflect.DeepEqual(got[1], c2) {
			t.Fatalf("ListConsents =\n%+v\n%+v\nwant\n%+v\n%+v", got[0], got[1], c1, c2)
		}
		wantCode(t, db.CreateConsent(ctx, c1), chairside.ECONFLICT)
		none, err := db.ListConsents(ctx, "missing")
		must(t, err)
		if len(none) != 0 {
			t.Fatalf("consents of a missing application: %v", none)
		}
	})
}
