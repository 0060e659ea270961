package sandbox

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/chairside/chairside"
)

// TestQuiz: the identity-quiz test case adds the stipulation; the quiz it
// hands out carries no answers; right answers pass, a wrong one fails,
// late ones are expired, and a quiz id of another application is unknown.
func TestQuiz(t *testing.T) {
	ctx := context.Background()
	const key = "synchrony_standard"
	l := mustLender(t, New(Options{}), key)
	req := request(key, "prequalify", "quiz", "Quizzical")
	req.TestCase = "identity-quiz"
	d, err := l.Decide(ctx, req)
	if err != nil || !chairside.Positive(d.ResponseCode) || len(d.Stipulations) != 1 || d.Stipulations[0].Type != chairside.StipulationIdentityQuiz {
		t.Fatalf("decide: %+v %v", d, err)
	}
	now := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	quizzes := mustStep[chairside.Quizzes](t, l)
	q, err := quizzes.Quiz(ctx, &chairside.QuizRequest{LenderKey: key, LenderRef: d.LenderRef, Attempt: 1, Now: now})
	if err != nil || len(q.Questions) != 3 {
		t.Fatalf("quiz: %+v %v", q, err)
	}
	body, _ := json.Marshal(q)
	if strings.Contains(strings.ToLower(string(body)), "right") || strings.Contains(string(body), "correct") {
		t.Fatalf("the quiz carries its answers: %s", body)
	}
	right := RightAnswers(d.LenderRef, q.ID)
	wrong := map[string]string{"q1": right["q1"], "q2": right["q2"], "q3": map[bool]string{true: "c2", false: "c1"}[right["q3"] == "c1"]}
	for name, tt := range map[string]struct {
		answers map[string]string
		at      time.Time
		quizID  string
		want    string
	}{
		"right":   {right, now.Add(time.Minute), q.ID, chairside.QuizPassed},
		"wrong":   {wrong, now.Add(time.Minute), q.ID, chairside.QuizFailed},
		"late":    {right, now.Add(QuizTTL + time.Second), q.ID, chairside.QuizExpired},
		"unknown": {right, now, strings.Replace(q.ID, "kba.1.", "kba.2.", 1), ""},
	} {
		res, err := quizzes.Answers(ctx, &chairside.AnswersRequest{LenderKey: key, LenderRef: d.LenderRef,
			QuizID: tt.quizID, Answers: tt.answers, Reference: "r", Now: tt.at})
		if tt.want == "" {
			if chairside.ErrorCode(err) != chairside.ENOTFOUND {
				t.Errorf("%s: %+v %v, want not found", name, res, err)
			}
			continue
		}
		if err != nil || res.Result != tt.want {
			t.Errorf("%s: %+v %v, want %s", name, res, err, tt.want)
		}
	}
}
