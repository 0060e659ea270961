package httpapi_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/api"
	"github.com/chairside/chairside/flow"
	"github.com/chairside/chairside/httpapi"
	"github.com/chairside/chairside/testkit"
)

// canarySSN is a value that must never appear in a log line.
const canarySSN = "078051120"

// TestFullFlow runs a patient from an at-home link to a completed account
// on both engines, and checks that the finished session is dead and that
// the SSN never reached the logs.
func TestFullFlow(t *testing.T) {
	eachEngine(t, config{}, func(t *testing.T, h *harness) {
		var start flow.StartResponse
		res := h.do(t, req{method: "POST", path: "/flow/start/entity-keys/" + EntityKey, body: map[string]any{"purchaseAmountCents": 450000}})
		want(t, res, 200, "")
		res.into(t, &start)
		s := start.Session
		if len(s.WebSessionID) < 22 || s.Env != "test" || s.GroupID != "group-100" || s.Properties.State != "CA" ||
			s.DynamicLenderKey != "synchrony_standard" || s.Properties.ApplyMode != "prequalify" ||
			s.TimeoutAfterMillis != 600000 || s.WarnCountdownMillis != 30000 || s.FlowType != "apply" {
			t.Fatalf("start session: %+v", s)
		}
		if start.Application.PurchaseAmountCents != 450000 || start.Location.Name != "Bright Smiles Dental" {
			t.Fatalf("start application/location: %+v %+v", start.Application, start.Location)
		}
		sid := s.WebSessionID

		loc := want(t, h.do(t, req{method: "GET", path: "/locations/current", session: sid}), 200, "")
		if len(loc["waterfall"].([]any)) != 3 {
			t.Fatalf("waterfall: %v", loc["waterfall"])
		}

		var form flow.ApplyStartResponse
		res = h.do(t, req{method: "POST", path: "/apply/start/providers/synchrony_standard", session: sid})
		want(t, res, 200, "")
		res.into(t, &form)
		if form.ApplyMode != "prequalify" || len(form.Fields) == 0 || len(form.Lenders) != 3 {
			t.Fatalf("apply start: mode %s, %d fields, %d providers", form.ApplyMode, len(form.Fields), len(form.Lenders))
		}
		want(t, h.do(t, req{method: "POST", path: "/apply/start/providers/synchrony_standard?mode=full", session: sid}), 200, "")

		for _, q := range []req{
			{method: "POST", path: "/validate/phone", body: map[string]any{"phoneNumber": "3105550100"}},
			{method: "POST", path: "/validate/zipCode", body: map[string]any{"zipCode": "90017", "state": "CA"}},
			{method: "POST", path: "/validate/email", body: map[string]any{"email": "maria@example.com"}},
		} {
			q.session = sid
			if m := want(t, h.do(t, q), 200, ""); m["valid"] != true {
				t.Errorf("%s: %v", q.path, m)
			}
		}
		if m := want(t, h.do(t, req{method: "POST", path: "/validate/zipCode", session: sid, body: map[string]any{"zipCode": "10001", "state": "CA"}}), 200, ""); m["valid"] != false {
			t.Errorf("NY zip valid for CA: %v", m)
		}
		v := want(t, h.do(t, req{method: "POST", path: "/validate", session: sid, body: map[string]any{
			"providerKey": "synchrony_standard", "applicationData": map[string]any{"primary": map[string]any{"ssn": "12"}}, "fieldIds": []string{"ssn"},
		}}), 200, "")
		if v["valid"] != false || len(v["fieldErrors"].([]any)) != 1 {
			t.Errorf("validate: %v", v)
		}

		d := want(t, h.prequalify(t, sid, "synchrony_standard", testkit.Applicant("Approve", canarySSN)), 200, "")
		if !chairside.Positive(d["responseCode"].(string)) || d["approvedAmountCents"].(float64) <= 0 || d["next"] != nil {
			t.Fatalf("prequalify Approve: %v", d)
		}

		var plans flow.PlansResponse
		res = h.do(t, req{method: "POST", path: "/providers/synchrony_standard/payment/plans", session: sid, body: map[string]any{"amountCents": 300000}})
		want(t, res, 200, "")
		res.into(t, &plans)
		if len(plans.PaymentPlans) == 0 {
			t.Fatal("no plans")
		}
		want(t, h.do(t, req{method: "POST", path: "/application/events/financing-plans-presented", session: sid, body: map[string]any{"providerKeys": []string{"synchrony_standard"}}}), 204, "")
		code := plans.PaymentPlans[0].LenderPlanCode
		want(t, h.do(t, req{method: "POST", path: "/providers/synchrony_standard/payment/plans/not-a-plan/select", session: sid}), 404, chairside.ENOTFOUND)
		// Confirming before selecting is out of order.
		want(t, h.do(t, req{method: "POST", path: "/providers/synchrony_standard/payment/plans/" + code + "/confirm-selection", session: sid}), 409, chairside.ECONFLICT)
		sel := want(t, h.do(t, req{method: "POST", path: "/providers/synchrony_standard/payment/plans/" + code + "/select", session: sid}), 200, "")
		if sel["providerPlanCode"] != code {
			t.Fatalf("select answered %v", sel)
		}
		want(t, h.do(t, req{method: "POST", path: "/providers/synchrony_standard/payment/plans/" + code + "/confirm-selection", session: sid}), 200, "")
		var agreement chairside.Document
		res = h.do(t, req{method: "POST", path: "/providers/synchrony_standard/agreement", session: sid})
		want(t, res, 200, "")
		res.into(t, &agreement)
		want(t, h.do(t, req{method: "GET", path: "/providers/synchrony_standard/termsUrl", session: sid}), 200, "")

		acc := want(t, h.do(t, req{method: "POST", path: "/providers/synchrony_standard/acceptOffer", session: sid, body: map[string]any{"providerPlanCode": code}}), 200, "")
		if acc["status"] != chairside.StatusOfferAccepted {
			t.Fatalf("accept: %v", acc)
		}
		esignConsent := h.consent(t, sid, "synchrony_standard", flow.DocESign)
		agreementConsent := flow.ConsentInput{DocumentID: agreement.ID, DocumentVersion: agreement.Version, DocumentSHA256: agreement.SHA256, Agreed: true}
		hardPull := h.consent(t, sid, "synchrony_standard", flow.DocApplication)
		// A signature too small to be one is refused.
		want(t, h.do(t, req{method: "POST", path: "/providers/synchrony_standard/application/esign", session: sid, body: flow.ESignRequest{
			Consent: &esignConsent, AgreementConsent: &agreementConsent, HardPullConsent: &hardPull, SignaturePNG: "data:image/png;base64,iVBORw0KGgo=",
		}}), 400, chairside.EBADREQUEST)
		// The agreement not agreed to, or (after this prequalification) the hard pull: consent_required.
		want(t, h.do(t, req{method: "POST", path: "/providers/synchrony_standard/application/esign", session: sid, body: flow.ESignRequest{
			Consent: &esignConsent, HardPullConsent: &hardPull, SignaturePNG: testkit.SignaturePNG(t),
		}}), 400, chairside.ECONSENT)
		want(t, h.do(t, req{method: "POST", path: "/providers/synchrony_standard/application/esign", session: sid, body: flow.ESignRequest{
			Consent: &esignConsent, AgreementConsent: &agreementConsent, SignaturePNG: testkit.SignaturePNG(t),
		}}), 400, chairside.ECONSENT)
		sig := want(t, h.do(t, req{method: "POST", path: "/providers/synchrony_standard/application/esign", session: sid, body: flow.ESignRequest{
			Consent: &esignConsent, AgreementConsent: &agreementConsent, HardPullConsent: &hardPull, SignaturePNG: testkit.SignaturePNG(t),
		}}), 200, "")
		if sig["status"] != chairside.StatusSigned {
			t.Fatalf("esign: %v", sig)
		}
		done := want(t, h.do(t, req{method: "POST", path: "/providers/synchrony_standard/application/complete", session: sid}), 200, "")
		if done["status"] != chairside.StatusCompleted {
			t.Fatalf("complete: %v", done)
		}
		want(t, h.do(t, req{method: "POST", path: "/providers/synchrony_standard/application-status", session: sid}), 200, "")

		// The consents are records: soft pull, e-sign with the signature, the
		// agreement and the hard pull given at signing.
		sess, err := h.db.FindSession(context.Background(), sha(sid))
		if err != nil {
			t.Fatal(err)
		}
		consents, err := h.db.ListConsents(context.Background(), sess.ApplicationID)
		if err != nil {
			t.Fatal(err)
		}
		kinds := map[string]bool{}
		for _, c := range consents {
			kinds[c.Kind] = true
			if c.Kind == chairside.ConsentESign && len(c.SignaturePNG) <= 3000 {
				t.Errorf("e-sign consent without the signature")
			}
		}
		if !kinds[chairside.ConsentSoftPull] || !kinds[chairside.ConsentESign] || !kinds[chairside.ConsentTerms] || !kinds[chairside.ConsentHardPull] {
			t.Errorf("consent kinds %v", kinds)
		}

		fin := want(t, h.do(t, req{method: "POST", path: "/flow/finish/completed", session: sid}), 200, "")
		if fin["outcome"] != "completed" {
			t.Fatalf("finish: %v", fin)
		}
		want(t, h.do(t, req{method: "GET", path: "/locations/current", session: sid}), 401, chairside.EUNAUTHORIZED)
		want(t, h.do(t, req{method: "POST", path: "/flow/finish/completed", session: sid}), 401, chairside.EUNAUTHORIZED)

		logs := h.logs.String()
		if strings.Contains(logs, canarySSN) || strings.Contains(logs, sid) {
			t.Fatalf("the SSN or the raw session id reached the logs")
		}
		if !strings.Contains(logs, `"route":"POST /api/v1/providers/{providerKey}/prequalify"`) {
			t.Errorf("request log lines lack the route pattern:\n%.2000s", logs)
		}
	})
}

