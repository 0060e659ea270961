// Package twiliosim is a stand-in for Twilio's Messaging API, in the
// binary as the lender simulator is, for development and tests: it takes
// messages as Twilio does (one account, HTTP Basic auth), tells the
// status callback what becomes of each with Twilio's signature, refuses a
// number that replied STOP to the sender (error 21610), and sends a
// patient's reply to an inbound webhook. What it took can be read back.
package twiliosim

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/chairside/chairside/messaging"
)

// Message is one message the stand-in took.
type Message struct {
	SID            string    `json:"sid"`
	Sender         string    `json:"sender"` // the Messaging Service or the From number
	To             string    `json:"to"`
	Body           string    `json:"body"`
	StatusCallback string    `json:"-"`
	Status         string    `json:"status"`
	ErrorCode      int       `json:"errorCode,omitempty"`
	At             time.Time `json:"at"`
}

// Sim is the stand-in. Delay is how long after taking a message it
// reports it sent, and again delivered (or undelivered).
type Sim struct {
	AccountSID string
	AuthToken  string
	Delay      time.Duration
	HTTP       *http.Client

	mu       sync.Mutex
	messages []*Message
	failing  map[string]int  // number → the error its messages end with
	optedOut map[string]bool // sender + " " + number
	// holding has, for a number whose phone is out of reach, a channel
	// closed when it is back (Release): its texts stay "sent" until then.
	holding map[string]chan struct{}
	wg      sync.WaitGroup
}

// New is a stand-in for the account sid with its auth token.
func New(accountSID, authToken string) *Sim {
	return &Sim{AccountSID: accountSID, AuthToken: authToken, Delay: 50 * time.Millisecond,
		HTTP: &http.Client{Timeout: 5 * time.Second}, failing: map[string]int{}, optedOut: map[string]bool{},
		holding: map[string]chan struct{}{}}
}

// Fail makes the messages to number end undelivered with Twilio's error
// code (30003: unreachable, 30005: unknown number …).
func (s *Sim) Fail(number string, code int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.failing[number] = code
}

// Hold keeps the texts to number "sent", not yet delivered, until
// Release: a phone that is off, so that a test can watch the report come.
func (s *Sim) Hold(number string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.holding[number] == nil {
		s.holding[number] = make(chan struct{})
	}
}

// Release lets the texts Hold kept back to number end as they would.
func (s *Sim) Release(number string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if c := s.holding[number]; c != nil {
		close(c)
		delete(s.holding, number)
	}
}

// OptOut opts number out of sender at the provider only, as when the
// patient replied STOP before we could hear of it: the next send to it is
// refused with 21610.
func (s *Sim) OptOut(sender, number string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.optedOut[sender+" "+number] = true
}

// Messages answers what the stand-in took, in order.
func (s *Sim) Messages() []Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Message, len(s.messages))
	for i, m := range s.messages {
		out[i] = *m
	}
	return out
}

// Wait waits for the status callbacks sent so far.
func (s *Sim) Wait() { s.wg.Wait() }

var (
	e164     = regexp.MustCompile(`^\+[1-9][0-9]{7,14}$`)
	sendPath = regexp.MustCompile(`^/2010-04-01/Accounts/([^/]+)/Messages\.json$`)
)

