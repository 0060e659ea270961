package flow_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/flow"
	"github.com/chairside/chairside/lender/sandbox"
	"github.com/chairside/chairside/store/storetest"
)

// quizClock is a clock the quiz tests move past the quiz's time-out.
type quizClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *quizClock) now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *quizClock) add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// quizJourney starts an application under the identity-quiz test case and
// brings Synchrony's offer to accepted; it answers the fixture, caller and
// clock.
func quizJourney(t *testing.T, e storetest.Engine) (*fixture, *flow.Caller, *quizClock) {
	t.Helper()
	clk := &quizClock{t: time.Now().UTC()}
	f := newFixture(t, e, flow.Options{Now: clk.now})
	ctx := context.Background()
	c := f.caller(t)
	if _, err := f.svc.ApplyTestCase(ctx, c, "identity-quiz"); err != nil {
		t.Fatal(err)
	}
	if _, err := f.submit(t, c, quizKey, "Quizzical", "123450077"); err != nil {
		t.Fatal(err)
	}
	f.confirmPlan(t, c, quizKey)
	if _, err := f.svc.AcceptOffer(ctx, c, quizKey, nil); err != nil {
		t.Fatal(err)
	}
	return f, c, clk
}

const quizKey = "synchrony_standard"

// answersFor answers quiz v right or, with right false, wrong on one question.
func (f *fixture) answersFor(t *testing.T, c *flow.Caller, v *flow.QuizView, right bool) *flow.AnswersRequest {
	t.Helper()
	if v == nil || v.Quiz == nil || len(v.Quiz.Questions) != 3 {
		t.Fatalf("no quiz to answer: %+v", v)
	}
	pa, err := f.db.FindLenderApplication(context.Background(), c.Session.ApplicationID, quizKey)
	if err != nil {
		t.Fatal(err)
	}
	ans := sandbox.RightAnswers(pa.LenderRef, v.Quiz.ID)
	if !right {
		if ans["q2"] == "c1" {
			ans["q2"] = "c2"
		} else {
			ans["q2"] = "c1"
		}
	}
	return &flow.AnswersRequest{QuizID: v.Quiz.ID, Answers: ans}
}

func (f *fixture) signQuiz(t *testing.T, c *flow.Caller) error {
	t.Helper()
	_, err := f.svc.ESign(context.Background(), c, quizKey, f.esignRequest(t, c, quizKey, true))
	return err
}

// TestQuizPass: the quiz hides its answers; right answers pass with one
// lender call, a repeat replays, and only then may the patient sign.
func TestQuizPass(t *testing.T) {
	storetest.EachEngine(t, func(t *testing.T, e storetest.Engine) {
		f, c, _ := quizJourney(t, e)
		ctx := context.Background()
		if err := f.signQuiz(t, c); chairside.ErrorCode(err) != chairside.ECONFLICT || !strings.Contains(chairside.ErrorMessage(err), "identity questions") {
			t.Fatalf("e-sign before the quiz: %v, want conflict", err)
		}
		if n, _ := f.log.count(sandbox.OpESign); n != 0 {
			t.Fatalf("a refused e-sign reached the lender %d times", n)
		}
		v, err := f.svc.Quiz(ctx, c, quizKey)
		if err != nil || v.AttemptsLeft != 2 || v.Passed {
			t.Fatalf("quiz: %+v %v", v, err)
		}
		req := f.answersFor(t, c, v, true)
		got, err := value(f.svc.Answers(ctx, c, quizKey, req))
		if err != nil || !got.Passed || got.Result != chairside.QuizPassed || got.Quiz != nil {
			t.Fatalf("answers: %+v %v", got, err)
		}
		again, err := value(f.svc.Answers(ctx, c, quizKey, req))
		if err != nil || !again.Passed {
			t.Fatalf("repeat: %+v %v", again, err)
		}
		if n, _ := f.log.count(sandbox.OpAnswers); n != 1 {
			t.Fatalf("answers reached the lender %d times, want 1", n)
		}
		if v, err := f.svc.Quiz(ctx, c, quizKey); err != nil || !v.Passed || v.Quiz != nil {
			t.Fatalf("quiz after passing: %+v %v", v, err)
		}
		if err := f.signQuiz(t, c); err != nil {
			t.Fatal(err)
		}
	})
}

