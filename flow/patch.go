package flow

import (
	"context"
	"strconv"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/catalogue"
	"github.com/chairside/chairside/validate"
)

// Patches (docs/behaviour.md, "Pending, patches and stipulations"): a
// lender that answered pending may ask for one more piece of information,
// as a stipulation whose type names the patch ("income"). The patient sends
// it with POST …/patch/{patchType}, a lender step of its own, asked once
// (docs/exactly-once.md); the lender's answer is recorded as the new
// decision of the application.

// PatchRequest is the body of a patch. For an income patch: the yearly
// income before taxes, in cents, checked with the application's own
// definition of that field.
type PatchRequest struct {
	AnnualGrossIncome *int64 `json:"annualGrossIncome"`
}

// patchSteps maps a patch type to its lender step.
var patchSteps = map[string]string{
	chairside.PatchIncome: chairside.StepPatchIncome,
}

// incomeField is the lender's own definition of the yearly income, as its
// form asks for it (every lender's form does).
func incomeField(lenderKey string) (chairside.FieldDefinition, bool) {
	defs, _, err := catalogue.Fields(lenderKey, chairside.ModePrequalify)
	if err != nil {
		return chairside.FieldDefinition{}, false
	}
	for _, d := range defs {
		if d.ID == "annualGrossIncome" {
			return d, true
		}
	}
	return chairside.FieldDefinition{}, false
}

// checkPatch validates a patch's body; the field errors are named as the
// body names them.
func (s *Service) checkPatch(lenderKey string, req *PatchRequest) error {
	def, ok := incomeField(lenderKey)
	if !ok {
		return errorf(chairside.ENOTFOUND, "This lender asks for no income.")
	}
	raw := ""
	if req.AnnualGrossIncome != nil {
		raw = strconv.FormatInt(*req.AnnualGrossIncome, 10)
	}
	if msg := validate.Field(def, raw, s.now()); msg != "" {
		return &chairside.Error{Code: chairside.EINVALID, Message: "Please review the fields below and correct any errors.",
			FieldErrors: []chairside.FieldError{{Field: "annualGrossIncome", Message: msg}}}
	}
	return nil
}

// asksFor reports whether pa's decision is pending on a stipulation of the
// patch type.
func asksFor(pa *chairside.LenderApplication, patchType string) bool {
	if pa.Decision == nil || pa.Decision.ResponseCode != chairside.ResponsePending {
		return false
	}
	for _, st := range pa.Decision.Stipulations {
		if st.Type == patchType {
			return true
		}
	}
	return false
}

// Patch sends the lender what its pending decision asked for and records
// its new decision. An unknown patch type is not found; a lender that did
// not ask for it (or no longer waits for it) is a conflict. A repeat with
// the same Idempotency-Key gets the recorded answer, one with another
// income idempotency_mismatch.
func (s *Service) Patch(ctx context.Context, c *Caller, lenderKey, patchType string, req *PatchRequest) (*StepAnswer[chairside.LenderApplication], error) {
	step, ok := patchSteps[patchType]
	if !ok {
		return nil, errorf(chairside.ENOTFOUND, "There is no such update.")
	}
	patches, err := stepOf[chairside.Patches](s, lenderKey)
	if err != nil {
		return nil, err
	}
	if err := s.checkPatch(lenderKey, req); err != nil {
		return nil, err
	}
	income := *req.AnnualGrossIncome
	return s.runOfferStep(ctx, c, lenderKey, offerStep{
		step: step, from: chairside.StatusDecided, to: chairside.StatusDecided, event: "application.patched",
		hash: s.keys.BlindIndex(step + "\x00" + strconv.FormatInt(income, 10)),
		allow: func(pa *chairside.LenderApplication) error {
			if pa.Status != chairside.StatusDecided || !asksFor(pa, patchType) {
				return errorf(chairside.ECONFLICT, "The lender is not waiting for this.")
			}
			return nil
		},
		call: func(ctx context.Context, _ chairside.Lender, pa *chairside.LenderApplication, ref string) (*chairside.Decision, error) {
			d, err := patches.Patch(ctx, &chairside.PatchRequest{
				Language:               c.language(),
				LenderKey:              lenderKey,
				LenderRef:              pa.LenderRef,
				PatchType:              patchType,
				AnnualGrossIncomeCents: income,
				Reference:              ref,
				Now:                    s.now().UTC(),
			})
			if err == nil && d == nil {
				err = errorf(chairside.ELENDER, "The lender's answer could not be read.")
			}
			return d, err
		},
	})
}
