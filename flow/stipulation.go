package flow

import (
	"context"
	"slices"
	"strings"

	"github.com/chairside/chairside"
)

// Stipulations: what a lender waits for before it decides or funds
// (docs/behaviour.md, "Pending, patches and stipulations"). Lenders word
// their statuses their own way; the one rule that reads them is here, and
// every decision the server records or answers carries its reading as each
// stipulation's State.

// Stipulation states, in the patient's terms.
const (
	StipulationWaiting  = "waiting"  // the lender waits for the patient
	StipulationReceived = "received" // the lender has it and is looking at it
	StipulationDone     = "done"     // nothing more is needed for it
)

// maxStipulationRefresh bounds the ids one refresh may name.
const maxStipulationRefresh = 20

// StipulationState reads a lender's status word: done when the lender says
// it is satisfied, received when it has what it asked for, otherwise
// waiting for the patient (an unknown word never claims more than that).
func StipulationState(status string) string {
	switch strings.ToLower(strings.TrimSpace(status)) {
	case "done", "satisfied", "closed", "cleared", "complete", "completed", "waived":
		return StipulationDone
	case "received", "submitted", "in_review", "reviewing":
		return StipulationReceived
	}
	return StipulationWaiting
}

// withStates answers stipulations (a copy) with each State read from its
// Status.
func withStates(in []chairside.Stipulation) []chairside.Stipulation {
	out := make([]chairside.Stipulation, len(in))
	for i, st := range in {
		st.State = StipulationState(st.Status)
		out[i] = st
	}
	return out
}

// RefreshStipulationsRequest names the stipulations to refresh; none (or
// no body) means all of them.
type RefreshStipulationsRequest struct {
	StipulationIDs []string `json:"stipulationIds"`
}

// StipulationsResponse lists stipulations with their states.
type StipulationsResponse struct {
	Stipulations []chairside.Stipulation `json:"stipulations"`
}

// StipulationStatus answers one stipulation of the caller's application
// with this lender, as last recorded. An id the decision does not have is
// not found, as is another session's application.
func (s *Service) StipulationStatus(ctx context.Context, c *Caller, lenderKey, id string) (*chairside.Stipulation, error) {
	pa, err := s.ownLenderApplication(ctx, c, lenderKey)
	if err != nil {
		return nil, err
	}
	if pa.Decision != nil {
		for _, st := range withStates(pa.Decision.Stipulations) {
			if st.ID == id {
				return &st, nil
			}
		}
	}
	return nil, errorf(chairside.ENOTFOUND, "The lender is not waiting for this.")
}

// RefreshStipulations asks the lender where the named stipulations of a
// pending application stand (all of them when none is named) and records
// what it answers with the decision, which keeps its response code: only a
// status check (ApplicationStatus) or a patch changes that.
func (s *Service) RefreshStipulations(ctx context.Context, c *Caller, lenderKey string, req *RefreshStipulationsRequest) (*StipulationsResponse, error) {
	lender, err := stepOf[chairside.Stipulations](s, lenderKey)
	if err != nil {
		return nil, err
	}
	if req != nil && len(req.StipulationIDs) > maxStipulationRefresh {
		return nil, errorf(chairside.EBADREQUEST, "Name at most %d stipulations.", maxStipulationRefresh)
	}
	pa, err := s.ownLenderApplication(ctx, c, lenderKey)
	if err != nil {
		return nil, err
	}
	if pa.Decision == nil || pa.Decision.ResponseCode != chairside.ResponsePending || pa.Status != chairside.StatusDecided {
		return nil, errorf(chairside.ECONFLICT, "This lender is not waiting for anything now.")
	}
	if pa.InFlight != "" {
		return nil, inFlight(s.lease())
	}
	known, err := namedStipulations(pa.Decision.Stipulations, req)
	if err != nil {
		return nil, err
	}
	if len(known) == 0 {
		return &StipulationsResponse{Stipulations: []chairside.Stipulation{}}, nil
	}
	lctx, cancel := context.WithTimeout(ctx, s.opts.LenderTimeout)
	got, err := lender.Stipulations(lctx, &chairside.StipulationsRequest{
		Language:  c.language(),
		LenderKey: lenderKey, LenderRef: pa.LenderRef, Known: known, Now: s.now().UTC(),
	})
	cancel()
	if err != nil {
		s.log.Warn("lender stipulations failed", "session", SessionHash(c.Session.ID), "lender", lenderKey, "err", chairside.ErrorCode(err))
		return nil, errorf(chairside.ELENDER, "We did not get an answer from the lender. Please try again.")
	}
	answered, err := s.recordStipulations(ctx, c, pa, got)
	if err != nil {
		return nil, err
	}
	return &StipulationsResponse{Stipulations: withStates(answered)}, nil
}

// namedStipulations answers the decision's stipulations req names (all when
// it names none); an id the decision does not have is not found.
func namedStipulations(have []chairside.Stipulation, req *RefreshStipulationsRequest) ([]chairside.Stipulation, error) {
	if req == nil || len(req.StipulationIDs) == 0 {
		return slices.Clone(have), nil
	}
	out := make([]chairside.Stipulation, 0, len(req.StipulationIDs))
	for _, id := range req.StipulationIDs {
		i := slices.IndexFunc(have, func(st chairside.Stipulation) bool { return st.ID == id })
		if i < 0 {
			return nil, errorf(chairside.ENOTFOUND, "The lender is not waiting for this.")
		}
		out = append(out, have[i])
	}
	return out, nil
}

// recordStipulations writes the lender's answer into a new decision (the
// old one with those stipulations replaced), version-checked, with its
// event; it answers the stipulations as recorded. Only stipulations the
// decision has are taken from the lender's answer.
func (s *Service) recordStipulations(ctx context.Context, c *Caller, pa *chairside.LenderApplication, got []chairside.Stipulation) ([]chairside.Stipulation, error) {
	d := *pa.Decision
	d.Stipulations = slices.Clone(pa.Decision.Stipulations)
	var answered []chairside.Stipulation
	for _, g := range got {
		i := slices.IndexFunc(d.Stipulations, func(st chairside.Stipulation) bool { return st.ID == g.ID })
		if i < 0 {
			continue
		}
		d.Stipulations[i].Status = g.Status
		answered = append(answered, d.Stipulations[i])
	}
	d.Stipulations = withStates(d.Stipulations)
	d.ID = newID()
	d.CreatedAt = s.now().UTC()
	err := s.batch(ctx, c, func(tx Store) error {
		if err := tx.CreateDecision(ctx, &d); err != nil {
			return err
		}
		pa.Decision = &d
		if err := s.updateIn(ctx, tx, pa); err != nil {
			return err
		}
		s.eventIn(ctx, tx, c.Session, pa.LenderKey, "decision.updated", map[string]any{"stipulations": len(answered)})
		return nil
	})
	if err != nil {
		return nil, err
	}
	if answered == nil {
		answered = []chairside.Stipulation{}
	}
	return answered, nil
}