func sha(webSessionID string) string { return chairside.HashSecret(webSessionID) }

// TestSessions covers the ways a call can lack a live session.
func TestSessions(t *testing.T) {
	eachEngine(t, config{}, func(t *testing.T, h *harness) {
		want(t, h.do(t, req{method: "GET", path: "/locations/current"}), 401, chairside.EUNAUTHORIZED)
		want(t, h.do(t, req{method: "GET", path: "/locations/current", session: "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"}), 401, chairside.EUNAUTHORIZED)
		want(t, h.do(t, req{method: "GET", path: "/locations/current", session: "bad id!"}), 401, chairside.EUNAUTHORIZED)

		// Idle: past timeout + countdown + margin, the server refuses.
		sid := h.start(t)
		h.clock.Advance(5 * time.Minute)
		want(t, h.do(t, req{method: "GET", path: "/locations/current", session: sid}), 200, "")
		h.clock.Advance(600*time.Second + 30*time.Second + chairside.SessionIdleMargin + time.Second)
		want(t, h.do(t, req{method: "GET", path: "/locations/current", session: sid}), 401, chairside.EUNAUTHORIZED)

		// Canceled finish ends it too; restart ends the old and starts anew.
		sid = h.start(t)
		var again flow.StartResponse
		res := h.do(t, req{method: "POST", path: "/flow/restart", session: sid})
		want(t, res, 200, "")
		res.into(t, &again)
		if again.Application.PurchaseAmountCents != 450000 {
			t.Errorf("restart lost the purchase amount: %+v", again.Application)
		}
		want(t, h.do(t, req{method: "GET", path: "/locations/current", session: sid}), 401, chairside.EUNAUTHORIZED)
		sid = again.Session.WebSessionID
		want(t, h.do(t, req{method: "POST", path: "/flow/finish/canceled", session: sid}), 200, "")
		want(t, h.do(t, req{method: "POST", path: "/flow/restart", session: sid}), 401, chairside.EUNAUTHORIZED)

		// Starts that cannot work.
		want(t, h.do(t, req{method: "POST", path: "/flow/start/entity-keys/123"}), 400, chairside.EBADREQUEST)
		want(t, h.do(t, req{method: "POST", path: "/flow/start/entity-keys/9999888877776666"}), 404, chairside.ENOTFOUND)
		want(t, h.do(t, req{method: "POST", path: "/flow/start", body: map[string]any{"entityKey": EntityKey}}), 200, "")
		want(t, h.do(t, req{method: "POST", path: "/flow/start/tokens/this-token-does-not-exist"}), 404, chairside.ENOTFOUND)

		// Tokens are single use.
		token := "tok_abcdefghijklmnopqrstuvwxyz012345"
		err := h.db.CreateFlowToken(context.Background(), &chairside.FlowToken{
			Hash: chairside.HashSecret(token), LocationID: mustLocation(t, h).ID, PurchaseAmountCents: 123400,
			InsuranceBenefitsCents: 5000, FirstName: "Ana", LastName: "Núñez", ExperienceType: chairside.ExperienceInStore,
			MobilePhone: "5035550142", Email: "ana@example.com",
			ExpiresAt: h.clock.Now().Add(time.Hour), CreatedAt: h.clock.Now(),
		})
		if err != nil {
			t.Fatal(err)
		}
		var byToken flow.StartResponse
		res = h.do(t, req{method: "POST", path: "/flow/start/tokens/" + token})
		want(t, res, 200, "")
		res.into(t, &byToken)
		// Where the office sent the link comes back to prefill the form.
		if p := byToken.Application.Primary; p.LastName != "Núñez" || p.Email != "ana@example.com" || p.MobilePhone != "5035550142" ||
			byToken.Application.Insurance.InsuranceBenefitsCents != 5000 || byToken.Session.ExperienceType != "in_store" {
			t.Errorf("token start: %+v %+v", byToken.Application, byToken.Session)
		}
		want(t, h.do(t, req{method: "POST", path: "/flow/start/tokens/" + token}), 404, chairside.ENOTFOUND)
		if strings.Contains(h.logs.String(), token) {
			t.Error("the flow token reached the logs")
		}
	})
}

