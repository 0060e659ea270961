package testkit

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"strings"
	"time"
)

// Client walks one patient through the API as the browser does, over real
// HTTP, timing every call. The end-to-end tests, the crash tests and the
// load benchmark of cmd/chairside drive the real program with it.
type Client struct {
	// Base is the server's address, e.g. http://127.0.0.1:8080.
	Base string
	HTTP *http.Client
	// SessionID is the webSessionId sent with every call once set (Start
	// sets it).
	SessionID string
	// Latencies holds the time of every call made, and Names[i] the kind
	// of call Latencies[i] timed ("POST prequalify"), for the benchmark's
	// percentiles and its per-call table.
	Latencies []time.Duration
	Names     []string
	// Think is the mean pause before every call but a journey's first
	// (for CallURL, the client's first), as a person reading and typing
	// would make (see pause).
	Think time.Duration
}

// pause waits as a person between two calls would: Think on average, drawn
// evenly between half and one and a half of it. Pauses all exactly Think
// long keep patients who once arrived together arriving together from then
// on, a convoy no group of real patients forms (docs/performance.md).
func (c *Client) pause() {
	if c.Think > 0 {
		time.Sleep(c.Think/2 + rand.N(c.Think))
	}
}

// APIError is an answer other than 2xx.
type APIError struct {
	Status int
	Body   string
}

func (e *APIError) Error() string { return fmt.Sprintf("HTTP %d: %s", e.Status, e.Body) }

// Call sends one request under /api/v1 and decodes the JSON answer into
// out (if not nil). An answer other than 2xx is an *APIError.
func (c *Client) Call(method, path string, body, out any) error {
	var r io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return err
		}
		r = bytes.NewReader(b)
	}
	if c.SessionID != "" {
		c.pause()
	}
	req, err := http.NewRequest(method, c.Base+"/api/v1"+path, r)
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Time-Zone", "America/Los_Angeles")
	if c.SessionID != "" {
		req.Header.Set("X-Web-Session-Id", c.SessionID)
	}
	start := time.Now()
	resp, err := c.HTTP.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	c.record(callName(method, path), time.Since(start))
	if err != nil {
		return err
	}
	if resp.StatusCode/100 != 2 {
		return &APIError{resp.StatusCode, string(data)}
	}
	if out != nil {
		return json.Unmarshal(data, out)
	}
	return nil
}

// CallURL is a timed request without a body to a full URL, recorded as
// name: the benchmark's yardsticks (hello-world, one durable write). An
// answer other than 2xx is an *APIError.
func (c *Client) CallURL(method, url, name string) error {
	if len(c.Latencies) > 0 {
		c.pause()
	}
	req, err := http.NewRequest(method, url, nil)
	if err != nil {
		return err
	}
	start := time.Now()
	resp, err := c.HTTP.Do(req)
	if err != nil {
		return err
	}
	data, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	c.record(name, time.Since(start))
	if err == nil && resp.StatusCode/100 != 2 {
		err = &APIError{resp.StatusCode, string(data)}
	}
	return err
}

func (c *Client) record(name string, took time.Duration) {
	c.Latencies = append(c.Latencies, took)
	c.Names = append(c.Names, name)
}

// callName names a call for the benchmark's per-call breakdown: the method
// and the path without ids, keys or plan codes ("POST prequalify", "GET
// disclosures?kind=esign").
func callName(method, path string) string {
	p, q, _ := strings.Cut(path, "?")
	var name string
	switch segs := strings.Split(strings.Trim(p, "/"), "/"); {
	case len(segs) >= 2 && (segs[0] == "flow" || segs[0] == "apply"):
		name = segs[0] + "/" + segs[1] // flow/start, apply/start, flow/finish
	case len(segs) >= 2 && segs[len(segs)-2] == "application":
		name = "application/" + segs[len(segs)-1] // esign, complete
	case len(segs) >= 3 && segs[len(segs)-3] == "plans":
		name = "plans/" + segs[len(segs)-1] // select, confirm-selection
	default:
		name = segs[len(segs)-1]
	}
	if q != "" {
		name += "?" + q
	}
	return method + " " + name
}

// Started is what a start answered that a journey goes on with.
type Started struct {
	// Lender is the lender the session starts with.
	Lender string
	// HasForm says the start brought that lender's form, so the browser
	// asks for it no more (docs/behaviour.md, "Routes").
	HasForm bool
}

// Start starts a session at the office with entityKey for a $4,500
// treatment (as a link with an amount would) and keeps its id.
func (c *Client) Start(entityKey string) (Started, error) {
	return c.start("/flow/start/entity-keys/"+entityKey, map[string]any{"purchaseAmountCents": 450_000})
}

