package office

import (
	"context"
	"fmt"
	"time"

	"github.com/chairside/chairside"
)

// AddStaff creates a staff member of the office with entityKey and a role
// (chairside.StaffRoles). With a password it is checked and hashed;
// without one (password "") the member can sign in only after using a
// setup link (NewSetupLink).
func (s *Service) AddStaff(ctx context.Context, entityKey, email, password, role string) (*chairside.Staff, error) {
	email = normalEmail(email)
	if !validEmail(email) {
		return nil, chairside.Errorf(chairside.EINVALID, "%q is not an email address.", email)
	}
	loc, err := s.store.FindLocationByEntityKey(ctx, entityKey)
	if chairside.ErrorCode(err) == chairside.ENOTFOUND {
		return nil, chairside.Errorf(chairside.ENOTFOUND, "No office has entity key %s.", entityKey)
	} else if err != nil {
		return nil, err
	}
	st := &chairside.Staff{LocationID: loc.ID, Email: email, Role: role, CreatedAt: s.Now()}
	if password != "" {
		if err := CheckPassword(email, password); err != nil {
			return nil, err
		}
		st.PasswordHash = HashPassword(password)
	}
	if err := s.store.CreateStaff(ctx, st); err != nil {
		return nil, err
	}
	return st, nil
}

// NewSetupLink makes a one-time setup token for a staff member, valid for
// SetupTTL, and returns the token (stored only as its hash) and its end.
func (s *Service) NewSetupLink(ctx context.Context, st *chairside.Staff) (string, time.Time, error) {
	token := chairside.NewSecret(32)
	now := s.Now()
	t := &chairside.StaffSetupToken{Hash: chairside.HashSecret(token), StaffID: st.ID, CreatedAt: now, ExpiresAt: now.Add(SetupTTL)}
	if err := s.store.CreateStaffSetupToken(ctx, t); err != nil {
		return "", time.Time{}, err
	}
	return token, t.ExpiresAt, nil
}

// DisableStaff disables the staff member with email and ends their
// sessions.
func (s *Service) DisableStaff(ctx context.Context, email string) error {
	st, err := s.FindStaff(ctx, email)
	if err != nil {
		return err
	}
	return s.store.DisableStaff(ctx, st.ID, s.Now())
}

// ResetSecondFactor forgets the authenticator app and recovery codes of
// the staff member with email and ends their sessions: the way back for
// an office's last manager who lost their phone (docs/operations.md).
func (s *Service) ResetSecondFactor(ctx context.Context, email string) error {
	st, err := s.FindStaff(ctx, email)
	if err != nil {
		return err
	}
	return s.store.ResetStaffSecondFactor(ctx, st.ID, s.Now())
}

// FindStaff answers the staff member with email, or ENOTFOUND in words
// for the command line.
func (s *Service) FindStaff(ctx context.Context, email string) (*chairside.Staff, error) {
	st, err := s.store.FindStaffByEmail(ctx, email)
	if chairside.ErrorCode(err) == chairside.ENOTFOUND {
		return nil, chairside.Errorf(chairside.ENOTFOUND, "No staff member has email %s.", normalEmail(email))
	}
	return st, err
}

// validEmail is a loose check: one @, something either side, a dot in the
// domain, no spaces, at most 254 characters.
func validEmail(e string) bool {
	at := -1
	for i, r := range e {
		if r == ' ' || r == '\t' || r == '\r' || r == '\n' {
			return false
		}
		if r == '@' {
			if at >= 0 {
				return false
			}
			at = i
		}
	}
	if at <= 0 || at == len(e)-1 || len(e) > 254 {
		return false
	}
	for _, r := range e[at+1:] {
		if r == '.' {
			return true
		}
	}
	return false
}

// Detail is one application as the office sees it: its row and its
// history. Events carry no personal data (chairside.Event).
type Detail struct {
	*Row
	Events []DetailEvent `json:"events"`
	// MoneyLine is every fact of the case's money, in the order it was
	// learnt (money.go).
	MoneyLine []MoneyEntry `json:"moneyLine"`
}

// DetailEvent is one line of an application's history.
type DetailEvent struct {
	Type       string `json:"type"`
	LenderKey  string `json:"providerKey,omitempty"`
	LenderName string `json:"lenderName,omitempty"`
	// Outcome is what a flow.finished event recorded (completed, declined,
	// no_offer …), so the history says how the visit ended, not only that
	// it did.
	Outcome string    `json:"outcome,omitempty"`
	At      time.Time `json:"at"`
}

// OwnApplication answers an application of the caller's office; another
// office's answers ENOTFOUND, exactly as a missing one does.
func (s *Service) OwnApplication(ctx context.Context, c *Caller, id string) (*chairside.Application, error) {
	notFound := chairside.Errorf(chairside.ENOTFOUND, "There is no such application at your office.")
	if id == "" || len(id) > 64 {
		return nil, notFound
	}
	a, err := s.store.FindApplication(ctx, id)
	if chairside.ErrorCode(err) == chairside.ENOTFOUND || (err == nil && a.LocationID != c.Location.ID) {
		return nil, notFound
	}
	return a, err
}

// AuditChange records a change the caller asked of a case's lender, with
// its answer and the reason given.
func (s *Service) AuditChange(ctx context.Context, c *Caller, applicationID, kind, status string, amountCents int64, reason string) {
	action := chairside.AuditCaseRefund
	if kind == "void" {
		action = chairside.AuditCaseVoid
	}
	s.did(ctx, c, action, fmt.Sprintf("application %s: %s, %s; reason: %s", applicationID, status, chairside.Dollars(amountCents), reason))
}

// AuditAmount records a change of a case's treatment amount, with the
// reason the office gave and the lender's answer.
func (s *Service) AuditAmount(ctx context.Context, c *Caller, applicationID, status string, from, to int64, reason string) {
	s.did(ctx, c, chairside.AuditCaseAmount, fmt.Sprintf("application %s: %s, %s to %s; reason: %s", applicationID, status,
		chairside.Dollars(from), chairside.Dollars(to), reason))
}

// Application answers an application of the caller's office with its
// history; another office's application answers ENOTFOUND, exactly as a
// missing one does. The view is audited.
func (s *Service) Application(ctx context.Context, c *Caller, id string) (*Detail, error) {
	a, err := s.OwnApplication(ctx, c, id)
	if err != nil {
		return nil, err
	}
	sess, err := s.store.FindSession(ctx, a.SessionID)
	if err != nil {
		return nil, err
	}
	row, err := s.sessionRow(ctx, sess, s.Now())
	if err != nil {
		return nil, err
	}
	evs, err := s.store.ListEvents(ctx, sess.ID)
	if err != nil {
		return nil, err
	}
	line, err := s.moneyLine(ctx, a.ID)
	if err != nil {
		return nil, err
	}
	posts, err := s.store.ApplicationRecordsPosts(ctx, c.Location.ID, a.ID)
	if err != nil {
		return nil, err
	}
	row.Records = recordsStateOf(posts)
	d := &Detail{Row: row, Events: make([]DetailEvent, 0, len(evs)), MoneyLine: line}
	for _, e := range evs {
		de := DetailEvent{Type: e.Type, LenderKey: e.LenderKey, At: e.CreatedAt}
		if e.LenderKey != "" {
			de.LenderName = lenderName(e.LenderKey)
		}
		if o, ok := e.Data["outcome"].(string); ok && e.Type == "flow.finished" {
			de.Outcome = o
		}
		d.Events = append(d.Events, de)
	}
	s.did(ctx, c, chairside.AuditViewApplication, "application "+a.ID)
	return d, nil
}
