package httpapi_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/flow"
	"github.com/chairside/chairside/testkit"
)

// hfdOffice is an office whose waterfall starts with HFD (in role).
func hfdOffice(t *testing.T, h *harness, entityKey, role string) {
	t.Helper()
	loc := &chairside.Location{EntityKey: entityKey, Name: "Lender Steps Dental", State: "TX", GroupID: "group-300",
		Waterfall: []chairside.WaterfallStep{{LenderKey: "hfd_standard", Role: role, ApplyMode: chairside.ModePrequalify}}}
	if err := h.db.CreateLocation(context.Background(), loc); err != nil {
		t.Fatal(err)
	}
}

// hfdSession starts an in-office session at a new HFD office (hfdOffice,
// as the secondary lender) and answers its session id.
func hfdSession(t *testing.T, h *harness, entityKey string) string {
	t.Helper()
	hfdOffice(t, h, entityKey, chairside.RoleHighlineSecondary)
	var s flow.StartResponse
	res := h.do(t, req{method: "POST", path: "/flow/start/entity-keys/" + entityKey, body: map[string]any{"purchaseAmountCents": 450000, "experienceType": "in_store"}})
	want(t, res, 200, "")
	res.into(t, &s)
	return s.Session.WebSessionID
}

// TestHFDStepsThroughTheAPI: HFD's own steps through the API — the accept
// answer lists them, GET application agrees, bad input answers JSON errors
// with codes and field names, e-sign is 409 while a step is open, a repeat
// with the same Idempotency-Key replays, other details are 422 — and the
// contact's phone is kept nowhere the server writes.
func TestHFDStepsThroughTheAPI(t *testing.T) {
	eachEngine(t, config{}, func(t *testing.T, h *harness) {
		const key, ek = "hfd_standard", "1000200030009300"
		sid := hfdSession(t, h, ek)
		var loc flow.CurrentLocation
		res := h.do(t, req{method: "GET", path: "/locations/current", session: sid})
		want(t, res, 200, "")
		res.into(t, &loc)
		if len(loc.Waterfall) != 1 || loc.Waterfall[0].Role != chairside.RoleHighlineSecondary {
			t.Fatalf("waterfall roles: %+v", loc.Waterfall)
		}
		want(t, h.prequalify(t, sid, key, testkit.Applicant("Approve", "123450401")), 200, "")
		var plans flow.PlansResponse
		res = h.do(t, req{method: "POST", path: "/providers/" + key + "/payment/plans", session: sid, body: map[string]any{"amountCents": 200000}})
		want(t, res, 200, "")
		res.into(t, &plans)
		plan := plans.PaymentPlans[0]
		code := plan.LenderPlanCode
		want(t, h.do(t, req{method: "POST", path: "/providers/" + key + "/payment/plans/" + code + "/select", session: sid}), 200, "")
		want(t, h.do(t, req{method: "POST", path: "/providers/" + key + "/payment/plans/" + code + "/confirm-selection", session: sid}), 200, "")
		accepted := want(t, h.do(t, req{method: "POST", path: "/providers/" + key + "/acceptOffer", session: sid, body: map[string]any{"providerPlanCode": code}}), 200, "")
		if got := fmt.Sprint(accepted["openSteps"]); got != "[downpayment additionalContactInformation loanPayment]" {
			t.Fatalf("accept's open steps: %s", got)
		}
		got := want(t, h.do(t, req{method: "GET", path: "/providers/" + key + "/application", session: sid}), 200, "")
		if fmt.Sprint(got["openSteps"]) != fmt.Sprint(accepted["openSteps"]) {
			t.Fatalf("GET application: %v", got["openSteps"])
		}

		path := "/providers/" + key + "/application/down-payment"
		for name, tc := range map[string]struct {
			body   any
			status int
			code   string
			field  string
		}{
			"unknown field":    {map[string]any{"amountCents": plan.DownPaymentCents, "method": "collected_in_office", "tip": 1}, 400, chairside.EBADREQUEST, ""},
			"string amount":    {map[string]any{"amountCents": "450", "method": "collected_in_office"}, 400, chairside.EBADREQUEST, ""},
			"wrong amount":     {map[string]any{"amountCents": 1, "method": "collected_in_office", "acknowledged": true}, 400, chairside.EINVALID, "downPayment.amountCents"},
			"no ack":           {map[string]any{"amountCents": plan.DownPaymentCents, "method": "collected_in_office"}, 400, chairside.EINVALID, "downPayment.acknowledged"},
			"home method here": {map[string]any{"amountCents": plan.DownPaymentCents, "method": "pay_at_office", "acknowledged": true}, 400, chairside.EINVALID, "downPayment.method"},
		} {
			m := want(t, h.do(t, req{method: "POST", path: path, session: sid, body: tc.body}), tc.status, tc.code)
			if tc.field != "" && !strings.Contains(fmt.Sprint(m["fieldErrors"]), tc.field) {
				t.Errorf("%s: field errors %v", name, m["fieldErrors"])
			}
		}
		esign := req{method: "POST", path: "/providers/" + key + "/application/esign", session: sid, body: flow.ESignRequest{
			Consent: testkit.Ptr(h.consent(t, sid, key, flow.DocESign)), AgreementConsent: testkit.Ptr(agreementConsent(t, h, sid, key)),
			HardPullConsent: testkit.Ptr(h.consent(t, sid, key, flow.DocApplication)), SignaturePNG: testkit.SignaturePNG(t),
		}}
		if m := want(t, h.do(t, esign), 409, chairside.ECONFLICT); !strings.Contains(fmt.Sprint(m["message"]), "down payment") {
			t.Errorf("e-sign with the down payment open: %v", m)
		}
		good := req{method: "POST", path: path, session: sid, header: map[string]string{"Idempotency-Key": "dp-1"},
			body: map[string]any{"amountCents": plan.DownPaymentCents, "method": "collected_in_office", "acknowledged": true}}
		first := want(t, h.do(t, good), 200, "")
		if fmt.Sprint(first["openSteps"]) != "[additionalContactInformation loanPayment]" {
			t.Fatalf("after the down payment: %v", first["openSteps"])
		}
		again := want(t, h.do(t, good), 200, "")
		if fmt.Sprint(again["openSteps"]) != fmt.Sprint(first["openSteps"]) {
			t.Fatalf("replay: %v", again)
		}

		contact := "/providers/" + key + "/application/additional-contact"
		m := want(t, h.do(t, req{method: "POST", path: contact, session: sid, body: map[string]any{"name": "", "relationship": "landlord", "phone": "5550187"}}), 400, chairside.EINVALID)
		for _, f := range []string{"contact.name", "contact.relationship", "contact.phone"} {
			if !strings.Contains(fmt.Sprint(m["fieldErrors"]), f) {
				t.Errorf("contact field errors: %v", m["fieldErrors"])
			}
		}
		body := map[string]any{"name": "Rosa Diaz", "relationship": "sibling", "phone": "(312) 555-0187"}
		want(t, h.do(t, req{method: "POST", path: contact, session: sid, body: body}), 200, "")
		body["phone"] = "3125550199"
		want(t, h.do(t, req{method: "POST", path: contact, session: sid, body: body}), 422, chairside.EIDEMPOTENCY)
	})
}