// TestQuizFailThenPass: a first failure leaves one attempt with a fresh
// quiz; right answers to it pass. Each attempt is one lender call.
func TestQuizFailThenPass(t *testing.T) {
	storetest.EachEngine(t, func(t *testing.T, e storetest.Engine) {
		f, c, _ := quizJourney(t, e)
		ctx := context.Background()
		v, err := f.svc.Quiz(ctx, c, quizKey)
		if err != nil {
			t.Fatal(err)
		}
		wrong := f.answersFor(t, c, v, false)
		failed, err := value(f.svc.Answers(ctx, c, quizKey, wrong))
		if err != nil || failed.Result != chairside.QuizFailed || failed.AttemptsLeft != 1 ||
			failed.Message != "Quiz failed, you have 1 more attempt." || failed.Quiz == nil || failed.Quiz.ID == v.Quiz.ID {
			t.Fatalf("first failure: %+v %v", failed, err)
		}
		// The same wrong answers again: the recorded grade, no attempt used.
		if again, err := value(f.svc.Answers(ctx, c, quizKey, wrong)); err != nil || again.AttemptsLeft != 1 {
			t.Fatalf("repeat: %+v %v", again, err)
		}
		if got, err := f.svc.Quiz(ctx, c, quizKey); err != nil || got.AttemptsLeft != 1 || got.Result != chairside.QuizFailed {
			t.Fatalf("quiz after a failure: %+v %v", got, err)
		}
		passed, err := value(f.svc.Answers(ctx, c, quizKey, f.answersFor(t, c, failed, true)))
		if err != nil || !passed.Passed {
			t.Fatalf("second attempt: %+v %v", passed, err)
		}
		if n, _ := f.log.count(sandbox.OpAnswers); n != 2 {
			t.Fatalf("answers reached the lender %d times, want 2", n)
		}
		if err := f.signQuiz(t, c); err != nil {
			t.Fatal(err)
		}
	})
}

// TestQuizFailTwice: after two failures there is no quiz, no third attempt
// and no signing.
func TestQuizFailTwice(t *testing.T) {
	storetest.EachEngine(t, func(t *testing.T, e storetest.Engine) {
		f, c, _ := quizJourney(t, e)
		ctx := context.Background()
		v, err := f.svc.Quiz(ctx, c, quizKey)
		if err != nil {
			t.Fatal(err)
		}
		first, err := value(f.svc.Answers(ctx, c, quizKey, f.answersFor(t, c, v, false)))
		if err != nil {
			t.Fatal(err)
		}
		second, err := value(f.svc.Answers(ctx, c, quizKey, f.answersFor(t, c, first, false)))
		if err != nil || second.Result != chairside.QuizFailed || second.AttemptsLeft != 0 || second.Quiz != nil {
			t.Fatalf("second failure: %+v %v", second, err)
		}
		if got, err := f.svc.Quiz(ctx, c, quizKey); err != nil || got.AttemptsLeft != 0 || got.Quiz != nil {
			t.Fatalf("quiz after two failures: %+v %v", got, err)
		}
		if _, err := f.svc.Answers(ctx, c, quizKey, f.answersFor(t, c, first, true)); chairside.ErrorCode(err) != chairside.ECONFLICT {
			t.Fatalf("third attempt: %v, want conflict", err)
		}
		if n, _ := f.log.count(sandbox.OpAnswers); n != 2 {
			t.Fatalf("answers reached the lender %d times, want 2", n)
		}
		if err := f.signQuiz(t, c); chairside.ErrorCode(err) != chairside.ECONFLICT {
			t.Fatalf("e-sign after two failures: %v, want conflict", err)
		}
	})
}

// TestQuizRefreshOnTimeout: answers to a quiz older than its time-out are
// expired, use no attempt and come back with a fresh quiz that can pass.
func TestQuizRefreshOnTimeout(t *testing.T) {
	storetest.EachEngine(t, func(t *testing.T, e storetest.Engine) {
		f, c, clk := quizJourney(t, e)
		ctx := context.Background()
		v, err := f.svc.Quiz(ctx, c, quizKey)
		if err != nil {
			t.Fatal(err)
		}
		clk.add(sandbox.QuizTTL + time.Minute)
		got, err := value(f.svc.Answers(ctx, c, quizKey, f.answersFor(t, c, v, true)))
		if err != nil || got.Result != chairside.QuizExpired || got.AttemptsLeft != 2 || got.Quiz == nil || got.Quiz.ID == v.Quiz.ID {
			t.Fatalf("late answers: %+v %v", got, err)
		}
		passed, err := value(f.svc.Answers(ctx, c, quizKey, f.answersFor(t, c, got, true)))
		if err != nil || !passed.Passed {
			t.Fatalf("fresh quiz: %+v %v", passed, err)
		}
		if err := f.signQuiz(t, c); err != nil {
			t.Fatal(err)
		}
	})
}

// TestNoQuizWithoutStipulation: a lender that did not ask has no quiz.
func TestNoQuizWithoutStipulation(t *testing.T) {
	storetest.EachEngine(t, func(t *testing.T, e storetest.Engine) {
		f := newFixture(t, e, flow.Options{})
		c := f.caller(t)
		if _, err := f.submit(t, c, quizKey, "Approve", "123450078"); err != nil {
			t.Fatal(err)
		}
		if _, err := f.svc.Quiz(context.Background(), c, quizKey); chairside.ErrorCode(err) != chairside.ENOTFOUND {
			t.Fatalf("quiz: %v, want not found", err)
		}
	})
}
