package flow

import (
	"context"
	"time"

	"github.com/chairside/chairside"
)

// The waterfall's automatic cascade, run by the server inside one submit
// (docs/behaviour.md, "The waterfall"). The browser names, with the first
// lender's submit, every later lender it may ask on its own: one submitted
// by itself whose terms the patient agreed to, with that lender's consent
// and the form as that lender asks for it. When the first lender does not
// say yes, the server asks those lenders one after another, each as its
// own submit (precheck, claim, decision, record: step.go), so each is
// still asked once and a retry after a crash replays what was decided and
// goes on where it stopped. The patient's wait is then the lenders' own
// time, with no browser round trip between them.

// CascadeStep is a later lender the browser holds the patient's consent
// for, and the submit that lender would get from the browser itself.
type CascadeStep struct {
	Lender    string        `json:"provider"`
	ApplyMode string        `json:"applyMode"`
	Request   SubmitRequest `json:"request"`
}

// CascadeBudget is how long one submit may spend asking lenders, the
// first included: twice the time-out of every lender call, so that with
// the lenders' own quick-check time-outs three lenders that never answer
// are all asked. The server's write time-out leaves room for it
// (cmd/chairside/serve.go).
func CascadeBudget(lenderTimeout time.Duration) time.Duration {
	return 2 * lenderTimeout
}

// maxCascade bounds the lenders one submit asks after the first: no office
// has more lenders than the catalogue.
const maxCascade = 12

// opOf maps an apply mode to its submit operation.
func opOf(mode string) string {
	if mode == chairside.ModeFull {
		return OpApply
	}
	return mode
}

// cascade follows the answer of the first submit down the waterfall while
// each answer sends the patient on to a lender submitted by itself that
// steps names. It stops, answering what it has, at a positive answer, the
// end of the waterfall, a lender the patient must agree to or go to
// themselves, a lender already decided (resume: never asked again), any
// refusal of a later submit (a changed document, a field that lender needs,
// a step in flight) — the browser then goes on from the last answer as it
// would without the server's help — and when the next lender's own
// time-out would take the request past CascadeBudget, so the request
// always ends within its write time-out.
func (s *Service) cascade(ctx context.Context, c *Caller, first *StepAnswer[DecisionResponse], steps []CascadeStep, began time.Time) (*StepAnswer[DecisionResponse], error) {
	head, err := first.Value()
	if err != nil {
		return nil, err
	}
	// A recorded answer is one lender's: it never holds cascaded.
	out := *head
	cur := head
	for range min(len(steps), maxCascade) {
		nx := cur.Next
		if nx == nil || !nx.AutoSubmit || nx.Resume || ctx.Err() != nil {
			break
		}
		st := cascadeStep(steps, nx)
		if st == nil {
			break
		}
		op := opOf(nx.ApplyMode)
		if time.Since(began)+s.decisionTimeout(nx.Lender, op) > CascadeBudget(s.opts.LenderTimeout) {
			break
		}
		req := st.Request
		req.Cascade = nil
		ans, err := s.submitOne(ctx, c, nx.Lender, op, &req)
		if err != nil {
			s.log.Info("cascade stopped", "session", SessionHash(c.Session.ID), "lender", nx.Lender, "code", chairside.ErrorCode(err))
			break
		}
		d, err := ans.Value()
		if err != nil {
			return nil, err
		}
		out.Cascaded = append(out.Cascaded, *d)
		cur = d
	}
	if len(out.Cascaded) == 0 {
		return first, nil
	}
	first.change(&out)
	return first, nil
}

// cascadeStep is the step of steps for the lender and mode nx names, nil
// when the browser holds no consent for it.
func cascadeStep(steps []CascadeStep, nx *Next) *CascadeStep {
	for i := range steps {
		if steps[i].Lender == nx.Lender && steps[i].ApplyMode == nx.ApplyMode {
			return &steps[i]
		}
	}
	return nil
}

// DecisionProgress is where the lenders' decisions of the caller's
// application stand, read while a submit is under way: the lender being
// asked now and those that answered, in the office's waterfall order. The
// waiting screen polls it during a cascade, so it reads what the store
// holds, which every server sharing the load sees alike.
type DecisionProgress struct {
	// Asking is the lender whose decision is being asked now, "" when none.
	Asking   string           `json:"asking,omitempty"`
	Answered []LenderAnswered `json:"answered"`
}

// LenderAnswered is one lender's latest decision in a DecisionProgress.
type LenderAnswered struct {
	Lender       string `json:"provider"`
	ResponseCode string `json:"responseCode"`
}

// Progress answers the caller's DecisionProgress.
func (s *Service) Progress(ctx context.Context, c *Caller) (*DecisionProgress, error) {
	loc, err := s.location(ctx, c.Session.LocationID)
	if err != nil {
		return nil, err
	}
	list, err := s.store.ListLenderApplications(ctx, c.Session.ApplicationID)
	if err != nil {
		return nil, err
	}
	byLender := make(map[string]*chairside.LenderApplication, len(list))
	for _, pa := range list {
		byLender[pa.LenderKey] = pa
	}
	out := &DecisionProgress{Answered: []LenderAnswered{}}
	for _, st := range loc.Waterfall {
		pa := byLender[st.LenderKey]
		if pa == nil {
			continue
		}
		switch pa.InFlight {
		case OpPrequalify, OpPrescreen, OpApply:
			if out.Asking == "" {
				out.Asking = pa.LenderKey
			}
			continue
		}
		if pa.Decision != nil {
			out.Answered = append(out.Answered, LenderAnswered{Lender: pa.LenderKey, ResponseCode: pa.Decision.ResponseCode})
		}
	}
	return out, nil
}
