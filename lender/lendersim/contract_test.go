package lendersim_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/catalogue"
	"github.com/chairside/chairside/lender/httplender"
	"github.com/chairside/chairside/lender/lendersim"
	"github.com/chairside/chairside/lender/protocol"
	"github.com/chairside/chairside/lender/sandbox"
)

// loadContract reads api/lender-protocol.yaml, checks it is a valid
// OpenAPI 3.1 document, and makes every object schema closed, so that an
// answer with a member the document does not name fails as surely as one
// that lacks a member it requires.
func loadContract(t *testing.T, baseURL string) routers.Router {
	t.Helper()
	r, _ := loadContractDoc(t, baseURL)
	return r
}

// loadContractDoc is loadContract with the document.
func loadContractDoc(t *testing.T, baseURL string) (routers.Router, *openapi3.T) {
	t.Helper()
	raw, err := os.ReadFile("../../api/lender-protocol.yaml")
	if err != nil {
		t.Fatal(err)
	}
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromData(raw)
	if err != nil {
		t.Fatalf("api/lender-protocol.yaml: %v", err)
	}
	if err := doc.Validate(loader.Context); err != nil {
		t.Fatalf("api/lender-protocol.yaml: %v", err)
	}
	if !doc.IsOpenAPI31OrLater() || len(doc.Webhooks) == 0 {
		t.Fatal("api/lender-protocol.yaml: want OpenAPI 3.1 with its webhooks")
	}
	seen := map[*openapi3.Schema]bool{}
	for _, s := range doc.Components.Schemas {
		closeSchema(s, seen)
	}
	doc.Servers = openapi3.Servers{{URL: baseURL}}
	r, err := gorillamux.NewRouter(doc)
	if err != nil {
		t.Fatal(err)
	}
	return r, doc
}

func closeSchema(ref *openapi3.SchemaRef, seen map[*openapi3.Schema]bool) {
	if ref == nil || ref.Value == nil || seen[ref.Value] {
		return
	}
	s := ref.Value
	seen[s] = true
	if s.Type.Is("object") && len(s.Properties) > 0 && s.AdditionalProperties.Has == nil && s.AdditionalProperties.Schema == nil {
		s.AdditionalProperties = openapi3.AdditionalProperties{Has: openapi3.Ptr(false)}
	}
	for _, p := range s.Properties {
		closeSchema(p, seen)
	}
	closeSchema(s.Items, seen)
}

// conform fails the test when an answer does not match the document.
func conform(t *testing.T, router routers.Router, method, url string, a answer) {
	t.Helper()
	req, err := http.NewRequest(method, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	route, params, err := router.FindRoute(req)
	if err != nil {
		t.Errorf("%s %s is not in api/lender-protocol.yaml: %v", method, url, err)
		return
	}
	in := &openapi3filter.RequestValidationInput{Request: req, PathParams: params, Route: route,
		Options: &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc}}
	err = openapi3filter.ValidateResponse(context.Background(), &openapi3filter.ResponseValidationInput{
		RequestValidationInput: in, Status: a.status, Header: a.header,
		Body: io.NopCloser(bytes.NewReader(a.body)), Options: &openapi3filter.Options{IncludeResponseStatus: true},
	})
	if err != nil {
		t.Errorf("%s %s answered %d, not as api/lender-protocol.yaml says: %v\n%.600s", method, route.Path, a.status, err, a.body)
	}
}

