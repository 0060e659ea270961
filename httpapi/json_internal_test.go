package httpapi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/flow"
)

// TestWriteErrorStatusAndRetryAfter: every code has its status, and an
// error that says how long to wait gets Retry-After in whole seconds,
// rounded up, whatever its code.
// TestEveryErrorCodeHasItsStatus: the codes the domain lists
// (chairside.ErrorCodes, from which the browser's loggable codes are
// written) are exactly those with a status here, so neither list can gain
// a code the other lacks.
func TestEveryErrorCodeHasItsStatus(t *testing.T) {
	listed := map[string]bool{}
	for _, c := range chairside.ErrorCodes() {
		if _, ok := statusOf[c]; !ok || listed[c] {
			t.Errorf("%q: status mapped %v, listed twice %v", c, ok, listed[c])
		}
		listed[c] = true
	}
	for c := range statusOf {
		if !listed[c] {
			t.Errorf("%q has a status but is not in chairside.ErrorCodes", c)
		}
	}
}

func TestWriteErrorStatusAndRetryAfter(t *testing.T) {
	h := &Handler{log: NewLogger(&bytes.Buffer{}, nil)}
	for _, tc := range []struct {
		err        error
		status     int
		retryAfter string
	}{
		{&chairside.Error{Code: chairside.EINFLIGHT, Message: "busy", RetryAfter: 2500 * time.Millisecond}, 409, "3"},
		{&chairside.Error{Code: chairside.EINFLIGHT, Message: "busy", RetryAfter: 10 * time.Millisecond}, 409, "1"},
		{&chairside.Error{Code: chairside.EINFLIGHT, Message: "busy", RetryAfter: 27 * time.Second}, 409, "27"},
		{chairside.Errorf(chairside.EMEDIATYPE, "not JSON"), 415, ""},
		{chairside.Errorf(chairside.ECONFLICT, "out of order"), 409, ""},
		{&chairside.Error{Code: chairside.ECONFLICT, Message: "later", RetryAfter: time.Second}, 409, "1"},
		{chairside.Errorf(chairside.ERATELIMITED, "slow down"), 429, "60"},
		{&chairside.Error{Code: chairside.ERATELIMITED, Message: "tomorrow", RetryAfter: 5*time.Hour + time.Millisecond}, 429, "18001"},
		{fmt.Errorf("wrapped: %w", &chairside.Error{Code: chairside.EINFLIGHT, Message: "busy", RetryAfter: time.Second}), 409, "1"},
		{&chairside.Error{Code: chairside.EINTERNAL, Message: "x", RetryAfter: time.Second}, 500, ""},
	} {
		w := httptest.NewRecorder()
		h.writeError(w, httptest.NewRequest("POST", "/api/v1/x", nil), tc.err)
		if w.Code != tc.status || w.Header().Get("Retry-After") != tc.retryAfter {
			t.Errorf("%v: %d Retry-After %q, want %d %q", tc.err, w.Code, w.Header().Get("Retry-After"), tc.status, tc.retryAfter)
		}
		var body ErrorResponse
		if err := json.Unmarshal(w.Body.Bytes(), &body); err != nil || body.Code != chairside.ErrorCode(tc.err) {
			t.Errorf("%v: body %s", tc.err, w.Body)
		}
	}
	// The middleware's own Retry-After for the per-IP limit is kept when
	// the error has none.
	w := httptest.NewRecorder()
	w.Header().Set("Retry-After", "7")
	h.writeError(w, httptest.NewRequest("GET", "/", nil), chairside.Errorf(chairside.ERATELIMITED, "x"))
	if got := w.Header().Get("Retry-After"); got != "7" {
		t.Errorf("Retry-After %q, want 7", got)
	}
}

// TestDecodeLikeEncodingJSON: for well-formed bodies of every request type,
// the strict decoder fills the value exactly as encoding/json did — all
// fields set, all left out, nulls, empty arrays — so the switch to JSON v2
// changes what is refused, never what valid input means.
func TestDecodeLikeEncodingJSON(t *testing.T) {
	types := []any{
		flow.StartRequest{}, flow.StartOptions{}, flow.SubmitRequest{}, flow.PlansRequest{},
		flow.AcceptOfferRequest{}, flow.ESignRequest{}, flow.ValidateRequest{}, phoneRequest{},
		zipCodeRequest{}, emailRequest{}, flow.LogRequest{}, flow.PlansPresentedRequest{},
		chairside.Applicant{}, empty{},
	}
	for _, zero := range types {
		typ := reflect.TypeOf(zero)
		full := reflect.New(typ)
		fill(full.Elem(), 0)
		allSet, err := json.Marshal(full.Interface())
		if err != nil {
			t.Fatal(err)
		}
		bodies := []string{string(allSet), "{}", "null", " {} \n", nullsFor(typ), emptiesFor(typ)}
		for _, body := range bodies {
			v1 := reflect.New(typ)
			errV1 := json.Unmarshal([]byte(body), v1.Interface())
			v2 := reflect.New(typ)
			r := httptest.NewRequest("POST", "/", strings.NewReader(body))
			r.Header.Set("Content-Type", "application/json")
			errV2 := decode(httptest.NewRecorder(), r, 1<<20, v2.Interface(), false)
			if errV1 != nil || errV2 != nil {
				t.Errorf("%s %s: encoding/json %v, decode %v", typ, body, errV1, errV2)
				continue
			}
			if !reflect.DeepEqual(v1.Interface(), v2.Interface()) {
				t.Errorf("%s %s:\nencoding/json %+v\ndecode        %+v", typ, body, v1.Elem(), v2.Elem())
			}
		}
		// And the full value survives the round trip.
		back := reflect.New(typ)
		r := httptest.NewRequest("POST", "/", bytes.NewReader(allSet))
		r.Header.Set("Content-Type", "application/json")
		if err := decode(httptest.NewRecorder(), r, 1<<20, back.Interface(), false); err != nil || !reflect.DeepEqual(back.Interface(), full.Interface()) {
			t.Errorf("%s: round trip %v\n%+v\n%+v", typ, err, full.Elem(), back.Elem())
		}
	}
}

