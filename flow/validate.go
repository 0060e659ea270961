package flow

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/catalogue"
	"github.com/chairside/chairside/validate"
)

// validateSubmit checks the applicants with the lender's rules for the
// mode, and every other field they carry against the bounds all lenders
// share (catalogue.AllFields): the server accepts nothing it has not
// checked, whichever lender's form it came from. Every field error carries
// its applicant prefix. now is the moment ages and dates count from, in the
// patient's time zone (timezone.go).
func (s *Service) validateSubmit(now time.Time, lenderKey, mode string, primary *chairside.Applicant, joint *chairside.Applicant, jointEnabled bool) ([]chairside.FieldError, error) {
	defs, groups, err := catalogue.Fields(lenderKey, mode)
	if err != nil {
		return nil, err
	}
	asked := make(map[string]bool, len(defs))
	for _, d := range defs {
		asked[d.ID] = true
	}
	others := slices.DeleteFunc(catalogue.AllFields(), func(d chairside.FieldDefinition) bool { return asked[d.ID] })
	check := func(a *chairside.Applicant, prefix string) []chairside.FieldError {
		fe := validate.Applicant(defs, groups, a, prefix, now)
		return append(fe, validate.Applicant(others, nil, a, prefix, now)...)
	}
	fe := check(primary, "primary")
	if jointEnabled {
		if joint == nil {
			fe = append(fe, chairside.FieldError{Field: "joint", Message: "Required Field"})
		} else {
			fe = append(fe, check(joint, "joint")...)
		}
	}
	return fe, nil
}

// Validate checks application data against a lender's rules for a mode
// without submitting it; fieldIds limits the answer to those field ids.
func (s *Service) Validate(ctx context.Context, c *Caller, req *ValidateRequest) (*ValidateResponse, error) {
	_, st, err := s.step(ctx, c, req.LenderKey)
	if err != nil {
		return nil, err
	}
	mode := req.Mode
	if mode == "" {
		mode = st.ApplyMode
	}
	if !chairside.ValidMode(mode) {
		return nil, errorf(chairside.EBADREQUEST, "mode must be full, prequalify or prescreen.")
	}
	d := req.ApplicationData
	fe, err := s.validateSubmit(s.patientNow(c), req.LenderKey, mode, &d.Primary, d.Joint, d.JointEnabled)
	if err != nil {
		return nil, err
	}
	if len(req.FieldIDs) > 0 {
		want := make(map[string]bool, len(req.FieldIDs))
		for _, id := range req.FieldIDs {
			want[id] = true
		}
		kept := fe[:0]
		for _, e := range fe {
			_, id, _ := strings.Cut(e.Field, ".")
			if want[id] || want[e.Field] {
				kept = append(kept, e)
			}
		}
		fe = kept
	}
	if fe == nil {
		fe = []chairside.FieldError{}
	}
	return &ValidateResponse{Valid: len(fe) == 0, FieldErrors: fe}, nil
}

// checkApplicationFields checks what a submit carries besides the
// applicants, with the definitions the browser gets (catalogue.PurchaseAmount
// and the like). The treatment amount is required while the application has
// none: the form shows the field then (docs/behaviour.md, "What each lender
// asks for"). Insurance benefits may not exceed the amount. Whether a value
// may replace the one on record is judged by keepApplicationFields.
func checkApplicationFields(app *chairside.Application, req *SubmitRequest, now time.Time) []chairside.FieldError {
	var fe []chairside.FieldError
	check := func(d chairside.FieldDefinition, raw string) bool {
		if msg := validate.Field(d, raw, now); msg != "" {
			fe = append(fe, chairside.FieldError{Field: d.ID, Message: msg})
			return false
		}
		return true
	}
	amount := app.PurchaseAmountCents
	switch {
	case req.PurchaseAmountCents != nil:
		if check(catalogue.PurchaseAmount(), strconv.FormatInt(*req.PurchaseAmountCents, 10)) && amount == 0 {
			amount = *req.PurchaseAmountCents
		}
	case amount == 0:
		check(catalogue.PurchaseAmount(), "")
	}
	if req.Insurance != nil {
		ins := req.Insurance.InsuranceBenefitsCents
		if check(catalogue.InsuranceBenefits(), strconv.FormatInt(ins, 10)) && amount > 0 && ins > amount {
			fe = append(fe, chairside.FieldError{Field: catalogue.InsuranceBenefitsID, Message: "Must be at most the treatment amount"})
		}
	}
	if req.ExternalCustomerID != "" {
		check(catalogue.ExternalCustomerID(), req.ExternalCustomerID)
	}
	return fe
}

// keepApplicationFields stores a submit's application facts on app, in the
// transaction that claims the submit. They are set once: an amount (with
// its insurance benefits) only while the application has none, so an
// office's amount from its flow token is never replaced by the patient, and
// every lender of the waterfall decides on the same amount; the customer id
// likewise. A submit that repeats the values on record is fine; one that
// names others is refused.
func keepApplicationFields(app *chairside.Application, req *SubmitRequest) error {
	if req.PurchaseAmountCents != nil {
		switch {
		case app.PurchaseAmountCents == 0:
			app.PurchaseAmountCents = *req.PurchaseAmountCents
			if req.Insurance != nil {
				app.InsuranceBenefitsCents = req.Insurance.InsuranceBenefitsCents
			}
		case app.PurchaseAmountCents != *req.PurchaseAmountCents:
			return errorf(chairside.ECONFLICT, "The treatment amount of this application is already set.")
		}
	}
	if req.Insurance != nil && app.InsuranceBenefitsCents != req.Insurance.InsuranceBenefitsCents {
		return errorf(chairside.ECONFLICT, "The insurance benefits of this application are already set.")
	}
	if id := req.ExternalCustomerID; id != "" {
		if app.ExternalCustomerID != "" && app.ExternalCustomerID != id {
			return errorf(chairside.ECONFLICT, "The customer id of this application is already set.")
		}
		app.ExternalCustomerID = id
	}
	return nil
}
