package lendersim

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"time"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/lender"
	"github.com/chairside/chairside/lender/protocol"
	"github.com/chairside/chairside/locale"
)

// call is one protocol request as a handler sees it.
type call struct {
	r       *http.Request
	ctx     context.Context
	lender  string
	lang    string          // the patient's language, from Accept-Language
	sandbox lender.AllSteps // the sandbox lender of lender
	id      string          // the {id} of the path, "" when none
	body    []byte
}

// reply is an answer before it is written, or kept for a replay. A zero
// reply is no answer at all: the client went away.
type reply struct {
	status   int
	body     any // an *protocol.ErrorBody for errors
	replayed bool
	etag     string // the ETag header of a document answer, 200 or 304
}

type handler func(c *call) reply

// ok is a 200 answer.
func ok(v any) reply { return reply{status: http.StatusOK, body: v} }

// notModified is a 304 answer: no body, the ETag the client has.
func notModified(etag string) reply { return reply{status: http.StatusNotModified, etag: etag} }

// fail is an error answer; the correlation id is filled in when written.
func fail(status int, code, message string, fields ...protocol.FieldError) reply {
	return reply{status: status, body: &protocol.ErrorBody{Error: protocol.ErrorDetail{Code: code, Message: message, Fields: fields}}}
}

// route wraps a handler with what every lender request goes through:
// the lender's key, the correlation id, the credentials, the counters,
// an injected fault, the body and the idempotency store.
func (s *Sim) route(op string, h handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		key := r.PathValue("lender")
		cid := r.Header.Get(protocol.HeaderCorrelationID)
		if cid == "" {
			cid = "sim-" + rand.Text()
		}
		l, known := s.sandbox(key)
		if !known {
			s.write(w, cid, fail(http.StatusNotFound, protocol.CodeNotFound, "No such lender."))
			return
		}
		s.count(s.hits, pair(key, op))
		if !s.authorised(r) {
			s.write(w, cid, fail(http.StatusUnauthorized, protocol.CodeUnauthorized, "The API key is missing or wrong."))
			return
		}
		// The body is read first: only then does the server notice a
		// client that leaves while a slow answer waits.
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, protocol.MaxBody))
		if err != nil {
			s.write(w, cid, fail(http.StatusBadRequest, protocol.CodeBadRequest, "The body could not be read."))
			return
		}
		f := s.takeFault(key, op)
		if rep, done := s.before(r, f); done {
			if rep.status != 0 {
				s.write(w, cid, rep)
			}
			return
		}
		c := &call{r: r, ctx: r.Context(), lang: string(locale.FromAcceptLanguage(r.Header.Get("Accept-Language"))), lender: key, sandbox: l,
			id: r.PathValue("id"), body: body}
		rep := s.idempotent(c, h)
		switch {
		case rep.status == 0:
			return // the client went away
		case f != nil && f.Kind == FaultDrop:
			drop(w)
			return
		}
		s.write(w, cid, rep)
	})
}

// before applies the faults that act before the request runs: a slow
// answer waits (and gives up with the client), a 5xx or garbage answers
// in its place. done reports that the request must not run.
func (s *Sim) before(r *http.Request, f *Fault) (rep reply, done bool) {
	if f == nil {
		return reply{}, false
	}
	switch f.Kind {
	case FaultSlow:
		t := time.NewTimer(f.Delay)
		defer t.Stop()
		select {
		case <-r.Context().Done():
			return reply{}, true
		case <-t.C:
		}
	case Fault5xx:
		return fail(http.StatusServiceUnavailable, protocol.CodeUnavailable, "The lender is down for maintenance."), true
	case FaultGarbage:
		return reply{status: http.StatusOK, body: garbage{}}, true
	}
	return reply{}, false
}

// garbage is the answer of the garbage fault: a 200 that is not the
// protocol's (an error page of some proxy).
type garbage struct{}

const garbagePage = "<html><body><h1>Service Temporarily Unavailable</h1></body></html>"

// drop closes the connection without answering, as a lender whose
// answer is lost on the way; the request has run.
func drop(w http.ResponseWriter) {
	hj, ok := w.(http.Hijacker)
	if !ok {
		panic(http.ErrAbortHandler)
	}
	conn, _, err := hj.Hijack()
	if err != nil {
		panic(http.ErrAbortHandler)
	}
	conn.Close()
}

