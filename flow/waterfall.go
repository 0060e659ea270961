package flow

import (
	"context"

	"github.com/chairside/chairside"
)

// step returns the caller's location and the waterfall step of providerKey;
// a lender outside the waterfall is resource_not_found.
func (s *Service) step(ctx context.Context, c *Caller, lenderKey string) (*chairside.Location, *chairside.WaterfallStep, error) {
	loc, err := s.location(ctx, c.Session.LocationID)
	if err != nil {
		return nil, nil, err
	}
	st := loc.Step(lenderKey)
	if st == nil {
		return nil, nil, errorf(chairside.ENOTFOUND, "This lender is not offered here.")
	}
	return loc, st, nil
}

// nextIn builds where a cascade sends the patient (docs/behaviour.md, "The
// waterfall"), reading through store: resume when the application already
// has a decision of that lender, start otherwise.
func (s *Service) nextIn(ctx context.Context, store Store, applicationID string, st *chairside.WaterfallStep) *Next {
	n := &Next{ResultType: "start", AutoSubmit: st.AutoSubmit, Lender: st.LenderKey, ApplyMode: st.ApplyMode}
	if pa, err := store.FindLenderApplication(ctx, applicationID, st.LenderKey); err == nil && pa.Decision != nil {
		n.ResultType, n.Resume = "resume", true
	}
	return n
}