// ServeHTTP takes POST /2010-04-01/Accounts/{sid}/Messages.json.
func (s *Sim) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	m := sendPath.FindStringSubmatch(r.URL.Path)
	if r.Method != http.MethodPost || m == nil {
		refuse(w, http.StatusNotFound, 20404, "The requested resource was not found")
		return
	}
	user, pass, ok := r.BasicAuth()
	if !ok || user != s.AccountSID || m[1] != s.AccountSID || pass != s.AuthToken {
		refuse(w, http.StatusUnauthorized, 20003, "Authenticate")
		return
	}
	if err := r.ParseForm(); err != nil {
		refuse(w, http.StatusBadRequest, 21601, "The request could not be read")
		return
	}
	msg := &Message{To: r.PostForm.Get("To"), Body: r.PostForm.Get("Body"), StatusCallback: r.PostForm.Get("StatusCallback"),
		Sender: r.PostForm.Get("MessagingServiceSid"), Status: messaging.StatusQueued, At: time.Now().UTC()}
	if msg.Sender == "" {
		msg.Sender = r.PostForm.Get("From")
	}
	switch {
	case !e164.MatchString(msg.To):
		refuse(w, http.StatusBadRequest, 21211, "The 'To' number is not a valid phone number")
		return
	case msg.Sender == "":
		refuse(w, http.StatusBadRequest, 21603, "A 'From' or 'MessagingServiceSid' parameter is required")
		return
	case strings.TrimSpace(msg.Body) == "":
		refuse(w, http.StatusBadRequest, 21602, "Message body is required")
		return
	}
	s.mu.Lock()
	if s.optedOut[msg.Sender+" "+msg.To] {
		s.mu.Unlock()
		refuse(w, http.StatusBadRequest, messaging.ErrorOptedOut, "Attempt to send to unsubscribed recipient")
		return
	}
	msg.SID = "SM" + randomHex(16)
	s.messages = append(s.messages, msg)
	code := s.failing[msg.To]
	s.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusCreated)
	_ = json.NewEncoder(w).Encode(map[string]any{"sid": msg.SID, "status": msg.Status, "to": msg.To, "body": msg.Body, "num_segments": "1"})
	if msg.StatusCallback != "" {
		s.wg.Add(1)
		go s.report(msg, code)
	}
}

// report tells the status callback the message was sent, then delivered
// or undelivered with code.
func (s *Sim) report(msg *Message, code int) {
	defer s.wg.Done()
	final := messaging.StatusDelivered
	if code != 0 {
		final = messaging.StatusUndelivered
	}
	for _, status := range []string{messaging.StatusSent, final} {
		time.Sleep(s.Delay)
		s.mu.Lock()
		if held := s.holding[msg.To]; held != nil && status == final {
			s.mu.Unlock()
			<-held
			s.mu.Lock()
		}
		msg.Status = status
		if status == messaging.StatusUndelivered {
			msg.ErrorCode = code
		}
		s.mu.Unlock()
		form := url.Values{"MessageSid": {msg.SID}, "MessageStatus": {status}, "To": {msg.To}, "AccountSid": {s.AccountSID}}
		if strings.HasPrefix(msg.Sender, "MG") {
			form.Set("MessagingServiceSid", msg.Sender)
		} else {
			form.Set("From", msg.Sender)
		}
		if status == messaging.StatusUndelivered {
			form.Set("ErrorCode", strconv.Itoa(code))
		}
		_ = s.post(context.Background(), msg.StatusCallback, form)
	}
}

// Reply is a patient's text from the number from to the sender: STOP (or
// another stop word) opts the number out of the sender, START back in, as
// Twilio's own opt-out handling does; either way the reply goes to the
// inbound webhook, signed.
func (s *Sim) Reply(ctx context.Context, inboundURL, sender, from, body string) error {
	s.mu.Lock()
	switch messaging.Keyword(body) {
	case messaging.ReplyStop:
		s.optedOut[sender+" "+from] = true
	case messaging.ReplyStart:
		delete(s.optedOut, sender+" "+from)
	}
	s.mu.Unlock()
	form := url.Values{"MessageSid": {"SM" + randomHex(16)}, "From": {from}, "Body": {body}, "AccountSid": {s.AccountSID}}
	if strings.HasPrefix(sender, "MG") {
		form.Set("MessagingServiceSid", sender)
		form.Set("To", "+15005550006")
	} else {
		form.Set("To", sender)
	}
	return s.post(ctx, inboundURL, form)
}

// post sends a signed form to a webhook of ours.
func (s *Sim) post(ctx context.Context, target string, form url.Values) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, target, strings.NewReader(form.Encode()))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set(messaging.SignatureHeader, messaging.Sign(s.AuthToken, target, form))
	res, err := s.HTTP.Do(req)
	if err != nil {
		return err
	}
	return res.Body.Close()
}

func refuse(w http.ResponseWriter, status, code int, message string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]any{"code": code, "message": message, "status": status})
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
