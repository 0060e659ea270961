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

// funding is GET …/funding. A voided application has no money to follow:
// the lender never funds it, so it answers 409 as one not completed.
func (s *Sim) funding(c *call) reply {
	app, rep := s.completed(c)
	if rep != nil {
		return *rep
	}
	if app.voided != "" {
		return fail(http.StatusConflict, protocol.CodeConflict, "The application was voided.")
	}
	st, err := c.sandbox.Funding(c.ctx, &chairside.FundingRequest{LenderKey: c.lender, LenderRef: c.id, LenderPlanCode: app.planCode,
		AmountCents: app.financed, CompletedAt: app.completedAt, Now: now()})
	if err != nil {
		return fromSandbox(c, err, http.StatusBadRequest)
	}
	return ok(protocol.FromFunding(c.id, st))
}

// change runs a void or a refund through the sandbox, with what the
// simulator remembers of the application, and keeps a refund or void
// made. Changes run one at a time (changeMu), so two refunds under
// different keys cannot both spend what is left. A voided application is
// voided again under the first void's reference, and refunds nothing.
func (s *Sim) change(c *call, refund bool) reply {
	var in protocol.Change
	if rep := decodeBody(c, &in); rep != nil {
		return *rep
	}
	s.changeMu.Lock()
	defer s.changeMu.Unlock()
	app, rep := s.completed(c)
	if rep != nil {
		return *rep
	}
	var a *chairside.ChangeAnswer
	var err error
	switch {
	case app.voided != "" && refund:
		a = &chairside.ChangeAnswer{Status: chairside.ChangeRefused, Message: "This case was voided: there is nothing to refund."}
	case app.voided != "":
		a = &chairside.ChangeAnswer{Status: chairside.ChangeDone, Reference: app.voided}
	default:
		req := &chairside.ChangeRequest{LenderKey: c.lender, LenderRef: c.id, LenderPlanCode: app.planCode, FinancedCents: app.financed,
			CompletedAt: app.completedAt, AmountCents: in.AmountCents, RefundedCents: app.refunded, Reason: in.Reason,
			Reference: in.PlatformReference, Now: now()}
		if refund {
			a, err = c.sandbox.Refund(c.ctx, req)
		} else {
			a, err = c.sandbox.Void(c.ctx, req)
		}
	}
	if err != nil {
		return fromSandbox(c, err, http.StatusBadRequest)
	}
	if a.Status == chairside.ChangeDone {
		s.withApp(c, func(app *application) {
			if refund {
				app.refunded += in.AmountCents
			} else {
				app.voided = a.Reference
			}
		})
	}
	return ok(protocol.FromChangeAnswer(c.id, in.PlatformReference, a))
}

// void is POST …/void.
func (s *Sim) void(c *call) reply { return s.change(c, false) }

// refund is POST …/refunds.
func (s *Sim) refund(c *call) reply { return s.change(c, true) }

// amount is POST …/amount: the treatment amount changed after the offer
// was accepted and before it was signed. The accepted offer is let go; a
// completed application keeps its amount (it is voided or refunded).
func (s *Sim) amount(c *call) reply {
	var in protocol.Change
	if rep := decodeBody(c, &in); rep != nil {
		return *rep
	}
	s.changeMu.Lock()
	defer s.changeMu.Unlock()
	var app application
	s.withApp(c, func(a *application) { app = *a })
	if app.planCode == "" || !app.completedAt.IsZero() {
		return fail(http.StatusConflict, protocol.CodeConflict, "The application has no accepted offer to change.")
	}
	a, err := c.sandbox.ChangeAmount(c.ctx, &chairside.ChangeRequest{LenderKey: c.lender, LenderRef: c.id, LenderPlanCode: app.planCode,
		FinancedCents: app.financed, AmountCents: in.AmountCents, Reason: in.Reason, Reference: in.PlatformReference, Now: now()})
	if err != nil {
		return fromSandbox(c, err, http.StatusBadRequest)
	}
	if a.Status == chairside.ChangeDone {
		s.withApp(c, func(app *application) { app.planCode, app.financed = "", 0 })
	}
	return ok(protocol.FromChangeAnswer(c.id, in.PlatformReference, a))
}