func mustLocation(t *testing.T, h *harness) *chairside.Location {
	t.Helper()
	l, err := h.db.FindLocationByEntityKey(context.Background(), EntityKey)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// TestRequestErrors covers the answers to bad requests.
func TestRequestErrors(t *testing.T) {
	eachEngine(t, config{}, func(t *testing.T, h *harness) {
		sid := h.start(t)
		want(t, h.do(t, req{method: "POST", path: "/apply/start/providers/nope_standard", session: sid}), 404, chairside.ENOTFOUND)
		want(t, h.do(t, req{method: "POST", path: "/apply/start/providers/ads_standard", session: sid}), 404, chairside.ENOTFOUND) // not in this waterfall
		want(t, h.do(t, req{method: "POST", path: "/apply/start/providers/synchrony_standard?mode=bogus", session: sid}), 400, chairside.EBADREQUEST)
		want(t, h.do(t, req{method: "POST", path: "/providers/nope_standard/payment/plans", session: sid, body: map[string]any{"amountCents": 100}}), 404, chairside.ENOTFOUND)
		want(t, h.do(t, req{method: "POST", path: "/providers/synchrony_standard/acceptOffer", session: sid}), 404, chairside.ENOTFOUND)

		// Rules broken: prefixed field errors for each applicant.
		bad := testkit.Applicant("Approve", "12345")
		joint := testkit.Applicant("Approve", "123456780")
		joint.DateOfBirth = "2030-01-01"
		m := want(t, h.do(t, req{method: "POST", path: "/providers/synchrony_standard/prequalify", session: sid, body: flow.SubmitRequest{
			Primary: bad, Joint: &joint, JointEnabled: true, Consent: testkit.Ptr(h.consent(t, sid, "synchrony_standard", flow.DocPrequalification)),
		}}), 400, chairside.EINVALID)
		fields := map[string]bool{}
		for _, fe := range m["fieldErrors"].([]any) {
			f := fe.(map[string]any)["field"].(string)
			if !strings.HasPrefix(f, "primary.") && !strings.HasPrefix(f, "joint.") {
				t.Errorf("field error without applicant prefix: %s", f)
			}
			fields[f] = true
		}
		if !fields["primary.ssn"] || !fields["joint.dateOfBirth"] {
			t.Fatalf("field errors %v", fields)
		}

		// Consent missing, not agreed, or naming another document.
		good := testkit.Applicant("Approve", "123456789")
		want(t, h.do(t, req{method: "POST", path: "/providers/synchrony_standard/prequalify", session: sid, body: flow.SubmitRequest{Primary: good}}), 400, chairside.ECONSENT)
		stale := h.consent(t, sid, "synchrony_standard", flow.DocPrequalification)
		stale.DocumentSHA256 = strings.Repeat("0", 64)
		want(t, h.do(t, req{method: "POST", path: "/providers/synchrony_standard/prequalify", session: sid, body: flow.SubmitRequest{Primary: good, Consent: &stale}}), 400, chairside.ECONSENT)
		hard := h.consent(t, sid, "synchrony_standard", flow.DocApplication)
		want(t, h.do(t, req{method: "POST", path: "/providers/synchrony_standard/prequalify", session: sid, body: flow.SubmitRequest{Primary: good, Consent: &hard}}), 400, chairside.ECONSENT)

		// Malformed, unknown fields, wrong types, oversized.
		want(t, h.do(t, req{method: "POST", path: "/providers/synchrony_standard/prequalify", session: sid, body: `{"primary": {`}), 400, chairside.EBADREQUEST)
		want(t, h.do(t, req{method: "POST", path: "/providers/synchrony_standard/prequalify", session: sid, body: `not json`}), 400, chairside.EBADREQUEST)
		m = want(t, h.do(t, req{method: "POST", path: "/providers/synchrony_standard/prequalify", session: sid, body: `{"primary":{},"approvedAmountCents":100000}`}), 400, chairside.EBADREQUEST)
		if !strings.Contains(m["message"].(string), "unknown field") || !strings.Contains(m["message"].(string), "approvedAmountCents") {
			t.Errorf("unknown field message: %v", m["message"])
		}
		want(t, h.do(t, req{method: "POST", path: "/providers/synchrony_standard/payment/plans", session: sid, body: `{"amountCents":"lots"}`}), 400, chairside.EBADREQUEST)
		want(t, h.do(t, req{method: "POST", path: "/providers/synchrony_standard/payment/plans", session: sid, body: `{"amountCents":1}{"amountCents":2}`}), 400, chairside.EBADREQUEST)
		huge := `{"primary":{"firstName":"` + strings.Repeat("a", 70<<10) + `"}}`
		want(t, h.do(t, req{method: "POST", path: "/providers/synchrony_standard/prequalify", session: sid, body: huge}), 413, chairside.ETOOLARGE)

		// Unknown API paths answer JSON, never the web app.
		res := h.do(t, req{method: "GET", path: "/api/v1/no/such/thing", noContract: true})
		want(t, res, 404, chairside.ENOTFOUND)
		if !strings.HasPrefix(res.header.Get("Content-Type"), "application/json") {
			t.Errorf("unknown API path answered %s", res.header.Get("Content-Type"))
		}
		want(t, h.do(t, req{method: "GET", path: "/api/v1/flow/start", noContract: true}), 404, chairside.ENOTFOUND)

		// Public odds and ends.
		want(t, h.do(t, req{method: "GET", path: "/internal/version"}), 200, "")
		want(t, h.do(t, req{method: "POST", path: "/log", session: sid, body: map[string]any{"level": "error", "code": "ui.route_error", "route": "/providers/{providerKey}/paymentPlans"}}), 204, "")
		want(t, h.do(t, req{method: "POST", path: "/log", session: sid, body: map[string]any{"level": "ERROR", "message": "boom for 078-05-1120", "tags": []string{"x"}}}), 400, chairside.EBADREQUEST)
		if strings.Contains(h.logs.String(), "078-05-1120") {
			t.Error("a client log line carried an SSN into the logs")
		}
		want(t, h.do(t, req{method: "POST", path: "/test-cases/apply/not-a-case", session: sid}), 404, chairside.ENOTFOUND)
		// Only the outcome words of the URL finish a session ("cancel" is
		// the stored word, not the URL's).
		want(t, h.do(t, req{method: "POST", path: "/flow/finish/cancel", session: sid, noContract: true}), 404, chairside.ENOTFOUND)
	})
}

// TestFlowRuleAnswers: how the API answers the flow's rules — a cascade, a
// replayed submit, a submit with other data, a capped SSN, another
// session's object, a step out of order — in status, headers and the
// contract. The rules themselves are tested on flow.Service, on both
// engines (flow/*_test.go).
func TestFlowRuleAnswers(t *testing.T) {
	sqliteOnly(t, config{dailySSNCap: 1}, func(t *testing.T, h *harness) {
		sid := h.start(t)
		body := flow.SubmitRequest{Primary: testkit.Applicant("Decline", "123456782"), Consent: testkit.Ptr(h.consent(t, sid, "synchrony_standard", flow.DocPrequalification))}
		first := h.do(t, req{method: "POST", path: "/providers/synchrony_standard/prequalify", session: sid, body: body})
		d := want(t, first, 200, "")
		next, _ := d["next"].(map[string]any)
		if d["responseCode"] != "declined" || next == nil || next["provider"] != "fortiva_standard" || next["autoSubmit"] != true || next["resultType"] != "start" {
			t.Fatalf("decline: %s", first.body)
		}
		again := h.do(t, req{method: "POST", path: "/providers/synchrony_standard/prequalify", session: sid, body: body})
		if want(t, again, 200, ""); string(again.body) != string(first.body) {
			t.Fatalf("replay differs:\n%s\n%s", first.body, again.body)
		}
		other := body
		other.Primary.AddressCity = "Pasadena"
		want(t, h.do(t, req{method: "POST", path: "/providers/synchrony_standard/prequalify", session: sid, body: other}), 422, chairside.EIDEMPOTENCY)
		want(t, h.do(t, req{method: "POST", path: "/providers/synchrony_standard/payment/plans", session: sid, body: map[string]any{"amountCents": 1000}}), 409, chairside.ECONFLICT)

		b := h.start(t)
		capped := h.prequalify(t, b, "synchrony_standard", testkit.Applicant("Approve", "123456782"))
		// The person's checks for today are used up: daily_limit, its own 429 (come back tomorrow), not rate_limited.
		if want(t, capped, 429, chairside.EDAILYLIMIT); capped.header.Get("Retry-After") == "" {
			t.Error("429 without Retry-After")
		}
		want(t, h.do(t, req{method: "POST", path: "/providers/synchrony_standard/acceptOffer", session: b}), 404, chairside.ENOTFOUND)
		want(t, h.do(t, req{method: "POST", path: "/test-cases/apply/primary-declines-secondary-approves", session: b}), 200, "")
		if n := h.decides.Load(); n != 1 {
			t.Errorf("the lender was asked for %d decisions, want 1", n)
		}
	})
}

// panicStore panics on one entity key, to test the recover middleware.
type panicStore struct{ flow.Store }

func (p panicStore) FindLocationByEntityKey(ctx context.Context, key string) (*chairside.Location, error) {
	if key == "6666666666666666" {
		panic("database exploded at /secret/path.go:42")
	}
	return p.Store.FindLocationByEntityKey(ctx, key)
}

// TestPanicAndProd: a panic answers 500 internal with a request id and no
// detail; test cases are refused in prod.
func TestPanicAndProd(t *testing.T) {
	sqliteOnly(t, config{env: chairside.EnvProd, wrap: func(s flow.Store) flow.Store { return panicStore{s} }}, func(t *testing.T, h *harness) {
		res := h.do(t, req{method: "POST", path: "/flow/start/entity-keys/6666666666666666"})
		m := want(t, res, 500, chairside.EINTERNAL)
		id, _ := m["requestId"].(string)
		if id == "" || id != res.header.Get("X-Request-Id") || strings.Contains(string(res.body), "exploded") {
			t.Fatalf("panic answer: %s", res.body)
		}
		if !strings.Contains(h.logs.String(), id) {
			t.Error("the request id is not in the log")
		}
		sid := h.start(t)
		want(t, h.do(t, req{method: "POST", path: "/test-cases/apply/primary_declines", session: sid}), 403, chairside.EFORBIDDEN)
	})
}

// TestContractCoversErrors: every operation documents the answers any call
// can get (429 from the rate limit, 500 from a failure), every secured one
// 401, and every one with a request body 400, 413 and 415.
func TestContractCoversErrors(t *testing.T) {
	loadContract(t)
	for path, item := range contractDoc.Paths.Map() {
		for method, op := range item.Operations() {
			must := []int{429, 500}
			if requiresSession(op) {
				must = append(must, 401)
			}
			if op.RequestBody != nil {
				// Any body can be malformed, too large or of the wrong type.
				must = append(must, 400, 413, 415)
			}
			for _, code := range must {
				if op.Responses.Status(code) == nil {
					t.Errorf("%s %s does not document %d", method, path, code)
				}
			}
		}
	}
}

// requiresSession reports whether an operation needs a session: the
// document's default, or a security list without an empty (anonymous)
// alternative. The calls whose session is optional never answer 401.
func requiresSession(op *openapi3.Operation) bool {
	if op.Security == nil {
		return true
	}
	for _, alt := range *op.Security {
		if len(alt) == 0 {
			return false
		}
	}
	return len(*op.Security) > 0
}

// TestRateLimit: an IP over its budget gets 429 with Retry-After.
func TestRateLimit(t *testing.T) {
	sqliteOnly(t, config{rate: 1, burst: 3}, func(t *testing.T, h *harness) {
		var last *result
		for range 5 {
			last = h.do(t, req{method: "GET", path: "/internal/version"})
		}
		want(t, last, 429, chairside.ERATELIMITED)
		if last.header.Get("Retry-After") == "" {
			t.Error("no Retry-After")
		}
	})
}

// TestRateLimitLeavesTheAppsFiles: a page's many files are not counted
// against the address's budget (before, a fast first load could lose a file
// to a 429 and show the error screen); the API still is.
func TestRateLimitLeavesTheAppsFiles(t *testing.T) {
	sqliteOnly(t, config{rate: 1, burst: 3}, func(t *testing.T, h *harness) {
		for _, path := range []string{"/assets/index-abc.js", "/assets/start-1.js", "/logos/synchrony.svg", "/favicon.svg", "/assets/x.css", "/assets/y.js"} {
			resp, err := h.srv.Client().Get(h.srv.URL + path)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode == http.StatusTooManyRequests {
				t.Fatalf("%s: 429", path)
			}
		}
		want(t, h.do(t, req{method: "GET", path: "/internal/version"}), 200, "")
	})
}

// TestWebAndDocument: the OpenAPI document is served, the SPA falls back to
// index.html but never for /api or a missing asset, and a server without a
// web build says so.
func TestWebAndDocument(t *testing.T) {
	sqliteOnly(t, config{}, func(t *testing.T, h *harness) {
		res := h.do(t, req{method: "GET", path: "/openapi.yaml"})
		if res.status != 200 || string(res.body) != string(api.Spec) {
			t.Error("served openapi.yaml differs from api/openapi.yaml")
		}
		get := func(srv *httptest.Server, path string) (*http.Response, string) {
			resp, err := srv.Client().Get(srv.URL + path)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			buf := new(strings.Builder)
			_, _ = io.Copy(buf, resp.Body)
			return resp, buf.String()
		}
		resp, body := get(h.srv, "/")
		if !strings.Contains(body, "not built") || resp.Header.Get("Content-Security-Policy") == "" {
			t.Errorf("no-build page: %s %v", body, resp.Header)
		}

		web := fstest.MapFS{
			"index.html":    {Data: []byte("<!doctype html><title>Chairside</title>")},
			"assets/app.js": {Data: []byte("console.log(1)")},
			"robots.txt":    {Data: []byte("User-agent: *")},
			"favicon.svg":   {Data: []byte("<svg/>")},
			"start.html":    {Data: []byte("<!doctype html><title>Chairside</title><link rel=modulepreload href=/assets/start.js>")},
		}
		srv := httptest.NewServer(httpapi.New(flow.New(h.db, nil, h.eng.Keys, flow.Options{}), httpapi.Options{Web: web, RatePerSecond: -1}))
		defer srv.Close()
		for path, wantBody := range map[string]string{
			"/":                  "<title>Chairside</title>",
			"/providers/x/start": "<title>Chairside</title>",
			"/assets/app.js":     "console.log(1)",
			"/robots.txt":        "User-agent",
			// A family with a shell page of its own gets it, with its preloads; others get index.html.
			"/start/entity-keys/1000200030004000": "/assets/start.js",
			"/start":                              "/assets/start.js",
		} {
			resp, body := get(srv, path)
			if resp.StatusCode != 200 || !strings.Contains(body, wantBody) {
				t.Errorf("GET %s: %d %q", path, resp.StatusCode, body)
			}
			if !strings.Contains(resp.Header.Get("Content-Security-Policy"), "frame-ancestors 'none'") {
				t.Errorf("GET %s: no CSP", path)
			}
		}
		for _, path := range []string{"/", "/providers/x/start", "/starting", "/idle"} {
			if _, body := get(srv, path); strings.Contains(body, "/assets/start.js") {
				t.Errorf("GET %s answered the start page", path)
			}
		}
		if resp, _ := get(srv, "/assets/missing.js"); resp.StatusCode != 404 {
			t.Errorf("missing asset answered %d", resp.StatusCode)
		}
		if resp, body := get(srv, "/api/v1/nothing"); resp.StatusCode != 404 || strings.Contains(body, "<title>") {
			t.Errorf("unknown API path answered %d %q", resp.StatusCode, body)
		}
	})
}

// TestReadsKeepTheSessionAlive: a patient whose calls only read (a page
// looked at every few minutes) stays signed in past the idle limit, since
// the call moves the session's LastSeenAt once it has answered; a longer
// silence still ends the session.
func TestReadsKeepTheSessionAlive(t *testing.T) {
	sqliteOnly(t, config{}, func(t *testing.T, h *harness) {
		sid := h.start(t)
		for range 3 { // 30 minutes in all, each gap within the idle limit
			h.clock.Advance(10 * time.Minute)
			want(t, h.do(t, req{method: "GET", path: "/locations/current", session: sid}), 200, "")
		}
		h.clock.Advance(30 * time.Minute)
		want(t, h.do(t, req{method: "GET", path: "/locations/current", session: sid}), 401, chairside.EUNAUTHORIZED)
	})
}

// TestEveryAnswerSaysHowToCache: answers no handler asked to be kept —
// health and readiness, metrics, a missing file, the rate limit's page in
// prod — are no-store; the app's own files keep their own rules.
func TestEveryAnswerSaysHowToCache(t *testing.T) {
	sqliteOnly(t, config{env: chairside.EnvProd, rate: 1, burst: 5}, func(t *testing.T, h *harness) {
		get := func(path string) *http.Response {
			t.Helper()
			resp, err := h.srv.Client().Get(h.srv.URL + path)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			return resp
		}
		for _, path := range []string{"/healthz", "/readyz", "/metrics", "/favicon.ico", "/assets/missing-1.js"} {
			if got := get(path).Header.Get("Cache-Control"); got != "no-store" {
				t.Errorf("%s: Cache-Control %q, want no-store", path, got)
			}
		}
		var last *http.Response
		for range 8 {
			last = get("/api/v1/internal/version")
		}
		if last.StatusCode != http.StatusTooManyRequests || last.Header.Get("Cache-Control") != "no-store" {
			t.Errorf("rate limited: %d, Cache-Control %q", last.StatusCode, last.Header.Get("Cache-Control"))
		}
	})
}
