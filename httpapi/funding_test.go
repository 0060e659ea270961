package httpapi_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/catalogue"
	"github.com/chairside/chairside/flow"
	"github.com/chairside/chairside/lender/protocol"
	"github.com/chairside/chairside/testkit"
)

// completeAt walks a patient through key's whole journey over the API, at
// the office with entityKey, made on first use with a waterfall of key
// alone: prequalify, the first
// plan for $2,000, accept, each of the lender's own steps the answers list
// as open, e-sign, the steps after signing, complete. It answers the
// application's id.
func completeAt(t *testing.T, h *harness, key, entityKey, ssn string) string {
	t.Helper()
	sid, plan, answer := acceptAt(t, h, key, entityKey, ssn)
	return completeAccepted(t, h, key, sid, plan, answer)
}

// completeAccepted takes the patient of session sid, whose offer of key
// is accepted, through the lender's own steps, the e-signature and the
// completion, and answers the application's id.
func completeAccepted(t *testing.T, h *harness, key, sid string, plan chairside.PaymentPlan, answer map[string]any) string {
	t.Helper()
	p := "/providers/" + key
	agreedAlone := false
	ownSteps(t, h, sid, key, plan, answer, &agreedAlone)
	esign := flow.ESignRequest{Consent: testkit.Ptr(h.consent(t, sid, key, flow.DocESign)),
		HardPullConsent: testkit.Ptr(h.consent(t, sid, key, flow.DocApplication)), SignaturePNG: testkit.SignaturePNG(t)}
	if !agreedAlone {
		esign.AgreementConsent = testkit.Ptr(agreementConsent(t, h, sid, key))
	}
	answer = want(t, h.do(t, req{method: "POST", path: p + "/application/esign", session: sid, body: esign}), 200, "")
	ownSteps(t, h, sid, key, plan, answer, &agreedAlone)
	if m := want(t, h.do(t, req{method: "POST", path: p + "/application/complete", session: sid}), 200, ""); m["status"] != chairside.StatusCompleted {
		t.Fatalf("%s complete: %v", key, m)
	}
	sess, err := h.svc.Authenticate(context.Background(), sid)
	if err != nil {
		t.Fatal(err)
	}
	return sess.ApplicationID
}

// acceptAt takes a patient at a demo office of the lender key (made if
// missing) to an accepted offer at $4,500, and answers the patient's
// session, the plan accepted and the acceptance's answer.
func acceptAt(t *testing.T, h *harness, key, entityKey, ssn string) (string, chairside.PaymentPlan, map[string]any) {
	t.Helper()
	if _, err := h.db.FindLocationByEntityKey(context.Background(), entityKey); chairside.ErrorCode(err) == chairside.ENOTFOUND {
		loc := &chairside.Location{EntityKey: entityKey, Name: "Funding Dental", State: "TX", GroupID: "group-" + entityKey,
			Waterfall: []chairside.WaterfallStep{{LenderKey: key, Role: chairside.RolePrimary, ApplyMode: chairside.ModePrequalify}}}
		if err := h.db.CreateLocation(context.Background(), loc); err != nil {
			t.Fatal(err)
		}
	} else if err != nil {
		t.Fatal(err)
	}
	var s flow.StartResponse
	res := h.do(t, req{method: "POST", path: "/flow/start/entity-keys/" + entityKey, body: map[string]any{"purchaseAmountCents": 450000, "experienceType": "in_store"}})
	want(t, res, 200, "")
	res.into(t, &s)
	plan, answer := acceptIn(t, h, key, s.Session.WebSessionID, ssn)
	return s.Session.WebSessionID, plan, answer
}

// acceptIn takes the patient of session sid to an accepted offer of key,
// and answers the plan accepted and the acceptance's answer.
func acceptIn(t *testing.T, h *harness, key, sid, ssn string) (chairside.PaymentPlan, map[string]any) {
	t.Helper()
	want(t, h.prequalify(t, sid, key, testkit.Applicant("Approve", ssn)), 200, "")
	var plans flow.PlansResponse
	p := "/providers/" + key
	res := h.do(t, req{method: "POST", path: p + "/payment/plans", session: sid, body: map[string]any{"amountCents": 200000}})
	want(t, res, 200, "")
	res.into(t, &plans)
	plan := plans.PaymentPlans[0]
	code := plan.LenderPlanCode
	want(t, h.do(t, req{method: "POST", path: p + "/payment/plans/" + code + "/select", session: sid}), 200, "")
	want(t, h.do(t, req{method: "POST", path: p + "/payment/plans/" + code + "/confirm-selection", session: sid}), 200, "")
	answer := want(t, h.do(t, req{method: "POST", path: p + "/acceptOffer", session: sid, body: map[string]any{"providerPlanCode": code}}), 200, "")
	return plan, answer
}

