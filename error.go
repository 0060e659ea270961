package chairside

import (
	"errors"
	"fmt"
	"time"
)

// Error codes. Each is also the "code" of the JSON error the API answers, so
// the browser and the server speak of failures in one vocabulary. The HTTP
// layer maps each code to one status in one place.
const (
	EINVALID      = "validation_error"       // 400: a rule was broken; see FieldErrors
	EBADREQUEST   = "bad_request"            // 400: malformed JSON, unknown fields, bad parameters
	ECONSENT      = "consent_required"       // 400: no affirmative consent to the lender's current document
	EUNAUTHORIZED = "session_invalid"        // 401: no live session for this call
	EFORBIDDEN    = "forbidden"              // 403: refused in this environment
	ECSRF         = "csrf"                   // 403: an office call without its session's CSRF token
	ENOTFOUND     = "resource_not_found"     // 404: unknown lender, location, plan, token …
	ECONFLICT     = "conflict"               // 409: a step out of order or already done
	EINFLIGHT     = "in_flight"              // 409: the same lender step is being asked right now; retry after RetryAfter
	EAMOUNT       = "amount_changed"         // 409: the office changed the treatment amount; the patient chooses a plan again
	ETOOLARGE     = "payload_too_large"      // 413: body over the limit
	EMEDIATYPE    = "unsupported_media_type" // 415: a body that is not application/json
	EIDEMPOTENCY  = "idempotency_mismatch"   // 422: same submit key, different body
	ERATELIMITED  = "rate_limited"           // 429: too many requests in a short time (per IP, log lines, sign-in tries)
	EDAILYLIMIT   = "daily_limit"            // 429: the person's credit checks for today are used up (per SSN)
	ESESSIONLIMIT = "session_limit"          // 429: this session's credit checks are used up
	ELENDER       = "lender_unavailable"     // 502: the lender did not answer usably
	EINTERNAL     = "internal"               // 500: a bug or an outage; never shown in detail
)

// ErrorCodes answers every error code above, in their order.
func ErrorCodes() []string {
	return []string{EINVALID, EBADREQUEST, ECONSENT, EUNAUTHORIZED, EFORBIDDEN, ECSRF, ENOTFOUND, ECONFLICT, EINFLIGHT, EAMOUNT,
		ETOOLARGE, EMEDIATYPE, EIDEMPOTENCY, ERATELIMITED, EDAILYLIMIT, ESESSIONLIMIT, ELENDER, EINTERNAL}
}

// Error is a domain error with a code and a message safe to show a patient or
// an API client. It never carries personal data or internal detail; wrap the
// cause with fmt.Errorf("…: %w") before converting if it must be logged.
type Error struct {
	Code        string
	Message     string
	FieldErrors []FieldError
	// RetryAfter, when set, is how long the caller should wait before
	// trying again (in_flight, rate_limited); the API sends it as the
	// Retry-After header.
	RetryAfter time.Duration
}

// FieldError names one field that broke a rule. Field carries the applicant
// prefix ("primary.ssn", "joint.dateOfBirth") so the browser can route to
// correctErrors for the right applicant.
type FieldError struct {
	Field   string `json:"field"`
	Message string `json:"message"`
}

// Error implements the error interface.
func (e *Error) Error() string {
	return fmt.Sprintf("chairside error: code=%s message=%s", e.Code, e.Message)
}

// Errorf returns an *Error with the given code and formatted message.
func Errorf(code string, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// ErrorCode returns the code of the first *Error in err's chain, EINTERNAL for
// any other error, and "" for nil.
func ErrorCode(err error) string {
	var e *Error
	if err == nil {
		return ""
	} else if errors.As(err, &e) {
		return e.Code
	}
	return EINTERNAL
}

// ErrorMessage returns the safe message of the first *Error in err's chain,
// or a generic message for any other error.
func ErrorMessage(err error) string {
	var e *Error
	if err == nil {
		return ""
	} else if errors.As(err, &e) {
		return e.Message
	}
	return "Something went wrong on our side."
}

// FieldErrorsOf returns the field errors of the first *Error in err's chain.
func FieldErrorsOf(err error) []FieldError {
	var e *Error
	if errors.As(err, &e) {
		return e.FieldErrors
	}
	return nil
}

// RetryAfterOf returns the RetryAfter of the first *Error in err's chain, or
// zero.
func RetryAfterOf(err error) time.Duration {
	var e *Error
	if errors.As(err, &e) {
		return e.RetryAfter
	}
	return 0
}
