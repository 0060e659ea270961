package flow_test

import (
	"context"
	"errors"
	"testing"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/flow"
	"github.com/chairside/chairside/lender/sandbox"
	"github.com/chairside/chairside/store/storetest"
)

// TestTypedSignature: a patient who cannot draw signs by typing their name
// (docs/behaviour.md, "Signing"). Only the applicant's own full name signs;
// anything else answers a field error on typedName and never reaches the
// lender. The e-sign consent records how it was signed (a drawn one:
// TestSigningAfterSoftPull).
func TestTypedSignature(t *testing.T) {
	storetest.EachEngine(t, func(t *testing.T, e storetest.Engine) {
		f := newFixture(t, e, flow.Options{})
		ctx := context.Background()
		c := f.caller(t)
		const key = "synchrony_standard"
		f.acceptedOffer(t, c, key)
		req := func(method, name string) *flow.ESignRequest {
			r := *f.esignRequest(t, c, key, true)
			r.SignatureMethod, r.TypedName = method, name
			return &r
		}
		for _, name := range []string{"", "Maria", "Approve", "Maria Aprove", "Approve Maria", "yes", "Maria A B C Approve"} {
			_, err := f.svc.ESign(ctx, c, key, req(chairside.SignatureTyped, name))
			var ce *chairside.Error
			if !errors.As(err, &ce) || ce.Code != chairside.EINVALID || len(ce.FieldErrors) != 1 || ce.FieldErrors[0].Field != "typedName" {
				t.Errorf("typed %q: %v, want a field error on typedName", name, err)
			}
		}
		for method, name := range map[string]string{"scribbled": "", chairside.SignatureDrawn: "Maria Approve"} {
			if _, err := f.svc.ESign(ctx, c, key, req(method, name)); chairside.ErrorCode(err) != chairside.EBADREQUEST {
				t.Errorf("method %q with name %q: %v, want bad_request", method, name, err)
			}
		}
		if n, _ := f.log.count(sandbox.OpESign); n != 0 {
			t.Fatalf("a refused e-sign reached the lender %d times", n)
		}

		// Case, extra spaces, punctuation and a middle initial do not matter.
		pa, err := value(f.svc.ESign(ctx, c, key, req(chairside.SignatureTyped, "  MARIA  j. approve ")))
		if err != nil || pa.Status != chairside.StatusSigned {
			t.Fatalf("typed esign: %+v %v", pa, err)
		}
		esign := f.consentKinds(t, c)[chairside.ConsentESign]
		if len(esign) != 1 || esign[0].SignatureMethod != chairside.SignatureTyped || len(esign[0].SignaturePNG) == 0 {
			t.Fatalf("e-sign consent %+v, want one typed signature with its image", esign)
		}
	})
}
