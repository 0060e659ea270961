package httpapi_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/flow"
	"github.com/chairside/chairside/lender/sandbox"
	"github.com/chairside/chairside/testkit"
)

// specCalls are the calls the product makes (its call table and "other
// calls", with the help, documents and QA calls named in this issue), as
// METHOD and path pattern under /api/v1. TestEveryCallOfTheSpec makes each
// one and fails for any it did not answer as the contract says.
var specCalls = []string{
	"POST /providers/{providerKey}/apply",
	"POST /providers/{providerKey}/prequalify",
	"POST /providers/{providerKey}/prescreen",
	"POST /providers/{providerKey}/acceptOffer",
	"POST /providers/{providerKey}/application/bank-card",
	"POST /providers/{providerKey}/application/bank-account",
	"POST /providers/{providerKey}/application/complete",
	"POST /providers/{providerKey}/application/esign",
	"POST /providers/{providerKey}/answers",
	"POST /providers/{providerKey}/paymentMethod",
	"POST /providers/{providerKey}/emailAgreement",
	"POST /providers/{providerKey}/application-status",
	"POST /providers/{providerKey}/agreement",
	"POST /providers/{providerKey}/iframeUrl",
	"POST /providers/{providerKey}/payment/plans",
	"POST /providers/{providerKey}/payment/plans/{providerPlanCode}/confirm-selection",
	"POST /providers/{providerKey}/payment/plans/{providerPlanCode}/select",
	"POST /providers/{providerKey}/patch/{patchType}",
	"POST /providers/{providerKey}/application/stipulations/refresh",
	"POST /providers/{providerKey}/account/change-credit-limit",
	"GET /providers/{providerKey}/disclosures",
	"GET /providers/{providerKey}/disclosures-html",
	"GET /providers/{providerKey}/termsUrl",
	"GET /providers/{providerKey}/account/terms",
	"GET /providers/{providerKey}/quiz",
	"GET /providers/{providerKey}/sdkConfig",
	"GET /providers/{providerKey}/iframeUrl",
	"GET /providers/{providerKey}/application/stipulations/{id}/status",
	"POST /apply/start/providers/{providerKey}",
	"POST /application/events/financing-plans-presented",
	"POST /flow/restart",
	"POST /flow/start/tokens/{token}",
	"POST /flow/start/entity-keys/{entityKey}",
	"POST /flow/start",
	"POST /flow/finish/completed",
	"POST /flow/finish/canceled",
	"POST /flow/finish/pending",
	"POST /flow/finish/timeout",
	"POST /validate",
	"POST /validate/phone",
	"POST /validate/zipCode",
	"POST /validate/email",
	"GET /locations/current",
	"POST /log",
	"POST /test-cases/apply/{id}",
	"GET /test-cases",
	"GET /help/faqs",
	"GET /help/glossary",
	"GET /help/glossary/search",
	"GET /documents/{doc}",
	"GET /documents/pdf/{name}",
}

// lenderConfigFields are the configuration fields of every lender of
// apply/start's lenders (docs/content.md, "Lender configuration").
var lenderConfigFields = []string{"providerId", "name", "financingName", "abbreviatedName", "fundingName",
	"fundingSourceDescription", "fundingSourceDescriptionByProductType", "logo", "footerLogo",
	"paymentCalculatorButtonsHidden", "paymentCalculatorRecalculatingModal", "autoShowLearnHowDrawer",
	"fetchPaymentPlansOnPreAuth", "fetchPaymentPlansOnResume", "fetchPaymentPlansOnFullResume", "maxDownPaymentCents",
	"minPaymentCalculatorCents", "showPaymentPlanDetails", "completeAfterEsign", "preauthExpireDays", "subLenders",
	"supportsFullAppMode", "showDownPaymentAcknowledgeByProviderRoles", "showBankCardErrorModal",
	"selectPaymentPlanOnReviewScreen", "creditType", "paymentPlanFilterOverrides"}

