package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chairside/chairside/testkit"
)

// flowClient walks one patient through the API as the browser does, over
// real HTTP, timing every call.
type flowClient struct {
	base      string
	http      *http.Client
	sessionID string
	// latencies of every call made, for the benchmark's percentiles, and
	// names[i] the call latencies[i] timed (callName).
	latencies []time.Duration
	names     []string
	// think is a pause before every call but a journey's first, as a
	// person reading and typing would make.
	think time.Duration
}

// apiError is a non-2xx answer.
type apiError struct {
	Status int
	Body   string
}

func (e *apiError) Error() string { return fmt.Sprintf("HTTP %d: %s", e.Status, e.Body) }

// call sends one request and decodes the JSON answer into out (if not nil).
func (c *flowClient) call(method, path string, body, out any) error {
	var r io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return err
		}
		r = bytes.NewReader(b)
	}
	if c.think > 0 && c.sessionID != "" {
		time.Sleep(c.think)
	}
	req, err := http.NewRequest(method, c.base+"/api/v1"+path, r)
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Time-Zone", "America/Los_Angeles")
	if c.sessionID != "" {
		req.Header.Set("X-Web-Session-Id", c.sessionID)
	}
	start := time.Now()
	resp, err := c.http.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	c.latencies = append(c.latencies, time.Since(start))
	c.names = append(c.names, callName(method, path))
	if err != nil {
		return err
	}
	if resp.StatusCode/100 != 2 {
		return &apiError{resp.StatusCode, string(data)}
	}
	if out != nil {
		return json.Unmarshal(data, out)
	}
	return nil
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

type document struct {
	ID      string `json:"id"`
	Version string `json:"version"`
	SHA256  string `json:"sha256"`
}

func (d document) consent() map[string]any {
	return map[string]any{"documentId": d.ID, "documentVersion": d.Version, "documentSha256": d.SHA256, "agreed": true}
}

// completeFlow runs the prequalify journey of the demo office from start to
// finish/completed: 12 calls. ssn must be unique per flow in a load run,
// since the server caps credit pulls per SSN per day.
func (c *flowClient) completeFlow(entityKey, ssn string, signature string) error {
	const p = "/providers/synchrony_standard"
	var start struct {
		Session struct {
			WebSessionID       string `json:"webSessionId"`
			DynamicProviderKey string `json:"dynamicProviderKey"`
		} `json:"session"`
	}
	c.sessionID = ""
	if err := c.call("POST", "/flow/start/entity-keys/"+entityKey, nil, &start); err != nil {
		return fmt.Errorf("start: %w", err)
	}
	c.sessionID = start.Session.WebSessionID
	if start.Session.DynamicProviderKey != "synchrony_standard" {
		return fmt.Errorf("start: first provider %q", start.Session.DynamicProviderKey)
	}
	if err := c.call("POST", "/apply/start/providers/synchrony_standard?mode=prequalify", nil, nil); err != nil {
		return fmt.Errorf("apply start: %w", err)
	}
	var softPull document
	if err := c.call("GET", p+"/disclosures?kind=prequalification", nil, &softPull); err != nil {
		return fmt.Errorf("disclosures: %w", err)
	}
	var decision struct {
		ResponseCode        string `json:"responseCode"`
		ApprovedAmountCents int64  `json:"approvedAmountCents"`
	}
	err := c.call("POST", p+"/prequalify", map[string]any{
		"primary":      approveApplicant(ssn),
		"jointEnabled": false,
		"consent":      softPull.consent(),
	}, &decision)
	if err != nil {
		return fmt.Errorf("prequalify: %w", err)
	}
	if decision.ResponseCode != "prequalified" && decision.ResponseCode != "approved" {
		return fmt.Errorf("prequalify: responseCode %q", decision.ResponseCode)
	}
	var plans struct {
		PaymentPlans []struct {
			ProviderPlanCode string `json:"providerPlanCode"`
		} `json:"paymentPlans"`
	}
	amount := min(decision.ApprovedAmountCents, 450000)
	if err := c.call("POST", p+"/payment/plans", map[string]any{"amountCents": amount}, &plans); err != nil {
		return fmt.Errorf("plans: %w", err)
	}
	if len(plans.PaymentPlans) == 0 {
		return fmt.Errorf("plans: none offered")
	}
	code := plans.PaymentPlans[0].ProviderPlanCode
	steps := []struct {
		name, path string
		body       any
	}{
		{"select", p + "/payment/plans/" + code + "/select", nil},
		{"confirm", p + "/payment/plans/" + code + "/confirm-selection", nil},
		{"accept", p + "/acceptOffer", map[string]any{}},
	}
	for _, s := range steps {
		if err := c.call("POST", s.path, s.body, nil); err != nil {
			return fmt.Errorf("%s: %w", s.name, err)
		}
	}
	var esign document
	if err := c.call("GET", p+"/disclosures?kind=esign", nil, &esign); err != nil {
		return fmt.Errorf("esign disclosure: %w", err)
	}
	err = c.call("POST", p+"/application/esign", map[string]any{"consent": esign.consent(), "signaturePng": signature}, nil)
	if err != nil {
		return fmt.Errorf("esign: %w", err)
	}
	if err := c.call("POST", p+"/application/complete", nil, nil); err != nil {
		return fmt.Errorf("complete: %w", err)
	}
	if err := c.call("POST", "/flow/finish/completed", nil, nil); err != nil {
		return fmt.Errorf("finish: %w", err)
	}
	return nil
}

// approveApplicant is a prequalify applicant the sandbox approves.
func approveApplicant(ssn string) map[string]any {
	return map[string]any{
		"firstName": "Maria", "lastName": "Approve",
		"dateOfBirth": "1980-04-12", "ssn": ssn,
		"addressLine1": "1200 Harbor Drive", "addressCity": "San Diego",
		"addressState": "CA", "addressZipCode": "92101",
		"email": "maria@example.com", "mobilePhone": "6195550142",
		"annualGrossIncome": 6500000,
	}
}

// testSSN returns a valid-looking, distinct SSN for the nth flow.
func testSSN(n int) string {
	area := 100 + n%500     // 100–599: never 000, 666 or 9xx
	group := 1 + (n/500)%99 // 01–99
	serial := 1 + (n/49500)%9999
	return fmt.Sprintf("%03d%02d%04d", area, group, serial)
}

// signaturePNG is the signature the journeys sign with.
func signaturePNG(t testing.TB) string { return testkit.SignaturePNG(t) }
