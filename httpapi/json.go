package httpapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net/http"
	"reflect"
	"strconv"
	"strings"
	"time"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/locale"
	"github.com/chairside/chairside/validate"
)

// statusOf maps every chairside error code to its one HTTP status. It is
// the only place where domain failures become HTTP.
var statusOf = map[string]int{
	chairside.EINVALID:      http.StatusBadRequest,
	chairside.EBADREQUEST:   http.StatusBadRequest,
	chairside.ECONSENT:      http.StatusBadRequest,
	chairside.EUNAUTHORIZED: http.StatusUnauthorized,
	chairside.EFORBIDDEN:    http.StatusForbidden,
	chairside.ECSRF:         http.StatusForbidden,
	chairside.ENOTFOUND:     http.StatusNotFound,
	chairside.ECONFLICT:     http.StatusConflict,
	chairside.EINFLIGHT:     http.StatusConflict,
	chairside.ETOOLARGE:     http.StatusRequestEntityTooLarge,
	chairside.EMEDIATYPE:    http.StatusUnsupportedMediaType,
	chairside.EIDEMPOTENCY:  http.StatusUnprocessableEntity,
	chairside.EAMOUNT:       http.StatusConflict,
	chairside.ERATELIMITED:  http.StatusTooManyRequests,
	chairside.EDAILYLIMIT:   http.StatusTooManyRequests,
	chairside.ESESSIONLIMIT: http.StatusTooManyRequests,
	chairside.ELENDER:       http.StatusBadGateway,
	chairside.EINTERNAL:     http.StatusInternalServerError,
}

// ErrorResponse is the JSON body of every error answer.
type ErrorResponse struct {
	Code        string                 `json:"code"`
	Message     string                 `json:"message"`
	FieldErrors []chairside.FieldError `json:"fieldErrors,omitempty"`
	RequestID   string                 `json:"requestId,omitempty"`
}

// defaultRateLimitWait is the Retry-After of a rate_limited answer whose
// error does not say how long to wait.
const defaultRateLimitWait = 60 * time.Second

// writeError answers err as JSON with the status of its code. Internal
// errors are logged with the request id and answered with a generic message
// and that id only: never a cause, a stack or SQL. An error that says how
// long to wait (chairside.Error.RetryAfter: in_flight, rate_limited, …)
// gets a Retry-After header in whole seconds, rounded up; a rate_limited
// answer without one waits a minute.
func (h *Handler) writeError(w http.ResponseWriter, r *http.Request, err error) {
	code := chairside.ErrorCode(err)
	status, ok := statusOf[code]
	if !ok {
		code, status = chairside.EINTERNAL, http.StatusInternalServerError
	}
	body := ErrorResponse{Code: code, Message: chairside.ErrorMessage(err)}
	switch code {
	case chairside.EINVALID:
		body.FieldErrors = chairside.FieldErrorsOf(err)
		if body.FieldErrors == nil {
			body.FieldErrors = []chairside.FieldError{}
		}
	case chairside.EINTERNAL:
		info := infoOf(w)
		body.RequestID = info.id
		body.Message = "Something went wrong on our side. Please try again."
		h.log.ErrorContext(r.Context(), "internal error", "requestId", info.id, "route", info.pattern, "session", info.session, "err", err.Error())
	}
	if wait := chairside.RetryAfterOf(err); wait > 0 && code != chairside.EINTERNAL {
		w.Header().Set("Retry-After", retryAfterSeconds(wait))
	} else if code == chairside.ERATELIMITED && w.Header().Get("Retry-After") == "" {
		w.Header().Set("Retry-After", retryAfterSeconds(defaultRateLimitWait))
	}
	// In the patient's language; the error itself may be shared, so it is never changed.
	lang := languageOf(r)
	body.Message = locale.T(lang, body.Message)
	body.FieldErrors = locale.FieldErrors(lang, body.FieldErrors)
	writeJSON(w, status, body)
}

// languageOf is the language the request's answers speak, from its
// Accept-Language (docs/languages.md); flow gets it in the Caller.
func languageOf(r *http.Request) locale.Language {
	return locale.FromAcceptLanguage(r.Header.Get("Accept-Language"))
}

// retryAfterSeconds formats a wait as Retry-After wants it: whole seconds,
// rounded up, at least 1 (0 would invite an immediate retry).
func retryAfterSeconds(d time.Duration) string {
	secs := int64((d + time.Second - 1) / time.Second)
	if secs < 1 {
		secs = 1
	}
	return strconv.FormatInt(secs, 10)
}

// encodedAnswer is an answer that carries its own JSON: a lender step's
// (flow.StepAnswer), encoded once when the step's lender call was recorded.
type encodedAnswer interface {
	JSON() ([]byte, error)
}

