// Package office is the office side of Chairside: staff sign-in with
// argon2id passwords, lockout, staff sessions with idle and absolute
// expiry, CSRF tokens, office scoping of what staff may see, and the office
// audit log (docs/behaviour.md, "The office side").
//
// It is separate from package flow: a staff session never authorises a
// patient call, nor a patient session an office call.
package office

import (
	"context"
	"crypto/subtle"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/pms"
)

// Limits of staff sign-in and sessions.
const (
	// MaxFailures tries of one email from one address within LockFor lock
	// that pair for LockFor (SignIn); a right password forgets the tries.
	MaxFailures = 5
	LockFor     = 15 * time.Minute
	// IdleTimeout ends a session nobody used for that long; MaxAge ends
	// any session, however active.
	IdleTimeout = 30 * time.Minute
	MaxAge      = 12 * time.Hour
	// SetupTTL is how long a setup link may be used.
	SetupTTL = 24 * time.Hour
)

// Messages staff read.
const (
	msgBadSignIn = "That email and password do not match. Check them and try again."
	msgLocked    = "Too many tries. Try again in 15 minutes or ask your office manager."
	msgSignedOut = "You are signed out. Please sign in again."
	msgCSRF      = "This request could not be checked. Reload the page and try again."
	msgBadSetup  = "This setup link is not valid any more. Ask your office manager for a new one."
)

// Service runs the office side over a store.
type Service struct {
	store Store
	// Now is the clock; tests replace it.
	Now func() time.Time
	log *slog.Logger
	// verify checks a password against its hash (VerifyPassword); the
	// sign-in tests of this package count tries with a cheaper one.
	verify func(encoded, pw string) bool
	// wakeup tells the outbox dispatcher a message is waiting.
	wakeup chan struct{}
	// reach says whether an office's texts and emails reach its patients
	// (Dispatcher, MessagesReach).
	reach atomic.Pointer[func(*chairside.Location) (bool, bool)]
	// StreamEvery is how often a live list looks for changes.
	StreamEvery time.Duration
	// RequireSecondFactor keeps every account from the office's data until
	// its second factor is set up (env prod).
	RequireSecondFactor bool
	// Bridge reaches an office's practice-management system through its
	// connection (records.go); nil: this server cannot connect offices.
	Bridge func(*chairside.RecordsConnection) pms.Bridge
	// PostTimeout bounds one post to a practice's system
	// (records_post.go); 0: 30 seconds.
	PostTimeout time.Duration

	mu        sync.Mutex
	listViews map[string]time.Time // AuditListView's memory
}

// New returns a Service. A nil log discards.
func New(store Store, log *slog.Logger) *Service {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Service{store: store, Now: time.Now, log: log, verify: VerifyPassword, wakeup: make(chan struct{}, 1), StreamEvery: 2 * time.Second,
		listViews: map[string]time.Time{}}
}

// Caller is a signed-in staff member, the office they work in and their
// session. Stage says how far their sign-in has come (access.go).
type Caller struct {
	Staff    *chairside.Staff
	Location *chairside.Location
	Session  *chairside.StaffSession
	IP       string
	Stage    string
}

// SignedIn is the answer to a good sign-in: the session id for the cookie
// and the CSRF token for the browser, both shown only this once.
type SignedIn struct {
	Caller
	SessionID string
	CSRFToken string
}

// SignIn checks email and password and opens a session. Each try is
// first taken from the tries of its email and client address (ip), in one
// statement with the lock: at most MaxFailures passwords are ever checked
// in a window however many tries arrive at once, and the try that takes
// the last locks that pair for LockFor. So an outsider's tries lock only
// their own address, never the worker at the office, and an unknown
// email, a disabled account, a wrong password and a lock answer exactly
// as they would for any other email, after the same work: EUNAUTHORIZED,
// or ERATELIMITED with the time left once locked.
func (s *Service) SignIn(ctx context.Context, email, password, ip string) (*SignedIn, error) {
	now := s.Now()
	scope := signInScope(email, ip)
	ok, until, err := s.store.ReserveSignIn(ctx, scope, MaxFailures, LockFor, now)
	if err != nil {
		return nil, err
	}
	st, err := s.store.FindStaffByEmail(ctx, email)
	if err != nil && chairside.ErrorCode(err) != chairside.ENOTFOUND {
		return nil, err
	}
	if !ok {
		s.verify(dummyHash, password) // a lock is not told apart by timing
		s.audit(ctx, s.entryOf(st, chairside.AuditSignInFailed, ip, "locked"))
		return nil, locked(until.Sub(now))
	}
	if st == nil || st.PasswordHash == "" || !s.verify(st.PasswordHash, password) || st.DisabledAt != nil {
		if st == nil || st.PasswordHash == "" {
			s.verify(dummyHash, password) // the same work as a real check
		}
		return nil, s.failed(ctx, st, ip, now, until)
	}
	if err := s.store.ClearSignIn(ctx, scope); err != nil {
		return nil, err
	}
	return s.openSession(ctx, st, ip, now, false)
}

