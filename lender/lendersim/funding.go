package lendersim

import (
	"net/http"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/lender/protocol"
)

// A completed application's money (docs/lender-protocol.md, "Funding and
// changes"): the simulator remembers what the sandbox needs — the plan and
// amount accepted, when the application was completed, what was refunded —
// as a real lender knows its own applications, and answers with the
// sandbox's funding habits.

// withApp runs fn on the application of c under the lock; nothing for an
// application the simulator does not remember.
func (s *Sim) withApp(c *call, fn func(*application)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if app := s.apps[pair(c.lender, c.id)]; app != nil {
		fn(app)
	}
}

// completed answers a copy of the completed application of c, or the
// reply for one the simulator cannot speak for.
func (s *Sim) completed(c *call) (application, *reply) {
	var app application
	found := false
	s.withApp(c, func(a *application) { app, found = *a, true })
	if !found || app.completedAt.IsZero() || app.financed <= 0 {
		rep := fail(http.StatusConflict, protocol.CodeConflict, "The application is not completed.")
		return app, &rep
	}
	return app, nil
}

// funding is GET …/funding.
func (s *Sim) funding(c *call) reply {
	app, rep := s.completed(c)
	if rep != nil {
		return *rep
	}
	st, err := c.sandbox.Funding(c.ctx, &chairside.FundingRequest{LenderKey: c.lender, LenderRef: c.id, LenderPlanCode: app.planCode,
		AmountCents: app.financed, CompletedAt: app.completedAt, Now: now()})
	if err != nil {
		return fromSandbox(c, err, http.StatusBadRequest)
	}
	return ok(protocol.FromFunding(c.id, st))
}

// change runs a void or a refund through the sandbox, with what the
// simulator remembers of the application, and keeps a refund made.
func (s *Sim) change(c *call, refund bool) reply {
	var in protocol.Change
	if rep := decodeBody(c, &in); rep != nil {
		return *rep
	}
	app, rep := s.completed(c)
	if rep != nil {
		return *rep
	}
	req := &chairside.ChangeRequest{LenderKey: c.lender, LenderRef: c.id, LenderPlanCode: app.planCode, FinancedCents: app.financed,
		CompletedAt: app.completedAt, AmountCents: in.AmountCents, RefundedCents: app.refunded, Reason: in.Reason,
		Reference: in.PlatformReference, Now: now()}
	var a *chairside.ChangeAnswer
	var err error
	if refund {
		a, err = c.sandbox.Refund(c.ctx, req)
	} else {
		a, err = c.sandbox.Void(c.ctx, req)
	}
	if err != nil {
		return fromSandbox(c, err, http.StatusBadRequest)
	}
	if refund && a.Status == chairside.ChangeDone {
		s.withApp(c, func(app *application) { app.refunded += in.AmountCents })
	}
	return ok(protocol.FromChangeAnswer(c.id, in.PlatformReference, a))
}

// void is POST …/void.
func (s *Sim) void(c *call) reply { return s.change(c, false) }

// refund is POST …/refunds.
func (s *Sim) refund(c *call) reply { return s.change(c, true) }
