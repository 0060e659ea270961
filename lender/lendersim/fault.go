package lendersim

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/chairside/chairside/lender/protocol"
)

// Fault kinds (docs/lender-protocol.md, "The simulator").
const (
	FaultSlow         = "slow"          // wait Delay before running the request; a client that leaves first is never answered
	Fault5xx          = "5xx"           // answer 503 without running the request
	FaultGarbage      = "garbage"       // answer 200 with a body that is not the protocol's, without running the request
	FaultDrop         = "drop"          // run the request, then close the connection without answering
	FaultWebhookTwice = "webhook-twice" // deliver each event twice, with the same id
	FaultWebhookNever = "webhook-never" // deliver no event
	// FaultWebhookLate holds each event back for Delay; events sent
	// meanwhile go first.
	FaultWebhookLate = "webhook-late"
	// FaultWebhookReorder holds each event back until the lender's next
	// event that the fault does not hold has been delivered, so that one
	// arrives first: with Op funding.updated, a deposit before its
	// funding. An event held when no other follows is never delivered.
	FaultWebhookReorder = "webhook-reorder"
)

var faultKinds = []string{FaultSlow, Fault5xx, FaultGarbage, FaultDrop, FaultWebhookTwice, FaultWebhookNever, FaultWebhookLate, FaultWebhookReorder}

// webhookOps are the Op values of a webhook fault: the event types.
var webhookOps = []string{protocol.EventApplicationUpdated, protocol.EventFundingUpdated, protocol.EventDepositSent}

// Fault is a misbehaviour of one lender. Op, when set, limits a request
// fault to one operation (the lender.Op… names, OpLookup, OpCreditLimit),
// and a webhook fault to one event type (protocol.Event…); Count, when
// set, to the next Count matching requests (or events, for the webhook
// faults), after which the fault is gone.
type Fault struct {
	Kind  string
	Delay time.Duration // FaultSlow's and FaultWebhookLate's wait
	Op    string
	Count int
}

func (f Fault) webhook() bool {
	switch f.Kind {
	case FaultWebhookTwice, FaultWebhookNever, FaultWebhookLate, FaultWebhookReorder:
		return true
	}
	return false
}

// check refuses a fault the simulator could not apply as asked.
func (f Fault) check() error {
	if !slices.Contains(faultKinds, f.Kind) {
		return fmt.Errorf("lendersim: unknown fault %q (one of %s)", f.Kind, strings.Join(faultKinds, ", "))
	}
	needsDelay := f.Kind == FaultSlow || f.Kind == FaultWebhookLate
	if f.Count < 0 || f.Delay < 0 || (needsDelay && f.Delay == 0) {
		return fmt.Errorf("lendersim: fault %s needs a positive delay and a count of zero or more", f.Kind)
	}
	if f.webhook() && f.Op != "" && !slices.Contains(webhookOps, f.Op) {
		return fmt.Errorf("lendersim: a webhook fault's op is an event type (one of %s), not %q", strings.Join(webhookOps, ", "), f.Op)
	}
	return nil
}

