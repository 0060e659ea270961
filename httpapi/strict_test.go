package httpapi_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/flow"
	"github.com/chairside/chairside/testkit"
)

// TestContentType: a body must come as application/json (any case, with
// parameters, UTF-8 only); anything else, or no Content-Type on a body,
// answers 415 unsupported_media_type. An optional body left out needs no
// Content-Type.
func TestContentType(t *testing.T) {
	sqliteOnly(t, config{}, func(t *testing.T, h *harness) {
		start := `{"purchaseAmountCents":450000}`
		path := "/flow/start/entity-keys/" + EntityKey
		for _, ct := range []string{"application/json", "application/json; charset=utf-8", "Application/JSON;charset=UTF-8"} {
			want(t, h.do(t, req{method: "POST", path: path, body: start, header: map[string]string{"Content-Type": ct}}), 200, "")
		}
		for _, ct := range []string{"", "text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x",
			"application/json; charset=latin1", "application/jsonx", "application/json-patch+json", "not a media type;;"} {
			m := want(t, h.do(t, req{method: "POST", path: path, body: start, header: map[string]string{"Content-Type": ct}}), 415, chairside.EMEDIATYPE)
			if msg, _ := m["message"].(string); !strings.Contains(msg, "Content-Type: application/json") && !strings.Contains(msg, "UTF-8") {
				t.Errorf("Content-Type %q: unclear message %q", ct, msg)
			}
		}

		// An optional body may be left out, with or without Content-Type.
		sid := h.start(t)
		want(t, h.do(t, req{method: "POST", path: "/apply/start/providers/synchrony_standard", session: sid}), 200, "")
		want(t, h.do(t, req{method: "POST", path: "/apply/start/providers/synchrony_standard", session: sid, body: "",
			header: map[string]string{"Content-Type": "application/json"}}), 200, "")
		// … but a body it has must be JSON, on every kind of operation.
		want(t, h.do(t, req{method: "POST", path: "/apply/start/providers/synchrony_standard", session: sid, body: "{}",
			header: map[string]string{"Content-Type": ""}}), 415, chairside.EMEDIATYPE)
		want(t, h.do(t, req{method: "POST", path: "/providers/synchrony_standard/prequalify", session: sid, body: `{"primary":{}}`,
			header: map[string]string{"Content-Type": "text/plain"}}), 415, chairside.EMEDIATYPE)
		want(t, h.do(t, req{method: "POST", path: "/flow/restart", session: sid, body: `{}`,
			header: map[string]string{"Content-Type": "text/plain"}}), 415, chairside.EMEDIATYPE)

		// A body sent chunked (no Content-Length) is checked too.
		hr, err := http.NewRequest("POST", h.srv.URL+"/api/v1"+path, io.MultiReader(strings.NewReader(start)))
		if err != nil {
			t.Fatal(err)
		}
		hr.Header.Set("Content-Type", "text/plain")
		resp, err := h.srv.Client().Do(hr)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != 415 {
			t.Errorf("chunked text/plain body: status %d, want 415", resp.StatusCode)
		}
	})
}

