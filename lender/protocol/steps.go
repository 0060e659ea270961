package protocol

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"time"

	"github.com/chairside/chairside"
)

// Plan is one payment plan of an approved application (an offer), as
// GET /applications/{id}/plans lists them. APR and PromoAPR are percent
// (26.99); every amount is cents in the answer's currency. TotalCostCents
// is everything the patient pays, the down payment included. PaymentCount
// and FinalPaymentCents state the schedule; a lender may leave them out,
// and the schedule is then worked out from the total (money.Settle).
type Plan struct {
	PlanCode            string    `json:"planCode"`
	Type                string    `json:"type"`
	ProductType         string    `json:"productType,omitempty"`
	TermMonths          int       `json:"termMonths"`
	APR                 float64   `json:"apr"`
	PromoAPR            float64   `json:"promoApr"`
	MonthlyPaymentCents int64     `json:"monthlyPaymentCents"`
	PaymentCount        int       `json:"paymentCount,omitempty"`
	FinalPaymentCents   int64     `json:"finalPaymentCents,omitempty"`
	TotalCostCents      int64     `json:"totalCostCents"`
	AmountFinancedCents int64     `json:"amountFinancedCents"`
	DownPaymentCents    int64     `json:"downPaymentCents"`
	MinAmountCents      int64     `json:"minAmountCents"`
	MaxAmountCents      int64     `json:"maxAmountCents"`
	Description         string    `json:"description"`
	SubLenderID         string    `json:"subLenderId,omitempty"`
	ExpiresAt           time.Time `json:"expiresAt"`
}

// Plans is the answer of GET /applications/{id}/plans.
type Plans struct {
	ApplicationID string `json:"applicationId"`
	Currency      string `json:"currency"`
	Plans         []Plan `json:"plans"`
}

// FromPlans is the wire form of a lender's plans.
func FromPlans(applicationID string, plans []chairside.PaymentPlan) *Plans {
	out := &Plans{ApplicationID: applicationID, Currency: Currency, Plans: []Plan{}}
	for _, p := range plans {
		out.Plans = append(out.Plans, Plan{
			PlanCode: p.LenderPlanCode, Type: p.TypeID, ProductType: p.ProductType, TermMonths: p.DurationMonths,
			APR: p.APR, PromoAPR: p.PromoAPR, MonthlyPaymentCents: p.MonthlyAmountCents, TotalCostCents: p.TotalCostCents,
			PaymentCount: p.PaymentCount, FinalPaymentCents: p.FinalPaymentCents,
			AmountFinancedCents: p.AmountFinancedCents, DownPaymentCents: p.DownPaymentCents,
			MinAmountCents: p.MinAmountCents, MaxAmountCents: p.MaxAmountCents, Description: p.Description,
			SubLenderID: p.SubLenderID, ExpiresAt: p.ExpireDateTime,
		})
	}
	return out
}

// Chairside is the plans for providerKey.
func (p *Plans) Chairside(lenderKey string) []chairside.PaymentPlan {
	out := make([]chairside.PaymentPlan, 0, len(p.Plans))
	for _, w := range p.Plans {
		out = append(out, chairside.PaymentPlan{
			LenderKey: lenderKey, TypeID: w.Type, LenderPlanCode: w.PlanCode, DurationMonths: w.TermMonths,
			MonthlyAmountCents: w.MonthlyPaymentCents, TotalCostCents: w.TotalCostCents, APR: w.APR, PromoAPR: w.PromoAPR,
			PaymentCount: w.PaymentCount, FinalPaymentCents: w.FinalPaymentCents,
			Description: w.Description, ExpireDateTime: w.ExpiresAt, MinAmountCents: w.MinAmountCents,
			MaxAmountCents: w.MaxAmountCents, AmountFinancedCents: w.AmountFinancedCents,
			DownPaymentCents: w.DownPaymentCents, ProductType: w.ProductType, SubLenderID: w.SubLenderID,
		})
	}
	return out
}

// Validate refuses plans we cannot show: no code, a negative amount, term
// or rate, another currency.
func (p *Plans) Validate() error {
	if p.Plans == nil {
		return errors.New("plans: missing")
	}
	for i, w := range p.Plans {
		if w.PlanCode == "" {
			return fmt.Errorf("plans[%d]: no planCode", i)
		}
		if w.TermMonths < 0 || w.PaymentCount < 0 || w.APR < 0 || w.PromoAPR < 0 {
			return fmt.Errorf("plans[%d]: negative term or rate", i)
		}
		for _, m := range []int64{w.MonthlyPaymentCents, w.FinalPaymentCents, w.TotalCostCents, w.AmountFinancedCents, w.DownPaymentCents, w.MinAmountCents, w.MaxAmountCents} {
			if err := checkMoney(fmt.Sprintf("plans[%d]", i), m); err != nil {
				return err
			}
		}
	}
	return checkCurrency(p.Currency, int64(len(p.Plans)))
}