// openSession opens a session for st, signed in from ip at now by their
// password (passed false) or by a passkey, which is two factors in one
// (passed true).
func (s *Service) openSession(ctx context.Context, st *chairside.Staff, ip string, now time.Time, passed bool) (*SignedIn, error) {
	loc, err := s.store.FindLocationByID(ctx, st.LocationID)
	if err != nil {
		return nil, err
	}
	id, csrf := chairside.NewSecret(32), chairside.NewSecret(32)
	sess := &chairside.StaffSession{IDHash: chairside.HashSecret(id), StaffID: st.ID, CSRFHash: chairside.HashSecret(csrf),
		CreatedAt: now, LastSeenAt: now, ExpiresAt: now.Add(MaxAge), LocationID: loc.ID}
	how := "password"
	if passed {
		sess.SecondFactorAt, how = &now, "passkey"
	}
	if err := s.store.CreateStaffSession(ctx, sess); err != nil {
		return nil, err
	}
	c := Caller{Staff: st, Location: loc, Session: sess, IP: ip, Stage: stageOf(st, sess, s.RequireSecondFactor)}
	s.audit(ctx, s.entry(st, chairside.AuditSignIn, ip, how+"; next: "+c.Stage))
	return &SignedIn{Caller: c, SessionID: id, CSRFToken: csrf}, nil
}

// signInScope is what sign-in tries are counted by: the email as stored
// (lower-cased, trimmed) and the client address, hashed.
func signInScope(email, ip string) string {
	return chairside.HashSecret(strings.ToLower(strings.TrimSpace(email)) + "\x00" + ip)
}

// failed answers a try that did not sign in: the lock when this try took
// the last one (until is set), else the one answer for every wrong email,
// password or disabled account. The audit says which, for the office.
func (s *Service) failed(ctx context.Context, st *chairside.Staff, ip string, now, until time.Time) error {
	why := "wrong password"
	switch {
	case st == nil:
		why = "unknown email"
	case st.DisabledAt != nil:
		why = "disabled"
	}
	s.audit(ctx, s.entryOf(st, chairside.AuditSignInFailed, ip, why))
	if !until.IsZero() {
		s.audit(ctx, s.entryOf(st, chairside.AuditLocked, ip, "locked for 15 minutes"))
		return locked(until.Sub(now))
	}
	return chairside.Errorf(chairside.EUNAUTHORIZED, msgBadSignIn)
}

// entryOf is entry for a staff member who may be unknown (nil): the
// office is then unknown too.
func (s *Service) entryOf(st *chairside.Staff, action, ip, details string) *chairside.OfficeAuditEntry {
	if st == nil {
		return &chairside.OfficeAuditEntry{Action: action, IP: ip, Details: details}
	}
	return s.entry(st, action, ip, details)
}

func locked(wait time.Duration) error {
	// A lock lifted between the try and the read of its end: a second.
	return &chairside.Error{Code: chairside.ERATELIMITED, Message: msgLocked, RetryAfter: max(wait, time.Second)}
}

// Authenticate returns the caller of a live session id: not revoked, used
// within IdleTimeout, younger than MaxAge, of an enabled account. It moves
// the session's last-seen time. Anything else answers EUNAUTHORIZED.
func (s *Service) Authenticate(ctx context.Context, sessionID, ip string) (*Caller, error) {
	if sessionID == "" || len(sessionID) > 128 {
		return nil, chairside.Errorf(chairside.EUNAUTHORIZED, msgSignedOut)
	}
	return s.callerOf(ctx, chairside.HashSecret(sessionID), ip)
}