// TestStrictJSON: member names match exactly, a member may not appear
// twice, and type errors are clear — in the patient's words for an
// applicant's field, naming the field otherwise.
func TestStrictJSON(t *testing.T) {
	sqliteOnly(t, config{}, func(t *testing.T, h *harness) {
		sid := h.start(t)
		prequalify := "/providers/synchrony_standard/prequalify"
		consent, _ := json.Marshal(h.consent(t, sid, "synchrony_standard", flow.DocPrequalification))
		good, _ := json.Marshal(testkit.Applicant("Approve", "123456787"))

		// Wrong case: Go's encoding/json took {"Primary":…} as primary.
		m := want(t, h.do(t, req{method: "POST", path: prequalify, session: sid,
			body: `{"Primary":` + string(good) + `,"consent":` + string(consent) + `}`}), 400, chairside.EBADREQUEST)
		if msg := m["message"].(string); !strings.Contains(msg, `"Primary"`) || !strings.Contains(msg, `did you mean "primary"`) {
			t.Errorf("wrong-case message: %s", msg)
		}
		m = want(t, h.do(t, req{method: "POST", path: prequalify, session: sid,
			body: `{"primary":{"SSN":"123456787"},"consent":` + string(consent) + `}`}), 400, chairside.EBADREQUEST)
		if msg := m["message"].(string); !strings.Contains(msg, "primary.SSN") || !strings.Contains(msg, `"ssn"`) {
			t.Errorf("wrong-case nested message: %s", msg)
		}

		// A member twice: encoding/json let the last one win silently.
		m = want(t, h.do(t, req{method: "POST", path: prequalify, session: sid,
			body: `{"primary":{"ssn":"123456787","ssn":"987654321"},"consent":` + string(consent) + `}`}), 400, chairside.EBADREQUEST)
		if msg := m["message"].(string); !strings.Contains(msg, "primary.ssn") || !strings.Contains(msg, "more than once") {
			t.Errorf("duplicate message: %s", msg)
		}
		want(t, h.do(t, req{method: "POST", path: "/providers/synchrony_standard/payment/plans", session: sid, body: `{"amountCents":1,"amountCents":2}`}), 400, chairside.EBADREQUEST)
		want(t, h.do(t, req{method: "POST", path: "/validate/email", session: sid, body: `{"email":"a@example.com","email":"b@example.com"}`}), 400, chairside.EBADREQUEST)

		// Whole-number applicant fields given a decimal or a string.
		for _, tc := range []struct{ body, field string }{
			{`{"primary":{"monthsEmployed":2.5}}`, "primary.monthsEmployed"},
			{`{"primary":{"housingMonths":"12"}}`, "primary.housingMonths"},
			{`{"primary":{"annualGrossIncome":75000.50}}`, "primary.annualGrossIncome"},
			{`{"primary":{},"joint":{"monthsEmployed":1e2},"jointEnabled":true}`, "joint.monthsEmployed"},
			{`{"primary":{},"joint":{"housingPaymentAmount":"lots"},"jointEnabled":true}`, "joint.housingPaymentAmount"},
		} {
			body := strings.TrimSuffix(tc.body, "}") + `,"consent":` + string(consent) + `}`
			m := want(t, h.do(t, req{method: "POST", path: prequalify, session: sid, body: body}), 400, chairside.EINVALID)
			fes, _ := m["fieldErrors"].([]any)
			if len(fes) != 1 {
				t.Fatalf("%s: field errors %v", tc.body, m["fieldErrors"])
			}
			fe := fes[0].(map[string]any)
			if fe["field"] != tc.field || fe["message"] != "Please enter a whole number." {
				t.Errorf("%s: field error %v, want %s: Please enter a whole number.", tc.body, fe, tc.field)
			}
		}
		// The same in /validate's applicationData.
		m = want(t, h.do(t, req{method: "POST", path: "/validate", session: sid,
			body: `{"providerKey":"synchrony_standard","applicationData":{"primary":{"monthsEmployed":2.5}}}`}), 400, chairside.EINVALID)
		if fes, _ := m["fieldErrors"].([]any); len(fes) != 1 || fes[0].(map[string]any)["field"] != "primary.monthsEmployed" {
			t.Errorf("validate: %v", m)
		}
		// A text field given a number: a field error too.
		m = want(t, h.do(t, req{method: "POST", path: prequalify, session: sid, body: `{"primary":{"lastName":7}}`}), 400, chairside.EINVALID)
		if fes, _ := m["fieldErrors"].([]any); len(fes) != 1 || fes[0].(map[string]any)["field"] != "primary.lastName" {
			t.Errorf("text field: %v", m)
		}
		// A type error outside an applicant names the field.
		m = want(t, h.do(t, req{method: "POST", path: prequalify, session: sid, body: `{"primary":{},"jointEnabled":"yes"}`}), 400, chairside.EBADREQUEST)
		if msg := m["message"].(string); !strings.Contains(msg, `"jointEnabled"`) || !strings.Contains(msg, "boolean") {
			t.Errorf("jointEnabled message: %s", msg)
		}
		m = want(t, h.do(t, req{method: "POST", path: prequalify, session: sid, body: `{"primary":"Maria"}`}), 400, chairside.EBADREQUEST)
		if msg := m["message"].(string); !strings.Contains(msg, `"primary"`) || !strings.Contains(msg, "object") {
			t.Errorf("primary message: %s", msg)
		}
		want(t, h.do(t, req{method: "POST", path: "/validate", session: sid, body: `{"providerKey":"synchrony_standard","applicationData":{},"fieldIds":[1]}`}), 400, chairside.EBADREQUEST)
		want(t, h.do(t, req{method: "POST", path: prequalify, session: sid, body: `[]`}), 400, chairside.EBADREQUEST)
		want(t, h.do(t, req{method: "POST", path: prequalify, session: sid, body: "{\"primary\":{\"lastName\":\"\xff\"}}"}), 400, chairside.EBADREQUEST)

		// Nothing above reached a lender; a well-formed body still does.
		if n := h.decides.Load(); n != 0 {
			t.Errorf("%d lender decisions from refused bodies", n)
		}
		want(t, h.do(t, req{method: "POST", path: prequalify, session: sid, body: `{"primary":` + string(good) + `,"consent":` + string(consent) + `}`}), 200, "")
	})
}