// TestAnswersMatchTheContract holds real answers of the simulator (a
// decision, a lookup, a status, plans, every step's receipt, a quiz and
// its grade, a patch, stipulations, a credit limit change, a funding, a
// refund and a void, a document and errors of several kinds) to
// api/lender-protocol.yaml.
func TestAnswersMatchTheContract(t *testing.T) {
	_, srv := start(t, lendersim.Options{})
	key := catalogue.HFD
	base := srv.URL + "/lenders/" + key
	router := loadContract(t, base)
	call := func(method, path, idem string, body any) answer {
		t.Helper()
		a := send(t, srv, method, "/lenders/"+key+path, idem, body)
		conform(t, router, method, base+path, a)
		return a
	}

	in := create("ref-c1", "Approve")
	in.TestCase = "identity-quiz"
	var d protocol.Decision
	call("POST", "/applications", "ref-c1", in).decode(t, &d)
	call("POST", "/applications", "ref-c1", in) // a replay
	call("GET", "/applications?platformReference=ref-c1", "", nil)
	call("GET", "/applications?platformReference=ref-none", "", nil)
	call("GET", protocol.ApplicationPath(d.ApplicationID, ""), "", nil)
	call("GET", protocol.ApplicationPath("SBX-HFD-NOPE", ""), "", nil)
	var plans protocol.Plans
	call("GET", protocol.ApplicationPath(d.ApplicationID, protocol.SubPlans)+"?amountCents=300000", "", nil).decode(t, &plans)
	offer := protocol.Offer{PlatformReference: "ref-c2", PlanCode: plans.Plans[0].PlanCode, AmountCents: 300_000, Currency: protocol.Currency}
	call("POST", protocol.ApplicationPath(d.ApplicationID, protocol.SubAccept), "ref-c2", offer)
	// A change of amount lets the accepted offer go; accepted again.
	call("POST", protocol.ApplicationPath(d.ApplicationID, protocol.SubAmount), "ref-c2a",
		protocol.Change{PlatformReference: "ref-c2a", AmountCents: 250_000, Currency: protocol.Currency, Reason: "one crown less"})
	offer.PlatformReference = "ref-c2b"
	call("POST", protocol.ApplicationPath(d.ApplicationID, protocol.SubAccept), "ref-c2b", offer)
	var quiz protocol.Quiz
	call("GET", protocol.ApplicationPath(d.ApplicationID, protocol.SubQuiz)+"?attempt=1", "", nil).decode(t, &quiz)
	call("POST", protocol.ApplicationPath(d.ApplicationID, protocol.SubQuizAnswers), "ref-c3", protocol.QuizAnswers{
		PlatformReference: "ref-c3", QuizID: quiz.QuizID, Answers: sandbox.RightAnswers(d.ApplicationID, quiz.QuizID)})
	for sub, body := range map[string]any{
		protocol.SubDownPayment: protocol.DownPayment{PlatformReference: "ref-c4", AmountCents: d.DownPaymentCents, Currency: protocol.Currency, Method: "collected_in_office"},
		protocol.SubContacts:    protocol.Contact{PlatformReference: "ref-c5", Name: "Grace Example", Relationship: "parent", Phone: "7025550199"},
		protocol.SubSpouse:      protocol.Spouse{PlatformReference: "ref-c6"},
		protocol.SubBankCard:    protocol.BankCard{PlatformReference: "ref-c7", CardholderName: "A", Number: sandbox.RefusedCard, ExpiryMonth: 12, ExpiryYear: 2099, CVV: "739", ZIP: "89501"},
		protocol.SubBankAccount: protocol.BankAccount{PlatformReference: "ref-c8", RoutingNumber: "1", AccountNumber: "2", BankName: "B", AccountType: "checking"},
	} {
		call("POST", protocol.ApplicationPath(d.ApplicationID, sub), "x-"+sub, body)
	}
	offer.PlatformReference = "ref-c9"
	call("POST", protocol.ApplicationPath(d.ApplicationID, protocol.SubESign), "ref-c9", offer)
	offer.PlatformReference = "ref-c10"
	call("POST", protocol.ApplicationPath(d.ApplicationID, protocol.SubComplete), "ref-c10", offer)
	call("POST", protocol.ApplicationPath(d.ApplicationID, protocol.SubCreditLimit), "ref-c11", protocol.CreditLimitChange{
		PlatformReference: "ref-c11", RequestedLimitCents: d.ApprovedAmountCents + 10_000, AnnualGrossIncomeCents: 20_000_000, Currency: protocol.Currency})
	// The completed application's money: waiting (real business days), a
	// refund refused before funding and one of more than is left (400), a
	// void, and the voided application's funding (409).
	funding := protocol.ApplicationPath(d.ApplicationID, protocol.SubFunding)
	change := func(ref string, amount int64) protocol.Change {
		return protocol.Change{PlatformReference: ref, AmountCents: amount, Currency: protocol.Currency, Reason: "treatment changed"}
	}
	call("GET", funding, "", nil)
	call("POST", protocol.ApplicationPath(d.ApplicationID, protocol.SubRefunds), "ref-c15", change("ref-c15", 10_000))
	call("POST", protocol.ApplicationPath(d.ApplicationID, protocol.SubRefunds), "ref-c16", change("ref-c16", 1_000_000_000))
	call("POST", protocol.ApplicationPath(d.ApplicationID, protocol.SubVoid), "ref-c17", change("ref-c17", 0))
	call("GET", funding, "", nil)
	call("GET", "/documents/disclosures", "", nil)
	call("GET", "/documents/nope", "", nil)

	bad := create("ref-c12", "")
	call("POST", "/applications", "ref-c12", bad)
	call("POST", "/applications", "ref-c1", create("ref-c1", "Decline")) // the key of another request
	pending := create("ref-c13", "Anyname")
	pending.TestCase = "patch-income"
	var p protocol.Decision
	call("POST", "/applications", "ref-c13", pending).decode(t, &p)
	call("GET", protocol.ApplicationPath(p.ApplicationID, protocol.SubStipulations)+"?id="+p.Stipulations[0].ID, "", nil)
	call("POST", protocol.ApplicationPath(p.ApplicationID, protocol.SubPatches), "ref-c14", protocol.Patch{
		PlatformReference: "ref-c14", Type: "income", AnnualGrossIncomeCents: 6_500_000, Currency: protocol.Currency})
}