// fill sets every exported field of v to a distinct non-zero value. A
// struct inside a struct of its own type (a submit's cascade holds
// submits) keeps its slices empty, so filling ends.
func fill(v reflect.Value, n int, outer ...reflect.Type) int {
	switch v.Kind() {
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				n = fill(v.Field(i), n, append(outer, v.Type())...)
			}
		}
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		n = fill(v.Elem(), n, outer...)
	case reflect.Slice:
		if len(outer) > 0 && slices.Contains(outer[:len(outer)-1], outer[len(outer)-1]) {
			break
		}
		v.Set(reflect.MakeSlice(v.Type(), 2, 2))
		n = fill(v.Index(0), n, outer...)
		n = fill(v.Index(1), n, outer...)
	case reflect.String:
		n++
		v.SetString(fmt.Sprintf("value-%d é\u2028<&>", n))
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int64:
		n++
		v.SetInt(int64(n) * 1_000_003)
	default:
		panic("fill: unexpected kind " + v.Kind().String())
	}
	return n
}

// nullsFor is a body giving null to every member of a struct type.
func nullsFor(t reflect.Type) string {
	var parts []string
	for _, name := range jsonNames(t) {
		parts = append(parts, fmt.Sprintf("%q:null", name))
	}
	return "{" + strings.Join(parts, ",") + "}"
}

// emptiesFor is a body giving every member its empty JSON value: "", 0,
// false, [] or {}.
func emptiesFor(t reflect.Type) string {
	var parts []string
	var walk func(t reflect.Type)
	walk = func(t reflect.Type) {
		for i := range t.NumField() {
			f := t.Field(i)
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if f.Anonymous && name == "" {
				walk(f.Type)
				continue
			}
			if !f.IsExported() || name == "-" {
				continue
			}
			ft := f.Type
			for ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			val := map[reflect.Kind]string{reflect.String: `""`, reflect.Int: "0", reflect.Int64: "0", reflect.Bool: "false",
				reflect.Slice: "[]", reflect.Struct: "{}"}[ft.Kind()]
			parts = append(parts, fmt.Sprintf("%q:%s", name, val))
		}
	}
	walk(t)
	return "{" + strings.Join(parts, ",") + "}"
}

// TestDecodeRefuses: what encoding/json let through and decode refuses.
func TestDecodeRefuses(t *testing.T) {
	for _, tc := range []struct {
		body, code, msg string
	}{
		{`{"Primary":{}}`, chairside.EBADREQUEST, `did you mean "primary"`},
		{`{"primary":{"firstname":"x"}}`, chairside.EBADREQUEST, `did you mean "firstName"`},
		{`{"primary":{},"primary":{}}`, chairside.EBADREQUEST, "more than once"},
		{`{"consent":{"agreed":true,"agreed":false}}`, chairside.EBADREQUEST, `"consent.agreed" more than once`},
		{`{"primary":{}} {}`, chairside.EBADREQUEST, "single JSON object"},
		{`{"primary":{}} x`, chairside.EBADREQUEST, "single JSON object"},
		{`{"primary":{`, chairside.EBADREQUEST, "ends too early"},
		{`{"primary":{"monthsEmployed":2.5}}`, chairside.EINVALID, "primary.monthsEmployed: Please enter a whole number."},
		{`{"primary":{"monthsEmployed":99999999999999999999}}`, chairside.EINVALID, "primary.monthsEmployed: Please enter a smaller number."},
		{`{"joint":{"annualNetIncome":"1000"}}`, chairside.EINVALID, "joint.annualNetIncome: Please enter a whole number."},
		{`{"joint":{"email":["a"]}}`, chairside.EINVALID, "joint.email: Please enter this as text."},
		{`{"jointEnabled":1}`, chairside.EBADREQUEST, `Field "jointEnabled" must be a JSON boolean.`},
		{`{"consent":{"documentId":5}}`, chairside.EBADREQUEST, `Field "consent.documentId" must be a JSON string.`},
		{`"x"`, chairside.EBADREQUEST, "must be a JSON object"},
	} {
		var dst flow.SubmitRequest
		r := httptest.NewRequest("POST", "/", strings.NewReader(tc.body))
		r.Header.Set("Content-Type", "application/json")
		err := decode(httptest.NewRecorder(), r, 1<<20, &dst, false)
		got := chairside.ErrorMessage(err)
		for _, fe := range chairside.FieldErrorsOf(err) {
			got += " " + fe.Field + ": " + fe.Message
		}
		if chairside.ErrorCode(err) != tc.code || !strings.Contains(got, tc.msg) {
			t.Errorf("%s: %s %q, want %s with %q", tc.body, chairside.ErrorCode(err), got, tc.code, tc.msg)
		}
	}
	// A body over the limit, declared or not, is payload_too_large.
	r := httptest.NewRequest("POST", "/", strings.NewReader(`{"primary":{"firstName":"`+strings.Repeat("a", 200)+`"}}`))
	r.Header.Set("Content-Type", "application/json")
	if err := decode(httptest.NewRecorder(), r, 100, &flow.SubmitRequest{}, false); chairside.ErrorCode(err) != chairside.ETOOLARGE {
		t.Errorf("over the limit: %v", err)
	}
	if statusOf[chairside.ETOOLARGE] != http.StatusRequestEntityTooLarge {
		t.Error("payload_too_large is not 413")
	}
}