// writeJSON answers v as JSON with a status, and a newline. Answers are
// encoded with encoding/json (v1), as they always were; only request
// decoding is strict (decode). A lender step's answer is written as the
// bytes it carries, never encoded again.
func writeJSON(w http.ResponseWriter, status int, v any) {
	var buf []byte
	var err error
	if a, ok := v.(encodedAnswer); ok {
		buf, err = a.JSON()
	} else {
		buf, err = json.Marshal(v)
	}
	if err != nil {
		// Only a programming error gets here; answer without details.
		buf, status = []byte(`{"code":"internal","message":"Something went wrong on our side."}`), http.StatusInternalServerError
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	// The newline is written apart: a step's bytes are its record's, and
	// appending to them could write into an array the record shares.
	_, _ = w.Write(buf)
	_, _ = w.Write(newline)
}

var newline = []byte{'\n'}

// decode reads a JSON body into dst: at most limit bytes, sent as
// application/json, exactly one value, object member names matching the
// struct tags exactly (case-sensitive), no member twice, no unknown
// members. An empty body is accepted only when optional (dst keeps its zero
// value), and then needs no Content-Type. Every failure is a coded error
// with a message that says what is wrong, for API clients as much as for
// our browser.
//
// The strict decoder is github.com/go-json-experiment/json (JSON v2):
// encoding/json matches names case-insensitively and lets a repeated name
// win silently, so {"primary":{"ssn":"1","ssn":"2"}} or {"Primary":…} could
// mean something other than what a reviewer of the body sees. Its defaults
// are what we want (case-sensitive names, duplicates refused, invalid
// UTF-8 refused); unknown members are refused by RejectUnknownMembers. Our
// request types (package flow's …Request types, chairside.Applicant) use
// only strings, bools, *int, *int64, int64, slices of strings and nested
// structs, which both versions decode alike; the tests in
// httpapi/json_internal_test.go (TestDecodeLikeEncodingJSON) pin that.
func decode(w http.ResponseWriter, r *http.Request, limit int64, dst any, optional bool) error {
	if r.ContentLength > limit {
		return tooLarge(limit)
	}
	// A declared body of the wrong type is refused before it is read.
	if r.ContentLength > 0 {
		if err := checkContentType(r.Header.Get("Content-Type")); err != nil {
			return err
		}
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, limit))
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return tooLarge(limit)
		}
		return chairside.Errorf(chairside.EBADREQUEST, "The request body could not be read.")
	}
	if len(bytes.TrimSpace(body)) == 0 {
		if optional {
			return nil
		}
		return chairside.Errorf(chairside.EBADREQUEST, "A JSON request body is required.")
	}
	// A chunked body (no Content-Length) is checked once it is known not
	// to be empty.
	if err := checkContentType(r.Header.Get("Content-Type")); err != nil {
		return err
	}
	dec := jsontext.NewDecoder(bytes.NewReader(body))
	if err := jsonv2.UnmarshalDecode(dec, dst, jsonv2.RejectUnknownMembers(true)); err != nil {
		return decodeError(err)
	}
	if _, err := dec.ReadToken(); err != io.EOF {
		return chairside.Errorf(chairside.EBADREQUEST, "The request body must hold a single JSON object.")
	}
	return nil
}

// checkContentType accepts application/json in any letter case, with
// parameters; a charset, if given, must be UTF-8 (the only encoding JSON
// allows, RFC 8259 §8.1). Anything else is unsupported_media_type.
func checkContentType(ct string) error {
	const want = "Send the body as JSON with the header Content-Type: application/json."
	if strings.TrimSpace(ct) == "" {
		return chairside.Errorf(chairside.EMEDIATYPE, "The request has a body but no Content-Type. %s", want)
	}
	mt, params, err := mime.ParseMediaType(ct)
	if err != nil {
		return chairside.Errorf(chairside.EMEDIATYPE, "The Content-Type header could not be read. %s", want)
	}
	if mt != "application/json" {
		if len(mt) > 64 {
			mt = mt[:64] + "…"
		}
		return chairside.Errorf(chairside.EMEDIATYPE, "Content-Type %s is not supported. %s", mt, want)
	}
	if cs, ok := params["charset"]; ok && !strings.EqualFold(cs, "utf-8") && !strings.EqualFold(cs, "utf8") {
		return chairside.Errorf(chairside.EMEDIATYPE, "JSON bodies must be UTF-8: send charset=utf-8 or no charset.")
	}
	return nil
}

func tooLarge(limit int64) error {
	return chairside.Errorf(chairside.ETOOLARGE, "The request body is larger than the limit of %d bytes.", limit)
}

// decodeError turns a JSON v2 error into a clear error: bad_request naming
// the member for malformed JSON, unknown, repeated or mistyped members, and
// validation_error with a field error in the patient's words for a value of
// the wrong type in an applicant ("primary.monthsEmployed": "Please enter
// a whole number."), which the browser shows beside that field.
func decodeError(err error) error {
	var syn *jsontext.SyntacticError
	var sem *jsonv2.SemanticError
	switch {
	case errors.As(err, &syn):
		switch {
		case errors.Is(syn.Err, jsontext.ErrDuplicateName):
			return chairside.Errorf(chairside.EBADREQUEST, "The request body contains the field %q more than once.", dotted(syn.JSONPointer))
		case errors.Is(syn.Err, io.ErrUnexpectedEOF):
			return chairside.Errorf(chairside.EBADREQUEST, "Malformed JSON: the body ends too early.")
		case syn.Err != nil:
			return chairside.Errorf(chairside.EBADREQUEST, "Malformed JSON at byte %d: %s.", syn.ByteOffset, syn.Err.Error())
		}
		return chairside.Errorf(chairside.EBADREQUEST, "Malformed JSON at byte %d.", syn.ByteOffset)
	case errors.As(err, &sem):
		return semanticError(sem)
	case errors.Is(err, io.ErrUnexpectedEOF):
		return chairside.Errorf(chairside.EBADREQUEST, "Malformed JSON: the body ends too early.")
	}
	return chairside.Errorf(chairside.EBADREQUEST, "Malformed JSON.")
}

