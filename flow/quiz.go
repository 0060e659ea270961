package flow

import (
	"context"
	"encoding/json"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/chairside/chairside"
)

// The identity quiz (docs/behaviour.md, "The identity quiz"): a lender
// whose decision carries a chairside.StipulationIdentityQuiz asks a few
// questions after approving and before signing. Fetching the questions is
// a read; each set of answers is a lender step of its own (step quiz_1, then
// quiz_2), claimed and recorded as in step.go, so the attempt count is the
// number of graded attempts on record — never the browser's to say. An
// attempt graded expired settles as failed and counts for nothing: the next
// answers take the same step over with a fresh quiz.

// QuizAttempts is how many graded attempts a patient has.
const QuizAttempts = 2

// quizStep is the lender step of an attempt (from 1).
func quizStep(attempt int) string {
	return "quiz_" + strconv.Itoa(attempt)
}

// AnswersRequest is the body of POST answers: question id to choice id.
type AnswersRequest struct {
	QuizID  string            `json:"quizId"`
	Answers map[string]string `json:"answers"`
}

// QuizView is the answer of GET quiz and POST answers. Result is "" while
// the patient has a quiz to answer, else the last grade; Quiz is the quiz
// to answer now (nil once passed or once no attempt is left).
type QuizView struct {
	Result       string          `json:"result"`
	AttemptsLeft int             `json:"attemptsLeft"`
	Passed       bool            `json:"passed"`
	Quiz         *chairside.Quiz `json:"quiz,omitempty"`
	Message      string          `json:"message,omitempty"`
}

// quizRequired reports whether pa's lender asked for the identity quiz.
func quizRequired(pa *chairside.LenderApplication) bool {
	if pa.Decision == nil {
		return false
	}
	return slices.ContainsFunc(pa.Decision.Stipulations, func(s chairside.Stipulation) bool {
		return s.Type == chairside.StipulationIdentityQuiz
	})
}

// quizState is what the record says of pa's quiz: the graded attempts, the
// last grade and whether one passed.
type quizState struct {
	graded int
	last   string
	passed bool
	calls  []*chairside.LenderCall // the done calls, in attempt order
}

func quizStateIn(ctx context.Context, st Store, pa *chairside.LenderApplication) (quizState, error) {
	var q quizState
	for a := 1; a <= QuizAttempts; a++ {
		call, err := st.FindLenderCall(ctx, pa.ID, quizStep(a))
		if isCode(err, chairside.ENOTFOUND) {
			break
		} else if err != nil {
			return q, err
		}
		if call.State != chairside.CallDone {
			break
		}
		var v QuizView
		if err := json.Unmarshal(call.Response, &v); err != nil {
			return q, err
		}
		q.graded, q.last, q.calls = a, v.Result, append(q.calls, call)
		if v.Result == chairside.QuizPassed {
			q.passed = true
		}
	}
	return q, nil
}

// quizPhase checks that pa is where a quiz belongs: a lender that asked
// for one, an offer, not yet signed.
func (s *Service) quizPhase(pa *chairside.LenderApplication) error {
	if !quizRequired(pa) {
		return errorf(chairside.ENOTFOUND, "This lender has no identity questions for you.")
	}
	return s.positive(pa, chairside.StatusDecided, chairside.StatusPlanSelected, chairside.StatusPlanConfirmed, chairside.StatusOfferAccepted)
}

// Quiz answers where the identity quiz stands, with fresh questions when
// an attempt is left.
func (s *Service) Quiz(ctx context.Context, c *Caller, lenderKey string) (*QuizView, error) {
	quizzes, err := stepOf[chairside.Quizzes](s, lenderKey)
	if err != nil {
		return nil, err
	}
	pa, err := s.ownLenderApplication(ctx, c, lenderKey)
	if err != nil {
		return nil, err
	}
	q, err := quizStateIn(ctx, s.store, pa)
	if err != nil {
		return nil, err
	}
	v := &QuizView{Result: q.last, Passed: q.passed, AttemptsLeft: QuizAttempts - q.graded}
	if q.passed || v.AttemptsLeft == 0 {
		v.AttemptsLeft = 0
		return v, nil
	}
	if err := s.quizPhase(pa); err != nil {
		return nil, err
	}
	if v.Quiz, err = s.fetchQuiz(ctx, c, quizzes, pa, q.graded+1); err != nil {
		return nil, err
	}
	return v, nil
}

