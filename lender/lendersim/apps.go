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
	// amount accepted, when it was completed, and what was refunded.
	planCode    string
	financed    int64
	completedAt time.Time
	refunded    int64
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

// send delivers an event to the webhook URL: once, twice with the same id
// under the webhook-twice fault, never under webhook-never.
func (s *Sim) send(lender string, ev protocol.Event) {
	s.mu.Lock()
	target := s.opts.WebhookURL
	s.mu.Unlock()
	if target == "" {
		return
	}
	times := 1
	if f := s.takeWebhookFault(lender); f != nil {
		times = map[string]int{FaultWebhookTwice: 2, FaultWebhookNever: 0}[f.Kind]
	}
	body, err := json.Marshal(ev)
	if err != nil || times == 0 {
		return
	}
	url := strings.ReplaceAll(target, "{providerKey}", lender)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ctx.Err() != nil {
		return // closed: Close is waiting, or has waited, for deliveries
	}
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		for range times {
			s.deliver(url, lender, ev.ID, body)
		}
	}()
}

// deliver posts one event until it is answered 2xx, at most
// WebhookAttempts times, the wait doubling after each failure.
func (s *Sim) deliver(url, lender, eventID string, body []byte) {
	wait := s.opts.WebhookBackoff
	for attempt := 1; ; attempt++ {
		status, err := s.post(url, body)
		if err == nil && status >= 200 && status <= 299 {
			s.count(s.delivered, lender)
			s.log.Info("lendersim: webhook delivered", "lender", lender, "event", eventID, "attempt", attempt)
			return
		}
		if attempt >= s.opts.WebhookAttempts {
			s.log.Warn("lendersim: webhook not delivered", "lender", lender, "event", eventID, "status", status, "err", err)
			return
		}
		t := time.NewTimer(wait)
		select {
		case <-s.ctx.Done():
			t.Stop()
			return
		case <-t.C:
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