// semanticError explains well-formed JSON that does not fit the request
// type: an unknown member, or a value of the wrong type.
func semanticError(sem *jsonv2.SemanticError) error {
	field := dotted(sem.JSONPointer)
	if errors.Is(sem.Err, jsonv2.ErrUnknownName) {
		msg := "The request body contains unknown field " + strconv.Quote(field) + "."
		// The usual cause is a name in the wrong case: say which one.
		if t := structType(sem.GoType); t != nil {
			name := sem.JSONPointer.LastToken()
			for _, known := range jsonNames(t) {
				if strings.EqualFold(known, name) {
					msg += " Field names are case-sensitive: did you mean " + strconv.Quote(known) + "?"
					break
				}
			}
		}
		return chairside.Errorf(chairside.EBADREQUEST, "%s", msg)
	}
	if field == "" {
		return chairside.Errorf(chairside.EBADREQUEST, "The request body must be a JSON object.")
	}
	kind := goKind(sem.GoType)
	if applicant, member, ok := applicantField(sem.JSONPointer); ok {
		msg := "Please check this value."
		switch {
		case isInteger(kind) && errors.Is(sem.Err, strconv.ErrRange):
			msg = "Please enter a smaller number."
		case isInteger(kind):
			msg = validate.MsgWholeNumber
		case kind == reflect.String:
			msg = "Please enter this as text."
		}
		return &chairside.Error{
			Code:        chairside.EINVALID,
			Message:     "Some of the information entered is not valid.",
			FieldErrors: []chairside.FieldError{{Field: applicant + "." + member, Message: msg}},
		}
	}
	return chairside.Errorf(chairside.EBADREQUEST, "Field %q must be a JSON %s.", field, jsonType(kind))
}

// applicantMembers are the JSON names of chairside.Applicant's fields.
var applicantMembers = func() map[string]bool {
	m := map[string]bool{}
	for _, n := range jsonNames(reflect.TypeFor[chairside.Applicant]()) {
		m[n] = true
	}
	return m
}()

// applicantField reports whether a JSON pointer names a field of an
// applicant object (…/primary/monthsEmployed, …/joint/housingMonths — in
// a submit body or in /validate's applicationData), and which.
func applicantField(p jsontext.Pointer) (applicant, member string, ok bool) {
	var toks []string
	for tok := range p.Tokens() {
		toks = append(toks, tok)
	}
	if n := len(toks); n >= 2 && (toks[n-2] == "primary" || toks[n-2] == "joint") && applicantMembers[toks[n-1]] {
		return toks[n-2], toks[n-1], true
	}
	return "", "", false
}

// dotted turns a JSON pointer (/primary/monthsEmployed) into the dotted
// name used in messages (primary.monthsEmployed).
func dotted(p jsontext.Pointer) string {
	var toks []string
	for tok := range p.Tokens() {
		toks = append(toks, tok)
	}
	s := strings.Join(toks, ".")
	if len(s) > 100 {
		s = s[:100] + "…"
	}
	return s
}

// structType returns t, or what t points to, if it is a struct.
func structType(t reflect.Type) reflect.Type {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == nil || t.Kind() != reflect.Struct {
		return nil
	}
	return t
}

// jsonNames lists the JSON member names of a struct type, including those
// of embedded structs without a name of their own (both JSON versions
// inline them).
func jsonNames(t reflect.Type) []string {
	var names []string
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		name, _, _ := strings.Cut(tag, ",")
		if name == "-" && !strings.Contains(tag, ",") {
			continue
		}
		if f.Anonymous && name == "" {
			if st := structType(f.Type); st != nil {
				names = append(names, jsonNames(st)...)
			}
			continue
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		names = append(names, name)
	}
	return names
}

// goKind is the kind of t, or of what t points to.
func goKind(t reflect.Type) reflect.Kind {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == nil {
		return reflect.Invalid
	}
	return t.Kind()
}

func isInteger(k reflect.Kind) bool {
	switch k {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return true
	}
	return false
}

// jsonType names a Go kind in JSON words.
func jsonType(k reflect.Kind) string {
	switch {
	case isInteger(k):
		return "whole number"
	case k == reflect.Float32, k == reflect.Float64:
		return "number"
	case k == reflect.Bool:
		return "boolean"
	case k == reflect.String:
		return "string"
	case k == reflect.Slice, k == reflect.Array:
		return "array"
	}
	return "object"
}