// start starts a session at path and keeps its id.
func (c *Client) start(path string, body any) (Started, error) {
	var start struct {
		Session struct {
			WebSessionID     string `json:"webSessionId"`
			DynamicLenderKey string `json:"dynamicProviderKey"`
		} `json:"session"`
		Form *struct {
			LenderKey string `json:"providerKey"`
		} `json:"form"`
	}
	c.SessionID = ""
	if err := c.Call("POST", path, body, &start); err != nil {
		return Started{}, fmt.Errorf("start: %w", err)
	}
	c.SessionID = start.Session.WebSessionID
	first := start.Session.DynamicLenderKey
	return Started{Lender: first, HasForm: start.Form != nil && start.Form.LenderKey == first}, nil
}

// Consent reads a lender's document of a kind (prequalification,
// application, esign) as the browser shows it, and answers the patient's
// agreement to exactly that document.
func (c *Client) Consent(lenderKey, kind string) (map[string]any, error) {
	var d struct {
		ID      string `json:"id"`
		Version string `json:"version"`
		SHA256  string `json:"sha256"`
	}
	if err := c.Call("GET", "/providers/"+lenderKey+"/disclosures?kind="+kind, nil, &d); err != nil {
		return nil, fmt.Errorf("disclosures %s: %w", kind, err)
	}
	return map[string]any{"documentId": d.ID, "documentVersion": d.Version, "documentSha256": d.SHA256, "agreed": true}, nil
}

// CompleteFlow runs the prequalify journey of an office whose waterfall
// starts with synchrony_standard, from start to finish/completed, making the
// calls the browser makes: 13, since the form comes with the start.
// ssn must be unique per journey in a load run, since the server caps
// credit pulls per SSN per day.
func (c *Client) CompleteFlow(entityKey, ssn, signature string) error {
	started, err := c.Start(entityKey)
	if err != nil {
		return err
	}
	return c.completeStarted(started, ssn, signature)
}

// CompleteFlowFrom is CompleteFlow from an office's one-time invitation
// link's token.
func (c *Client) CompleteFlowFrom(token, ssn, signature string) error {
	started, err := c.start("/flow/start/tokens/"+token, nil)
	if err != nil {
		return err
	}
	return c.completeStarted(started, ssn, signature)
}

// completeStarted is CompleteFlow after the start.
func (c *Client) completeStarted(started Started, ssn, signature string) error {
	const p = "/providers/synchrony_standard"
	if started.Lender != "synchrony_standard" {
		return fmt.Errorf("start: first provider %q", started.Lender)
	}
	if !started.HasForm {
		if err := c.Call("POST", "/apply/start/providers/synchrony_standard?mode=prequalify", nil, nil); err != nil {
			return fmt.Errorf("apply start: %w", err)
		}
	}
	softPull, err := c.Consent("synchrony_standard", "prequalification")
	if err != nil {
		return err
	}
	var decision struct {
		ResponseCode        string `json:"responseCode"`
		ApprovedAmountCents int64  `json:"approvedAmountCents"`
	}
	body := map[string]any{"primary": Applicant("Approve", ssn), "jointEnabled": false, "consent": softPull}
	if err := c.Call("POST", p+"/prequalify", body, &decision); err != nil {
		return fmt.Errorf("prequalify: %w", err)
	}
	if decision.ResponseCode != "prequalified" && decision.ResponseCode != "approved" {
		return fmt.Errorf("prequalify: responseCode %q", decision.ResponseCode)
	}
	if err := c.confirmFirstPlan(p, min(decision.ApprovedAmountCents, 450000)); err != nil {
		return err
	}
	if err := c.Call("POST", p+"/acceptOffer", map[string]any{}, nil); err != nil {
		return fmt.Errorf("accept: %w", err)
	}
	return c.signAndFinish(p, signature)
}

// confirmFirstPlan asks for the plans of amountCents, then selects and
// confirms the first.
func (c *Client) confirmFirstPlan(p string, amountCents int64) error {
	var plans struct {
		PaymentPlans []struct {
			LenderPlanCode string `json:"providerPlanCode"`
		} `json:"paymentPlans"`
	}
	if err := c.Call("POST", p+"/payment/plans", map[string]any{"amountCents": amountCents}, &plans); err != nil {
		return fmt.Errorf("plans: %w", err)
	}
	if len(plans.PaymentPlans) == 0 {
		return fmt.Errorf("plans: none offered")
	}
	code := plans.PaymentPlans[0].LenderPlanCode
	if err := c.Call("POST", p+"/payment/plans/"+code+"/select", nil, nil); err != nil {
		return fmt.Errorf("select: %w", err)
	}
	if err := c.Call("POST", p+"/payment/plans/"+code+"/confirm-selection", nil, nil); err != nil {
		return fmt.Errorf("confirm: %w", err)
	}
	return nil
}

