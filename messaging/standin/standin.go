// Package standin runs the texting and mail stand-ins inside `chairside
// serve` for development and the browser tests (docs/running.md, "Texts
// and emails on your machine"): the Twilio stand-in answers on the
// server's own address under /dev/twilio, the SMTP stand-in on a free
// local port, and /dev/messages shows what both received, with a patient's
// reply and a carrier's failure a click away, so an invitation can be
// followed end to end without an account anywhere.
package standin

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"html/template"
	"io"
	"mime"
	"mime/multipart"
	"mime/quotedprintable"
	"net/http"
	"net/mail"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/chairside/chairside/messaging"
	"github.com/chairside/chairside/messaging/smtpsim"
	"github.com/chairside/chairside/messaging/twiliosim"
)

// Paths on the server: the Twilio stand-in's API, and the developer's
// page with its JSON twin and its two forms.
const (
	TwilioPath = "/dev/twilio"
	PagePath   = "/dev/messages"
)

// Sender is the Messaging Service the stand-in's texts come from, for
// offices without their own.
const Sender = "MG00000000000000000000000000005e4d"

// Standins are the two stand-ins of one server.
type Standins struct {
	Twilio  *twiliosim.Sim
	SMTP    *smtpsim.Server
	Account string // the stand-in's Twilio account SID
	Token   string // its auth token
	// SMTPHost and SMTPPort are where the SMTP stand-in listens.
	SMTPHost string
	SMTPPort int
	// base is the server's own address, for the inbound webhook.
	base string
}