// Fields named for the answers of several calls.
var (
	decisionFields = []string{"providerKey", "responseCode", "approvedAmountCents", "pendingReasons", "stipulations",
		"downPaymentRequired", "existingAccount"}
	nextFields = []string{"next.resultType", "next.autoSubmit", "next.provider", "next.applyMode", "next.resume"}
	planFields = []string{"paymentPlans[].providerKey", "paymentPlans[].typeId", "paymentPlans[].providerPlanCode",
		"paymentPlans[].durationMonths", "paymentPlans[].monthlyAmountCents", "paymentPlans[].totalCostCents",
		"paymentPlans[].apr", "paymentPlans[].description", "paymentPlans[].expireDateTime", "paymentPlans[].minAmountCents",
		"paymentPlans[].maxAmountCents"}
	startFields = []string{"session.webSessionId", "session.env", "session.groupId", "session.properties.state",
		"session.dynamicProviderKey", "session.warnCountdownMillis", "session.timeoutAfterMillis", "session.experienceType",
		"session.flowType", "session.showCancelModal", "application.purchaseAmountCents", "application.insurance.insuranceBenefitsCents",
		"application.purchaserEnabled"}
	appFields = []string{"providerKey", "status", "decision.responseCode"}
	docFields = []string{"id", "version", "title", "contentType", "content", "sha256"}
)

// specRun makes the calls and keeps which patterns answered as they must.
type specRun struct {
	h    *harness
	done map[string]bool
}

// call makes one call of pattern (the contract check included, in h.do),
// requires its status and the fields named ("a.b" nested, "a[].b" in every
// element of the list a), and marks pattern answered.
func (r *specRun) call(t *testing.T, pattern string, q req, status int, fields ...string) map[string]any {
	t.Helper()
	if !slices.Contains(specCalls, pattern) {
		t.Fatalf("%s is not a call of the list", pattern)
	}
	res := r.h.do(t, q)
	if res.status != status {
		t.Fatalf("%s (%s %s): status %d, want %d: %.400s", pattern, q.method, q.path, res.status, status, res.body)
	}
	var m map[string]any
	if len(res.body) > 0 && strings.HasPrefix(res.header.Get("Content-Type"), "application/json") {
		m = res.json(t)
		for _, f := range fields {
			if !hasField(m, f) {
				t.Errorf("%s: the answer lacks %s: %.600s", pattern, f, res.body)
			}
		}
	}
	r.done[pattern] = true
	return m
}

// hasField reports whether v has the field path (see specRun.call).
func hasField(v any, path string) bool {
	name, rest, _ := strings.Cut(path, ".")
	list := strings.HasSuffix(name, "[]")
	obj, ok := v.(map[string]any)
	if !ok {
		return false
	}
	val, ok := obj[strings.TrimSuffix(name, "[]")]
	switch {
	case !ok:
		return false
	case list:
		items, isList := val.([]any)
		if !isList || len(items) == 0 {
			return false
		}
		for _, it := range items {
			if rest != "" && !hasField(it, rest) {
				return false
			}
		}
		return true
	case rest == "":
		return true
	}
	return hasField(val, rest)
}

// TestEveryCallOfTheSpec makes every call the product makes, each through
// a session driven far enough by the sandbox (named test cases where a
// lender must answer a certain way), and checks every answer against
// api/openapi.yaml and for the fields named for it. A call missing from the
// router answers 404 and fails it.
func TestEveryCallOfTheSpec(t *testing.T) {
	eachEngine(t, config{}, func(t *testing.T, h *harness) {
		r := &specRun{h: h, done: map[string]bool{}}
		specOfferJourney(t, r)
		specFullApply(t, r)
		specPaymentMethods(t, r)
		specPendingAndPatch(t, r)
		specQuizAndCreditLimit(t, r)
		specStartsAndFinishes(t, r)
		specContent(t, r)
		for _, p := range specCalls {
			if !r.done[p] {
				t.Errorf("%s was not made", p)
			}
		}
	})
}

