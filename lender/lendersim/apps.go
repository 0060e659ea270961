package lendersim

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/lender/protocol"
)

// application is what the simulator remembers of one application: the
// memory a real lender has and the stateless sandbox does not. Its
// decision is never changed in place, only replaced, so a reader may use
// it after the lock is gone.
type application struct {
	lender    string
	id        string
	reference string
	decision  *protocol.Decision
	// advancing marks a pending application that the simulator approves
	// at due; until then it answers pending and refuses the offer steps.
	advancing bool
	due       time.Time
	stips     map[string]string // stipulation id → status last answered
	// The money of a completed application (funding.go): the plan and
	// amount completed, when, what was refunded, and the reference of
	// the void that cancelled it.
	planCode    string
	financed    int64
	completedAt time.Time
	refunded    int64
	voided      string
	// announced is the last funding state sent by webhook.
	announced string
}

// pendingThenApproved is the sandbox test case whose ids answer approved
// at every call after the create: the sandbox's side of an application
// the simulator advances.
const pendingThenApproved = "pending-then-approved"

// advances reports whether a create's pending answer is one the simulator
// approves after Options.PendingFor: the Pending magic last name, and the
// test cases primary-pending and pending-then-approved. Other pending
// answers (income needed, a review) wait for what they say they wait for.
func advances(req *protocol.CreateApplication, d *chairside.Decision) bool {
	if d.ResponseCode != chairside.ResponsePending {
		return false
	}
	switch req.TestCase {
	case "":
		return strings.EqualFold(strings.TrimSpace(req.Primary.LastName), "pending")
	case "primary-pending", pendingThenApproved:
		return true
	}
	return false
}

// remember keeps a new application and, when it advances, sets its timer.
func (s *Sim) remember(app *application) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.apps[pair(app.lender, app.id)] = app
	if app.reference != "" {
		s.byRef[pair(app.lender, app.reference)] = app
	}
	if app.advancing && s.ctx.Err() == nil {
		app.due = time.Now().Add(s.opts.PendingFor)
		s.timers = append(s.timers, time.AfterFunc(s.opts.PendingFor, func() { s.advance(app.lender, app.id) }))
	}
}