// Reread answers the caller as their next call will find them, after a
// change to their session (a second factor passed, another office).
func (s *Service) Reread(ctx context.Context, c *Caller) (*Caller, error) {
	return s.callerOf(ctx, c.Session.IDHash, c.IP)
}

// callerOf is Authenticate for the session with idHash.
func (s *Service) callerOf(ctx context.Context, idHash, ip string) (*Caller, error) {
	now := s.Now()
	sess, st, err := s.live(ctx, idHash, now)
	if err != nil {
		return nil, err
	}
	loc, err := s.workplace(ctx, st, sess)
	if err != nil {
		return nil, err
	}
	if err := s.store.TouchStaffSession(ctx, sess.IDHash, now); err != nil {
		return nil, err
	}
	sess.LastSeenAt = now
	return &Caller{Staff: st, Location: loc, Session: sess, IP: ip, Stage: stageOf(st, sess, s.RequireSecondFactor)}, nil
}

// workplace is the office a session works in: the one a group
// administrator chose while it is still of their group, else the
// member's own.
func (s *Service) workplace(ctx context.Context, st *chairside.Staff, sess *chairside.StaffSession) (*chairside.Location, error) {
	home, err := s.store.FindLocationByID(ctx, st.LocationID)
	if err != nil || sess.LocationID == "" || sess.LocationID == home.ID || st.Role != chairside.StaffGroupAdmin {
		return home, err
	}
	other, err := s.store.FindLocationByID(ctx, sess.LocationID)
	if chairside.ErrorCode(err) == chairside.ENOTFOUND || (err == nil && (home.GroupID == "" || other.GroupID != home.GroupID)) {
		return home, nil
	}
	return other, err
}

// StillSignedIn answers EUNAUTHORIZED once the caller's session has ended
// (signed out, disabled, idle or too old) without counting as a use of it:
// a live list left open on a screen must not keep its session alive.
func (s *Service) StillSignedIn(ctx context.Context, c *Caller) error {
	_, _, err := s.live(ctx, c.Session.IDHash, s.Now())
	return err
}

// live answers the session with idHash and its staff member when the
// session may still be used at now: not revoked, used within IdleTimeout,
// younger than MaxAge, of an enabled account. Anything else answers
// EUNAUTHORIZED.
func (s *Service) live(ctx context.Context, idHash string, now time.Time) (*chairside.StaffSession, *chairside.Staff, error) {
	out := chairside.Errorf(chairside.EUNAUTHORIZED, msgSignedOut)
	sess, err := s.store.FindStaffSession(ctx, idHash)
	if chairside.ErrorCode(err) == chairside.ENOTFOUND {
		return nil, nil, out
	} else if err != nil {
		return nil, nil, err
	}
	if sess.RevokedAt != nil || !now.Before(sess.ExpiresAt) || now.Sub(sess.LastSeenAt) >= IdleTimeout {
		return nil, nil, out
	}
	st, err := s.store.FindStaffByID(ctx, sess.StaffID)
	if err != nil {
		return nil, nil, err
	}
	if st.DisabledAt != nil {
		return nil, nil, out
	}
	return sess, st, nil
}

// AuditListView records that the caller looked at the office's list of a
// day: once per staff session, day and status within listAuditEvery, so
// that a browser polling the list (when it cannot keep a live stream)
// leaves one line, not one every few seconds. The memory is per server.
func (s *Service) AuditListView(ctx context.Context, c *Caller, f Filter) {
	key := c.Session.IDHash + "|" + f.Day + "|" + f.Status
	now := s.Now()
	s.mu.Lock()
	last, seen := s.listViews[key]
	if !seen || now.Sub(last) >= listAuditEvery {
		s.listViews[key] = now
	}
	for k, t := range s.listViews {
		if now.Sub(t) >= listAuditEvery {
			delete(s.listViews, k)
		}
	}
	s.mu.Unlock()
	if seen && now.Sub(last) < listAuditEvery {
		return
	}
	s.did(ctx, c, chairside.AuditViewList, "day "+f.Day)
}

// listAuditEvery is how often looking at the same list is audited again.
const listAuditEvery = 10 * time.Minute

