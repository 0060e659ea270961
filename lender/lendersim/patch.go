package lendersim

import (
	"net/http"
	"strconv"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/lender/protocol"
)

// quiz is GET …/quiz?attempt=N.
func (s *Sim) quiz(c *call) reply {
	attempt, err := strconv.Atoi(c.r.URL.Query().Get("attempt"))
	if err != nil || attempt < 1 {
		return fail(http.StatusBadRequest, protocol.CodeBadRequest, "The attempt parameter counts from 1.")
	}
	if rep := s.guard(c); rep != nil {
		return *rep
	}
	q, err := c.sandbox.Quiz(c.ctx, &chairside.QuizRequest{LenderKey: c.lender, Language: c.lang, LenderRef: c.id, Attempt: attempt, Now: now()})
	if err != nil {
		return fromSandbox(c, err, http.StatusBadRequest)
	}
	return ok(protocol.FromQuiz(q))
}

// answers is POST …/quiz/answers.
func (s *Sim) answers(c *call) reply {
	var in protocol.QuizAnswers
	if rep := decodeBody(c, &in); rep != nil {
		return *rep
	}
	if rep := s.guard(c); rep != nil {
		return *rep
	}
	res, err := c.sandbox.Answers(c.ctx, &chairside.AnswersRequest{LenderKey: c.lender, Language: c.lang, LenderRef: c.id,
		QuizID: in.QuizID, Answers: in.Answers, Reference: in.PlatformReference, Now: now()})
	if err != nil {
		return fromSandbox(c, err, http.StatusBadRequest)
	}
	return ok(protocol.QuizResult{Result: res.Result})
}

// patch is POST …/patches: the answer is a new application, remembered
// under the patch's platform reference like a create.
func (s *Sim) patch(c *call) reply {
	var in protocol.Patch
	if rep := decodeBody(c, &in); rep != nil {
		return *rep
	}
	var fe []protocol.FieldError
	if in.PlatformReference == "" {
		fe = append(fe, protocol.FieldError{Field: "platformReference", Message: "Required."})
	}
	if in.AnnualGrossIncomeCents < 0 || in.Currency != protocol.Currency {
		fe = append(fe, protocol.FieldError{Field: "annualGrossIncomeCents", Message: "Whole, non-negative cents in " + protocol.Currency + "."})
	}
	if len(fe) > 0 {
		return fail(http.StatusUnprocessableEntity, protocol.CodeValidation, "Some fields are missing or wrong.", fe...)
	}
	if rep := s.claim(c.lender, in.PlatformReference); rep != nil {
		return *rep
	}
	d, err := c.sandbox.Patch(c.ctx, &chairside.PatchRequest{LenderKey: c.lender, Language: c.lang, LenderRef: c.id, PatchType: in.Type,
		AnnualGrossIncomeCents: in.AnnualGrossIncomeCents, Reference: in.PlatformReference, Now: now()})
	if err != nil {
		return fromSandbox(c, err, http.StatusBadRequest)
	}
	rep, w := decisionReply(d, in.PlatformReference)
	if w != nil {
		s.remember(&application{lender: c.lender, id: w.ApplicationID, reference: in.PlatformReference, decision: w, stips: stipStatuses(d)})
	}
	return rep
}

// stipulations is GET …/stipulations?id=…&id=…: each read moves the
// stipulations asked about one step on from what this lender answered
// last (waiting, received, satisfied), as time passing would.
func (s *Sim) stipulations(c *call) reply {
	ids := c.r.URL.Query()["id"]
	s.held(c.lender, c.id) // advance first when due
	s.mu.Lock()
	app := s.apps[pair(c.lender, c.id)]
	known := make([]chairside.Stipulation, 0, len(ids))
	for _, id := range ids {
		st := chairside.Stipulation{ID: id}
		if app != nil {
			st.Status = app.stips[id]
		}
		known = append(known, st)
	}
	s.mu.Unlock()
	got, err := c.sandbox.Stipulations(c.ctx, &chairside.StipulationsRequest{LenderKey: c.lender, Language: c.lang, LenderRef: c.id, Known: known, Now: now()})
	if err != nil {
		return fromSandbox(c, err, http.StatusBadRequest)
	}
	out := &protocol.Stipulations{ApplicationID: c.id, Stipulations: []protocol.Stipulation{}}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, st := range got {
		if app != nil {
			app.stips[st.ID] = st.Status
		}
		out.Stipulations = append(out.Stipulations, protocol.Stipulation{ID: st.ID, Type: st.Type, Description: st.Description, Status: st.Status})
	}
	return ok(out)
}

// creditLimit is POST …/credit-limit. The decision is the sandbox's own
// (sandbox.CreditLimitRule, through ChangeCreditLimit), so the simulator
// and the built-in lender answer a change alike; an approval answers the
// sandbox's new application id, which carries the new limit. A change the
// sandbox cannot reach answers 503.
func (s *Sim) creditLimit(c *call) reply {
	var in protocol.CreditLimitChange
	if rep := decodeBody(c, &in); rep != nil {
		return *rep
	}
	if in.PlatformReference == "" || in.RequestedLimitCents <= 0 || in.AnnualGrossIncomeCents < 0 || in.Currency != protocol.Currency {
		return fail(http.StatusUnprocessableEntity, protocol.CodeValidation, "Some fields are missing or wrong.",
			protocol.FieldError{Field: "requestedLimitCents", Message: "A reference, a positive limit and a non-negative income, in " + protocol.Currency + "."})
	}
	if rep := s.guard(c); rep != nil {
		return *rep
	}
	a, err := c.sandbox.ChangeCreditLimit(c.ctx, &chairside.CreditLimitRequest{LenderKey: c.lender, Language: c.lang, LenderRef: c.id,
		RequestedLimitCents: in.RequestedLimitCents, AnnualGrossIncomeCents: in.AnnualGrossIncomeCents, Reference: in.PlatformReference, Now: now()})
	if err != nil {
		return fromSandbox(c, err, http.StatusServiceUnavailable)
	}
	return ok(&protocol.CreditLimitAnswer{ApplicationID: a.LenderRef, PlatformReference: in.PlatformReference,
		Status: a.Status, CreditLimitCents: a.CreditLimitCents, Currency: protocol.Currency})
}