// agreementConsent fetches the agreement and answers the consent naming it.
func agreementConsent(t *testing.T, h *harness, sid, key string) flow.ConsentInput {
	t.Helper()
	var doc chairside.Document
	res := h.do(t, req{method: "POST", path: "/providers/" + key + "/agreement", session: sid})
	want(t, res, 200, "")
	res.into(t, &doc)
	return flow.ConsentInput{DocumentID: doc.ID, DocumentVersion: doc.Version, DocumentSHA256: doc.SHA256, Agreed: true}
}

// TestAFFAndFortivaStepsThroughTheAPI: AFF at an office in California with
// an applicant living in Wisconsin — agreement, Wisconsin and California
// steps with their bad input answered as JSON errors, e-sign without the
// agreement consent — and Fortiva's cardholder agreement between signing
// and completing.
func TestAFFAndFortivaStepsThroughTheAPI(t *testing.T) {
	eachEngine(t, config{}, func(t *testing.T, h *harness) {
		const key, ek = "aff_standard", "1000200030009400"
		loc := &chairside.Location{EntityKey: ek, Name: "AFF Dental", State: "CA", GroupID: "group-301",
			Waterfall: []chairside.WaterfallStep{{LenderKey: key, Role: chairside.RolePrimary, ApplyMode: chairside.ModePrequalify}}}
		if err := h.db.CreateLocation(context.Background(), loc); err != nil {
			t.Fatal(err)
		}
		var s flow.StartResponse
		res := h.do(t, req{method: "POST", path: "/flow/start/entity-keys/" + ek, body: map[string]any{"purchaseAmountCents": 450000}})
		want(t, res, 200, "")
		res.into(t, &s)
		sid := s.Session.WebSessionID
		a := testkit.Applicant("Approve", "123450411")
		a.AddressLine1, a.AddressCity, a.AddressState, a.AddressZipCode = "22 State St", "Madison", "WI", "53703"
		want(t, h.prequalify(t, sid, key, a), 200, "")
		accepted := acceptFirstPlan(t, h, sid, key)
		if got := fmt.Sprint(accepted["openSteps"]); got != "[agreement checkWisconsin checkCalifornia]" {
			t.Fatalf("open steps: %s", got)
		}
		app := "/providers/" + key + "/application/"
		want(t, h.do(t, req{method: "POST", path: app + "agreement", session: sid, body: map[string]any{}}), 400, chairside.ECONSENT)
		agreement := agreementConsent(t, h, sid, key)
		want(t, h.do(t, req{method: "POST", path: app + "agreement", session: sid, body: flow.ConsentStepRequest{Consent: &agreement}}), 200, "")
		want(t, h.do(t, req{method: "POST", path: app + "wisconsin", session: sid, body: map[string]any{"married": "yes"}}), 400, chairside.EBADREQUEST)
		m := want(t, h.do(t, req{method: "POST", path: app + "wisconsin", session: sid, body: map[string]any{"married": true, "spouse": map[string]any{
			"firstName": "Sam", "lastName": "Approve", "addressLine1": "22 State St", "city": "Madison", "state": "WI", "zipCode": "77002"}}}), 400, chairside.EINVALID)
		if !strings.Contains(fmt.Sprint(m["fieldErrors"]), "spouse.zipCode") {
			t.Errorf("spouse field errors: %v", m["fieldErrors"])
		}
		want(t, h.do(t, req{method: "POST", path: app + "wisconsin", session: sid, body: map[string]any{"married": false}}), 200, "")
		notice := h.consent(t, sid, key, flow.DocCaliforniaNotice)
		got := want(t, h.do(t, req{method: "POST", path: app + "california-notice", session: sid, body: flow.ConsentStepRequest{Consent: &notice}}), 200, "")
		if got["openSteps"] != nil {
			t.Fatalf("still open: %v", got["openSteps"])
		}
		esign := flow.ESignRequest{Consent: testkit.Ptr(h.consent(t, sid, key, flow.DocESign)), HardPullConsent: testkit.Ptr(h.consent(t, sid, key, flow.DocApplication)),
			SignaturePNG: testkit.SignaturePNG(t)}
		want(t, h.do(t, req{method: "POST", path: app + "esign", session: sid, body: esign}), 200, "")
		want(t, h.do(t, req{method: "POST", path: app + "complete", session: sid}), 200, "")

		// Fortiva at the test office: its cardholder agreement after signing.
		const fk = "fortiva_standard"
		fsid := h.start(t)
		want(t, h.prequalify(t, fsid, fk, testkit.Applicant("Approve", "123450412")), 200, "")
		acceptFirstPlan(t, h, fsid, fk)
		signed := want(t, h.do(t, req{method: "POST", path: "/providers/" + fk + "/application/esign", session: fsid, body: flow.ESignRequest{
			Consent: testkit.Ptr(h.consent(t, fsid, fk, flow.DocESign)), AgreementConsent: testkit.Ptr(agreementConsent(t, h, fsid, fk)),
			HardPullConsent: testkit.Ptr(h.consent(t, fsid, fk, flow.DocApplication)), SignaturePNG: testkit.SignaturePNG(t)}}), 200, "")
		if fmt.Sprint(signed["openSteps"]) != "[completeAgreement]" {
			t.Fatalf("after signing: %v", signed["openSteps"])
		}
		want(t, h.do(t, req{method: "POST", path: "/providers/" + fk + "/application/complete", session: fsid}), 409, chairside.ECONFLICT)
		want(t, h.do(t, req{method: "GET", path: "/providers/" + fk + "/disclosures?kind=nope", session: fsid}), 400, chairside.EBADREQUEST)
		card := h.consent(t, fsid, fk, flow.DocCardholder)
		want(t, h.do(t, req{method: "POST", path: "/providers/" + fk + "/application/cardholder-agreement", session: fsid, body: flow.ConsentStepRequest{Consent: &card}}), 200, "")
		if m := want(t, h.do(t, req{method: "POST", path: "/providers/" + fk + "/application/complete", session: fsid}), 200, ""); m["status"] != chairside.StatusCompleted {
			t.Fatalf("complete: %v", m)
		}
	})
}

// acceptFirstPlan selects, confirms and accepts the first plan for $2,000
// and answers the accept's answer.
func acceptFirstPlan(t *testing.T, h *harness, sid, key string) map[string]any {
	t.Helper()
	code := confirmFirstPlan(t, h, sid, key)
	return want(t, h.do(t, req{method: "POST", path: "/providers/" + key + "/acceptOffer", session: sid, body: map[string]any{"providerPlanCode": code}}), 200, "")
}
