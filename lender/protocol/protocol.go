package protocol

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
)

// Headers of the protocol (docs/lender-protocol.md, "Requests").
const (
	// HeaderIdempotencyKey is on every POST that carries a platform
	// reference: a lender answers a repeated key with the first answer and
	// refuses the same key on another body (CodeIdempotencyMismatch).
	HeaderIdempotencyKey = "Idempotency-Key"
	// HeaderCorrelationID names one call of ours; the lender echoes it in
	// its answer's header and in every error body, for its support desk.
	HeaderCorrelationID = "X-Correlation-Id"
	// HeaderAPISecret is the optional second credential next to the
	// bearer API key.
	HeaderAPISecret = "X-Api-Secret"
	// HeaderReplayed is set on an answer the lender replays from its
	// idempotency store instead of running the request again.
	HeaderReplayed = "Idempotent-Replayed"
	// HeaderETag is on every document answer: an opaque strong entity
	// tag that changes whenever the document (its version, its text in
	// that language) changes.
	HeaderETag = "ETag"
	// HeaderIfNoneMatch is on a document request of a client that keeps
	// the document of that ETag: the lender answers 304 Not Modified,
	// without a body, while the ETag is still its document's.
	HeaderIfNoneMatch = "If-None-Match"
)

// SameEntityTag compares two entity tags as a GET does (RFC 9110, weak
// comparison): a W/ prefix is ignored.
func SameEntityTag(a, b string) bool {
	return strings.TrimPrefix(a, "W/") == strings.TrimPrefix(b, "W/")
}

// Currency is the one currency of the protocol today. Money on the wire is
// always integer cents with the currency beside it, so a lender answering
// in another currency is caught instead of misread.
const Currency = "USD"

// MaxBody bounds every request and answer body of the protocol.
const MaxBody = 1 << 20

// Error codes of an ErrorBody.
const (
	CodeUnauthorized        = "unauthorized"         // 401: wrong or missing API key
	CodeBadRequest          = "bad_request"          // 400: unreadable JSON, missing parameter
	CodeRefused             = "refused"              // 400: the lender will not do this (a bank account it cannot use)
	CodeNotFound            = "not_found"            // 404: no such application, document, quiz or plan
	CodeConflict            = "conflict"             // 409: not possible in the application's state
	CodeDuplicateReference  = "duplicate_reference"  // 409: a create with a platform reference already used under another key
	CodeValidation          = "validation_error"     // 422: see Fields
	CodeIdempotencyMismatch = "idempotency_mismatch" // 422: the key was used with another request
	CodeRateLimited         = "rate_limited"         // 429: see Retry-After
	CodeLenderError         = "lender_error"         // 500: the lender failed
	CodeUnavailable         = "unavailable"          // 503: the lender is down for now
)

// ErrorBody is every error answer: {"error":{…}}.
type ErrorBody struct {
	Error ErrorDetail `json:"error"`
}

// ErrorDetail says what went wrong. Message is for people (a support
// desk, our logs); Code is what programs branch on.
type ErrorDetail struct {
	Code          string       `json:"code"`
	Message       string       `json:"message"`
	CorrelationID string       `json:"correlationId"`
	Fields        []FieldError `json:"fields,omitempty"`
}

// FieldError names one field of the request that the lender refused, by
// its path in our request ("primary.firstName", "bankCard.cardNumber").
type FieldError struct {
	Field   string `json:"field"`
	Message string `json:"message"`
}

// Paths below a lender's base URL (docs/lender-protocol.md, "Endpoints").
// The {id} segments are path-escaped lender application ids.
const (
	PathApplications = "/applications"
	PathDocuments    = "/documents/"
)

// ApplicationPath is the path of a lender application, or of one of its
// sub-resources when sub is not empty ("plans", "accept", "quiz/answers").
func ApplicationPath(id, sub string) string {
	p := PathApplications + "/" + url.PathEscape(id)
	if sub != "" {
		p += "/" + sub
	}
	return p
}

// Sub-resources of an application.
const (
	SubPlans        = "plans"
	SubAccept       = "accept"
	SubBankAccount  = "bank-account"
	SubBankCard     = "bank-card"
	SubDownPayment  = "down-payment"
	SubContacts     = "contacts"
	SubConsents     = "consents"
	SubSpouse       = "spouse"
	SubESign        = "esign"
	SubComplete     = "complete"
	SubQuiz         = "quiz"
	SubQuizAnswers  = "quiz/answers"
	SubPatches      = "patches"
	SubStipulations = "stipulations"
	SubCreditLimit  = "credit-limit"
	SubFunding      = "funding"
	SubVoid         = "void"
	SubRefunds      = "refunds"
	SubAmount       = "amount"
)

// errNegative is the error of a negative amount of money.
var errNegative = errors.New("negative amount")

// checkMoney refuses a negative amount, naming only the field.
func checkMoney(field string, cents int64) error {
	if cents < 0 {
		return fmt.Errorf("%s: %w", field, errNegative)
	}
	return nil
}

// checkCurrency refuses any currency but ours; an empty one is accepted
// only where no amount is given.
func checkCurrency(currency string, amounts ...int64) error {
	if currency == Currency {
		return nil
	}
	for _, a := range amounts {
		if a != 0 {
			return fmt.Errorf("currency %q is not %s", currency, Currency)
		}
	}
	if currency != "" {
		return fmt.Errorf("currency %q is not %s", currency, Currency)
	}
	return nil
}