// Start starts the SMTP stand-in on a free local port and makes the
// Twilio stand-in, whose callbacks reach the server at base.
func Start(base string) (*Standins, error) {
	s := &Standins{SMTP: &smtpsim.Server{}, Account: "AC" + randomHex(16), Token: randomHex(16), base: strings.TrimSuffix(base, "/")}
	addr, err := s.SMTP.Listen("127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	host, port, _ := strings.Cut(addr, ":")
	s.SMTPHost = host
	s.SMTPPort, _ = strconv.Atoi(port)
	s.Twilio = twiliosim.New(s.Account, s.Token)
	s.Twilio.Delay = 500 * time.Millisecond // "sent", then "delivered", slowly enough to be seen
	return s, nil
}

// Close stops the SMTP stand-in.
func (s *Standins) Close() error { return s.SMTP.Close() }

// TwilioURL is the address the notifier sends texts to.
func (s *Standins) TwilioURL() string { return s.base + TwilioPath }

// Handler serves the Twilio stand-in and the developer's page; next
// serves everything else.
func (s *Standins) Handler(next http.Handler) http.Handler {
	mux := http.NewServeMux()
	mux.Handle(TwilioPath+"/", http.StripPrefix(TwilioPath, s.Twilio))
	mux.HandleFunc("GET "+PagePath, s.page)
	mux.HandleFunc("GET "+PagePath+".json", s.json)
	mux.HandleFunc("POST "+PagePath+"/reply", s.reply)
	mux.HandleFunc("POST "+PagePath+"/fail", s.fail)
	mux.HandleFunc("POST "+PagePath+"/hold", s.hold)
	mux.HandleFunc("POST "+PagePath+"/release", s.release)
	mux.Handle("/", next)
	return mux
}

// Text is a text as the page shows it.
type Text struct {
	twiliosim.Message
	Link string `json:"link"`
}

// Email is an email as the page shows it: its envelope, its decoded
// subject and text, and the link in it.
type Email struct {
	From    string    `json:"from"`
	To      []string  `json:"to"`
	Subject string    `json:"subject"`
	Text    string    `json:"text"`
	Link    string    `json:"link"`
	At      time.Time `json:"at"`
}

// Received is what both stand-ins received, newest first.
type Received struct {
	Texts  []Text  `json:"texts"`
	Emails []Email `json:"emails"`
}

var linkPattern = regexp.MustCompile(`https?://[^\s"<>]+`)

func (s *Standins) received() Received {
	out := Received{Texts: []Text{}, Emails: []Email{}}
	msgs := s.Twilio.Messages()
	for i := len(msgs) - 1; i >= 0; i-- {
		out.Texts = append(out.Texts, Text{Message: msgs[i], Link: linkPattern.FindString(msgs[i].Body)})
	}
	mails := s.SMTP.Mail()
	for i := len(mails) - 1; i >= 0; i-- {
		e := readMail(mails[i])
		e.Link = linkPattern.FindString(e.Text)
		out.Emails = append(out.Emails, e)
	}
	return out
}

// readMail decodes what a developer reads of an email: the subject and
// the plain-text part (quoted-printable undone, so a link is whole).
func readMail(m smtpsim.Mail) Email {
	e := Email{From: m.From, To: m.To, At: m.At}
	msg, err := mail.ReadMessage(strings.NewReader(m.Data))
	if err != nil {
		e.Text = m.Data
		return e
	}
	dec := new(mime.WordDecoder)
	if e.Subject, err = dec.DecodeHeader(msg.Header.Get("Subject")); err != nil {
		e.Subject = msg.Header.Get("Subject")
	}
	e.Text = plainText(msg.Header.Get("Content-Type"), msg.Header.Get("Content-Transfer-Encoding"), msg.Body)
	return e
}

// plainText finds the text/plain part of a body, in a multipart body or
// the body itself.
func plainText(contentType, encoding string, body io.Reader) string {
	media, params, _ := mime.ParseMediaType(contentType)
	if strings.HasPrefix(media, "multipart/") {
		r := multipart.NewReader(body, params["boundary"])
		for {
			p, err := r.NextRawPart()
			if err != nil {
				return ""
			}
			if t := plainText(p.Header.Get("Content-Type"), p.Header.Get("Content-Transfer-Encoding"), p); t != "" {
				return t
			}
		}
	}
	if media != "" && media != "text/plain" {
		return ""
	}
	if strings.EqualFold(encoding, "quoted-printable") {
		body = quotedprintable.NewReader(body)
	}
	b, _ := io.ReadAll(io.LimitReader(body, 1<<20))
	return string(b)
}

func (s *Standins) json(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	_ = json.NewEncoder(w).Encode(s.received())
}

// reply is a patient's reply from a number (STOP, START …), as Twilio
// would pass it to the inbound webhook, signed.
func (s *Standins) reply(w http.ResponseWriter, r *http.Request) {
	from, body := messaging.E164(strings.TrimSpace(r.FormValue("from"))), strings.TrimSpace(r.FormValue("body"))
	sender := strings.TrimSpace(r.FormValue("sender"))
	if sender == "" {
		sender = Sender
	}
	ctx, cancel := context.WithTimeout(r.Context(), 10*time.Second)
	defer cancel()
	if err := s.Twilio.Reply(ctx, s.base+"/api/v1/texts/twilio/inbound", sender, from, body); err != nil {
		http.Error(w, "the reply did not reach the server: "+err.Error(), http.StatusBadGateway)
		return
	}
	http.Redirect(w, r, PagePath, http.StatusSeeOther)
}

// fail makes the texts to a number end undelivered with a carrier's error
// code (30003 by default: the phone is off or out of reach).
func (s *Standins) fail(w http.ResponseWriter, r *http.Request) {
	code, err := strconv.Atoi(strings.TrimSpace(r.FormValue("code")))
	if err != nil || code <= 0 {
		code = 30003
	}
	s.Twilio.Fail(messaging.E164(strings.TrimSpace(r.FormValue("number"))), code)
	http.Redirect(w, r, PagePath, http.StatusSeeOther)
}

// hold keeps the texts to a number "sent" until release: the patient's
// phone is off, and the office's list waits for the report.
func (s *Standins) hold(w http.ResponseWriter, r *http.Request) {
	s.Twilio.Hold(messaging.E164(strings.TrimSpace(r.FormValue("number"))))
	http.Redirect(w, r, PagePath, http.StatusSeeOther)
}

// release delivers what hold kept back: the phone is on again.
func (s *Standins) release(w http.ResponseWriter, r *http.Request) {
	s.Twilio.Release(messaging.E164(strings.TrimSpace(r.FormValue("number"))))
	http.Redirect(w, r, PagePath, http.StatusSeeOther)
}

func (s *Standins) page(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Content-Security-Policy", "default-src 'none'; form-action 'self'; frame-ancestors 'none'")
	_ = pageTemplate.Execute(w, s.received())
}

var pageTemplate = template.Must(template.New("page").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Texts and emails sent (stand-ins)</title></head>
<body>
<h1>Texts and emails sent</h1>
<p>What this development server sent to patients, newest first. Nothing here left the machine. <a href="/dev/messages">Refresh</a></p>
<h2>Texts</h2>
{{if .Texts}}<table><thead><tr><th scope="col">When</th><th scope="col">From</th><th scope="col">To</th><th scope="col">Text</th><th scope="col">Status</th></tr></thead><tbody>
{{range .Texts}}<tr><td>{{.At.Format "15:04:05"}}</td><td>{{.Sender}}</td><td>{{.To}}</td><td>{{.Body}}{{if .Link}}<br><a href="{{.Link}}">Open the link</a>{{end}}</td><td>{{.Status}}{{if .ErrorCode}} (error {{.ErrorCode}}){{end}}</td></tr>
{{end}}</tbody></table>{{else}}<p>No texts yet.</p>{{end}}
<h2>Emails</h2>
{{if .Emails}}<table><thead><tr><th scope="col">When</th><th scope="col">To</th><th scope="col">Subject</th><th scope="col">Link</th></tr></thead><tbody>
{{range .Emails}}<tr><td>{{.At.Format "15:04:05"}}</td><td>{{range .To}}{{.}} {{end}}</td><td>{{.Subject}}</td><td>{{if .Link}}<a href="{{.Link}}">Open the link</a>{{end}}</td></tr>
{{end}}</tbody></table>{{else}}<p>No emails yet.</p>{{end}}
<h2>Be the patient's phone</h2>
<form method="post" action="/dev/messages/reply">
<label>Reply from the number <input name="from" inputmode="tel" placeholder="5125550134" required></label>
<label>with <input name="body" value="STOP" required></label>
<button type="submit">Send the reply</button>
</form>
<form method="post" action="/dev/messages/fail">
<label>Make texts to the number <input name="number" inputmode="tel" placeholder="5125550134" required></label>
<label>end undelivered with error <input name="code" value="30003" inputmode="numeric"></label>
<button type="submit">Make them fail</button>
</form>
<form method="post" action="/dev/messages/hold">
<label>Turn off the phone of the number <input name="number" inputmode="tel" placeholder="5125550134" required></label>
<button type="submit">Keep its texts undelivered</button>
</form>
<form method="post" action="/dev/messages/release">
<label>Turn on the phone of the number <input name="number" inputmode="tel" placeholder="5125550134" required></label>
<button type="submit">Deliver its texts</button>
</form>
</body></html>
`))

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