// specStart starts a session at the test office under a test case ("" for
// none) and answers its id.
func specStart(t *testing.T, r *specRun, testCase string) string {
	t.Helper()
	m := r.call(t, "POST /flow/start/entity-keys/{entityKey}", req{method: "POST", path: "/flow/start/entity-keys/" + EntityKey,
		body: map[string]any{"purchaseAmountCents": 450000}}, 200, startFields...)
	sid := m["session"].(map[string]any)["webSessionId"].(string)
	if testCase != "" {
		r.call(t, "POST /test-cases/apply/{id}", req{method: "POST", path: "/test-cases/apply/" + testCase, session: sid}, 200, "testCase")
	}
	return sid
}

// specPrequalify prequalifies at a lender and answers the decision.
func specPrequalify(t *testing.T, r *specRun, sid, key string, a chairside.Applicant, fields ...string) map[string]any {
	t.Helper()
	return r.call(t, "POST /providers/{providerKey}/prequalify", req{method: "POST", path: "/providers/" + key + "/prequalify", session: sid,
		body: flow.SubmitRequest{Primary: a, Consent: testkit.Ptr(specConsent(t, r, sid, key, flow.DocPrequalification))}},
		200, append(slices.Clone(decisionFields), fields...)...)
}

// specConsent reads a disclosure and answers the consent naming it.
func specConsent(t *testing.T, r *specRun, sid, key, kind string) flow.ConsentInput {
	t.Helper()
	m := r.call(t, "GET /providers/{providerKey}/disclosures", req{method: "GET", path: "/providers/" + key + "/disclosures?kind=" + kind, session: sid}, 200, docFields...)
	return flow.ConsentInput{DocumentID: m["id"].(string), DocumentVersion: m["version"].(string), DocumentSHA256: m["sha256"].(string), Agreed: true}
}

// specChoosePlan asks for plans, chooses and confirms the first, and
// answers its code.
func specChoosePlan(t *testing.T, r *specRun, sid, key string, amount int) string {
	t.Helper()
	m := r.call(t, "POST /providers/{providerKey}/payment/plans", req{method: "POST", path: "/providers/" + key + "/payment/plans", session: sid,
		body: map[string]any{"amountCents": amount}}, 200, planFields...)
	code := m["paymentPlans"].([]any)[0].(map[string]any)["providerPlanCode"].(string)
	base := "/providers/" + key + "/payment/plans/" + code
	r.call(t, "POST /providers/{providerKey}/payment/plans/{providerPlanCode}/select", req{method: "POST", path: base + "/select", session: sid},
		200, "providerPlanCode", "providerKey", "monthlyAmountCents")
	r.call(t, "POST /providers/{providerKey}/payment/plans/{providerPlanCode}/confirm-selection",
		req{method: "POST", path: base + "/confirm-selection", session: sid}, 200, "providerPlanCode")
	return code
}

// specAgreement reads the agreement and answers the consent naming it.
func specAgreement(t *testing.T, r *specRun, sid, key string) flow.ConsentInput {
	t.Helper()
	m := r.call(t, "POST /providers/{providerKey}/agreement", req{method: "POST", path: "/providers/" + key + "/agreement", session: sid}, 200, docFields...)
	return flow.ConsentInput{DocumentID: m["id"].(string), DocumentVersion: m["version"].(string), DocumentSHA256: m["sha256"].(string), Agreed: true}
}