// Offer is the body of the offer steps: POST …/accept, …/esign and
// …/complete name the plan and the amount it finances.
type Offer struct {
	PlatformReference string `json:"platformReference"`
	PlanCode          string `json:"planCode"`
	AmountCents       int64  `json:"amountCents"`
	Currency          string `json:"currency"`
}

// BankAccount is the body of POST …/bank-account. The numbers are
// personal data: sent, never logged or echoed.
type BankAccount struct {
	PlatformReference string `json:"platformReference"`
	RoutingNumber     string `json:"routingNumber"`
	AccountNumber     string `json:"accountNumber"`
	BankName          string `json:"bankName"`
	AccountType       string `json:"accountType"`
}

// BankCard is the body of POST …/bank-card. Number and CVV go to the lender
// and nowhere else.
type BankCard struct {
	PlatformReference string `json:"platformReference"`
	CardholderName    string `json:"cardholderName"`
	Number            string `json:"number"`
	ExpiryMonth       int    `json:"expiryMonth"`
	ExpiryYear        int    `json:"expiryYear"`
	CVV               string `json:"cvv"`
	ZIP               string `json:"zip"`
}

// DownPayment is the body of POST …/down-payment; Method is
// chairside.DownPaymentCollected or chairside.DownPaymentAtOffice.
type DownPayment struct {
	PlatformReference string `json:"platformReference"`
	AmountCents       int64  `json:"amountCents"`
	Currency          string `json:"currency"`
	Method            string `json:"method"`
}

// Contact is the body of POST …/contacts: one more person through whom
// the lender may reach the patient.
type Contact struct {
	PlatformReference string `json:"platformReference"`
	Name              string `json:"name"`
	Relationship      string `json:"relationship"`
	Phone             string `json:"phone"`
}

// Consent is the body of POST …/consents: the patient agreed to one of the
// lender's documents, named by id and version.
type Consent struct {
	PlatformReference string `json:"platformReference"`
	Kind              string `json:"kind"`
	DocumentID        string `json:"documentId"`
	DocumentVersion   string `json:"documentVersion"`
}

// Spouse is the body of POST …/spouse, Wisconsin's marital property
// question: whether the applicant is married and, if so, whom the lender
// must notify and where.
type Spouse struct {
	PlatformReference string `json:"platformReference"`
	Married           bool   `json:"married"`
	FirstName         string `json:"firstName,omitempty"`
	LastName          string `json:"lastName,omitempty"`
	AddressLine1      string `json:"addressLine1,omitempty"`
	AddressLine2      string `json:"addressLine2,omitempty"`
	City              string `json:"city,omitempty"`
	State             string `json:"state,omitempty"`
	ZipCode           string `json:"zipCode,omitempty"`
}

// Receipt is the answer of a step that returns no decision: the lender
// recorded Step for the application.
type Receipt struct {
	ApplicationID     string `json:"applicationId"`
	PlatformReference string `json:"platformReference"`
	Step              string `json:"step"`
	Status            string `json:"status"`
}

// ReceiptRecorded is the Status of every Receipt.
const ReceiptRecorded = "recorded"

// Validate checks that a receipt answers step of the application id.
func (r *Receipt) Validate(id, step string) error {
	if r.Status != ReceiptRecorded || r.Step != step {
		return fmt.Errorf("receipt: step %q status %q, want %q %q", r.Step, r.Status, step, ReceiptRecorded)
	}
	if r.ApplicationID != id {
		return errors.New("receipt: for another application")
	}
	return nil
}

// Quiz is the answer of GET …/quiz?attempt=N: identity questions, never
// their right answers.
type Quiz struct {
	QuizID    string         `json:"quizId"`
	ExpiresAt time.Time      `json:"expiresAt"`
	Questions []QuizQuestion `json:"questions"`
}

// QuizQuestion is one question with its choices.
type QuizQuestion struct {
	ID      string       `json:"id"`
	Text    string       `json:"text"`
	Choices []QuizChoice `json:"choices"`
}

// QuizChoice is one answer a question offers.
type QuizChoice struct {
	ID   string `json:"id"`
	Text string `json:"text"`
}

// FromQuiz is the wire form of a quiz.
func FromQuiz(q *chairside.Quiz) *Quiz {
	out := &Quiz{QuizID: q.ID, ExpiresAt: q.ExpiresAt, Questions: []QuizQuestion{}}
	for _, qq := range q.Questions {
		w := QuizQuestion{ID: qq.ID, Text: qq.Text, Choices: []QuizChoice{}}
		for _, c := range qq.Choices {
			w.Choices = append(w.Choices, QuizChoice{ID: c.ID, Text: c.Text})
		}
		out.Questions = append(out.Questions, w)
	}
	return out
}

// Chairside is the chairside form of a quiz.
func (q *Quiz) Chairside() *chairside.Quiz {
	out := &chairside.Quiz{ID: q.QuizID, ExpiresAt: q.ExpiresAt}
	for _, w := range q.Questions {
		qq := chairside.QuizQuestion{ID: w.ID, Text: w.Text}
		for _, c := range w.Choices {
			qq.Choices = append(qq.Choices, chairside.QuizChoice{ID: c.ID, Text: c.Text})
		}
		out.Questions = append(out.Questions, qq)
	}
	return out
}

