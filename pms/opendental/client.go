// Package opendental is the bridge to Open Dental through its REST API
// (docs/practice-records.md): one practice's connection, made of
// Chairside's developer key and the customer key the practice generated
// for Chairside, both sent in the Authorization header and never logged.
// It reads patients and their saved treatment plans and posts payments;
// it never asks for an SSN.
package opendental

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/chairside/chairside/pms"
)

// DefaultURL is Open Dental's remote API; a practice's own server may
// serve the same API locally.
const DefaultURL = "https://api.opendental.com/api/v1"

// Client is one practice's connection.
type Client struct {
	BaseURL      string
	DeveloperKey string
	CustomerKey  string
	HTTP         *http.Client
}

// The client answers pms.Bridge.
var _ pms.Bridge = (*Client)(nil)

// maxAnswer bounds what is read of one answer: a page of 100 patients is
// far less.
const maxAnswer = 4 << 20

// call sends one request and decodes its answer into out (nil: none).
// Refusals and failures come back as pms errors; no key is ever part of
// an error.
func (c *Client) call(ctx context.Context, method, path string, query url.Values, body, out any) error {
	target := strings.TrimSuffix(c.BaseURL, "/") + path
	if len(query) > 0 {
		target += "?" + query.Encode()
	}
	var rd io.Reader
	if body != nil {
		buf, err := json.Marshal(body)
		if err != nil {
			return err
		}
		rd = bytes.NewReader(buf)
	}
	req, err := http.NewRequestWithContext(ctx, method, target, rd)
	if err != nil {
		return fmt.Errorf("opendental: %s %s: %w", method, path, err)
	}
	req.Header.Set("Authorization", "ODFHIR "+c.DeveloperKey+"/"+c.CustomerKey)
	req.Header.Set("Accept", "application/json")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	hc := c.HTTP
	if hc == nil {
		hc = &http.Client{Timeout: 20 * time.Second}
	}
	res, err := hc.Do(req)
	if err != nil {
		return fmt.Errorf("opendental: %s %s: %w: %s", method, path, pms.ErrUnavailable, scrub(err.Error(), c))
	}
	defer res.Body.Close()
	data, err := io.ReadAll(io.LimitReader(res.Body, maxAnswer))
	if err != nil {
		return fmt.Errorf("opendental: %s %s: %w: %s", method, path, pms.ErrUnavailable, scrub(err.Error(), c))
	}
	if err := statusError(res.StatusCode, data); err != nil {
		return fmt.Errorf("opendental: %s %s: %w", method, path, err)
	}
	if out == nil {
		return nil
	}
	if err := json.Unmarshal(data, out); err != nil {
		return fmt.Errorf("opendental: %s %s: the answer could not be read: %w", method, path, err)
	}
	return nil
}

// statusError is what an answer's status says: nil for success.
func statusError(status int, data []byte) error {
	why := strings.TrimSpace(string(data))
	if len(why) > 200 {
		why = why[:200]
	}
	switch {
	case status >= 200 && status < 300:
		return nil
	case status == http.StatusUnauthorized || status == http.StatusForbidden:
		return fmt.Errorf("%w (%d %s)", pms.ErrRefused, status, why)
	case status == http.StatusNotFound:
		return fmt.Errorf("%w (%s)", pms.ErrNotFound, why)
	case status == http.StatusBadRequest:
		return fmt.Errorf("%w (%s)", pms.ErrInvalid, why)
	}
	return fmt.Errorf("%w (%d %s)", pms.ErrUnavailable, status, why)
}

// scrub removes the keys from a transport error's words (a URL in one
// never holds them, but the header's value must not leak either way).
func scrub(s string, c *Client) string {
	for _, k := range []string{c.DeveloperKey, c.CustomerKey} {
		if k != "" {
			s = strings.ReplaceAll(s, k, "…")
		}
	}
	return s
}

// Check reads one page of the practice's patients in their short form:
// the keys work, the eConnector answers, and Chairside may read. Whether
// it may write is known at the first payment (a refusal then says so).
func (c *Client) Check(ctx context.Context) error {
	var page []json.RawMessage
	return c.call(ctx, http.MethodGet, "/patients/Simple", url.Values{"Offset": {"0"}}, nil, &page)
}

// patient is a patient as Open Dental answers it.
type patient struct {
	PatNum        num    `json:"PatNum"`
	LName         string `json:"LName"`
	FName         string `json:"FName"`
	MiddleI       string `json:"MiddleI"`
	Birthdate     string `json:"Birthdate"`
	Address       string `json:"Address"`
	Address2      string `json:"Address2"`
	City          string `json:"City"`
	State         string `json:"State"`
	Zip           string `json:"Zip"`
	WirelessPhone string `json:"WirelessPhone"`
	HmPhone       string `json:"HmPhone"`
	Email         string `json:"Email"`
	Language      string `json:"Language"`
	TxtMsgOk      string `json:"TxtMsgOk"`
}

func (p patient) bridge() pms.Patient {
	birth := p.Birthdate
	if len(birth) >= 10 {
		birth = birth[:10]
	}
	if strings.HasPrefix(birth, "0001-") {
		birth = "" // Open Dental's "none"
	}
	return pms.Patient{ID: string(p.PatNum), FirstName: p.FName, MiddleInitial: p.MiddleI, LastName: p.LName, Birthdate: birth,
		Address: p.Address, Address2: p.Address2, City: p.City, State: p.State, ZIP: p.Zip,
		MobilePhone: p.WirelessPhone, HomePhone: p.HmPhone, Email: p.Email, Language: language(p.Language),
		TextOK: strings.EqualFold(p.TxtMsgOk, "Yes")}
}