// specOfferJourney: Synchrony from its form to a completed account, with
// the checks, the documents of the journey, the lender-page calls, the
// payment choice and the agreement email on the way.
func specOfferJourney(t *testing.T, r *specRun) {
	const key = "synchrony_standard"
	sid := specStart(t, r, "")
	r.call(t, "GET /locations/current", req{method: "GET", path: "/locations/current", session: sid}, 200,
		"name", "state", "groupId", "waterfall[].providerKey", "waterfall[].role", "waterfall[].applyMode", "waterfall[].autoSubmit")
	fields := []string{"providerKey", "applyMode", "fields[].id", "fields[].rules", "fieldGroupRules", "providers[].providerKey"}
	for _, f := range lenderConfigFields {
		fields = append(fields, "providers[]."+f)
	}
	r.call(t, "POST /apply/start/providers/{providerKey}", req{method: "POST", path: "/apply/start/providers/" + key, session: sid}, 200, fields...)
	for _, q := range []struct {
		pattern string
		body    any
	}{
		{"POST /validate/phone", map[string]any{"phoneNumber": "3105550100"}},
		{"POST /validate/zipCode", map[string]any{"zipCode": "90017", "state": "CA"}},
		{"POST /validate/email", map[string]any{"email": "maria@example.com"}},
		{"POST /validate", map[string]any{"providerKey": key, "applicationData": map[string]any{"primary": map[string]any{"ssn": "12"}}}},
	} {
		r.call(t, q.pattern, req{method: "POST", path: strings.TrimPrefix(q.pattern, "POST "), session: sid, body: q.body}, 200, "valid")
	}
	r.call(t, "GET /providers/{providerKey}/termsUrl", req{method: "GET", path: "/providers/" + key + "/termsUrl", session: sid}, 200, docFields...)
	r.call(t, "GET /providers/{providerKey}/disclosures-html", req{method: "GET", path: "/providers/" + key + "/disclosures-html", session: sid},
		200, "providerKey", "html", "document.sha256")
	specPrequalify(t, r, sid, key, testkit.Applicant("Approve", "123450901"), "lenderApplicationId", "expiresAt")
	r.call(t, "POST /application/events/financing-plans-presented", req{method: "POST", path: "/application/events/financing-plans-presented",
		session: sid, body: map[string]any{"providerKeys": []string{key}}}, 204)
	code := specChoosePlan(t, r, sid, key, 300000)
	agreement := specAgreement(t, r, sid, key)
	r.call(t, "POST /providers/{providerKey}/acceptOffer", req{method: "POST", path: "/providers/" + key + "/acceptOffer", session: sid,
		body: map[string]any{"providerPlanCode": code}}, 200, appFields...)
	specLenderPage(t, r, sid, key)
	r.call(t, "POST /providers/{providerKey}/paymentMethod", req{method: "POST", path: "/providers/" + key + "/paymentMethod", session: sid,
		body: map[string]any{"paymentMethod": "card"}}, 200, "providerKey", "paymentMethod")
	if m := r.call(t, "POST /providers/{providerKey}/emailAgreement", req{method: "POST", path: "/providers/" + key + "/emailAgreement", session: sid},
		202, "providerKey", "sentTo"); m["sentTo"] != "m•••@example.com" {
		t.Errorf("emailAgreement sent to %v", m["sentTo"])
	}
	esign := flow.ESignRequest{Consent: testkit.Ptr(specConsent(t, r, sid, key, flow.DocESign)), AgreementConsent: &agreement,
		HardPullConsent: testkit.Ptr(specConsent(t, r, sid, key, flow.DocApplication)), SignaturePNG: testkit.SignaturePNG(t)}
	r.call(t, "POST /providers/{providerKey}/application/esign", req{method: "POST", path: "/providers/" + key + "/application/esign", session: sid,
		body: esign}, 200, appFields...)
	r.call(t, "POST /providers/{providerKey}/application/complete", req{method: "POST", path: "/providers/" + key + "/application/complete",
		session: sid}, 200, appFields...)
	r.call(t, "POST /providers/{providerKey}/application-status", req{method: "POST", path: "/providers/" + key + "/application-status",
		session: sid}, 200, appFields...)
	r.call(t, "POST /flow/finish/completed", req{method: "POST", path: "/flow/finish/completed", session: sid}, 200, "outcome")
}

