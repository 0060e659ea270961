package messaging

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// Twilio is a client of Twilio's Messaging API: one account (its SID and
// auth token, HTTP Basic auth) at BaseURL, the real API or a stand-in.
// The token is a secret: it is sent, never logged, never in an error.
type Twilio struct {
	BaseURL    string // "https://api.twilio.com"
	AccountSID string
	AuthToken  string
	HTTP       *http.Client
}

// Sender is who a text comes from: a Messaging Service (preferred: an
// opt-out applies to the whole service) or one number.
type Sender struct {
	MessagingServiceSID string
	From                string
}

var (
	serviceSID = regexp.MustCompile(`^MG[0-9a-f]{32}$`)
	e164Number = regexp.MustCompile(`^\+[1-9][0-9]{7,14}$`)
)

// ParseSender reads a sender as an office file or a flag gives it: a
// Messaging Service SID (MG and 32 hex digits) or a number in E.164.
func ParseSender(s string) (Sender, error) {
	switch {
	case serviceSID.MatchString(s):
		return Sender{MessagingServiceSID: s}, nil
	case e164Number.MatchString(s):
		return Sender{From: s}, nil
	}
	return Sender{}, fmt.Errorf("%q is neither a Messaging Service SID (MG and 32 hex digits) nor a number in E.164 (+15125550100)", s)
}

// Name is the sender as opt-outs are kept against it.
func (s Sender) Name() string {
	if s.MessagingServiceSID != "" {
		return s.MessagingServiceSID
	}
	return s.From
}

// Message statuses, in the order a text moves through them
// (StatusRank); undelivered and failed end it as delivered does.
const (
	StatusAccepted    = "accepted"
	StatusQueued      = "queued"
	StatusSending     = "sending"
	StatusSent        = "sent"
	StatusDelivered   = "delivered"
	StatusUndelivered = "undelivered"
	StatusFailed      = "failed"
	// StatusOptedOut is ours, not Twilio's: the number had asked the
	// sender to stop, so the text was not sent.
	StatusOptedOut = "opted_out"
)

// StatusRank orders statuses so that a callback that arrives late never
// moves a message backwards: 0 for a status we do not know.
func StatusRank(status string) int {
	switch status {
	case StatusAccepted, StatusQueued:
		return 1
	case StatusSending:
		return 2
	case StatusSent:
		return 3
	case StatusDelivered, StatusUndelivered, StatusFailed, StatusOptedOut:
		return 4
	}
	return 0
}

// ErrorOptedOut is Twilio's error code for a number that replied STOP to
// the sender: nothing more may be sent to it until START.
const ErrorOptedOut = 21610

// SendError is a send Twilio refused: its error code and words. Retry
// tells whether sending again later may succeed (Twilio's 429 and 5xx).
type SendError struct {
	Status  int
	Code    int
	Message string
}

func (e *SendError) Error() string {
	return fmt.Sprintf("twilio: %d (error %d): %s", e.Status, e.Code, e.Message)
}

// Retry reports whether the refusal is worth another attempt.
func (e *SendError) Retry() bool { return e.Status == http.StatusTooManyRequests || e.Status >= 500 }

// OptedOut reports whether err is Twilio's answer for an opted-out number.
func OptedOut(err error) bool {
	var se *SendError
	return errors.As(err, &se) && se.Code == ErrorOptedOut
}

// Sent is Twilio's answer to a message it took: its SID and first status.
type Sent struct {
	SID    string `json:"sid"`
	Status string `json:"status"`
}

// Send asks Twilio to send body to the number to (E.164) from sender,
// with statusCallback (our URL, "" for none) told of each status.
func (t *Twilio) Send(ctx context.Context, from Sender, to, body, statusCallback string) (*Sent, error) {
	form := url.Values{"To": {to}, "Body": {body}}
	if from.MessagingServiceSID != "" {
		form.Set("MessagingServiceSid", from.MessagingServiceSID)
	} else {
		form.Set("From", from.From)
	}
	if statusCallback != "" {
		form.Set("StatusCallback", statusCallback)
	}
	endpoint := strings.TrimRight(t.BaseURL, "/") + "/2010-04-01/Accounts/" + url.PathEscape(t.AccountSID) + "/Messages.json"
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, strings.NewReader(form.Encode()))
	if err != nil {
		return nil, err
	}
	req.SetBasicAuth(t.AccountSID, t.AuthToken)
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	client := t.HTTP
	if client == nil {
		client = &http.Client{Timeout: 15 * time.Second}
	}
	res, err := client.Do(req)
	if err != nil {
		// The transport's error names the URL, never the token.
		return nil, fmt.Errorf("twilio: send: %w", err)
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(res.Body, 1<<16))
	if err != nil {
		return nil, fmt.Errorf("twilio: send: %w", err)
	}
	if res.StatusCode/100 != 2 {
		var e struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		}
		_ = json.Unmarshal(raw, &e)
		return nil, &SendError{Status: res.StatusCode, Code: e.Code, Message: e.Message}
	}
	var s Sent
	if err := json.Unmarshal(raw, &s); err != nil || s.SID == "" {
		return nil, errors.New("twilio: send: an answer without a message SID")
	}
	return &s, nil
}

// StatusReport is one status callback: the message, its status, and
// Twilio's error code for an undelivered or failed one (0: none).
type StatusReport struct {
	SID       string
	Status    string
	ErrorCode int
}

// ReadStatus reads a status callback's form.
func ReadStatus(form url.Values) (StatusReport, bool) {
	r := StatusReport{SID: form.Get("MessageSid"), Status: strings.ToLower(form.Get("MessageStatus"))}
	r.ErrorCode, _ = strconv.Atoi(form.Get("ErrorCode"))
	return r, r.SID != "" && StatusRank(r.Status) > 0
}