// write sends a reply as JSON with the correlation id in the header and,
// for errors, in the body; a 304 goes without a body.
func (s *Sim) write(w http.ResponseWriter, cid string, rep reply) {
	w.Header().Set(protocol.HeaderCorrelationID, cid)
	if rep.etag != "" {
		// A document stays current for five minutes, as a lender may say
		// (docs/lender-protocol.md, "Kept documents").
		w.Header().Set("Cache-Control", "max-age=300")
		w.Header().Set(protocol.HeaderETag, rep.etag)
	}
	if rep.status == http.StatusNotModified {
		w.WriteHeader(rep.status)
		return
	}
	if _, ok := rep.body.(garbage); ok {
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(rep.status)
		io.WriteString(w, garbagePage)
		return
	}
	body := rep.body
	if eb, ok := body.(*protocol.ErrorBody); ok {
		cp := *eb
		cp.Error.CorrelationID = cid
		body = &cp
	}
	raw, err := json.Marshal(body)
	if err != nil {
		rep.status, raw = http.StatusInternalServerError, []byte(`{"error":{"code":"lender_error","message":"The answer could not be written.","correlationId":""}}`)
	}
	w.Header().Set("Content-Type", "application/json")
	if rep.replayed {
		w.Header().Set(protocol.HeaderReplayed, "true")
	}
	if rep.status == http.StatusServiceUnavailable && s.opts.RetryAfter > 0 {
		w.Header().Set("Retry-After", strconv.Itoa(int((s.opts.RetryAfter+time.Second-1)/time.Second)))
	}
	w.WriteHeader(rep.status)
	w.Write(raw)
}

// idemEntry is the idempotency record of one key: the first complete
// answer and a hash of the request it answered. lock (a one-slot channel,
// so waiting ends with the client) serialises the requests of one key.
type idemEntry struct {
	lock  chan struct{}
	done  bool
	hash  [32]byte
	reply reply
}

// idempotent runs h at most once per (lender, Idempotency-Key): a
// repeat of the same request gets the first answer again, even while the
// first is still running; the same key on another request is refused. An
// answer of 5xx, 409 or none is not kept, so a retry runs again: a
// failure or a conflict with the application's state may pass. A POST
// without a key runs every time.
func (s *Sim) idempotent(c *call, h handler) reply {
	key := c.r.Header.Get(protocol.HeaderIdempotencyKey)
	if c.r.Method != http.MethodPost || key == "" {
		return h(c)
	}
	s.mu.Lock()
	e := s.idem[pair(c.lender, key)]
	if e == nil {
		e = &idemEntry{lock: make(chan struct{}, 1)}
		s.idem[pair(c.lender, key)] = e
	}
	s.mu.Unlock()
	select {
	case e.lock <- struct{}{}:
	case <-c.ctx.Done():
		return reply{}
	}
	defer func() { <-e.lock }()
	hash := sha256.Sum256(bytes.Join([][]byte{[]byte(c.r.Method), []byte(c.r.URL.Path), c.body}, []byte{0}))
	if e.done {
		if e.hash != hash {
			return fail(http.StatusUnprocessableEntity, protocol.CodeIdempotencyMismatch,
				"This Idempotency-Key was used with another request.")
		}
		rep := e.reply
		rep.replayed = true
		return rep
	}
	rep := h(c)
	if rep.status != 0 && rep.status < 500 && rep.status != http.StatusConflict {
		e.done, e.hash, e.reply = true, hash, rep
	}
	return rep
}

func (s *Sim) count(m map[string]int, k string) {
	s.mu.Lock()
	m[k]++
	s.mu.Unlock()
}

// decodeBody reads a JSON request body strictly: one object of known
// members.
func decodeBody(c *call, v any) *reply {
	dec := json.NewDecoder(bytes.NewReader(c.body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil || dec.More() {
		rep := fail(http.StatusBadRequest, protocol.CodeBadRequest, "The body is not the JSON this endpoint takes.")
		return &rep
	}
	return nil
}

// fromSandbox turns a sandbox error into the lender's answer. elender is
// the status of the sandbox's ELENDER, which means "cannot use this" in a
// step and "is failing" in a create.
func fromSandbox(c *call, err error, elender int) reply {
	if c.ctx.Err() != nil {
		return reply{}
	}
	msg := chairside.ErrorMessage(err)
	switch chairside.ErrorCode(err) {
	case chairside.EINVALID:
		var fields []protocol.FieldError
		for _, f := range chairside.FieldErrorsOf(err) {
			fields = append(fields, protocol.FieldError{Field: f.Field, Message: f.Message})
		}
		return fail(http.StatusUnprocessableEntity, protocol.CodeValidation, msg, fields...)
	case chairside.EBADREQUEST:
		return fail(http.StatusBadRequest, protocol.CodeBadRequest, msg)
	case chairside.ENOTFOUND:
		return fail(http.StatusNotFound, protocol.CodeNotFound, msg)
	case chairside.ECONFLICT:
		return fail(http.StatusConflict, protocol.CodeConflict, msg)
	case chairside.ELENDER:
		if elender == http.StatusBadRequest {
			return fail(elender, protocol.CodeRefused, msg)
		}
		return fail(elender, protocol.CodeUnavailable, msg)
	}
	return fail(http.StatusInternalServerError, protocol.CodeLenderError, "The lender failed.")
}