// language reads Open Dental's language (ISO 639-2, "spa"; some offices
// keep a name) as ours.
func language(s string) string {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "spa", "es", "spanish", "español", "espanol":
		return "es"
	case "eng", "en", "english":
		return "en"
	}
	return ""
}

// FindPatients searches by PatNum, or by last name with the first name
// or date of birth.
func (c *Client) FindPatients(ctx context.Context, q pms.Query) ([]pms.Patient, error) {
	if q.ID != "" {
		p, err := c.Patient(ctx, q.ID)
		if errors.Is(err, pms.ErrNotFound) {
			return []pms.Patient{}, nil
		} else if err != nil {
			return nil, err
		}
		return []pms.Patient{*p}, nil
	}
	v := url.Values{"LName": {q.LastName}}
	if q.FirstName != "" {
		v.Set("FName", q.FirstName)
	}
	if q.Birthdate != "" {
		v.Set("Birthdate", q.Birthdate)
	}
	var found []patient
	if err := c.call(ctx, http.MethodGet, "/patients", v, nil, &found); err != nil {
		return nil, err
	}
	out := make([]pms.Patient, 0, len(found))
	for _, p := range found {
		out = append(out, p.bridge())
	}
	return out, nil
}

// Patient reads one patient by PatNum.
func (c *Client) Patient(ctx context.Context, id string) (*pms.Patient, error) {
	if !digits(id) {
		return nil, fmt.Errorf("opendental: patient %q: %w", id, pms.ErrNotFound)
	}
	var p patient
	if err := c.call(ctx, http.MethodGet, "/patients/"+id, nil, nil, &p); err != nil {
		return nil, err
	}
	out := p.bridge()
	return &out, nil
}

type treatPlan struct {
	TreatPlanNum num    `json:"TreatPlanNum"`
	Heading      string `json:"Heading"`
	TPStatus     string `json:"TPStatus"`
	IsSigned     flag   `json:"isSigned"`
}

type procTP struct {
	ProcCode  string `json:"ProcCode"`
	Descript  string `json:"Descript"`
	FeeAmt    cents  `json:"FeeAmt"`
	PriInsAmt cents  `json:"PriInsAmt"`
	SecInsAmt cents  `json:"SecInsAmt"`
	PatAmt    cents  `json:"PatAmt"`
	Discount  cents  `json:"Discount"`
}

// TreatmentPlans reads the patient's saved plans, each with its
// procedures.
func (c *Client) TreatmentPlans(ctx context.Context, patientID string) ([]pms.TreatmentPlan, error) {
	var plans []treatPlan
	if err := c.call(ctx, http.MethodGet, "/treatplans", url.Values{"PatNum": {patientID}, "TPStatus": {"Saved"}}, nil, &plans); err != nil {
		return nil, err
	}
	out := make([]pms.TreatmentPlan, 0, len(plans))
	for _, tp := range plans {
		var lines []procTP
		if err := c.call(ctx, http.MethodGet, "/proctps", url.Values{"TreatPlanNum": {string(tp.TreatPlanNum)}}, nil, &lines); err != nil {
			return nil, err
		}
		plan := pms.TreatmentPlan{ID: string(tp.TreatPlanNum), Heading: tp.Heading, Signed: bool(tp.IsSigned), Procedures: []pms.Procedure{}}
		for _, l := range lines {
			plan.Procedures = append(plan.Procedures, pms.Procedure{Code: l.ProcCode, Description: l.Descript, FeeCents: int64(l.FeeAmt),
				InsuranceCents: int64(l.PriInsAmt + l.SecInsAmt), DiscountCents: int64(l.Discount), PatientCents: int64(l.PatAmt)})
		}
		out = append(out, plan)
	}
	return out, nil
}

type payment struct {
	PayNum   num    `json:"PayNum"`
	CheckNum string `json:"CheckNum"`
	PayAmt   cents  `json:"PayAmt"`
	PayDate  string `json:"PayDate"`
}

// PostPayment posts one payment under the practice's API payment type.
func (c *Client) PostPayment(ctx context.Context, p pms.Payment) (string, error) {
	if !digits(p.PatientID) {
		return "", fmt.Errorf("opendental: payment for patient %q: %w", p.PatientID, pms.ErrInvalid)
	}
	body := map[string]any{"PatNum": json.Number(p.PatientID), "PayAmt": formatCents(p.AmountCents), "PayDate": p.Date.Format(time.DateOnly),
		"CheckNum": p.Reference, "PayNote": p.Note, "isPatientPreferred": "true"}
	var out payment
	if err := c.call(ctx, http.MethodPost, "/payments", nil, body, &out); err != nil {
		return "", err
	}
	if out.PayNum == "" {
		return "", fmt.Errorf("opendental: POST /payments: %w: no PayNum in the answer", pms.ErrUnavailable)
	}
	return string(out.PayNum), nil
}

// FindPayment reads the patient's payments entered that day and answers
// the one with the reference.
func (c *Client) FindPayment(ctx context.Context, patientID string, day time.Time, reference string) (string, error) {
	var list []payment
	if err := c.call(ctx, http.MethodGet, "/payments", url.Values{"PatNum": {patientID}, "DateEntry": {day.Format(time.DateOnly)}}, nil, &list); err != nil {
		return "", err
	}
	for _, p := range list {
		if p.CheckNum == reference {
			return string(p.PayNum), nil
		}
	}
	return "", nil
}