// SetFault gives a lender a fault in place of any it had; a Fault with no
// Kind (or "none") takes it away.
func (s *Sim) SetFault(lenderKey string, f Fault) error {
	if _, ok := s.sandbox(lenderKey); !ok {
		return fmt.Errorf("lendersim: unknown lender %q", lenderKey)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if f.Kind == "" || f.Kind == "none" {
		delete(s.faults, lenderKey)
		return nil
	}
	if err := f.check(); err != nil {
		return err
	}
	s.faults[lenderKey] = &f
	return nil
}

// take returns the lender's fault if match accepts it, spending one of
// its count.
func (s *Sim) take(lenderKey string, match func(*Fault) bool) *Fault {
	s.mu.Lock()
	defer s.mu.Unlock()
	f := s.faults[lenderKey]
	if f == nil || !match(f) {
		return nil
	}
	out := *f
	if f.Count > 0 {
		if f.Count--; f.Count == 0 {
			delete(s.faults, lenderKey)
		}
	}
	return &out
}

// takeFault is the request fault for a request of op, if any.
func (s *Sim) takeFault(lenderKey, op string) *Fault {
	return s.take(lenderKey, func(f *Fault) bool { return !f.webhook() && (f.Op == "" || f.Op == op) })
}

// takeWebhookFault is the webhook fault for the next event, of type
// eventType, if any.
func (s *Sim) takeWebhookFault(lenderKey, eventType string) *Fault {
	return s.take(lenderKey, func(f *Fault) bool { return f.webhook() && (f.Op == "" || f.Op == eventType) })
}

// ParseFault reads a fault as the -fault flag gives it:
//
//	lender=kind[:delay][,op=operation or event type][,count=n]
//
// e.g. "snap_standard=slow:30s", "vive_standard=drop,op=decide,count=1",
// "synchrony_standard=webhook-reorder,op=funding.updated".
func ParseFault(spec string) (lenderKey string, f Fault, err error) {
	lenderKey, rest, found := strings.Cut(spec, "=")
	if !found || lenderKey == "" || rest == "" {
		return "", Fault{}, fmt.Errorf("fault %q: want lender=kind[:delay][,op=…][,count=…]", spec)
	}
	parts := strings.Split(rest, ",")
	kind, delay, hasDelay := strings.Cut(parts[0], ":")
	f.Kind = kind
	if hasDelay {
		if f.Delay, err = time.ParseDuration(delay); err != nil {
			return "", Fault{}, fmt.Errorf("fault %q: delay: %w", spec, err)
		}
	}
	for _, p := range parts[1:] {
		k, v, _ := strings.Cut(p, "=")
		switch k {
		case "op":
			f.Op = v
		case "count":
			if f.Count, err = strconv.Atoi(v); err != nil {
				return "", Fault{}, fmt.Errorf("fault %q: count: %w", spec, err)
			}
		default:
			return "", Fault{}, fmt.Errorf("fault %q: unknown option %q", spec, k)
		}
	}
	if err := f.check(); err != nil {
		return "", Fault{}, fmt.Errorf("fault %q: %w", spec, err)
	}
	return lenderKey, f, nil
}

// faultJSON is a fault as POST /_sim/faults takes it and GET lists it.
type faultJSON struct {
	Lender string `json:"lender"`
	Kind   string `json:"kind"`
	Delay  string `json:"delay,omitempty"` // a Go duration such as "30s"
	Op     string `json:"op,omitempty"`
	Count  int    `json:"count,omitempty"`
}

// postFault is POST /_sim/faults: set (or, with kind "none", clear) one
// lender's fault.
func (s *Sim) postFault(w http.ResponseWriter, r *http.Request) {
	cid := r.Header.Get(protocol.HeaderCorrelationID)
	if !s.authorised(r) {
		s.write(w, cid, fail(http.StatusUnauthorized, protocol.CodeUnauthorized, "The API key is missing or wrong."))
		return
	}
	var in faultJSON
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, 64<<10))
	if err == nil {
		err = json.Unmarshal(body, &in)
	}
	f := Fault{Kind: in.Kind, Op: in.Op, Count: in.Count}
	if err == nil && in.Delay != "" {
		f.Delay, err = time.ParseDuration(in.Delay)
	}
	if err == nil {
		err = s.SetFault(in.Lender, f)
	}
	if err != nil {
		s.write(w, cid, fail(http.StatusUnprocessableEntity, protocol.CodeValidation, err.Error()))
		return
	}
	s.listFaults(w, r)
}

// listFaults is GET /_sim/faults: the faults in force, by lender.
func (s *Sim) listFaults(w http.ResponseWriter, r *http.Request) {
	if !s.authorised(r) {
		s.write(w, r.Header.Get(protocol.HeaderCorrelationID), fail(http.StatusUnauthorized, protocol.CodeUnauthorized, "The API key is missing or wrong."))
		return
	}
	s.mu.Lock()
	out := []faultJSON{}
	for p, f := range s.faults {
		fj := faultJSON{Lender: p, Kind: f.Kind, Op: f.Op, Count: f.Count}
		if f.Delay > 0 {
			fj.Delay = f.Delay.String()
		}
		out = append(out, fj)
	}
	s.mu.Unlock()
	sort.Slice(out, func(i, j int) bool { return out[i].Lender < out[j].Lender })
	s.write(w, r.Header.Get(protocol.HeaderCorrelationID), ok(map[string]any{"faults": out}))
}
