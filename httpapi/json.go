package httpapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/chairside/chairside"
)

// statusOf maps every chairside error code to its one HTTP status. It is
// the only place where domain failures become HTTP.
var statusOf = map[string]int{
	chairside.EINVALID:      http.StatusBadRequest,
	chairside.EBADREQUEST:   http.StatusBadRequest,
	chairside.ECONSENT:      http.StatusBadRequest,
	chairside.EUNAUTHORIZED: http.StatusUnauthorized,
	chairside.EFORBIDDEN:    http.StatusForbidden,
	chairside.ENOTFOUND:     http.StatusNotFound,
	chairside.ECONFLICT:     http.StatusConflict,
	chairside.ETOOLARGE:     http.StatusRequestEntityTooLarge,
	chairside.EIDEMPOTENCY:  http.StatusUnprocessableEntity,
	chairside.ERATELIMITED:  http.StatusTooManyRequests,
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

// writeError answers err as JSON with the status of its code. Internal
// errors are logged with the request id and answered with a generic message
// and that id only: never a cause, a stack or SQL. Rate-limit answers get a
// Retry-After unless the caller set a more precise one.
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
		info := infoOf(r)
		body.RequestID = info.id
		body.Message = "Something went wrong on our side. Please try again."
		h.log.ErrorContext(r.Context(), "internal error", "requestId", info.id, "route", info.pattern, "session", info.session, "err", err.Error())
	case chairside.ERATELIMITED:
		if w.Header().Get("Retry-After") == "" {
			w.Header().Set("Retry-After", "60")
		}
	}
	writeJSON(w, status, body)
}

// writeJSON answers v as JSON with a status.
func writeJSON(w http.ResponseWriter, status int, v any) {
	buf, err := json.Marshal(v)
	if err != nil {
		// Only a programming error gets here; answer without details.
		buf, status = []byte(`{"code":"internal","message":"Something went wrong on our side."}`), http.StatusInternalServerError
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	_, _ = w.Write(append(buf, '\n'))
}

// decode reads a JSON body into dst: at most limit bytes, exactly one
// object, no unknown fields. An empty body is accepted only when optional
// (dst keeps its zero value). Every failure is a coded error with a message
// that says what is wrong, for API clients as much as for our browser.
func decode(w http.ResponseWriter, r *http.Request, limit int64, dst any, optional bool) error {
	if r.ContentLength > limit {
		return tooLarge(limit)
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
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(dst); err != nil {
		return decodeError(err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return chairside.Errorf(chairside.EBADREQUEST, "The request body must hold a single JSON object.")
	}
	return nil
}

func tooLarge(limit int64) error {
	return chairside.Errorf(chairside.ETOOLARGE, "The request body is larger than the limit of %d bytes.", limit)
}

// decodeError turns an encoding/json error into a clear bad_request.
func decodeError(err error) error {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		return chairside.Errorf(chairside.EBADREQUEST, "Malformed JSON at byte %d.", syn.Offset)
	case errors.Is(err, io.ErrUnexpectedEOF):
		return chairside.Errorf(chairside.EBADREQUEST, "Malformed JSON: the body ends too early.")
	case errors.As(err, &typ):
		if typ.Field != "" {
			return chairside.Errorf(chairside.EBADREQUEST, "Field %q must be a JSON %s.", typ.Field, jsonType(typ.Type.Kind().String()))
		}
		return chairside.Errorf(chairside.EBADREQUEST, "The request body must be a JSON object.")
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		field := strings.TrimPrefix(err.Error(), "json: unknown field ")
		return chairside.Errorf(chairside.EBADREQUEST, "The request body contains unknown field %s.", field)
	}
	return chairside.Errorf(chairside.EBADREQUEST, "Malformed JSON: %s", strings.TrimPrefix(err.Error(), "json: "))
}

// jsonType names a Go kind in JSON words.
func jsonType(kind string) string {
	switch {
	case strings.HasPrefix(kind, "int"), strings.HasPrefix(kind, "uint"), strings.HasPrefix(kind, "float"):
		return "number"
	case kind == "bool":
		return "boolean"
	case kind == "slice", kind == "array":
		return "array"
	case kind == "struct", kind == "map", kind == "ptr":
		return "object"
	}
	return fmt.Sprint(kind)
}
