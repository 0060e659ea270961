package flow

import (
	"context"
	"slices"
	"strings"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/provider"
	"github.com/chairside/chairside/validate"
)

// validateSubmit checks the applicants with the provider's rules for the
// mode, and every other field they carry against the bounds all lenders
// share (provider.AllFields): the server accepts nothing it has not
// checked, whichever lender's form it came from. Every field error carries
// its applicant prefix.
func (s *Service) validateSubmit(providerKey, mode string, primary *chairside.Applicant, joint *chairside.Applicant, jointEnabled bool) ([]chairside.FieldError, error) {
	defs, groups, err := provider.Fields(providerKey, mode)
	if err != nil {
		return nil, err
	}
	asked := make(map[string]bool, len(defs))
	for _, d := range defs {
		asked[d.ID] = true
	}
	others := slices.DeleteFunc(provider.AllFields(), func(d chairside.FieldDefinition) bool { return asked[d.ID] })
	now := s.now()
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

// Validate checks application data against a provider's rules for a mode
// without submitting it; fieldIds limits the answer to those field ids.
func (s *Service) Validate(ctx context.Context, c *Caller, req *ValidateRequest) (*ValidateResponse, error) {
	_, st, err := s.step(ctx, c, req.ProviderKey)
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
	fe, err := s.validateSubmit(req.ProviderKey, mode, &d.Primary, d.Joint, d.JointEnabled)
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
