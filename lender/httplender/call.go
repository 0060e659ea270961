package httplender

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	mathrand "math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"time"

	"github.com/sony/gobreaker/v2"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/lender"
	"github.com/chairside/chairside/lender/protocol"
)

// request is one protocol call of a Lender method.
type request struct {
	op     string // lender.Op…, for errors and logs
	method string
	path   string // below the base URL, escaped
	query  url.Values
	body   []byte // the JSON body of a POST
	// key is the Idempotency-Key, our Reference of the step. A POST
	// without one is sent without the header and never repeated.
	key string
	// lookup marks a submit that creates an application: when an attempt
	// may have reached the lender but its answer was lost, the lender is
	// asked for the application by platform reference (the key) before
	// anything is sent again.
	lookup bool
	// decode reads a 2xx answer; its error makes the answer malformed.
	decode func([]byte) error
	// err is a request that could not be built; it is never sent.
	err error
	// cond, when set, makes a GET conditional: a 304 to its If-None-Match
	// is an answer, not a failure.
	cond *conditional
	// lang is the patient's language, sent as Accept-Language for what the
	// lender writes for them (documents, plans).
	lang string
}

// failure is a failed attempt: the error the caller gets and what the
// retry loop and the breaker need to know of it.
type failure struct {
	err        *lender.Error
	retryable  bool          // another attempt may succeed
	ambiguous  bool          // the request may have reached the lender and run
	cancelled  bool          // our side gave up; not the lender's failure
	retryAfter time.Duration // the lender's Retry-After, 0 when none
}

func (f *failure) Error() string { return f.err.Error() }

// post returns a POST request of v under an idempotency key.
func post(op, path, key string, v any, decode func([]byte) error) *request {
	body, err := json.Marshal(v)
	return &request{op: op, method: http.MethodPost, path: path, body: body, key: key, decode: decode, err: err}
}

// get returns a GET request.
func get(op, path string, query url.Values, decode func([]byte) error) *request {
	return &request{op: op, method: http.MethodGet, path: path, query: query, decode: decode}
}

// call runs r until it succeeds, fails in a way another attempt cannot
// mend, runs out of attempts or of the context's time
// (docs/lender-protocol.md, "Failures").
func (l *Lender) call(ctx context.Context, lang string, r *request) error {
	r.lang = lang
	cid := rand.Text()
	if r.err != nil {
		return l.failure(r.op, lender.KindOther, 0, cid, r.err)
	}
	var last *failure
	for attempt := 1; ; attempt++ {
		f := l.step(ctx, r, cid, last)
		if f == nil {
			return nil
		}
		last = f
		wait, again := l.retryWait(ctx, r, attempt, f)
		e := f.err
		if !again {
			level := slog.LevelWarn
			if e.Kind == lender.KindRejected || e.Kind == lender.KindNotFound {
				level = slog.LevelInfo // the lender answered; the flow decides what it means
			}
			l.log.Log(ctx, level, "lender call failed", "op", r.op, "attempts", attempt, "kind", e.Kind,
				"status", e.Status, "correlation_id", e.CorrelationID, "err", e.Err)
			return e
		}
		l.log.Info("lender call repeated", "op", r.op, "attempt", attempt, "kind", e.Kind,
			"status", e.Status, "correlation_id", e.CorrelationID, "err", e.Err, "wait", wait)
		if !sleep(ctx, wait) {
			return e
		}
	}
}

// step is one attempt. After an attempt of a create that may have run on
// the lender, it first asks the lender for the application by platform
// reference, and sends again only when the lender has none: a lender
// without idempotency keys still sees one create.
func (l *Lender) step(ctx context.Context, r *request, cid string, last *failure) *failure {
	if r.lookup && last != nil && last.ambiguous {
		q := url.Values{"platformReference": {r.key}}
		look := get(r.op, protocol.PathApplications, q, r.decode)
		look.lang = r.lang
		f := l.attempt(ctx, look, cid)
		switch {
		case f == nil:
			return nil
		case f.err.Kind != lender.KindNotFound:
			f.ambiguous = true // still unknown whether the create ran
			return f
		}
	}
	return l.attempt(ctx, r, cid)
}

// retryWait says whether to try r again after f, and after how long: only
// calls safe to repeat, only failures another attempt may mend, within the
// attempts allowed, never past the context's deadline.
func (l *Lender) retryWait(ctx context.Context, r *request, attempt int, f *failure) (time.Duration, bool) {
	safe := r.method == http.MethodGet || r.key != ""
	if !safe || !f.retryable || attempt >= l.cfg.MaxAttempts || ctx.Err() != nil {
		return 0, false
	}
	ceiling := min(maxBackoff, l.cfg.BackoffBase<<min(attempt-1, 20))
	wait := time.Duration(0)
	if ceiling > 0 {
		wait = mathrand.N(ceiling + 1) // full jitter
	}
	if f.retryAfter > maxRetryAfter {
		return 0, false // not a wait, an outage
	}
	wait = max(wait, f.retryAfter)
	if dl, ok := ctx.Deadline(); ok && time.Until(dl) <= wait {
		return 0, false
	}
	return wait, true
}