// TestClientLog: POST /log takes a level, a code and a route from a live
// session, logs them as one line with one level and no other text, and
// refuses free text, a missing session, a large body and a flood.
func TestClientLog(t *testing.T) {
	sqliteOnly(t, config{}, func(t *testing.T, h *harness) {
		good := map[string]any{"level": "warn", "code": "api.lender_unavailable", "route": "/providers/{providerKey}/paymentPlans", "clientDateTime": "2026-11-23T10:00:00.123Z"}

		// No session, a made-up one, or a finished one: 401.
		want(t, h.do(t, req{method: "POST", path: "/log", body: good}), 401, chairside.EUNAUTHORIZED)
		want(t, h.do(t, req{method: "POST", path: "/log", session: strings.Repeat("A", 43), body: good}), 401, chairside.EUNAUTHORIZED)
		done := h.start(t)
		want(t, h.do(t, req{method: "POST", path: "/flow/finish/canceled", session: done}), 200, "")
		want(t, h.do(t, req{method: "POST", path: "/log", session: done, body: good}), 401, chairside.EUNAUTHORIZED)

		sid := h.start(t)
		before := len(h.logs.String())
		want(t, h.do(t, req{method: "POST", path: "/log", session: sid, body: good}), 204, "")

		// One line "client log" at WARN, with exactly one level key.
		var line string
		sc := bufio.NewScanner(strings.NewReader(h.logs.String()[before:]))
		for sc.Scan() {
			if strings.Contains(sc.Text(), `"msg":"client log"`) {
				line = sc.Text()
			}
		}
		if line == "" {
			t.Fatalf("no client log line in:\n%s", h.logs.String()[before:])
		}
		if n := strings.Count(line, `"level":`); n != 1 {
			t.Errorf("%d level keys in %s", n, line)
		}
		keys := topLevelKeys(t, line)
		wantKeys := []string{"time", "level", "msg", "source", "code", "route", "session"}
		if strings.Join(keys, ",") != strings.Join(wantKeys, ",") {
			t.Errorf("log keys %v, want %v", keys, wantKeys)
		}
		var rec map[string]any
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatal(err)
		}
		if rec["level"] != "WARN" || rec["source"] != "browser" || rec["code"] != good["code"] || rec["route"] != good["route"] ||
			rec["session"] != flow.SessionHash(chairside.HashSecret(sid)) {
			t.Errorf("log line %s", line)
		}
		if strings.Contains(line, "2026-11-23T10:00:00.123Z") {
			t.Error("clientDateTime reached the log")
		}
		for level, slogLevel := range map[string]string{"error": "ERROR", "info": "INFO"} {
			before := len(h.logs.String())
			body := map[string]any{"level": level, "code": "ui.route_error", "route": "/"}
			want(t, h.do(t, req{method: "POST", path: "/log", session: sid, body: body}), 204, "")
			if !strings.Contains(h.logs.String()[before:], `"level":"`+slogLevel+`","msg":"client log"`) {
				t.Errorf("level %s not logged as %s:\n%s", level, slogLevel, h.logs.String()[before:])
			}
		}

		// Anything but the narrow shape: 400, and none of it in the log.
		refused := []map[string]any{
			{"level": "error", "code": "maria.lopez@example.com", "route": "/"},
			{"level": "error", "code": "Maria Lopez", "route": "/"},
			{"level": "error", "code": "payment failed for maria", "route": "/"},
			{"level": "error", "code": "ui.route_error", "route": "/start/maria.lopez@example.com"},
			{"level": "error", "code": "ui.route_error", "route": "/results?name=Maria"},
			{"level": "error", "code": "ui.route_error", "route": "providers/x"},
			// In the shapes a code and a route have, but no code or route
			// of the app: a token, an SSN, a made-up route.
			{"level": "error", "code": "api.x7f3kq9zp2wq", "route": "/"},
			{"level": "error", "code": "ssn.078051120", "route": "/"},
			{"level": "error", "code": "ui.route_error", "route": "/start/tokens/Zx81kQm3"},
			{"level": "error", "code": "ui.route_error", "route": "/078-05-1120"},
			{"level": "error", "code": "ui.route_error", "route": "/providers/{providerKey}/plans"},
			{"level": "error", "code": "ui.route_error", "route": "/" + strings.Repeat("a", 128)},
			{"level": "error", "code": strings.Repeat("a", 65), "route": "/"},
			{"level": "ERROR", "code": "ui.route_error", "route": "/"},
			{"level": "debug", "code": "ui.route_error", "route": "/"},
			{"level": "error", "route": "/"},
			{"level": "error", "code": "ui.route_error"},
			{"level": "error", "code": "ui.route_error", "route": "/", "message": "Maria Lopez could not pay"},
			{"level": "error", "code": "ui.route_error", "route": "/", "name": "Maria Lopez"},
			{"level": "error", "code": "ui.route_error", "route": "/", "clientDateTime": "yesterday, Maria"},
			{"level": "error", "code": "ui.route_error", "route": "/", "clientDateTime": "2026-11-23T10:00:00.123456789123456789+00:00"},
		}
		before = len(h.logs.String())
		for _, body := range refused {
			// A session each: the log's own rate limit is another test.
			res := h.do(t, req{method: "POST", path: "/log", session: h.start(t), body: body})
			if res.status != 400 {
				t.Errorf("%v: %d %s, want 400", body, res.status, res.body)
			}
		}
		after := h.logs.String()[before:]
		for _, text := range []string{"Maria", "maria", "example.com", "yesterday", "could not pay", "x7f3kq9zp2wq", "078051120", "078-05-1120", "Zx81kQm3"} {
			if strings.Contains(after, text) {
				t.Errorf("refused text %q reached the log:\n%s", text, after)
			}
		}
		if strings.Contains(after, `"msg":"client log"`) {
			t.Errorf("a refused body was logged:\n%s", after)
		}

		// Over 1 KiB: 413, before any of it is read into the log.
		big := map[string]any{"level": "error", "code": "ui.route_error", "route": "/" + strings.Repeat("a", 100), "pad": strings.Repeat("b", 1100)}
		want(t, h.do(t, req{method: "POST", path: "/log", session: h.start(t), body: big}), 413, chairside.ETOOLARGE)
	})
}