// held answers the decision of an application the simulator remembers,
// advancing it first when it is due (a read right at the due time must
// not see pending because the timer has not run yet).
func (s *Sim) held(lender, id string) (*protocol.Decision, bool) {
	s.mu.Lock()
	app := s.apps[pair(lender, id)]
	due := app != nil && app.advancing && !time.Now().Before(app.due)
	s.mu.Unlock()
	if app == nil {
		return nil, false
	}
	if due {
		s.advance(lender, id)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return app.decision, true
}

// stillPending reports whether an application is one the simulator has
// yet to advance.
func (s *Sim) stillPending(lender, id string) bool {
	if _, ok := s.held(lender, id); !ok {
		return false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.apps[pair(lender, id)].advancing
}

// advance approves a pending application (the sandbox, asked for its
// status, now answers approved) and announces it by webhook. It runs once
// per application, from its timer or from a read after the due time.
func (s *Sim) advance(lender, id string) {
	s.mu.Lock()
	app := s.apps[pair(lender, id)]
	if app == nil || !app.advancing {
		s.mu.Unlock()
		return
	}
	l, _ := s.sandbox(lender)
	d, err := l.Status(context.Background(), &chairside.StatusRequest{LenderKey: lender, LenderRef: id})
	if err != nil || !chairside.Positive(d.ResponseCode) {
		s.mu.Unlock()
		s.log.Error("lendersim: a pending application did not approve", "lender", lender, "err", err)
		return
	}
	prev := app.decision
	app.decision = protocol.FromChairside(d, app.reference)
	app.advancing = false
	cur := app.decision
	s.mu.Unlock()
	s.log.Info("lendersim: pending application approved", "lender", lender, "application", id)
	s.announce(lender, prev.Status, cur)
}

// announce sends an application.updated event (send).
func (s *Sim) announce(lender, previous string, cur *protocol.Decision) {
	s.send(lender, protocol.Event{
		ID: "evt_" + rand.Text(), Type: protocol.EventApplicationUpdated, CreatedAt: time.Now().UTC(),
		Data: protocol.EventData{ApplicationID: cur.ApplicationID, PlatformReference: cur.PlatformReference,
			PreviousStatus: previous, NewStatus: cur.Status, Decision: cur},
	})
}

// Delivery is one webhook delivery that its receiver answered 2xx, as
// Deliveries lists them.
type Delivery struct {
	EventID string
	Type    string
	// ApplicationIDs are the applications the event is about: its own,
	// or for a deposit.sent every one the deposit carries.
	ApplicationIDs []string
}

func deliveryOf(ev *protocol.Event) Delivery {
	d := Delivery{EventID: ev.ID, Type: ev.Type}
	if ev.Data.ApplicationID != "" {
		d.ApplicationIDs = append(d.ApplicationIDs, ev.Data.ApplicationID)
	}
	if dep := ev.Data.Deposit; dep != nil {
		for _, f := range dep.Fundings {
			d.ApplicationIDs = append(d.ApplicationIDs, f.ApplicationID)
		}
	}
	return d
}

// outgoing is one event on its way to the webhook URL.
type outgoing struct {
	url, lender string
	about       Delivery
	body        []byte
}

// send delivers an event to the webhook URL, as the lender's webhook fault
// for its type says: once; twice with the same id (webhook-twice); never
// (webhook-never); after a wait (webhook-late); or held back until the
// lender's next event has gone (webhook-reorder). Events held back go
// right after the next event that is not. Otherwise a lender's events
// arrive in the order they were sent, each after the one before is
// answered (or given up).
func (s *Sim) send(lender string, ev protocol.Event) {
	s.mu.Lock()
	target := s.opts.WebhookURL
	s.mu.Unlock()
	body, err := json.Marshal(ev)
	if target == "" || err != nil {
		return
	}
	out := outgoing{url: strings.ReplaceAll(target, "{providerKey}", lender), lender: lender, about: deliveryOf(&ev), body: body}
	times, wait, hold := 1, time.Duration(0), false
	if f := s.takeWebhookFault(lender, ev.Type); f != nil {
		switch f.Kind {
		case FaultWebhookTwice:
			times = 2
		case FaultWebhookNever:
			times = 0
		case FaultWebhookLate:
			wait = f.Delay
		case FaultWebhookReorder:
			hold = true
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ctx.Err() != nil {
		return // closed: Close is waiting, or has waited, for deliveries
	}
	if hold {
		s.heldBack[lender] = append(s.heldBack[lender], out)
		return
	}
	released := s.heldBack[lender]
	delete(s.heldBack, lender)
	prev, done := s.tail[lender], make(chan struct{})
	if wait == 0 {
		s.tail[lender] = done
	}
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		defer close(done)
		if wait > 0 && !s.pause(wait) {
			return
		}
		if wait == 0 && prev != nil {
			select {
			case <-prev:
			case <-s.ctx.Done():
				return
			}
		}
		for range times {
			s.deliver(out)
		}
		for _, h := range released {
			s.deliver(h)
		}
	}()
}

// pause waits for d, or answers false when the simulator closes first.
func (s *Sim) pause(d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-s.ctx.Done():
		return false
	case <-t.C:
		return true
	}
}

// deliver posts one event until it is answered 2xx, at most
// WebhookAttempts times, the wait doubling after each failure.
func (s *Sim) deliver(out outgoing) {
	wait := s.opts.WebhookBackoff
	for attempt := 1; ; attempt++ {
		status, err := s.post(out.url, out.body)
		if err == nil && status >= 200 && status <= 299 {
			s.mu.Lock()
			s.deliveries[out.lender] = append(s.deliveries[out.lender], out.about)
			s.mu.Unlock()
			s.log.Info("lendersim: webhook delivered", "lender", out.lender, "event", out.about.EventID, "attempt", attempt)
			return
		}
		if attempt >= s.opts.WebhookAttempts {
			s.log.Warn("lendersim: webhook not delivered", "lender", out.lender, "event", out.about.EventID, "status", status, "err", err)
			return
		}
		if !s.pause(wait) {
			return
		}
		wait *= 2
	}
}

// post sends one signed delivery; each is signed anew, so a repeat carries
// a fresh timestamp over the same body.
func (s *Sim) post(url string, body []byte) (int, error) {
	ctx, cancel := context.WithTimeout(s.ctx, 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return 0, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set(protocol.SignatureHeader, protocol.Sign([]byte(s.opts.WebhookSecret), time.Now(), body))
	res, err := s.opts.Client.Do(req)
	if err != nil {
		return 0, err
	}
	defer res.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(res.Body, 64<<10))
	return res.StatusCode, nil
}
