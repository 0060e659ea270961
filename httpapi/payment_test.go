package httpapi_test

import (
	"bytes"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/flow"
	"github.com/chairside/chairside/store"
	"github.com/chairside/chairside/testkit"
)

// The test card: a Luhn-valid Visa number and a CVV the patient types. The
// CVV is short, so it is searched for where a stored or logged value would
// stand: quoted, or after = or :.
const (
	testCardNumber = "4111111111111111"
	testCVV        = "739"
)

func cvvPatterns() []*regexp.Regexp {
	// Stored the way code stores values: as a JSON string or key, or as a
	// key=value log attribute. (A bare "cvv" or "739" also turns up by
	// chance inside sealed base64 and ids, which says nothing.)
	return []*regexp.Regexp{
		regexp.MustCompile(`(?i)"cvv"`),
		regexp.MustCompile(`(?i)\bcvv[=:]`),
		regexp.MustCompile(`"` + testCVV + `"`),
		regexp.MustCompile(`[=:]` + testCVV + `\b`),
	}
}

// TestPaymentNeverKept runs the Snap journey through the API on both
// engines — accept, e-sign refused until the bank account is given, bank
// account, a card refused (a lease takes none), e-sign, complete — gives
// HFD, whose monthly payments may come from a card, a card, and then
// searches the database (the SQLite file and its -wal; every PostgreSQL
// table) and the server log for the card number and the CVV: found
// nowhere.
func TestPaymentNeverKept(t *testing.T) {
	eachEngine(t, config{}, func(t *testing.T, h *harness) {
		const key = "snap_standard"
		sid := h.start(t)
		d := want(t, h.prequalify(t, sid, key, testkit.Applicant("Approve", "123450051")), 200, "")
		if !chairside.Positive(d["responseCode"].(string)) {
			t.Fatalf("prequalify: %v", d)
		}
		code := confirmFirstPlan(t, h, sid, key)
		var agreement chairside.Document
		res := h.do(t, req{method: "POST", path: "/providers/" + key + "/agreement", session: sid})
		want(t, res, 200, "")
		res.into(t, &agreement)
		want(t, h.do(t, req{method: "POST", path: "/providers/" + key + "/acceptOffer", session: sid, body: map[string]any{"providerPlanCode": code}}), 200, "")

		esignConsent := h.consent(t, sid, key, flow.DocESign)
		agreementConsent := flow.ConsentInput{DocumentID: agreement.ID, DocumentVersion: agreement.Version, DocumentSHA256: agreement.SHA256, Agreed: true}
		hardPull := h.consent(t, sid, key, flow.DocApplication)
		esign := req{method: "POST", path: "/providers/" + key + "/application/esign", session: sid, body: flow.ESignRequest{
			Consent: &esignConsent, AgreementConsent: &agreementConsent, HardPullConsent: &hardPull, SignaturePNG: testkit.SignaturePNG(t),
		}}
		if m := want(t, h.do(t, esign), 409, chairside.ECONFLICT); !strings.Contains(fmt.Sprint(m["message"]), "checking account") {
			t.Errorf("e-sign before the bank account: %v", m)
		}

		bad := want(t, h.do(t, req{method: "POST", path: "/providers/" + key + "/application/bank-account", session: sid, body: map[string]any{
			"routingNumber": "011000016", "accountNumber": "12", "bankName": "First Test Bank", "accountType": "checking",
		}}), 400, chairside.EINVALID)
		if got := fmt.Sprint(bad["fieldErrors"]); !strings.Contains(got, "bankAccount.routingNumber") || !strings.Contains(got, "bankAccount.accountNumber") {
			t.Errorf("field errors: %s", got)
		}
		want(t, h.do(t, req{method: "POST", path: "/providers/" + key + "/application/bank-account", session: sid, header: map[string]string{"Idempotency-Key": "acct-1"}, body: map[string]any{
			"routingNumber": "011000015", "accountNumber": "000123456789", "bankName": "First Test Bank", "accountType": "checking",
		}}), 200, "")

		card := map[string]any{
			"cardholderName": "Pat Approve", "cardNumber": testCardNumber, "expiryMonth": 12, "expiryYear": time.Now().Year() + 3,
			"cvv": testCVV, "zip": "30301",
		}
		badCard := map[string]any{}
		for k, v := range card {
			badCard[k] = v
		}
		badCard["cardNumber"] = "4111111111111112"
		badCard["cvv"] = "7391"
		want(t, h.do(t, req{method: "POST", path: "/providers/" + key + "/application/bank-card", session: sid, body: card}), 404, chairside.ENOTFOUND)

		const hfd = "hfd_standard"
		hsid := hfdSession(t, h, "1000200030009700")
		want(t, h.prequalify(t, hsid, hfd, testkit.Applicant("Approve", "123450052")), 200, "")
		hcode := confirmFirstPlan(t, h, hsid, hfd)
		want(t, h.do(t, req{method: "POST", path: "/providers/" + hfd + "/acceptOffer", session: hsid, body: map[string]any{"providerPlanCode": hcode}}), 200, "")
		res = h.do(t, req{method: "POST", path: "/providers/" + hfd + "/application/bank-card", session: hsid, body: badCard})
		want(t, res, 400, chairside.EINVALID)
		if bytes.Contains(res.body, []byte("4111111111111112")) || bytes.Contains(res.body, []byte("7391")) {
			t.Errorf("the error repeats the card: %s", res.body)
		}
		res = h.do(t, req{method: "POST", path: "/providers/" + hfd + "/application/bank-card", session: hsid, header: map[string]string{"Idempotency-Key": "card-1"}, body: card})
		want(t, res, 200, "")
		if bytes.Contains(res.body, []byte(testCardNumber)) {
			t.Errorf("the answer repeats the card: %s", res.body)
		}

		// The lease agreement on its own screen, then signing without it.
		want(t, h.do(t, req{method: "POST", path: "/providers/" + key + "/application/agreement", session: sid,
			body: flow.ConsentStepRequest{Consent: &agreementConsent}}), 200, "")
		esign.body = flow.ESignRequest{Consent: &esignConsent, HardPullConsent: &hardPull, SignaturePNG: testkit.SignaturePNG(t)}
		if m := want(t, h.do(t, esign), 200, ""); m["status"] != chairside.StatusSigned {
			t.Fatalf("esign: %v", m)
		}
		if m := want(t, h.do(t, req{method: "POST", path: "/providers/" + key + "/application/complete", session: sid}), 200, ""); m["status"] != chairside.StatusCompleted {
			t.Fatalf("complete: %v", m)
		}

		search := func(where string, data []byte) {
			if bytes.Contains(data, []byte(testCardNumber)) {
				t.Errorf("the card number is in %s", where)
			}
			for _, p := range cvvPatterns() {
				if loc := p.FindIndex(data); loc != nil {
					t.Errorf("the CVV (%s) is in %s: %q", p, where, data[max(0, loc[0]-40):min(len(data), loc[1]+40)])
				}
			}
		}
		search("the server log", []byte(h.logs.String()))
		if h.eng.Name == store.SQLite {
			files, _ := filepath.Glob(h.eng.DSN + "*")
			if len(files) < 2 {
				t.Fatalf("expected the database and its -wal, found %v", files)
			}
			for _, f := range files {
				buf, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				search(filepath.Base(f), buf)
			}
			return
		}
		search("the PostgreSQL tables", dumpPostgres(t, h.eng.DSN))
	})
}

// dumpPostgres answers every row of every table of the test's database as
// text.
func dumpPostgres(t *testing.T, dsn string) []byte {
	t.Helper()
	db, err := sql.Open("pgx", dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var tables []string
	rows, err := db.Query(`SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			t.Fatal(err)
		}
		tables = append(tables, name)
	}
	rows.Close()
	if len(tables) < 10 {
		t.Fatalf("found only tables %v", tables)
	}
	var b bytes.Buffer
	for _, table := range tables {
		// The names come from the catalogue, not from input.
		rows, err := db.Query(`SELECT t::text FROM ` + table + ` t`)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var line string
			if err := rows.Scan(&line); err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(&b, "%s %s\n", table, line)
		}
		rows.Close()
	}
	if !bytes.Contains(b.Bytes(), []byte("bank_card")) {
		t.Fatal("the dump shows no bank_card lender call; the dump is broken")
	}
	return b.Bytes()
}
