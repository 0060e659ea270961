package lendersim

import (
	"crypto/rand"
	"net/http"
	"time"

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

// followFunding announces a completed application's money by webhook as a
// lender's own systems would: funding.updated when it is held or funded,
// deposit.sent when its deposit goes out, with every application of the
// lender that deposit carries. Each tick asks the sandbox where the money
// stands and sets the next for when that is expected to change.
func (s *Sim) followFunding(lender, id string) { s.later(0, func() { s.fundingTick(lender, id) }) }

// later runs fn after d on a timer Close stops.
func (s *Sim) later(d time.Duration, fn func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ctx.Err() == nil {
		s.timers = append(s.timers, time.AfterFunc(d, fn))
	}
}

// fundingTick is one look at an application's money (followFunding).
func (s *Sim) fundingTick(lender, id string) {
	var app application
	found := false
	s.mu.Lock()
	if a := s.apps[pair(lender, id)]; a != nil {
		app, found = *a, true
	}
	s.mu.Unlock()
	if !found || app.announced == chairside.FundingDeposited {
		return
	}
	st, err := s.fundingOf(&app)
	if err != nil {
		s.log.Error("lendersim: funding", "lender", lender, "application", id, "err", err)
		return
	}
	switch {
	case st.State == chairside.FundingDeposited:
		s.depositSent(lender, st)
		return
	case st.State != chairside.FundingWaiting && st.State != app.announced:
		s.markAnnounced(lender, id, st.State)
		s.send(lender, protocol.Event{ID: "evt_" + rand.Text(), Type: protocol.EventFundingUpdated, CreatedAt: time.Now().UTC(),
			Data: protocol.EventData{ApplicationID: id, PlatformReference: app.reference, Funding: protocol.FromFunding(id, st)}})
	}
	next := st.ExpectedOn
	if st.State == chairside.FundingFunded {
		next = st.DepositOn
	}
	s.later(max(time.Until(next), 0)+time.Millisecond, func() { s.fundingTick(lender, id) })
}

// fundingOf asks the sandbox where app's money stands now.
func (s *Sim) fundingOf(app *application) (*chairside.FundingStatus, error) {
	l, err := s.sb.AllSteps(app.lender)
	if err != nil {
		return nil, err
	}
	return l.Funding(s.ctx, &chairside.FundingRequest{LenderKey: app.lender, LenderRef: app.id, LenderPlanCode: app.planCode,
		AmountCents: app.financed, CompletedAt: app.completedAt, Now: now()})
}

func (s *Sim) markAnnounced(lender, id, state string) {
	s.withApp(&call{lender: lender, id: id}, func(a *application) { a.announced = state })
}

// depositSent sends one deposit.sent for the deposit of st, carrying every
// application of the lender it holds that is not announced deposited yet.
func (s *Sim) depositSent(lender string, st *chairside.FundingStatus) {
	s.mu.Lock()
	var apps []application
	for _, a := range s.apps {
		if a.lender == lender && !a.completedAt.IsZero() && a.announced != chairside.FundingDeposited {
			apps = append(apps, *a)
		}
	}
	s.mu.Unlock()
	dep := &protocol.Deposit{Reference: st.DepositRef, On: st.DepositOn}
	for i := range apps {
		f, err := s.fundingOf(&apps[i])
		if err != nil || f.State != chairside.FundingDeposited || f.DepositRef != st.DepositRef {
			continue
		}
		s.markAnnounced(lender, apps[i].id, chairside.FundingDeposited)
		dep.Fundings = append(dep.Fundings, *protocol.FromFunding(apps[i].id, f))
	}
	if len(dep.Fundings) > 0 {
		s.send(lender, protocol.Event{ID: "evt_" + rand.Text(), Type: protocol.EventDepositSent, CreatedAt: time.Now().UTC(),
			Data: protocol.EventData{Deposit: dep}})
	}
}
