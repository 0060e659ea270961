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

// nextOf builds where a cascade sends the patient (docs/behaviour.md, "The
// waterfall"): resume when the application already has a decision of that
// lender (pa, nil when it has none of that lender's), start otherwise.
func nextOf(st *chairside.WaterfallStep, pa *chairside.LenderApplication) *Next {
	n := &Next{ResultType: "start", AutoSubmit: st.AutoSubmit, Lender: st.LenderKey, ApplyMode: st.ApplyMode}
	if pa != nil && pa.Decision != nil {
		n.ResultType, n.Resume = "resume", true
	}
	return n
}