// fetchQuiz asks quizzes, pa's lender, for the questions of an attempt.
func (s *Service) fetchQuiz(ctx context.Context, c *Caller, quizzes chairside.Quizzes, pa *chairside.LenderApplication, attempt int) (*chairside.Quiz, error) {
	var quiz *chairside.Quiz
	err := s.detached(ctx, func(ctx context.Context) error {
		var err error
		quiz, err = quizzes.Quiz(ctx, &chairside.QuizRequest{
			Language:  c.language(),
			LenderKey: pa.LenderKey, LenderRef: pa.LenderRef, Attempt: attempt, Now: s.now().UTC(),
		})
		return err
	})
	if err != nil {
		if isCode(err, chairside.ECONFLICT) || isCode(err, chairside.ENOTFOUND) {
			return nil, err
		}
		return nil, errorf(chairside.ELENDER, "We did not get the questions from the lender. Please try again.")
	}
	return quiz, nil
}

// answersHash identifies a set of answers to one quiz.
func answersHash(req *AnswersRequest) string {
	keys := make([]string, 0, len(req.Answers))
	for k := range req.Answers {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := []string{"quiz", req.QuizID}
	for _, k := range keys {
		parts = append(parts, k, req.Answers[k])
	}
	return sha256Hex(strings.Join(parts, "\x00"))
}

// Answers sends the patient's answers to the lender: one lender call per
// attempt, the grade recorded with it. The same answers sent again get the
// recorded answer back. After a failed first attempt the answer carries a
// fresh quiz; after an expired quiz too, and the attempt is not counted.
// The recorded answer never holds a quiz (the one fetched now is the
// patient's next), so an answer with one is not the record.
func (s *Service) Answers(ctx context.Context, c *Caller, lenderKey string, req *AnswersRequest) (*StepAnswer[QuizView], error) {
	quizzes, err := stepOf[chairside.Quizzes](s, lenderKey)
	if err != nil {
		return nil, err
	}
	if req == nil || req.QuizID == "" || len(req.Answers) == 0 {
		return nil, errorf(chairside.EBADREQUEST, "Please answer every question.")
	}
	pa, call, attempt, replay, err := s.claimAnswers(ctx, c, lenderKey, answersHash(req))
	if err != nil {
		return nil, err
	}
	if replay != nil {
		return recorded[QuizView](replay, nil), nil
	}
	var res *chairside.QuizResult
	lerr := s.detached(ctx, func(ctx context.Context) error {
		var err error
		res, err = quizzes.Answers(ctx, &chairside.AnswersRequest{
			Language:  c.language(),
			LenderKey: lenderKey, LenderRef: pa.LenderRef,
			QuizID: req.QuizID, Answers: req.Answers, Reference: call.Reference, Now: s.now().UTC(),
		})
		if err == nil && (res == nil || (res.Result != chairside.QuizPassed && res.Result != chairside.QuizFailed && res.Result != chairside.QuizExpired)) {
			err = errorf(chairside.ELENDER, "The lender's answer could not be read.")
		}
		return err
	})
	ctx = context.WithoutCancel(ctx)
	var v *QuizView
	if lerr == nil {
		v = gradeView(res.Result, attempt)
	}
	body, err := s.recordAnswers(ctx, c, pa, call, attempt, v, lerr)
	if err != nil {
		return nil, err
	}
	if v == nil {
		s.log.Warn("lender step failed", "session", SessionHash(c.Session.ID), "lender", lenderKey, "step", quizStep(attempt), "err", chairside.ErrorCode(lerr))
		return nil, errorf(chairside.ELENDER, "We did not get an answer from the lender. Please try again.")
	}
	if !v.Passed && v.AttemptsLeft > 0 {
		if v.Quiz, err = s.fetchQuiz(ctx, c, quizzes, pa, QuizAttempts-v.AttemptsLeft+1); err != nil {
			return nil, err
		}
		return notRecorded(v), nil
	}
	return recorded(body, v), nil
}

// claimAnswers is the claim phase of an attempt (step.go): a repeat of
// answers already graded answers replay; otherwise the next attempt's step
// is claimed and marked in flight.
func (s *Service) claimAnswers(ctx context.Context, c *Caller, lenderKey, hash string) (pa *chairside.LenderApplication, call *chairside.LenderCall, attempt int, replay []byte, err error) {
	err = s.batch(ctx, c, func(tx Store) error {
		var err error
		if pa, err = s.ownLenderApplicationIn(ctx, tx, c, lenderKey); err != nil {
			return err
		}
		q, err := quizStateIn(ctx, tx, pa)
		if err != nil {
			return err
		}
		for _, done := range q.calls {
			if done.RequestHash == hash {
				replay = done.Response
				return nil
			}
		}
		if q.passed {
			return errorf(chairside.ECONFLICT, "You already answered the identity questions.")
		}
		if q.graded >= QuizAttempts {
			return errorf(chairside.ECONFLICT, "There are no more attempts at the identity questions.")
		}
		if err := s.quizPhase(pa); err != nil {
			return err
		}
		attempt = q.graded + 1
		if call, _, replay, err = s.claimCall(ctx, tx, c, pa, quizStep(attempt), hash, true); err != nil || replay != nil {
			return err
		}
		pa.InFlight = quizStep(attempt)
		return s.updateIn(ctx, tx, pa)
	})
	return pa, call, attempt, replay, err
}

// gradeView is the answer to a graded attempt.
func gradeView(result string, attempt int) *QuizView {
	v := &QuizView{Result: result}
	switch result {
	case chairside.QuizPassed:
		v.Passed = true
	case chairside.QuizFailed:
		v.AttemptsLeft = QuizAttempts - attempt
		if v.AttemptsLeft > 0 {
			v.Message = "Quiz failed, you have 1 more attempt."
		} else {
			v.Message = "The lender will contact you to confirm your identity."
		}
	default: // expired: not counted
		v.AttemptsLeft = QuizAttempts - attempt + 1
		v.Message = "The questions timed out. Here are new ones."
	}
	return v
}

// recordAnswers settles an attempt's call in one transaction: done with its
// grade (passed or failed), or failed — handed back for another try — when
// the lender could not be asked (v nil) or the quiz had expired. It answers
// the grade's JSON as recorded, nil when none was.
func (s *Service) recordAnswers(ctx context.Context, c *Caller, pa *chairside.LenderApplication, call *chairside.LenderCall, attempt int, v *QuizView, lerr error) (body []byte, err error) {
	err = s.batch(ctx, c, func(tx Store) error {
		cur, err := tx.FindLenderApplication(ctx, pa.ApplicationID, pa.LenderKey)
		if err != nil {
			return err
		}
		cur.InFlight = ""
		state := chairside.CallFailed
		if v != nil && v.Result != chairside.QuizExpired {
			state = chairside.CallDone
			if body, err = encodeAnswer(v); err != nil {
				return err
			}
		}
		if err := settleCall(ctx, tx, call, state, body); err != nil {
			return err
		}
		if v == nil {
			s.eventIn(ctx, tx, c.Session, pa.LenderKey, "quiz.answers.failed", map[string]any{"code": chairside.ErrorCode(lerr)})
		} else {
			s.eventIn(ctx, tx, c.Session, pa.LenderKey, "quiz."+v.Result, map[string]any{"attempt": attempt})
		}
		return s.updateIn(ctx, tx, cur)
	})
	return body, err
}
