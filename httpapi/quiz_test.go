package httpapi_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/flow"
	"github.com/chairside/chairside/lender/sandbox"
	"github.com/chairside/chairside/testkit"
)

// TestQuizAPI runs the identity-quiz test case through the API on both
// engines (every answer checked against api/openapi.yaml by the harness):
// the quiz hides its answers, a failure brings one more attempt with a
// fresh quiz, and right answers pass. (flow/quiz_test.go covers signing.)
func TestQuizAPI(t *testing.T) {
	eachEngine(t, config{}, func(t *testing.T, h *harness) {
		const key = "synchrony_standard"
		sid := h.start(t)
		want(t, h.do(t, req{method: "POST", path: "/test-cases/apply/identity-quiz", session: sid}), 200, "")
		d := want(t, h.prequalify(t, sid, key, testkit.Applicant("Quizzical", "123450052")), 200, "")
		if !strings.Contains(fmt.Sprint(d), chairside.StipulationIdentityQuiz) {
			t.Fatalf("no quiz stipulation: %v", d)
		}
		lenderApp, _ := d["lenderApplicationId"].(string)

		var v flow.QuizView
		res := h.do(t, req{method: "GET", path: "/providers/" + key + "/quiz", session: sid})
		want(t, res, 200, "")
		res.into(t, &v)
		if v.Quiz == nil || len(v.Quiz.Questions) != 3 || v.AttemptsLeft != 2 || strings.Contains(string(res.body), "right") {
			t.Fatalf("quiz: %s", res.body)
		}

		answers := func(v *flow.QuizView, right bool) flow.QuizView {
			t.Helper()
			ans := sandbox.RightAnswers(lenderApp, v.Quiz.ID)
			if !right {
				ans["q1"] = map[bool]string{true: "c2", false: "c1"}[ans["q1"] == "c1"]
			}
			var out flow.QuizView
			res := h.do(t, req{method: "POST", path: "/providers/" + key + "/answers", session: sid, body: flow.AnswersRequest{QuizID: v.Quiz.ID, Answers: ans}})
			want(t, res, 200, "")
			res.into(t, &out)
			return out
		}
		failed := answers(&v, false)
		if failed.Result != chairside.QuizFailed || failed.Message != "Quiz failed, you have 1 more attempt." || failed.Quiz == nil {
			t.Fatalf("first failure: %+v", failed)
		}
		if passed := answers(&failed, true); !passed.Passed {
			t.Fatalf("second attempt: %+v", passed)
		}
	})
}
