package opendental_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/chairside/chairside/pms"
	"github.com/chairside/chairside/pms/opendental"
	"github.com/chairside/chairside/pms/opendental/odsim"
)

const devKey, custKey = "DEVKEY0123456789", "CUSTKEYabcdefghi"

// recorded serves the answers of testdata/ (Open Dental's field names
// and types, money as numbers and as strings) by path, checking the
// Authorization header, and keeps the last request body.
func recorded(t *testing.T) (*opendental.Client, *string) {
	t.Helper()
	files := map[string]string{
		"GET /patients": "patients_search.json", "GET /treatplans": "treatplans.json", "GET /proctps": "proctps.json",
		"POST /payments": "payment_created.json", "GET /payments": "payments_day.json",
	}
	var body string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "ODFHIR "+devKey+"/"+custKey {
			http.Error(w, "bad key", http.StatusUnauthorized)
			return
		}
		name, ok := files[r.Method+" "+strings.TrimPrefix(r.URL.Path, "/api/v1")]
		if !ok {
			http.NotFound(w, r)
			return
		}
		b, _ := io.ReadAll(r.Body)
		body = r.URL.RawQuery + " " + string(b)
		data, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			t.Error(err)
		}
		if r.Method == http.MethodPost {
			w.WriteHeader(http.StatusCreated)
		}
		_, _ = w.Write(data)
	}))
	t.Cleanup(srv.Close)
	return &opendental.Client{BaseURL: srv.URL + "/api/v1", DeveloperKey: devKey, CustomerKey: custKey}, &body
}

// TestRecordedAnswers: the adapter reads Open Dental's answers as they
// come — ids and money as numbers or strings, "0001-01-01" for no date,
// ISO 639-2 languages, the text consent as a word — and sends a payment
// as Open Dental takes it.
func TestRecordedAnswers(t *testing.T) {
	c, last := recorded(t)
	ctx := context.Background()
	found, err := c.FindPatients(ctx, pms.Query{LastName: "Lopez", FirstName: "Mar"})
	if err != nil {
		t.Fatal(err)
	}
	want := pms.Patient{ID: "15", FirstName: "Maria", MiddleInitial: "J", LastName: "Lopez", Birthdate: "1984-03-09", Address: "1200 Maple Street",
		Address2: "Apt 4", City: "Portland", State: "OR", ZIP: "97205", MobilePhone: "(503) 555-0142", Email: "maria.lopez@example.com",
		Language: "es", TextOK: true}
	if len(found) != 2 || !reflect.DeepEqual(found[0], want) {
		t.Fatalf("found %+v", found)
	}
	if ana := found[1]; ana.ID != "17" || ana.Birthdate != "" || ana.TextOK || ana.Language != "" || ana.HomePhone != "5035550100" {
		t.Errorf("the second patient: %+v", ana)
	}
	if !strings.Contains(*last, "LName=Lopez") || !strings.Contains(*last, "FName=Mar") {
		t.Errorf("the search asked %q", *last)
	}

	plans, err := c.TreatmentPlans(ctx, "15")
	if err != nil {
		t.Fatal(err)
	}
	if len(plans) != 1 || plans[0].ID != "301" || len(plans[0].Procedures) != 3 || plans[0].Signed {
		t.Fatalf("plans %+v", plans)
	}
	// $1,450 + $1,600 + $325 of fees; insurance $725 + $600 + $162.50; the patient's share $725 + $1,000 + $142.50.
	if got := plans[0].Totals(); got != (pms.Totals{FeeCents: 337500, InsuranceCents: 148750, DiscountCents: 2000, PatientCents: 186750}) {
		t.Errorf("totals %+v", got)
	}

	day := time.Date(2026, 11, 28, 0, 0, 0, 0, time.UTC)
	id, err := c.PostPayment(ctx, pms.Payment{PatientID: "15", AmountCents: 248000, Date: day, Reference: "Chairside synchrony_standard case-1",
		Note: "Synchrony, 12 months at 0% APR"})
	if err != nil || id != "9001" {
		t.Fatalf("posted %q %v", id, err)
	}
	var sent map[string]any
	if err := json.Unmarshal([]byte(strings.TrimSpace(*last)), &sent); err != nil {
		t.Fatalf("the payment's body %q: %v", *last, err)
	}
	if sent["PatNum"] != float64(15) || sent["PayAmt"] != "2480.00" || sent["PayDate"] != "2026-11-28" || sent["CheckNum"] != "Chairside synchrony_standard case-1" {
		t.Errorf("the payment sent: %v", sent)
	}
	if id, err := c.FindPayment(ctx, "15", day, "Chairside synchrony_standard case-1"); err != nil || id != "9001" {
		t.Errorf("found %q %v", id, err)
	}
	if id, err := c.FindPayment(ctx, "15", day, "Chairside other case"); err != nil || id != "" {
		t.Errorf("an unknown reference found %q %v", id, err)
	}
}