// TestClientLogRateLimit: a session that logs too much gets 429 with
// Retry-After, and another session is not affected.
func TestClientLogRateLimit(t *testing.T) {
	sqliteOnly(t, config{}, func(t *testing.T, h *harness) {
		sid := h.start(t)
		body := map[string]any{"level": "info", "code": "ui.route_error", "route": "/"}
		var last *result
		ok := 0
		for range 31 {
			last = h.do(t, req{method: "POST", path: "/log", session: sid, body: body})
			if last.status != 204 {
				break
			}
			ok++
		}
		want(t, last, 429, chairside.ERATELIMITED)
		if ok > 30 || ok < 1 {
			t.Errorf("%d lines before the limit", ok)
		}
		if secs, err := strconv.Atoi(last.header.Get("Retry-After")); err != nil || secs < 1 || secs > 60 {
			t.Errorf("Retry-After %q", last.header.Get("Retry-After"))
		}
		want(t, h.do(t, req{method: "POST", path: "/log", session: h.start(t), body: body}), 204, "")
	})
}

// TestBrowserHeaders: every answer denies the browser features the app
// does not use; HSTS is sent when the server is configured as reached over
// https (TLS ended by a proxy), and not otherwise.
func TestBrowserHeaders(t *testing.T) {
	for _, hsts := range []bool{false, true} {
		sqliteOnly(t, config{hsts: hsts}, func(t *testing.T, h *harness) {
			for _, path := range []string{"/api/v1/internal/version", "/", "/providers/x/start", "/api/v1/no/such"} {
				resp, err := h.srv.Client().Get(h.srv.URL + path)
				if err != nil {
					t.Fatal(err)
				}
				resp.Body.Close()
				pp := resp.Header.Get("Permissions-Policy")
				for _, feature := range []string{"camera=()", "microphone=()", "geolocation=()", "payment=()", "usb=()", "browsing-topics=()", "interest-cohort=()", "publickey-credentials-get=(self)"} {
					if !strings.Contains(pp, feature) {
						t.Errorf("GET %s: Permissions-Policy %q lacks %s", path, pp, feature)
					}
				}
				got := resp.Header.Get("Strict-Transport-Security")
				if hsts && got != "max-age=31536000; includeSubDomains" || !hsts && got != "" {
					t.Errorf("GET %s with HSTS %v: Strict-Transport-Security %q", path, hsts, got)
				}
			}
		})
	}
}