// specLenderPage: the lender-page calls answer the breakout route.
func specLenderPage(t *testing.T, r *specRun, sid, key string) {
	t.Helper()
	get := r.call(t, "GET /providers/{providerKey}/iframeUrl", req{method: "GET", path: "/providers/" + key + "/iframeUrl?redirectUrl=%2Fproviders%2F" + key + "%2Fresume",
		session: sid}, 200, "providerKey", "url", "expiresAt")
	post := r.call(t, "POST /providers/{providerKey}/iframeUrl", req{method: "POST", path: "/providers/" + key + "/iframeUrl", session: sid,
		body: map[string]any{"redirectUrl": "/providers/" + key + "/resume"}}, 200, "providerKey", "url", "expiresAt")
	sdk := r.call(t, "GET /providers/{providerKey}/sdkConfig", req{method: "GET", path: "/providers/" + key + "/sdkConfig", session: sid},
		200, "providerKey", "environment", "publicKey", "lenderApplicationId", "redirectUrl")
	want := "/breakout/" + key + "/" + fmt.Sprint(sdk["lenderApplicationId"])
	if get["url"] != want || post["url"] != want || sdk["redirectUrl"] != want || sdk["environment"] != "sandbox" {
		t.Errorf("lender page: %v %v %v, want %s", get, post, sdk, want)
	}
}

// specFullApply: a full application at Synchrony, and a prescreen that
// declines and sends the patient on (next).
func specFullApply(t *testing.T, r *specRun) {
	const key = "synchrony_standard"
	sid := specStart(t, r, "")
	a := testkit.Applicant("Approve", "123450902")
	a.HousingStatus, a.HousingPaymentAmount = "rent", testkit.Ptr(int64(150_000))
	a.EmployerName, a.MonthsEmployed = "Harbor Dental Lab", testkit.Ptr(30)
	if m := r.call(t, "POST /providers/{providerKey}/apply", req{method: "POST", path: "/providers/" + key + "/apply", session: sid,
		body: flow.SubmitRequest{Primary: a, Consent: testkit.Ptr(specConsent(t, r, sid, key, flow.DocApplication))}},
		200, decisionFields...); m["responseCode"] != chairside.ResponseApproved {
		t.Errorf("apply: %v", m)
	}
	other := specStart(t, r, "")
	m := r.call(t, "POST /providers/{providerKey}/prescreen", req{method: "POST", path: "/providers/" + key + "/prescreen", session: other,
		body: flow.SubmitRequest{Primary: testkit.Applicant("Decline", "123450903"), Consent: testkit.Ptr(specConsent(t, r, other, key, flow.DocPrequalification))}},
		200, append(slices.Clone(decisionFields), nextFields...)...)
	if m["responseCode"] != chairside.ResponseDeclined {
		t.Errorf("prescreen Decline: %v", m)
	}
}

// specPaymentMethods: Snap's checking account, and HFD's card (a lease
// takes none).
func specPaymentMethods(t *testing.T, r *specRun) {
	const key = "snap_standard"
	sid := specStart(t, r, "")
	specPrequalify(t, r, sid, key, testkit.Applicant("Approve", "123450904"))
	code := specChoosePlan(t, r, sid, key, 200000)
	r.call(t, "POST /providers/{providerKey}/acceptOffer", req{method: "POST", path: "/providers/" + key + "/acceptOffer", session: sid,
		body: map[string]any{"providerPlanCode": code}}, 200, appFields...)
	r.call(t, "POST /providers/{providerKey}/application/bank-account", req{method: "POST", path: "/providers/" + key + "/application/bank-account",
		session: sid, body: map[string]any{"routingNumber": "011000015", "accountNumber": "000123456789", "bankName": "First Test Bank",
			"accountType": "checking"}}, 200, appFields...)
	r.call(t, "POST /flow/finish/canceled", req{method: "POST", path: "/flow/finish/canceled", session: sid}, 200, "outcome")

	const hfd = "hfd_standard"
	hsid := hfdSession(t, r.h, "1000200030009710")
	specPrequalify(t, r, hsid, hfd, testkit.Applicant("Approve", "123450912"))
	code = specChoosePlan(t, r, hsid, hfd, 200000)
	r.call(t, "POST /providers/{providerKey}/acceptOffer", req{method: "POST", path: "/providers/" + hfd + "/acceptOffer", session: hsid,
		body: map[string]any{"providerPlanCode": code}}, 200, appFields...)
	r.call(t, "POST /providers/{providerKey}/application/bank-card", req{method: "POST", path: "/providers/" + hfd + "/application/bank-card",
		session: hsid, body: map[string]any{"cardholderName": "Maria Approve", "cardNumber": testCardNumber, "expiryMonth": 12,
			"expiryYear": time.Now().Year() + 3, "cvv": testCVV, "zip": "30301"}}, 200, appFields...)
}

