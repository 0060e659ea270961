package httpapi_test

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"testing"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/testkit"
)

// TestCreditLimitAPI: the credit limit change through the API on both
// engines — 409 for an account that is not an existing card, field errors
// by name, the approval with a repeat answered from the record (whatever
// its Idempotency-Key), 422 for other figures, plans up to the new limit.
func TestCreditLimitAPI(t *testing.T) {
	eachEngine(t, config{}, func(t *testing.T, h *harness) {
		const key = "synchrony_standard"
		path := "/providers/" + key + "/account/change-credit-limit"
		plain := h.start(t)
		want(t, h.prequalify(t, plain, key, testkit.Applicant("Approve", "123450921")), 200, "")
		want(t, h.do(t, req{method: "GET", path: "/providers/" + key + "/account/terms", session: plain}), 409, chairside.ECONFLICT)
		want(t, h.do(t, req{method: "POST", path: path, session: plain, body: map[string]any{"requestedLimitCents": 500_000, "annualGrossIncomeCents": 9_000_000}}), 409, chairside.ECONFLICT)

		sid := h.start(t)
		want(t, h.do(t, req{method: "POST", path: "/test-cases/apply/credit-limit-change", session: sid}), 200, "")
		want(t, h.prequalify(t, sid, key, testkit.Applicant("Lowlimit", "123450922")), 200, "")
		bad := want(t, h.do(t, req{method: "POST", path: path, session: sid, body: map[string]any{"requestedLimitCents": 50_000, "annualGrossIncomeCents": -1}}), 400, chairside.EINVALID)
		if got := fmt.Sprint(bad["fieldErrors"]); !strings.Contains(got, "requestedLimitCents") || !strings.Contains(got, "annualGrossIncomeCents") {
			t.Errorf("field errors: %s", got)
		}
		want(t, h.do(t, req{method: "POST", path: path, session: sid, body: map[string]any{"requestedLimitCents": 50_000}}), 400, chairside.EINVALID)
		want(t, h.do(t, req{method: "POST", path: path, session: sid, body: `{"requestedLimitCents":5e5,"annualGrossIncomeCents":1}`}), 400, chairside.EBADREQUEST)

		body := map[string]any{"requestedLimitCents": 500_000, "annualGrossIncomeCents": 2_000_000}
		first := want(t, h.do(t, req{method: "POST", path: path, session: sid, body: body, header: map[string]string{"Idempotency-Key": "clc-1"}}), 200, "")
		again := want(t, h.do(t, req{method: "POST", path: path, session: sid, body: body}), 200, "")
		if first["responseCode"] != "approved" || fmt.Sprint(again) != fmt.Sprint(first) || first["coversPurchase"] != true {
			t.Fatalf("approved %v, again %v", first, again)
		}
		want(t, h.do(t, req{method: "POST", path: path, session: sid, body: map[string]any{"requestedLimitCents": 600_000, "annualGrossIncomeCents": 9_000_000}}), 422, chairside.EIDEMPOTENCY)
		plans := want(t, h.do(t, req{method: "POST", path: "/providers/" + key + "/payment/plans", session: sid, body: map[string]any{"amountCents": 450000}}), 200, "")
		if p := plans["paymentPlans"].([]any)[0].(map[string]any); p["maxAmountCents"] != float64(500_000) || p["amountFinancedCents"] != float64(450_000) {
			t.Errorf("plans after the change: %v", p)
		}

		lost := h.start(t)
		want(t, h.do(t, req{method: "POST", path: "/test-cases/apply/credit-limit-change", session: lost}), 200, "")
		want(t, h.prequalify(t, lost, key, testkit.Applicant("Lowlimit", "123450923")), 200, "")
		e := want(t, h.do(t, req{method: "POST", path: path, session: lost, body: map[string]any{"requestedLimitCents": 500_000, "annualGrossIncomeCents": 9_999_900}}), 200, "")
		if e["responseCode"] != "error" || e["creditLimitCents"] != float64(100_000) || e["coversPurchase"] != false {
			t.Errorf("the error income: %v", e)
		}
	})
}

