package protocol

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/chairside/chairside"
)

// SignatureHeader carries a webhook's signature: "t=<unix seconds>,v1=<hex
// HMAC-SHA256 of "<t>.<body>">" (docs/lender-protocol.md, "Webhooks").
// Several v1 values may appear while a lender rotates its secret; one
// matching is enough.
const SignatureHeader = "Chairside-Signature"

// WebhookTolerance is how far a webhook's timestamp may be from our clock,
// either way, before it is refused as a replay.
const WebhookTolerance = 5 * time.Minute

// Webhook event types.
const (
	EventApplicationUpdated = "application.updated"
	// EventFundingUpdated: a completed application was funded or held
	// (data.funding).
	EventFundingUpdated = "funding.updated"
	// EventDepositSent: a deposit went to the practice, carrying the
	// fundings of data.deposit.fundings, each now deposited.
	EventDepositSent = "deposit.sent"
)

// Event is the envelope of every webhook. ID is unique per event: a
// repeated delivery carries the same ID and is applied once.
type Event struct {
	ID        string    `json:"id"`
	Type      string    `json:"type"`
	CreatedAt time.Time `json:"createdAt"`
	Data      EventData `json:"data"`
}

// EventData is what changed: the lender's application, its status before
// and after, and the decision it now stands at.
type EventData struct {
	ApplicationID     string    `json:"applicationId,omitempty"`
	PlatformReference string    `json:"platformReference,omitempty"`
	PreviousStatus    string    `json:"previousStatus,omitempty"`
	NewStatus         string    `json:"newStatus,omitempty"`
	Decision          *Decision `json:"decision,omitempty"`
	// Funding is a funding.updated event's news; Deposit a deposit.sent's.
	Funding *Funding `json:"funding,omitempty"`
	Deposit *Deposit `json:"deposit,omitempty"`
}

// Deposit is one deposit a lender sent: its reference, its day, and the
// fundings it carries (one per application, each deposited).
type Deposit struct {
	Reference string    `json:"reference"`
	On        time.Time `json:"on"`
	// NetCents is what the lender sent to the bank, when it says (0: not
	// stated): the receiver checks it against the cases it carries.
	NetCents int64     `json:"netCents,omitempty"`
	Fundings []Funding `json:"fundings"`
}

// Validate refuses a deposit without a reference, a day or fundings, with
// a funding that is not deposited in it, or with one application twice
// (the receiver applies each application's funding as an event of its own,
// named by the deposit's event id and the application).
func (d *Deposit) Validate() error {
	if d.Reference == "" || d.On.IsZero() || len(d.Fundings) == 0 {
		return errors.New("deposit: no reference, day or fundings")
	}
	if err := checkMoney("netCents", d.NetCents); err != nil {
		return err
	}
	seen := map[string]bool{}
	for i := range d.Fundings {
		f := &d.Fundings[i]
		if err := f.Validate(f.ApplicationID); err != nil {
			return err
		}
		if f.ApplicationID == "" || seen[f.ApplicationID] {
			return errors.New("deposit: an application missing or carried twice")
		}
		seen[f.ApplicationID] = true
		if f.State != chairside.FundingDeposited || f.DepositRef != d.Reference {
			return errors.New("deposit: a funding not deposited in it")
		}
	}
	return nil
}

// Validate refuses an event the receiver could not act on: no id or type;
// an application.updated without its application; a funding.updated
// whose funding is not held or funded news of the application it names (a
// waiting funding is no news, and a deposit comes as deposit.sent); a
// deposit.sent whose deposit does not hold together. An event of another
// type is valid: the receiver ignores it, so a lender may send more than
// we use. An application.updated's decision is not checked here: the
// receiver leaves out one it cannot use and asks the lender instead
// (httpapi/webhook.go).
func (e *Event) Validate() error {
	if e.ID == "" || e.Type == "" {
		return errors.New("event: no id or type")
	}
	switch e.Type {
	case EventApplicationUpdated:
		if e.Data.ApplicationID == "" {
			return errors.New("event: no application")
		}
	case EventFundingUpdated:
		f := e.Data.Funding
		if f == nil || e.Data.ApplicationID == "" {
			return errors.New("event: no application or funding")
		}
		if err := f.Validate(e.Data.ApplicationID); err != nil {
			return err
		}
		if f.State != chairside.FundingHeld && f.State != chairside.FundingFunded {
			return fmt.Errorf("event: %s with a funding %s", e.Type, f.State)
		}
	case EventDepositSent:
		if e.Data.Deposit == nil {
			return errors.New("event: no deposit")
		}
		return e.Data.Deposit.Validate()
	}
	return nil
}

// Errors of VerifySignature. None says which part of a good signature was
// wrong beyond this.
var (
	ErrNoSignature  = errors.New("webhook: no signature")
	ErrBadSignature = errors.New("webhook: signature does not match")
	ErrStale        = errors.New("webhook: timestamp outside the tolerance")
)

// Sign returns the SignatureHeader value for body sent at t.
func Sign(secret []byte, t time.Time, body []byte) string {
	ts := strconv.FormatInt(t.Unix(), 10)
	return "t=" + ts + ",v1=" + mac(secret, ts, body)
}

// VerifySignature checks a SignatureHeader value against body: a v1 that
// matches (compared in constant time) and a timestamp within
// WebhookTolerance of now.
func VerifySignature(secret []byte, header string, body []byte, now time.Time) error {
	var ts string
	var sigs []string
	for part := range strings.SplitSeq(header, ",") {
		k, v, _ := strings.Cut(strings.TrimSpace(part), "=")
		switch k {
		case "t":
			ts = v
		case "v1":
			sigs = append(sigs, v)
		}
	}
	if ts == "" || len(sigs) == 0 {
		return ErrNoSignature
	}
	want := mac(secret, ts, body)
	ok := false
	for _, s := range sigs {
		if hmac.Equal([]byte(s), []byte(want)) {
			ok = true
		}
	}
	if !ok {
		return ErrBadSignature
	}
	sec, err := strconv.ParseInt(ts, 10, 64)
	if err != nil {
		return ErrBadSignature
	}
	if d := now.Sub(time.Unix(sec, 0)); d > WebhookTolerance || d < -WebhookTolerance {
		return ErrStale
	}
	return nil
}

func mac(secret []byte, ts string, body []byte) string {
	m := hmac.New(sha256.New, secret)
	m.Write([]byte(ts))
	m.Write([]byte{'.'})
	m.Write(body)
	return hex.EncodeToString(m.Sum(nil))
}