// TestAdapterRequestsMatchTheContract holds what lender/httplender sends
// to api/lender-protocol.yaml: every request of a whole journey is
// validated as it reaches the simulator, headers and body included.
func TestAdapterRequestsMatchTheContract(t *testing.T) {
	sim := lendersim.New(lendersim.Options{APIKey: apiKey})
	var mu sync.Mutex
	var problems []string
	var router routers.Router
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		check := r.Clone(r.Context())
		check.Body = io.NopCloser(bytes.NewReader(body))
		route, params, err := router.FindRoute(check)
		if err == nil {
			err = openapi3filter.ValidateRequest(r.Context(), &openapi3filter.RequestValidationInput{Request: check, PathParams: params, Route: route,
				Options: &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc}})
		}
		if err != nil {
			mu.Lock()
			problems = append(problems, r.Method+" "+r.URL.Path+": "+err.Error())
			mu.Unlock()
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		sim.ServeHTTP(w, r)
	}))
	t.Cleanup(func() { srv.Close(); sim.Close() })
	key := catalogue.HFD
	router = loadContract(t, srv.URL+"/lenders/"+key)
	l, err := httplender.New(httplender.Config{LenderKey: key, BaseURL: srv.URL + "/lenders/" + key, APIKey: apiKey})
	if err != nil {
		t.Fatal(err)
	}
	if err := sim.SetFault(key, lendersim.Fault{Kind: lendersim.FaultDrop, Op: "decide", Count: 1}); err != nil {
		t.Fatal(err)
	}
	journey(t, l, key)
	mu.Lock()
	defer mu.Unlock()
	for _, p := range problems {
		t.Error(p)
	}
	if n := sim.Hits(key, lendersim.OpLookup); n != 1 {
		t.Fatalf("the lookup was not exercised: %d", n)
	}
}