// sleep waits d; false when ctx ended first.
func sleep(ctx context.Context, d time.Duration) bool {
	if d <= 0 {
		return ctx.Err() == nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}

// attempt sends r once through the breaker; an open breaker answers at
// once without reaching the network.
func (l *Lender) attempt(ctx context.Context, r *request, cid string) *failure {
	if err := ctx.Err(); err != nil {
		return l.transportFailure(ctx, ctx, r, cid, err)
	}
	_, err := l.breaker.Execute(func() (struct{}, error) {
		if f := l.exchange(ctx, r, cid); f != nil {
			return struct{}{}, f
		}
		return struct{}{}, nil
	})
	var f *failure
	switch {
	case err == nil:
		return nil
	case errors.As(err, &f):
		return f
	case errors.Is(err, gobreaker.ErrOpenState), errors.Is(err, gobreaker.ErrTooManyRequests):
		return &failure{err: l.failure(r.op, lender.KindBreakerOpen, 0, cid, err)}
	}
	return &failure{err: l.failure(r.op, lender.KindOther, 0, cid, err)}
}

// exchange is one HTTP request and its answer, read in full (at most
// protocol.MaxBody) within the attempt's time-out.
func (l *Lender) exchange(ctx context.Context, r *request, cid string) *failure {
	actx, cancel := context.WithTimeout(ctx, l.cfg.Timeout)
	defer cancel()
	hreq, err := l.httpRequest(actx, r, cid)
	if err != nil {
		return &failure{err: l.failure(r.op, lender.KindOther, 0, cid, err)}
	}
	res, err := l.client.Do(hreq)
	if err != nil {
		return l.transportFailure(ctx, actx, r, cid, err)
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(res.Body, protocol.MaxBody+1))
	if err != nil {
		return l.transportFailure(ctx, actx, r, cid, err)
	}
	if echoed := res.Header.Get(protocol.HeaderCorrelationID); echoed != "" {
		cid = echoed
	}
	switch {
	case len(raw) > protocol.MaxBody:
		return &failure{err: l.failure(r.op, lender.KindMalformed, res.StatusCode, cid,
			fmt.Errorf("%s %s: answer over %d bytes", r.method, r.path, protocol.MaxBody))}
	case res.StatusCode == http.StatusNotModified && r.cond != nil && r.cond.ifNoneMatch != "":
		return l.notModified(r, res, cid)
	case res.StatusCode < 200 || res.StatusCode > 299:
		return l.statusFailure(r, res, raw, cid)
	}
	if err := r.decode(raw); err != nil {
		return &failure{err: l.failure(r.op, lender.KindMalformed, res.StatusCode, cid,
			fmt.Errorf("%s %s: %w", r.method, r.path, err))}
	}
	if r.cond != nil {
		r.cond.etag, r.cond.notModified = res.Header.Get(protocol.HeaderETag), false
		r.cond.cacheControl = res.Header.Get("Cache-Control")
	}
	return nil
}

// notModified reads a 304 to a conditional request: the kept answer is
// still the lender's, unless the 304 names another entity tag, which
// makes it malformed. (A 304 to a request that named none is malformed
// too, in statusFailure.)
func (l *Lender) notModified(r *request, res *http.Response, cid string) *failure {
	if tag := res.Header.Get(protocol.HeaderETag); tag != "" && !protocol.SameEntityTag(tag, r.cond.ifNoneMatch) {
		return &failure{err: l.failure(r.op, lender.KindMalformed, res.StatusCode, cid,
			fmt.Errorf("%s %s: 304 for another entity tag", r.method, r.path))}
	}
	r.cond.notModified = true
	r.cond.cacheControl = res.Header.Get("Cache-Control")
	return nil
}

// httpRequest builds the HTTP request of r with the protocol's headers.
func (l *Lender) httpRequest(ctx context.Context, r *request, cid string) (*http.Request, error) {
	u := l.base + r.path
	if len(r.query) > 0 {
		u += "?" + r.query.Encode()
	}
	var body io.Reader
	if r.body != nil {
		body = bytes.NewReader(r.body)
	}
	req, err := http.NewRequestWithContext(ctx, r.method, u, body)
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", r.method, r.path, err)
	}
	// net/http repeats on its own a request it takes for idempotent (an
	// Idempotency-Key makes a POST one) when a reused connection drops.
	// This adapter decides about every repeat itself, a lookup first for
	// a create, so the body must not be replayable behind its back.
	req.GetBody = nil
	req.Header.Set("Accept", "application/json")
	// The patient's language, for what the lender writes for them (documents, plans).
	if r.lang != "" {
		req.Header.Set("Accept-Language", r.lang)
	}
	req.Header.Set("User-Agent", "chairside-httplender")
	req.Header.Set("Authorization", "Bearer "+l.cfg.APIKey)
	if l.cfg.APISecret != "" {
		req.Header.Set(protocol.HeaderAPISecret, l.cfg.APISecret)
	}
	req.Header.Set(protocol.HeaderCorrelationID, cid)
	if r.body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if r.key != "" {
		req.Header.Set(protocol.HeaderIdempotencyKey, r.key)
	}
	if r.cond != nil && r.cond.ifNoneMatch != "" {
		req.Header.Set(protocol.HeaderIfNoneMatch, r.cond.ifNoneMatch)
	}
	return req, nil
}