// TestLenderPageAndChoicesAPI: the lender-page calls need a lender
// application and a redirect on this site; the payment choice and the
// agreement email need an accepted offer; the email is queued, masked, once
// for a double tap.
func TestLenderPageAndChoicesAPI(t *testing.T) {
	sqliteOnly(t, config{}, func(t *testing.T, h *harness) {
		const key = "synchrony_standard"
		sid := h.start(t)
		base := "/providers/" + key
		want(t, h.do(t, req{method: "GET", path: base + "/iframeUrl", session: sid}), 409, chairside.ECONFLICT)
		want(t, h.do(t, req{method: "GET", path: base + "/sdkConfig", session: sid}), 409, chairside.ECONFLICT)
		want(t, h.do(t, req{method: "GET", path: "/providers/ads_standard/sdkConfig", session: sid}), 404, chairside.ENOTFOUND)
		want(t, h.prequalify(t, sid, key, testkit.Applicant("Approve", "123450924")), 200, "")
		for _, bad := range []string{"//evil.example/x", "https://evil.example/", `/\evil.example`, "providers/x", "javascript:alert(1)", "/a\nb"} {
			want(t, h.do(t, req{method: "GET", path: base + "/iframeUrl?redirectUrl=" + url.QueryEscape(bad), session: sid}), 400, chairside.EINVALID)
			want(t, h.do(t, req{method: "POST", path: base + "/iframeUrl", session: sid, body: map[string]any{"redirectUrl": bad}}), 400, chairside.EINVALID)
		}
		want(t, h.do(t, req{method: "GET", path: base + "/iframeUrl", session: sid}), 200, "")
		want(t, h.do(t, req{method: "GET", path: "/providers/fortiva_standard/sdkConfig", session: sid}), 409, chairside.ECONFLICT)

		want(t, h.do(t, req{method: "POST", path: base + "/paymentMethod", session: sid, body: map[string]any{"paymentMethod": "checking"}}), 409, chairside.ECONFLICT)
		want(t, h.do(t, req{method: "POST", path: base + "/paymentMethod", session: sid, body: map[string]any{"paymentMethod": "cash"}}), 400, chairside.EINVALID)
		want(t, h.do(t, req{method: "POST", path: base + "/emailAgreement", session: sid}), 409, chairside.ECONFLICT)
		code := planCode(t, h, sid, key)
		want(t, h.do(t, req{method: "POST", path: base + "/acceptOffer", session: sid, body: map[string]any{"providerPlanCode": code}}), 200, "")
		want(t, h.do(t, req{method: "POST", path: base + "/paymentMethod", session: sid, body: map[string]any{"paymentMethod": "checking"}}), 200, "")
		for range 2 {
			m := want(t, h.do(t, req{method: "POST", path: base + "/emailAgreement", session: sid, body: map[string]any{}}), 202, "")
			if m["sentTo"] != "m•••@example.com" {
				t.Errorf("sent to %v", m["sentTo"])
			}
		}
		loc := mustLocation(t, h)
		msgs, err := h.eng.DB.ListOutbox(context.Background(), loc.ID)
		if err != nil || len(msgs) != 1 || msgs[0].Channel != chairside.ChannelEmail || msgs[0].RecipientMasked != "m•••@example.com" {
			t.Fatalf("outbox: %+v %v", msgs, err)
		}
		if strings.Contains(h.logs.String(), "maria@example.com") {
			t.Error("the address reached the log")
		}
	})
}

// planCode asks for plans and selects and confirms the first.
func planCode(t *testing.T, h *harness, sid, key string) string {
	t.Helper()
	m := want(t, h.do(t, req{method: "POST", path: "/providers/" + key + "/payment/plans", session: sid, body: map[string]any{"amountCents": 200000}}), 200, "")
	code := m["paymentPlans"].([]any)[0].(map[string]any)["providerPlanCode"].(string)
	want(t, h.do(t, req{method: "POST", path: "/providers/" + key + "/payment/plans/" + code + "/select", session: sid}), 200, "")
	want(t, h.do(t, req{method: "POST", path: "/providers/" + key + "/payment/plans/" + code + "/confirm-selection", session: sid}), 200, "")
	return code
}

// TestTestCasesList: the list names every case with the office to start
// at; env prod refuses it.
func TestTestCasesList(t *testing.T) {
	sqliteOnly(t, config{}, func(t *testing.T, h *harness) {
		m := want(t, h.do(t, req{method: "GET", path: "/test-cases"}), 200, "")
		if m["entityKey"] != EntityKey || !strings.Contains(fmt.Sprint(m["testCases"]), "credit-limit-change") {
			t.Errorf("list: %v", m)
		}
	})
	sqliteOnly(t, config{env: chairside.EnvProd}, func(t *testing.T, h *harness) {
		want(t, h.do(t, req{method: "GET", path: "/test-cases"}), 403, chairside.EFORBIDDEN)
	})
}
