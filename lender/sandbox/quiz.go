package sandbox

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/locale"
)

// The identity quiz (docs/behaviour.md, "The identity quiz"). Like the rest
// of the sandbox it keeps nothing: a quiz id carries its attempt and the
// time it was handed out, sealed with a hash of the lender application, and
// the right choice of each question is a function of the two ids, so any
// process grades alike. RightAnswers tells tests what to answer.

// QuizTTL is how long a quiz may be answered after it was handed out; an
// answer after that is graded expired and a fresh quiz must be fetched.
const QuizTTL = 5 * time.Minute

// quizQuestion is a question of the pool and its four choices.
type quizQuestion struct {
	text    string
	choices [4]string
}

// quizPool is what the questions are made of; each attempt asks three of
// them, starting at a different one. quizPoolES is the same pool in
// Spanish, question for question and choice for choice, so the right
// choice is the same whichever language the patient reads.
var quizPool = []quizQuestion{
	{"Which of these streets have you lived on?", [4]string{"Maple Avenue", "Harbor Road", "Cedar Lane", "None of these"}},
	{"Which of these lenders has given you a car loan?", [4]string{"Lakeside Auto Credit", "Summit Motor Finance", "Prairie Auto Bank", "None of these"}},
	{"In which county have you held a phone number?", [4]string{"Orange County", "Cook County", "Travis County", "None of these"}},
	{"What range does your monthly rent or mortgage fall into?", [4]string{"Under $1,000", "$1,000 to $1,999", "$2,000 or more", "I have none"}},
	{"Which of these employers have you worked for?", [4]string{"Northwind Traders", "Contoso Health", "Fabrikam Foods", "None of these"}},
}

// quizSeal binds a quiz id's attempt and time to one lender application.
func quizSeal(lenderRef string, attempt int, issued int64) string {
	h := sha256.Sum256([]byte(fmt.Sprintf("kba|%s|%d|%d", lenderRef, attempt, issued)))
	return hex.EncodeToString(h[:6])
}

// parseQuizID reads a quiz id of lenderRef; ok false when it is
// not one.
func parseQuizID(lenderRef, id string) (attempt int, issued int64, ok bool) {
	parts := strings.Split(id, ".")
	if len(parts) != 4 || parts[0] != "kba" {
		return 0, 0, false
	}
	attempt, err1 := strconv.Atoi(parts[1])
	issued, err2 := strconv.ParseInt(parts[2], 10, 64)
	if err1 != nil || err2 != nil || attempt < 1 || parts[3] != quizSeal(lenderRef, attempt, issued) {
		return 0, 0, false
	}
	return attempt, issued, true
}

// RightAnswers returns the right choice id of every question of a quiz.
func RightAnswers(lenderRef, quizID string) map[string]string {
	h := sha256.Sum256([]byte(lenderRef + "|" + quizID))
	out := map[string]string{}
	for i := range 3 {
		out["q"+strconv.Itoa(i+1)] = "c" + strconv.Itoa(int(h[i]%4)+1)
	}
	return out
}

// Quiz hands out the three questions of an attempt for an application with
// an offer.
func (l quizzes) Quiz(ctx context.Context, req *chairside.QuizRequest) (*chairside.Quiz, error) {
	if err := l.begin(ctx, OpQuiz, ""); err != nil {
		return nil, err
	}
	if _, _, err := l.offerable(req.LenderRef); err != nil {
		return nil, err
	}
	if req.Attempt < 1 {
		return nil, chairside.Errorf(chairside.EBADREQUEST, "An attempt counts from 1.")
	}
	now := req.Now
	if now.IsZero() {
		now = time.Now()
	}
	issued := now.UTC().Unix()
	q := &chairside.Quiz{
		ID:        fmt.Sprintf("kba.%d.%d.%s", req.Attempt, issued, quizSeal(req.LenderRef, req.Attempt, issued)),
		ExpiresAt: time.Unix(issued, 0).UTC().Add(QuizTTL),
	}
	pool := quizPool
	if language(req.Language) == locale.Spanish {
		pool = quizPoolES
	}
	for i := range 3 {
		p := pool[(req.Attempt+i)%len(pool)]
		qq := chairside.QuizQuestion{ID: "q" + strconv.Itoa(i+1), Text: p.text}
		for j, c := range p.choices {
			qq.Choices = append(qq.Choices, chairside.QuizChoice{ID: "c" + strconv.Itoa(j+1), Text: c})
		}
		q.Questions = append(q.Questions, qq)
	}
	return q, nil
}

// Answers grades a quiz: passed when every answer is right, expired when it
// comes more than QuizTTL after the quiz was handed out.
func (l quizzes) Answers(ctx context.Context, req *chairside.AnswersRequest) (*chairside.QuizResult, error) {
	if err := l.begin(ctx, OpAnswers, req.Reference); err != nil {
		return nil, err
	}
	if _, _, err := l.offerable(req.LenderRef); err != nil {
		return nil, err
	}
	_, issued, ok := parseQuizID(req.LenderRef, req.QuizID)
	if !ok {
		return nil, chairside.Errorf(chairside.ENOTFOUND, "Unknown quiz.")
	}
	now := req.Now
	if now.IsZero() {
		now = time.Now()
	}
	if now.After(time.Unix(issued, 0).Add(QuizTTL)) {
		return &chairside.QuizResult{Result: chairside.QuizExpired}, nil
	}
	for q, c := range RightAnswers(req.LenderRef, req.QuizID) {
		if req.Answers[q] != c {
			return &chairside.QuizResult{Result: chairside.QuizFailed}, nil
		}
	}
	return &chairside.QuizResult{Result: chairside.QuizPassed}, nil
}