// transportFailure classifies a request that got no answer. A time-out or
// a connection lost after sending may have run on the lender (ambiguous);
// a connection never made did not.
func (l *Lender) transportFailure(ctx, actx context.Context, r *request, cid string, err error) *failure {
	cause := err
	var ue *url.Error
	if errors.As(err, &ue) {
		cause = ue.Err // without the URL and its query
	}
	cause = fmt.Errorf("%s %s: %w", r.method, r.path, cause)
	var ne net.Error
	var oe *net.OpError
	switch {
	case errors.Is(ctx.Err(), context.Canceled):
		return &failure{err: l.failure(r.op, lender.KindOther, 0, cid, cause), cancelled: true}
	case ctx.Err() != nil || actx.Err() != nil || errors.As(err, &ne) && ne.Timeout():
		return &failure{err: l.failure(r.op, lender.KindTimeout, 0, cid, cause), retryable: true, ambiguous: true}
	case errors.As(err, &oe) && oe.Op == "dial":
		return &failure{err: l.failure(r.op, lender.KindUnavailable, 0, cid, cause), retryable: true}
	}
	return &failure{err: l.failure(r.op, lender.KindUnavailable, 0, cid, cause), retryable: true, ambiguous: true}
}

// statusFailure reads a non-2xx answer: its error body when it has one,
// the kind its status stands for, and whether to try again.
func (l *Lender) statusFailure(r *request, res *http.Response, raw []byte, cid string) *failure {
	var eb protocol.ErrorBody
	_ = json.Unmarshal(raw, &eb) // best effort: a proxy's 502 page has none
	d := eb.Error
	if res.Header.Get(protocol.HeaderCorrelationID) == "" && d.CorrelationID != "" {
		cid = d.CorrelationID
	}
	status := res.StatusCode
	cause := fmt.Errorf("%s %s: HTTP %d %s: %s", r.method, r.path, status, redact(d.Code), redact(d.Message))
	f := &failure{}
	kind := lender.KindRejected
	switch {
	case status == http.StatusNotFound:
		kind = lender.KindNotFound
	case status == http.StatusTooManyRequests:
		f.retryable, f.retryAfter = true, retryAfter(res.Header.Get("Retry-After"))
	case status >= 500:
		kind, f.retryable, f.retryAfter = lender.KindUnavailable, true, retryAfter(res.Header.Get("Retry-After"))
	case status < 400:
		kind = lender.KindMalformed // 1xx and 3xx are not in the protocol
	}
	f.err = l.failure(r.op, kind, status, cid, cause)
	switch {
	case status == http.StatusUnprocessableEntity && d.Code != protocol.CodeIdempotencyMismatch:
		fields := make([]chairside.FieldError, 0, len(d.Fields))
		for _, fe := range d.Fields {
			fields = append(fields, chairside.FieldError{Field: redact(fe.Field), Message: redact(fe.Message)})
		}
		f.err.Public = &chairside.Error{Code: chairside.EINVALID, Message: "The lender could not accept some of the details.", FieldErrors: fields}
	case status == http.StatusConflict:
		f.err.Public = chairside.Errorf(chairside.ECONFLICT, "The lender cannot do this now.")
	}
	return f
}

// failure builds the *lender.Error of a failed attempt. Its cause names
// the method, the path and the lender's redacted words, never what was
// sent.
func (l *Lender) failure(op, kind string, status int, cid string, cause error) *lender.Error {
	e := lender.Failure(op, kind, status, cause)
	e.CorrelationID = cid
	return e
}

// retryAfter reads a Retry-After header: seconds or an HTTP date; 0 for
// none or nonsense.
func retryAfter(v string) time.Duration {
	if v == "" {
		return 0
	}
	if s, err := strconv.Atoi(v); err == nil && s >= 0 {
		return time.Duration(s) * time.Second
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(0, time.Until(t))
	}
	return 0
}

// numberLike is a run of five or more digits, spaces and dashes allowed
// between them: what a card, account, routing or social security number
// looks like.
var numberLike = regexp.MustCompile(`\d(?:[ -]?\d){4,}`)

// redact keeps a lender's words fit for our logs and errors: anything
// that looks like one of the numbers we sent is blanked, and the text is
// cut short.
func redact(s string) string {
	s = numberLike.ReplaceAllString(s, "[redacted]")
	if r := []rune(s); len(r) > 300 {
		s = string(r[:300]) + "…"
	}
	return s
}