// followFunding announces a completed application's money by webhook as a
// lender's own systems would: funding.updated when it is held or funded,
// deposit.sent when its deposit goes out, with every application of the
// lender that deposit carries; nothing once it is voided. Each tick asks
// the sandbox where the money stands and sets the next for when that is
// expected to change.
func (s *Sim) followFunding(lender, id string) { s.later(0, func() { s.fundingTick(lender, id) }) }

// heldLook is how often a waiting application is looked at again before
// the day it is expected to fund: the sandbox's answer does not say when
// a review will hold it, only when it funds, and a hold begins some
// business days before that (lender/sandbox/funding.go). A business day
// of Options.FundingDay when set, else an hour.
func (s *Sim) heldLook() time.Duration {
	if s.opts.FundingDay > 0 {
		return s.opts.FundingDay
	}
	return time.Hour
}

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
	if !found || app.announced == chairside.FundingDeposited || app.voided != "" {
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
		if !s.markAnnounced(lender, id, st.State) {
			return
		}
		s.send(lender, protocol.Event{ID: "evt_" + rand.Text(), Type: protocol.EventFundingUpdated, CreatedAt: time.Now().UTC(),
			Data: protocol.EventData{ApplicationID: id, PlatformReference: app.reference, Funding: protocol.FromFunding(id, st)}})
	}
	wait := max(time.Until(st.ExpectedOn), 0)
	switch st.State {
	case chairside.FundingFunded:
		wait = max(time.Until(st.DepositOn), 0)
	case chairside.FundingWaiting:
		wait = min(wait, s.heldLook())
	}
	s.later(wait+time.Millisecond, func() { s.fundingTick(lender, id) })
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

// markAnnounced records that state is being announced, or reports false
// for an application voided since it was read: there is nothing to
// announce of it.
func (s *Sim) markAnnounced(lender, id, state string) bool {
	marked := false
	s.withApp(&call{lender: lender, id: id}, func(a *application) {
		if a.voided == "" {
			a.announced, marked = state, true
		}
	})
	return marked
}

// depositSent sends one deposit.sent for the deposit of st, carrying every
// application of the lender it holds that is not announced deposited yet.
func (s *Sim) depositSent(lender string, st *chairside.FundingStatus) {
	s.mu.Lock()
	var apps []application
	for _, a := range s.apps {
		if a.lender == lender && !a.completedAt.IsZero() && a.announced != chairside.FundingDeposited && a.voided == "" {
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
		// The total is the whole bank transfer, the cases announced
		// before included.
		dep.NetCents += f.NetCents
		if apps[i].announced != chairside.FundingFunded {
			// A look that came late (a busy machine) finds the case
			// already deposited: a lender would have said it funded it
			// first, so the funding goes before its deposit.
			funded := *f
			funded.State = chairside.FundingFunded
			s.send(lender, protocol.Event{ID: "evt_" + rand.Text(), Type: protocol.EventFundingUpdated, CreatedAt: time.Now().UTC(),
				Data: protocol.EventData{ApplicationID: apps[i].id, PlatformReference: apps[i].reference, Funding: protocol.FromFunding(apps[i].id, &funded)}})
		}
		if s.markAnnounced(lender, apps[i].id, chairside.FundingDeposited) {
			dep.Fundings = append(dep.Fundings, *protocol.FromFunding(apps[i].id, f))
		}
	}
	if len(dep.Fundings) > 0 {
		s.send(lender, protocol.Event{ID: "evt_" + rand.Text(), Type: protocol.EventDepositSent, CreatedAt: time.Now().UTC(),
			Data: protocol.EventData{Deposit: dep}})
	}
}
