// Package smtpsim is an SMTP server that keeps what it receives, for
// development and tests (docs/behaviour.md, "Texts and emails"): the
// mailer sends to it as to a practice's relay, and what arrived can be
// read back. It takes any sender and recipient, over plain SMTP; a
// recipient at refused.example is refused for good (550), to try the
// outbox's handling of a permanent refusal.
package smtpsim

import (
	"errors"
	"io"
	"net"
	"strings"
	"sync"
	"time"

	"github.com/emersion/go-smtp"
)

// Mail is one message received: its envelope and its raw content.
type Mail struct {
	From string
	To   []string
	Data string
	At   time.Time
}

// Server is the stand-in. Start it with Listen.
type Server struct {
	mu   sync.Mutex
	mail []Mail
	srv  *smtp.Server
}

// Listen starts the stand-in on addr ("127.0.0.1:0" for any free port)
// and answers the address it listens on.
func (s *Server) Listen(addr string) (string, error) {
	l, err := net.Listen("tcp", addr)
	if err != nil {
		return "", err
	}
	s.srv = smtp.NewServer(s)
	s.srv.Domain = "smtpsim.localhost"
	s.srv.ReadTimeout, s.srv.WriteTimeout = 10*time.Second, 10*time.Second
	s.srv.MaxMessageBytes = 1 << 20
	go func() { _ = s.srv.Serve(l) }()
	return l.Addr().String(), nil
}

// Close stops the stand-in.
func (s *Server) Close() error {
	if s.srv == nil {
		return nil
	}
	return s.srv.Close()
}

// Mail answers what arrived, in order.
func (s *Server) Mail() []Mail {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Mail(nil), s.mail...)
}

// NewSession starts one SMTP conversation (smtp.Backend).
func (s *Server) NewSession(*smtp.Conn) (smtp.Session, error) { return &session{srv: s}, nil }

type session struct {
	srv  *Server
	from string
	to   []string
}

func (c *session) Mail(from string, _ *smtp.MailOptions) error {
	c.from = from
	return nil
}

func (c *session) Rcpt(to string, _ *smtp.RcptOptions) error {
	if strings.HasSuffix(strings.ToLower(to), "@refused.example") {
		return &smtp.SMTPError{Code: 550, EnhancedCode: smtp.EnhancedCode{5, 1, 1}, Message: "No such mailbox"}
	}
	c.to = append(c.to, to)
	return nil
}

func (c *session) Data(r io.Reader) error {
	b, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	if len(c.to) == 0 {
		return errors.New("no recipient")
	}
	c.srv.mu.Lock()
	defer c.srv.mu.Unlock()
	c.srv.mail = append(c.srv.mail, Mail{From: c.from, To: c.to, Data: string(b), At: time.Now().UTC()})
	return nil
}

func (c *session) Reset()        { c.from, c.to = "", nil }
func (c *session) Logout() error { return nil }