// Validate refuses a quiz without an id or questions.
func (q *Quiz) Validate() error {
	if q.QuizID == "" || len(q.Questions) == 0 {
		return errors.New("quiz: no id or no questions")
	}
	return nil
}

// QuizAnswers is the body of POST …/quiz/answers: question id to choice id.
type QuizAnswers struct {
	PlatformReference string            `json:"platformReference"`
	QuizID            string            `json:"quizId"`
	Answers           map[string]string `json:"answers"`
}

// QuizResult is the answer of POST …/quiz/answers.
type QuizResult struct {
	Result string `json:"result"` // chairside.QuizPassed, QuizFailed, QuizExpired
}

// Validate refuses a result that is none of the three.
func (r *QuizResult) Validate() error {
	switch r.Result {
	case chairside.QuizPassed, chairside.QuizFailed, chairside.QuizExpired:
		return nil
	}
	return fmt.Errorf("quiz result %q", r.Result)
}

// Patch is the body of POST …/patches: what a pending application's lender
// asked for. Type chairside.PatchIncome carries the verified yearly income
// before taxes. The answer is a Decision, possibly under a new
// applicationId, which is the one to use from then on.
type Patch struct {
	PlatformReference      string `json:"platformReference"`
	Type                   string `json:"type"`
	AnnualGrossIncomeCents int64  `json:"annualGrossIncomeCents"`
	Currency               string `json:"currency"`
}

// Stipulations is the answer of GET …/stipulations?id=…: the current
// status of the stipulations asked about.
type Stipulations struct {
	ApplicationID string        `json:"applicationId"`
	Stipulations  []Stipulation `json:"stipulations"`
}

// CreditLimitChange is the body of POST …/credit-limit: the account holder
// asks for a new limit, with the income to back it.
type CreditLimitChange struct {
	PlatformReference      string `json:"platformReference"`
	RequestedLimitCents    int64  `json:"requestedLimitCents"`
	AnnualGrossIncomeCents int64  `json:"annualGrossIncomeCents"`
	Currency               string `json:"currency"`
}

// Credit limit answers (CreditLimitAnswer.Status).
const (
	CreditLimitApproved = "approved"
	CreditLimitDeclined = "declined"
)

// CreditLimitAnswer is the answer of a credit limit change: approved with
// the new limit, or declined with the limit unchanged. Like a decline of
// an application, a decline is an ordinary 200 answer.
type CreditLimitAnswer struct {
	ApplicationID     string `json:"applicationId"`
	PlatformReference string `json:"platformReference"`
	Status            string `json:"status"`
	CreditLimitCents  int64  `json:"creditLimitCents"`
	Currency          string `json:"currency"`
}

// Validate refuses an unknown status or a negative limit.
func (c *CreditLimitAnswer) Validate() error {
	if c.Status != CreditLimitApproved && c.Status != CreditLimitDeclined {
		return fmt.Errorf("credit limit status %q", c.Status)
	}
	if err := checkMoney("creditLimitCents", c.CreditLimitCents); err != nil {
		return err
	}
	return checkCurrency(c.Currency, c.CreditLimitCents)
}

// Document is the answer of GET /documents/{kind}. SHA256 is the hex
// SHA-256 of exactly Content, so a consent names what was shown.
type Document struct {
	ID          string `json:"id"`
	Version     string `json:"version"`
	Title       string `json:"title"`
	ContentType string `json:"contentType"`
	Content     string `json:"content"`
	SHA256      string `json:"sha256"`
	URL         string `json:"url,omitempty"`
	// Language is the language of Content; a lender that omits it is
	// taken to write in English.
	Language string `json:"language,omitempty"`
}

// FromDocument is the wire form of a document.
func FromDocument(d *chairside.Document) *Document {
	return &Document{ID: d.ID, Version: d.Version, Title: d.Title, ContentType: d.ContentType,
		Content: d.Content, SHA256: d.SHA256, URL: d.URL, Language: d.Language}
}

// Chairside is the chairside form of a document.
func (d *Document) Chairside() *chairside.Document {
	lang := d.Language
	if lang == "" {
		lang = "en"
	}
	return &chairside.Document{ID: d.ID, Version: d.Version, Title: d.Title, ContentType: d.ContentType,
		Content: d.Content, SHA256: d.SHA256, URL: d.URL, Language: lang}
}

// Validate refuses a document without an id or version, or whose hash is
// not that of its content: a consent must name what was really shown.
func (d *Document) Validate() error {
	if d.ID == "" || d.Version == "" {
		return errors.New("document: no id or version")
	}
	sum := sha256.Sum256([]byte(d.Content))
	if d.SHA256 != hex.EncodeToString(sum[:]) {
		return errors.New("document: sha256 does not match the content")
	}
	return nil
}
