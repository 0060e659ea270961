// Package lender holds what every lender adapter shares: the kinds of
// failure a lender call can end in, and the decorator that counts every
// call for the metrics (docs/lender-protocol.md, "Failures").
//
// The adapters live beside it: lender/sandbox (built in) and
// lender/httplender (our JSON protocol over HTTP); lender/lendersim is the
// simulator that speaks that protocol, and lender/registry chooses, per
// lender key, which adapter serves it.
package lender

import (
	"context"
	"errors"
	"fmt"

	"github.com/chairside/chairside"
)

// Kinds of failure of a lender call, as errors carry them (Error.Kind) and
// the metrics count them.
const (
	KindTimeout     = "timeout"      // no answer within the call's time-out
	KindUnavailable = "unavailable"  // HTTP 5xx, or the connection failed or dropped
	KindMalformed   = "malformed"    // an answer that is not what the protocol says
	KindBreakerOpen = "breaker_open" // not sent: the lender's circuit breaker is open
	KindRejected    = "rejected"     // HTTP 4xx: the lender refused the request
	KindNotFound    = "not_found"    // the lender has no such application
	KindOther       = "other"        // anything else
)

// Error is a failed lender call. It unwraps to a chairside error (ELENDER,
// or ENOTFOUND for KindNotFound, EINVALID for field errors), so the flow
// service treats it like any lender failure, and it keeps the kind for the
// metrics and logs. It never carries what was sent.
type Error struct {
	Kind   string
	Op     string // the operation, e.g. "decide", "status"
	Status int    // the HTTP status, 0 when none came
	// CorrelationID is the id the lender echoed, for its support desk.
	CorrelationID string
	Err           error // the cause, for logs; never shown to a patient
	// Public is the chairside error it stands for.
	Public *chairside.Error
}

func (e *Error) Error() string {
	msg := fmt.Sprintf("lender %s: %s", e.Op, e.Kind)
	if e.Status != 0 {
		msg += fmt.Sprintf(" (HTTP %d)", e.Status)
	}
	if e.Err != nil {
		msg += ": " + e.Err.Error()
	}
	return msg
}

// Unwrap exposes the cause and the chairside error.
func (e *Error) Unwrap() []error {
	out := []error{}
	if e.Public != nil {
		out = append(out, e.Public)
	}
	if e.Err != nil {
		out = append(out, e.Err)
	}
	return out
}

// Failure returns an *Error of a kind with the chairside error it stands
// for: ENOTFOUND for KindNotFound, ELENDER for the rest.
func Failure(op, kind string, status int, cause error) *Error {
	pub := chairside.Errorf(chairside.ELENDER, "The lender did not answer usably.")
	if kind == KindNotFound {
		pub = chairside.Errorf(chairside.ENOTFOUND, "The lender has no such application.")
	}
	return &Error{Kind: kind, Op: op, Status: status, Err: cause, Public: pub}
}

// KindOf names the kind of a lender call's error: "" for none, the Kind of
// an *Error, KindTimeout for a context that ran out, KindNotFound for a
// chairside ENOTFOUND, KindOther otherwise.
func KindOf(err error) string {
	var le *Error
	switch {
	case err == nil:
		return ""
	case errors.As(err, &le):
		return le.Kind
	case errors.Is(err, context.DeadlineExceeded):
		return KindTimeout
	case chairside.ErrorCode(err) == chairside.ENOTFOUND:
		return KindNotFound
	}
	return KindOther
}