// topLevelKeys lists a JSON object's keys in order, repeats included.
func topLevelKeys(t *testing.T, line string) []string {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader([]byte(line)))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		t.Fatalf("not an object: %s", line)
	}
	var keys []string
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, tok.(string))
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			t.Fatal(err)
		}
	}
	return keys
}

// TestContractInFlight: the operations whose lender step may be in flight
// document a 409 with Retry-After, and an in_flight answer and a 415
// answer match the contract.
func TestContractInFlight(t *testing.T) {
	c := loadContract(t)
	for _, path := range []string{
		"/providers/{providerKey}/prequalify", "/providers/{providerKey}/prescreen", "/providers/{providerKey}/apply",
		"/providers/{providerKey}/acceptOffer", "/providers/{providerKey}/application/esign",
		"/providers/{providerKey}/application/complete",
	} {
		op := contractDoc.Paths.Find(path).Post
		res := op.Responses.Status(409)
		if res == nil || res.Value.Headers["Retry-After"] == nil {
			t.Errorf("POST %s: no 409 with Retry-After", path)
		}
		if op.Responses.Status(415) == nil {
			t.Errorf("POST %s: no 415", path)
		}
		url := "http://example.test/api/v1" + strings.Replace(path, "{providerKey}", "synchrony_standard", 1)
		r, _ := http.NewRequest("POST", url, strings.NewReader("{}"))
		r.Header.Set("Content-Type", "application/json")
		r.Header.Set("X-Web-Session-Id", strings.Repeat("A", 43))
		for _, ans := range []*result{
			{status: 409, header: http.Header{"Content-Type": {"application/json"}, "Retry-After": {"3"}},
				body: []byte(`{"code":"in_flight","message":"The lender is still working on your application. Please wait a moment."}`)},
			{status: 415, header: http.Header{"Content-Type": {"application/json"}},
				body: []byte(`{"code":"unsupported_media_type","message":"Send JSON."}`)},
		} {
			c.check(t, r, ans)
		}
	}
}