// CheckCSRF compares token with the session's stored CSRF hash in constant
// time; a missing or wrong token answers EFORBIDDEN with code csrf.
func CheckCSRF(c *Caller, token string) error {
	got := chairside.HashSecret(token)
	if token == "" || subtle.ConstantTimeCompare([]byte(got), []byte(c.Session.CSRFHash)) != 1 {
		return chairside.Errorf(chairside.ECSRF, msgCSRF)
	}
	return nil
}

// NewCSRFToken replaces the caller's CSRF token with a new one and returns
// it: a browser that reloaded the page has lost the token it was given at
// sign-in, and only the token's hash is kept.
func (s *Service) NewCSRFToken(ctx context.Context, c *Caller) (string, error) {
	csrf := chairside.NewSecret(32)
	if err := s.store.SetStaffSessionCSRF(ctx, c.Session.IDHash, chairside.HashSecret(csrf)); err != nil {
		return "", err
	}
	c.Session.CSRFHash = chairside.HashSecret(csrf)
	return csrf, nil
}

// SignOut revokes the caller's session.
func (s *Service) SignOut(ctx context.Context, c *Caller) error {
	if err := s.store.RevokeStaffSession(ctx, c.Session.IDHash, s.Now()); err != nil {
		return err
	}
	s.did(ctx, c, chairside.AuditSignOut, "")
	return nil
}

// Setup sets the password of the staff member a setup token was made for,
// once. The token is spent only when the password is acceptable.
func (s *Service) Setup(ctx context.Context, token, password, ip string) error {
	if token == "" || len(token) > 128 {
		return chairside.Errorf(chairside.ENOTFOUND, "This setup link is not valid any more. Ask your office manager for a new one.")
	}
	// The password is checked against the account's email before the
	// token is spent, so a refused password leaves the link usable.
	hash := chairside.HashSecret(token)
	t, err := s.store.FindStaffSetupToken(ctx, hash)
	if err == nil && (t.UsedAt != nil || !s.Now().Before(t.ExpiresAt)) {
		err = chairside.Errorf(chairside.ENOTFOUND, "used or expired")
	}
	if chairside.ErrorCode(err) == chairside.ENOTFOUND {
		return chairside.Errorf(chairside.ENOTFOUND, msgBadSetup)
	} else if err != nil {
		return err
	}
	st, err := s.store.FindStaffByID(ctx, t.StaffID)
	if err != nil {
		return err
	}
	if st.DisabledAt != nil {
		// Disabling spends the links too; one made after it is refused here.
		return chairside.Errorf(chairside.ENOTFOUND, msgBadSetup)
	}
	if err := CheckPassword(st.Email, password); err != nil {
		return err
	}
	if _, err := s.store.ConsumeStaffSetupToken(ctx, hash, s.Now()); chairside.ErrorCode(err) == chairside.ENOTFOUND {
		return chairside.Errorf(chairside.ENOTFOUND, msgBadSetup)
	} else if err != nil {
		return err
	}
	if err := s.store.SetStaffPassword(ctx, st.ID, HashPassword(password)); err != nil {
		return err
	}
	s.audit(ctx, s.entry(st, chairside.AuditSetup, ip, "setup link"))
	return nil
}

// entry is an audit row about st.
func (s *Service) entry(st *chairside.Staff, action, ip, details string) *chairside.OfficeAuditEntry {
	return &chairside.OfficeAuditEntry{LocationID: st.LocationID, StaffID: st.ID, Action: action, IP: ip, Details: details}
}

// did records what the caller did in the office they work in (a group
// administrator's may be another office of the group than their own).
func (s *Service) did(ctx context.Context, c *Caller, action, details string) {
	s.audit(ctx, &chairside.OfficeAuditEntry{LocationID: c.Location.ID, StaffID: c.Staff.ID, Action: action, IP: c.IP, Details: details})
}

// audit appends e; a failure to write it is logged, not shown to staff.
func (s *Service) audit(ctx context.Context, e *chairside.OfficeAuditEntry) {
	e.At = s.Now()
	if err := s.store.AppendOfficeAudit(ctx, e); err != nil {
		s.log.ErrorContext(ctx, "office audit", "action", e.Action, "err", err.Error())
	}
}

// normalEmail is how emails are compared and stored.
func normalEmail(email string) string { return strings.ToLower(strings.TrimSpace(email)) }