// TestFailuresInWords: a refused key, a failing system and a missing
// patient are told apart, and no key is ever in an error.
func TestFailuresInWords(t *testing.T) {
	sim := odsim.New(devKey, custKey)
	srv := httptest.NewServer(sim)
	defer srv.Close()
	c := &opendental.Client{BaseURL: srv.URL, DeveloperKey: devKey, CustomerKey: custKey}
	ctx := context.Background()
	if err := c.Check(ctx); err != nil {
		t.Fatalf("check: %v", err)
	}
	wrong := &opendental.Client{BaseURL: srv.URL, DeveloperKey: devKey, CustomerKey: "NOTTHEKEY"}
	sim.Fail(1)
	errs := []error{wrong.Check(ctx), c.Check(ctx)}
	_, notFound := c.Patient(ctx, "999")
	_, bad := c.Patient(ctx, "../x")
	errs = append(errs, notFound, bad)
	for i, want := range []error{pms.ErrRefused, pms.ErrUnavailable, pms.ErrNotFound, pms.ErrNotFound} {
		if !errors.Is(errs[i], want) {
			t.Errorf("error %d: %v, want %v", i, errs[i], want)
		}
		if errs[i] != nil && (strings.Contains(errs[i].Error(), devKey) || strings.Contains(errs[i].Error(), custKey)) {
			t.Errorf("a key in %q", errs[i])
		}
	}
	sim.Revoke()
	if err := c.Check(ctx); !errors.Is(err, pms.ErrRefused) {
		t.Errorf("a revoked key: %v", err)
	}
	sim.Restore()
	slow := &opendental.Client{BaseURL: srv.URL, DeveloperKey: devKey, CustomerKey: custKey, HTTP: &http.Client{Timeout: 100 * time.Millisecond}}
	sim.Slow(time.Second)
	if err := slow.Check(ctx); !errors.Is(err, pms.ErrUnavailable) {
		t.Errorf("a slow system: %v", err)
	}
}

// TestLostAnswerFoundBeforeRetry: a payment whose answer is lost is
// found by its reference before any retry, so the ledger holds it once.
func TestLostAnswerFoundBeforeRetry(t *testing.T) {
	sim := odsim.New(devKey, custKey)
	srv := httptest.NewServer(sim)
	defer srv.Close()
	c := &opendental.Client{BaseURL: srv.URL, DeveloperKey: devKey, CustomerKey: custKey}
	ctx := context.Background()
	day := time.Now()
	p := pms.Payment{PatientID: "15", AmountCents: 186750, Date: day, Reference: "Chairside synchrony_standard case-7", Note: "Synchrony"}
	sim.LoseAnswers(1)
	if _, err := c.PostPayment(ctx, p); !errors.Is(err, pms.ErrUnavailable) {
		t.Fatalf("a lost answer: %v", err)
	}
	id, err := c.FindPayment(ctx, "15", day, p.Reference)
	if err != nil || id == "" {
		t.Fatalf("the written payment was not found: %q %v", id, err)
	}
	if got := sim.Payments(15); len(got) != 1 || got[0].PayAmt != "1867.50" {
		t.Fatalf("the ledger: %+v", got)
	}
	refund := p
	refund.AmountCents, refund.Reference = -186750, "Chairside synchrony_standard case-7 refund"
	if _, err := c.PostPayment(ctx, refund); err != nil {
		t.Fatal(err)
	}
	if got := sim.Payments(15); len(got) != 2 || got[1].PayAmt != "-1867.50" {
		t.Fatalf("the refund: %+v", got)
	}
}