// ownSteps goes through the lender's own steps an answer lists as open, in
// order, each with what a patient would send, and answers the last answer.
func ownSteps(t *testing.T, h *harness, sid, key string, plan chairside.PaymentPlan, answer map[string]any, agreedAlone *bool) map[string]any {
	t.Helper()
	app := "/providers/" + key + "/application/"
	for range 10 {
		open, _ := answer["openSteps"].([]any)
		if len(open) == 0 {
			return answer
		}
		var path string
		var body any
		switch step := open[0].(string); step {
		case chairside.JourneyDownPayment:
			path, body = "down-payment", map[string]any{"amountCents": plan.DownPaymentCents, "method": "collected_in_office", "acknowledged": true}
		case chairside.JourneyAdditionalContact:
			path, body = "additional-contact", map[string]any{"name": "Rosa Diaz", "relationship": "sibling", "phone": "(312) 555-0187"}
		case chairside.JourneyLoanPayment:
			path, body = "bank-card", map[string]any{"cardholderName": "Pat Approve", "cardNumber": testCardNumber, "expiryMonth": 12,
				"expiryYear": time.Now().Year() + 3, "cvv": testCVV, "zip": "30301"}
		case chairside.JourneyBankAccount:
			path, body = "bank-account", map[string]any{"routingNumber": "011000015", "accountNumber": "000123456789",
				"bankName": "First Test Bank", "accountType": "checking"}
		case chairside.JourneyAgreement:
			*agreedAlone = true
			path, body = "agreement", flow.ConsentStepRequest{Consent: testkit.Ptr(agreementConsent(t, h, sid, key))}
		case chairside.JourneyCalifornia:
			path, body = "california-notice", flow.ConsentStepRequest{Consent: testkit.Ptr(h.consent(t, sid, key, flow.DocCaliforniaNotice))}
		case chairside.JourneyWisconsin:
			path, body = "wisconsin", map[string]any{"married": false}
		case chairside.JourneyCompleteAgreement:
			path, body = "cardholder-agreement", flow.ConsentStepRequest{Consent: testkit.Ptr(h.consent(t, sid, key, flow.DocCardholder))}
		default:
			t.Fatalf("%s: no way through the step %q", key, step)
		}
		answer = want(t, h.do(t, req{method: "POST", path: app + path, session: sid, body: body}), 200, "")
	}
	t.Fatalf("%s: the steps never closed: %v", key, answer["openSteps"])
	return nil
}