// specPendingAndPatch: a pending lender's stipulations and the income
// patch.
func specPendingAndPatch(t *testing.T, r *specRun) {
	const key = "synchrony_standard"
	sid := specStart(t, r, "primary-pending")
	d := specPrequalify(t, r, sid, key, testkit.Applicant("Waiting", "123450905"), "stipulations[].id", "pendingReasons")
	id := fmt.Sprint(d["stipulations"].([]any)[0].(map[string]any)["id"])
	base := "/providers/" + key + "/application/stipulations/"
	r.call(t, "GET /providers/{providerKey}/application/stipulations/{id}/status", req{method: "GET", path: base + id + "/status", session: sid},
		200, "id", "type", "status", "state")
	r.call(t, "POST /providers/{providerKey}/application/stipulations/refresh", req{method: "POST", path: base + "refresh", session: sid,
		body: map[string]any{"stipulationIds": []string{id}}}, 200, "stipulations[].id", "stipulations[].state")
	if m := r.call(t, "POST /flow/finish/pending", req{method: "POST", path: "/flow/finish/pending", session: sid}, 200, "outcome"); m["outcome"] != "pending" {
		t.Errorf("finish pending: %v", m)
	}

	sid = specStart(t, r, "patch-income")
	specPrequalify(t, r, sid, key, testkit.Applicant("Patchwork", "123450906"))
	m := r.call(t, "POST /providers/{providerKey}/patch/{patchType}", req{method: "POST", path: "/providers/" + key + "/patch/income", session: sid,
		body: map[string]any{"annualGrossIncome": 6_500_000}}, 200, appFields...)
	if !chairside.Positive(fmt.Sprint(m["decision"].(map[string]any)["responseCode"])) {
		t.Errorf("after the patch: %v", m)
	}
}

// specQuizAndCreditLimit: the identity quiz, and a credit limit change on
// an existing account that then covers the treatment.
func specQuizAndCreditLimit(t *testing.T, r *specRun) {
	const key = "synchrony_standard"
	sid := specStart(t, r, "identity-quiz")
	d := specPrequalify(t, r, sid, key, testkit.Applicant("Quizzical", "123450907"))
	q := r.call(t, "GET /providers/{providerKey}/quiz", req{method: "GET", path: "/providers/" + key + "/quiz", session: sid},
		200, "result", "attemptsLeft", "passed", "quiz.quizId", "quiz.questions[].choices")
	quizID := q["quiz"].(map[string]any)["quizId"].(string)
	if m := r.call(t, "POST /providers/{providerKey}/answers", req{method: "POST", path: "/providers/" + key + "/answers", session: sid,
		body: flow.AnswersRequest{QuizID: quizID, Answers: sandbox.RightAnswers(d["lenderApplicationId"].(string), quizID)}},
		200, "result", "passed"); m["passed"] != true {
		t.Errorf("answers: %v", m)
	}

	sid = specStart(t, r, "credit-limit-change")
	if d := specPrequalify(t, r, sid, key, testkit.Applicant("Anyname", "123450908")); d["existingAccount"] != true {
		t.Fatalf("credit-limit-change: %v", d)
	}
	terms := r.call(t, "GET /providers/{providerKey}/account/terms", req{method: "GET", path: "/providers/" + key + "/account/terms", session: sid},
		200, "providerKey", "creditLimitCents", "availableCreditCents", "purchaseAmountCents", "maxLimitCents", "document.content")
	if terms["creditLimitCents"] != float64(100_000) {
		t.Errorf("terms: %v", terms)
	}
	m := r.call(t, "POST /providers/{providerKey}/account/change-credit-limit", req{method: "POST", path: "/providers/" + key + "/account/change-credit-limit",
		session: sid, body: map[string]any{"requestedLimitCents": 500_000, "annualGrossIncomeCents": 2_000_000}},
		200, "providerKey", "responseCode", "creditLimitCents", "availableCreditCents", "purchaseAmountCents", "coversPurchase")
	if m["responseCode"] != "approved" || m["coversPurchase"] != true {
		t.Errorf("change: %v", m)
	}
	specChoosePlan(t, r, sid, key, 450000)
}