// SigningConsents reads what the signing screen shows after a soft pull —
// the E-SIGN disclosure, the agreement and the hard-pull authorisation —
// and answers the e-sign body agreeing to each, with signature.
func (c *Client) SigningConsents(lenderKey, signature string) (map[string]any, error) {
	esign, err := c.Consent(lenderKey, "esign")
	if err != nil {
		return nil, fmt.Errorf("esign disclosure: %w", err)
	}
	hardPull, err := c.Consent(lenderKey, "application")
	if err != nil {
		return nil, fmt.Errorf("hard-pull disclosure: %w", err)
	}
	var d struct {
		ID      string `json:"id"`
		Version string `json:"version"`
		SHA256  string `json:"sha256"`
	}
	if err := c.Call("POST", "/providers/"+lenderKey+"/agreement", nil, &d); err != nil {
		return nil, fmt.Errorf("agreement: %w", err)
	}
	agreement := map[string]any{"documentId": d.ID, "documentVersion": d.Version, "documentSha256": d.SHA256, "agreed": true}
	return map[string]any{"consent": esign, "agreementConsent": agreement, "hardPullConsent": hardPull, "signaturePng": signature}, nil
}

// signAndFinish signs the accepted offer, completes it and finishes the
// session as completed.
func (c *Client) signAndFinish(p, signature string) error {
	body, err := c.SigningConsents("synchrony_standard", signature)
	if err != nil {
		return err
	}
	if err := c.Call("POST", p+"/application/esign", body, nil); err != nil {
		return fmt.Errorf("esign: %w", err)
	}
	if err := c.Call("POST", p+"/application/complete", nil, nil); err != nil {
		return fmt.Errorf("complete: %w", err)
	}
	if err := c.Call("POST", "/flow/finish/completed", nil, nil); err != nil {
		return fmt.Errorf("finish: %w", err)
	}
	return nil
}

// Decide is a patient's way to a first decision at the office with
// entityKey: the start, the consent screens and one prequalify with the
// first lender, Synchrony, for an applicant who is approved. With
// cascade, the session takes the sandbox test case in which the first
// two lenders decline and the next approves, and the prequalify carries
// the consents and forms of Fortiva and Snap, which the server asks
// within the same call (docs/behaviour.md, "The waterfall"). The
// benchmark times the prequalify: the patient's wait for a decision.
func (c *Client) Decide(entityKey, ssn string, cascade bool) error {
	if _, err := c.Start(entityKey); err != nil {
		return err
	}
	later := []string{}
	if cascade {
		if err := c.Call("POST", "/test-cases/apply/two-declines-then-approval", nil, nil); err != nil {
			return fmt.Errorf("test case: %w", err)
		}
		later = []string{"fortiva_standard", "snap_standard"}
	}
	request := func(lender string) (map[string]any, error) {
		consent, err := c.Consent(lender, "prequalification")
		return map[string]any{"primary": Applicant("Approve", ssn), "jointEnabled": false, "consent": consent}, err
	}
	body, err := request("synchrony_standard")
	if err != nil {
		return err
	}
	steps := []map[string]any{}
	for _, lender := range later {
		req, err := request(lender)
		if err != nil {
			return err
		}
		steps = append(steps, map[string]any{"provider": lender, "applyMode": "prequalify", "request": req})
	}
	if cascade {
		body["cascade"] = steps
	}
	var d struct {
		ResponseCode string `json:"responseCode"`
		Cascaded     []struct {
			ResponseCode string `json:"responseCode"`
		} `json:"cascaded"`
	}
	if err := c.Call("POST", "/providers/synchrony_standard/prequalify", body, &d); err != nil {
		return fmt.Errorf("prequalify: %w", err)
	}
	final := d.ResponseCode
	if len(d.Cascaded) > 0 {
		final = d.Cascaded[len(d.Cascaded)-1].ResponseCode
	}
	if final != "prequalified" || len(d.Cascaded) != len(later) {
		return fmt.Errorf("prequalify: %s after %d more lenders, want prequalified after %d", final, len(d.Cascaded), len(later))
	}
	return nil
}