// TestFundingOfEveryLender: for every lender, a case completed over the
// API is followed by the reconciler until its money is deposited: its
// money line goes approved → signed → completed → funded → deposited, the
// funding's gross is the amount financed, fee and net add up to it, and
// the deposit carries the net under the funding's deposit reference. The
// office's row and the case's page say so (checked for one lender; the
// contract checks every answer's shape).
func TestFundingOfEveryLender(t *testing.T) {
	t.Parallel()
	eachEngine(t, config{}, func(t *testing.T, h *harness) {
		ctx := context.Background()
		apps := map[string]string{}
		for i, p := range catalogue.All() {
			apps[p.Key] = completeAt(t, h, p.Key, fmt.Sprintf("100099%010d", i), fmt.Sprintf("1234507%02d", i))
		}
		// Two weeks of reconciler rounds, an hour apart: every lender
		// has funded and deposited by then.
		for range 14 * 24 {
			h.clock.Advance(time.Hour)
			if _, err := h.svc.ReconcileFunding(ctx, 50); err != nil {
				t.Fatal(err)
			}
		}
		for key, id := range apps {
			line, err := h.db.MoneyLine(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			var kinds []string
			for _, e := range line {
				kinds = append(kinds, e.Kind)
			}
			if fmt.Sprint(kinds) != "[approved signed completed funded deposited]" {
				t.Fatalf("%s money line: %v", key, kinds)
			}
			signed, funded, deposited := line[1], line[3], line[4]
			if funded.AmountCents != signed.AmountCents || funded.FeeCents <= 0 || funded.FeeCents+funded.NetCents != funded.AmountCents {
				t.Errorf("%s funded %+v, signed for %d", key, funded, signed.AmountCents)
			}
			if deposited.Reference != funded.DepositRef || deposited.NetCents != funded.NetCents || !deposited.On.Equal(funded.DepositOn) {
				t.Errorf("%s deposited %+v, funded %+v", key, deposited, funded)
			}
		}

		// What the office sees of Synchrony's case (its office is the
		// first of the loop's, by the catalogue's order).
		first := catalogue.All()[0].Key
		h.addStaffAs(t, "1000990000000000", "desk@funding.example", staffPassword, chairside.StaffFrontDesk)
		s := h.staffSignIn(t, "desk@funding.example", staffPassword)
		detail := want(t, h.do(t, req{method: "GET", path: "/office/applications/" + apps[first], header: s.headers(false)}), 200, "")
		money, _ := detail["money"].(map[string]any)
		line, _ := detail["moneyLine"].([]any)
		if money["state"] != chairside.MoneyDeposited || money["depositRef"] == "" || money["netCents"] == nil || len(line) != 5 {
			t.Fatalf("%s on the office's page: money %v, line %v", first, money, line)
		}
	})
}

// TestFundingWebhooks: a lender's funding news by signed webhook, at the
// HTTP door: a deposit that arrives before its funding puts both on the
// money line; the funding after it, and the deposit again, add nothing; a
// funding whose fee and net are not its gross is refused as malformed and
// changes nothing; a deposit naming an application we do not know answers
// 404 so the lender delivers it again.
func TestFundingWebhooks(t *testing.T) {
	t.Parallel()
	eachEngine(t, config{}, func(t *testing.T, h *harness) {
		const key = "synchrony_standard"
		id := completeAt(t, h, key, "1000990300000000", "123450951")
		pa, err := h.db.FindLenderApplication(context.Background(), id, key)
		if err != nil {
			t.Fatal(err)
		}
		line, _ := h.db.MoneyLine(context.Background(), id)
		gross := line[len(line)-1].AmountCents
		at := h.clock.Now()
		funded := protocol.Funding{ApplicationID: pa.LenderRef, State: chairside.FundingFunded, FundingRef: "SYN-F-9", Currency: "USD",
			GrossCents: gross, FeeCents: 1_000, FeeRateBP: 50, NetCents: gross - 1_000, FundedOn: &at, DepositRef: "SYN-D-9", DepositOn: &at}
		deposited := funded
		deposited.State = chairside.FundingDeposited
		send := func(id, typ string, data protocol.EventData) *result {
			t.Helper()
			body, _ := json.Marshal(protocol.Event{ID: id, Type: typ, CreatedAt: at, Data: data})
			return h.webhook(t, key, body, protocol.Sign(webhookSecret, at, body))
		}
		deposit := protocol.EventData{Deposit: &protocol.Deposit{Reference: "SYN-D-9", On: at, Fundings: []protocol.Funding{deposited}}}
		if m := want(t, send("evt-d", protocol.EventDepositSent, deposit), 200, ""); m["result"] != chairside.EventApplied {
			t.Fatalf("the deposit first: %v", m)
		}
		if m := want(t, send("evt-f", protocol.EventFundingUpdated, protocol.EventData{ApplicationID: pa.LenderRef, Funding: &funded}), 200, ""); m["result"] != chairside.EventIgnored {
			t.Fatalf("the funding after its deposit: %v", m)
		}
		if m := want(t, send("evt-d", protocol.EventDepositSent, deposit), 200, ""); m["result"] != chairside.EventDuplicate {
			t.Fatalf("the deposit again: %v", m)
		}
		bad := funded
		bad.NetCents++
		want(t, send("evt-bad", protocol.EventFundingUpdated, protocol.EventData{ApplicationID: pa.LenderRef, Funding: &bad}), 400, chairside.EBADREQUEST)
		stranger := deposited
		stranger.ApplicationID = "SYN-NOBODY"
		want(t, send("evt-x", protocol.EventDepositSent, protocol.EventData{Deposit: &protocol.Deposit{Reference: "SYN-D-9", On: at,
			Fundings: []protocol.Funding{stranger}}}), 404, chairside.ENOTFOUND)

		line, _ = h.db.MoneyLine(context.Background(), id)
		var kinds []string
		for _, e := range line {
			kinds = append(kinds, e.Kind)
		}
		if fmt.Sprint(kinds) != "[approved signed completed funded deposited]" || line[4].NetCents != gross-1_000 {
			t.Fatalf("money line: %v", kinds)
		}
		mismatches := func() int {
			t.Helper()
			alerts, err := h.db.ListMoneyAlerts(context.Background(), "", at.Add(-time.Hour), h.clock.Now())
			if err != nil {
				t.Fatal(err)
			}
			n := 0
			for _, a := range alerts {
				if a.Kind == chairside.AlertDepositMismatch && a.ApplicationID == id {
					n++
				}
			}
			return n
		}
		if n := mismatches(); n != 0 {
			t.Fatalf("a deposit that states no total raised %d alerts", n)
		}

		// A second case whose deposit states a total a cent more than its
		// cases: applied, and an alert for the practice.
		id2 := completeAt(t, h, key, "1000990300000000", "123450953")
		pa2, err := h.db.FindLenderApplication(context.Background(), id2, key)
		if err != nil {
			t.Fatal(err)
		}
		line2, _ := h.db.MoneyLine(context.Background(), id2)
		gross2 := line2[len(line2)-1].AmountCents
		dep2 := protocol.Funding{ApplicationID: pa2.LenderRef, State: chairside.FundingDeposited, FundingRef: "SYN-F-10", Currency: "USD",
			GrossCents: gross2, FeeCents: 1_000, FeeRateBP: 50, NetCents: gross2 - 1_000, FundedOn: &at, DepositRef: "SYN-D-10", DepositOn: &at}
		short := protocol.EventData{Deposit: &protocol.Deposit{Reference: "SYN-D-10", On: at, NetCents: gross2 - 1_000 + 1, Fundings: []protocol.Funding{dep2}}}
		if m := want(t, send("evt-short", protocol.EventDepositSent, short), 200, ""); m["result"] != chairside.EventApplied {
			t.Fatalf("a deposit with another total: %v", m)
		}
		id, pa = id2, pa2
		if n := mismatches(); n != 1 {
			t.Fatalf("a deposit a cent off its cases raised %d alerts, want 1", n)
		}
	})
}