// specStartsAndFinishes: the other starts, a restart, the client log and
// a time-out.
func specStartsAndFinishes(t *testing.T, r *specRun) {
	h := r.h
	token := "tok_spec_abcdefghijklmnopqrstuvwxyz0123"
	err := h.db.CreateFlowToken(context.Background(), &chairside.FlowToken{Hash: chairside.HashSecret(token), LocationID: mustLocation(t, h).ID,
		PurchaseAmountCents: 250000, ExperienceType: chairside.ExperienceInStore, ExpiresAt: h.clock.Now().Add(time.Hour), CreatedAt: h.clock.Now()})
	if err != nil {
		t.Fatal(err)
	}
	r.call(t, "POST /flow/start/tokens/{token}", req{method: "POST", path: "/flow/start/tokens/" + token}, 200, startFields...)
	m := r.call(t, "POST /flow/start", req{method: "POST", path: "/flow/start", body: map[string]any{"entityKey": EntityKey}}, 200, startFields...)
	sid := m["session"].(map[string]any)["webSessionId"].(string)
	r.call(t, "POST /log", req{method: "POST", path: "/log", session: sid,
		body: map[string]any{"level": "error", "code": "ui.route_error", "route": "/providers/{providerKey}/paymentPlans"}}, 204)
	m = r.call(t, "POST /flow/restart", req{method: "POST", path: "/flow/restart", session: sid}, 200, startFields...)
	sid = m["session"].(map[string]any)["webSessionId"].(string)
	r.call(t, "POST /flow/finish/timeout", req{method: "POST", path: "/flow/finish/timeout", session: sid}, 200, "outcome")
}

// specContent: help, documents pages, a printable sheet and the test case
// list.
func specContent(t *testing.T, r *specRun) {
	sid := specStart(t, r, "")
	r.call(t, "GET /help/faqs", req{method: "GET", path: "/help/faqs", session: sid}, 200, "language", "faqs[].title", "faqs[].facts")
	r.call(t, "GET /help/glossary", req{method: "GET", path: "/help/glossary?lang=en"}, 200, "language", "entries[].term", "entries[].definition")
	r.call(t, "GET /help/glossary/search", req{method: "GET", path: "/help/glossary/search?q=credit", session: sid}, 200, "language", "entries[].term")
	for _, doc := range []string{"privacy", "privacyNotice", "arbitration", "prequalificationtandc", "creditReport",
		"participatingCreditors", "arbitrationProvision", "electronicDisclosuresAndSignatures"} {
		r.call(t, "GET /documents/{doc}", req{method: "GET", path: "/documents/" + doc, session: sid}, 200, docFields...)
	}
	r.call(t, "GET /documents/pdf/{name}", req{method: "GET", path: "/documents/pdf/synchrony_standard-rates.pdf"}, 200)
	r.call(t, "GET /test-cases", req{method: "GET", path: "/test-cases"}, 200, "testCases[].id", "testCases[].name", "testCases[].description", "entityKey")
	if res := r.h.do(t, req{method: "GET", path: "/documents/pdf/synchrony_standard-rates.pdf"}); res.header.Get("Content-Type") != "application/pdf" ||
		res.header.Get("Content-Disposition") != `inline; filename="synchrony_standard-rates.pdf"` || !strings.HasPrefix(string(res.body), "%PDF-") {
		t.Errorf("pdf: %v %.20s", res.header, res.body)
	}
}