// journey calls every method of the adapter once, for an approved HFD
// applicant with the identity quiz, and a pending one with stipulations.
func journey(t *testing.T, l *httplender.Lender, key string) {
	t.Helper()
	ctx := context.Background()
	income := int64(9_000_000)
	req := &chairside.DecisionRequest{LenderKey: key, Operation: "apply", Reference: "j-1", Role: "primary", LocationState: "NV",
		PurchaseAmountCents: 300_000, TestCase: "identity-quiz", Primary: chairside.Applicant{FirstName: "Ada", LastName: "Approve",
			DateOfBirth: "1980-04-02", SSN: "123456789", AnnualGrossIncome: &income}}
	d, err := l.Decide(ctx, req)
	must(t, err)
	id := d.LenderRef
	doc, err := l.Document(ctx, &chairside.DocumentRequest{LenderKey: key, Kind: "terms"})
	must(t, err)
	plans, err := l.Plans(ctx, &chairside.PlansRequest{LenderKey: key, LenderRef: id, AmountCents: 300_000})
	must(t, err)
	q, err := l.Quiz(ctx, &chairside.QuizRequest{LenderKey: key, LenderRef: id, Attempt: 1})
	must(t, err)
	_, err = l.Answers(ctx, &chairside.AnswersRequest{LenderKey: key, LenderRef: id, QuizID: q.ID, Answers: sandbox.RightAnswers(id, q.ID), Reference: "j-2"})
	must(t, err)
	offer := &chairside.OfferRequest{LenderKey: key, LenderRef: id, LenderPlanCode: plans[0].LenderPlanCode, AmountCents: 300_000, Reference: "j-3"}
	must(t, l.AcceptOffer(ctx, offer))
	_, err = l.ChangeAmount(ctx, &chairside.ChangeRequest{LenderKey: key, LenderRef: id, AmountCents: 250_000, Reason: "one crown less", Reference: "j-3a"})
	must(t, err)
	offer.Reference = "j-3b"
	must(t, l.AcceptOffer(ctx, offer))
	must(t, l.DownPayment(ctx, &chairside.DownPaymentRequest{LenderKey: key, LenderRef: id, AmountCents: d.DownPaymentCents, Method: chairside.DownPaymentAtOffice, Reference: "j-4"}))
	must(t, l.AddContact(ctx, &chairside.ContactRequest{LenderKey: key, LenderRef: id, Name: "Grace Example", Relationship: "parent", Phone: "7025550199", Reference: "j-5"}))
	must(t, l.AddCard(ctx, &chairside.BankCardRequest{LenderKey: key, LenderRef: id, CardholderName: "Ada Example", Number: "4111111111111111", ExpiryMonth: 12, ExpiryYear: time.Now().Year() + 2, CVV: "739", ZIP: "89501", Reference: "j-6"}))
	must(t, l.AddBankAccount(ctx, &chairside.BankAccountRequest{LenderKey: key, LenderRef: id, RoutingNumber: "011000015", AccountNumber: "000123456789", BankName: "First Test Bank", AccountType: "checking", Reference: "j-7"}))
	must(t, l.RecordConsent(ctx, &chairside.ConsentNotice{LenderKey: key, LenderRef: id, Kind: chairside.ConsentTerms, DocumentID: doc.ID, DocumentVersion: doc.Version, Reference: "j-8"}))
	must(t, l.AddSpouse(ctx, &chairside.SpouseRequest{LenderKey: key, LenderRef: id, Married: true, FirstName: "Bo", LastName: "Example", AddressLine1: "1 Main St", City: "Madison", State: "WI", ZipCode: "53703", Reference: "j-9"}))
	offer.Reference = "j-10"
	must(t, l.ESign(ctx, offer))
	offer.Reference = "j-11"
	_, err = l.Complete(ctx, offer)
	must(t, err)
	_, err = l.Status(ctx, &chairside.StatusRequest{LenderKey: key, LenderRef: id})
	must(t, err)
	_, err = l.Funding(ctx, &chairside.FundingRequest{LenderKey: key, LenderRef: id})
	must(t, err)
	change := &chairside.ChangeRequest{LenderKey: key, LenderRef: id, AmountCents: 10_000, Reason: "treatment changed", Reference: "j-14"}
	_, err = l.Refund(ctx, change)
	must(t, err)
	change.AmountCents, change.Reference = 0, "j-15"
	_, err = l.Void(ctx, change)
	must(t, err)

	req.Reference, req.TestCase = "j-12", "patch-income"
	p, err := l.Decide(ctx, req)
	must(t, err)
	_, err = l.Stipulations(ctx, &chairside.StipulationsRequest{LenderKey: key, LenderRef: p.LenderRef, Known: p.Stipulations})
	must(t, err)
	_, err = l.Patch(ctx, &chairside.PatchRequest{LenderKey: key, LenderRef: p.LenderRef, PatchType: chairside.PatchIncome, AnnualGrossIncomeCents: 6_500_000, Reference: "j-13"})
	must(t, err)
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestWebhookMatchesTheContract holds a real webhook delivery, body and
// signature header, to the document's webhooks section.
func TestWebhookMatchesTheContract(t *testing.T) {
	rc, url := newReceiver(t, 0)
	// pendingApp reads the application back as pending before PendingFor
	// ends: 20 ms was sometimes over by then on a loaded machine.
	_, srv := start(t, lendersim.Options{WebhookURL: url, WebhookSecret: webhookSecret, PendingFor: 500 * time.Millisecond})
	_, doc := loadContractDoc(t, srv.URL)
	pendingApp(t, srv, catalogue.Snap, "ref-hook")
	rc.wait(t, 1)
	rc.mu.Lock()
	raw, sig := rc.raws[0], rc.sigs[0]
	rc.mu.Unlock()
	op := doc.Webhooks["applicationUpdated"].Post
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatal(err)
	}
	schema := op.RequestBody.Value.Content.Get("application/json").Schema.Value
	if err := schema.VisitJSON(v, openapi3.EnableJSONSchema2020()); err != nil {
		t.Errorf("event %s: %v", raw, err)
	}
	if err := op.Parameters[0].Value.Schema.Value.VisitJSON(sig, openapi3.EnableJSONSchema2020()); err != nil {
		t.Errorf("signature header %q: %v", sig, err)
	}
}
