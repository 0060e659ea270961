package chairside

import (
	"context"
	"time"
)

// Staff is a person at an office who signs in to the office side
// (docs/behaviour.md, "The office side"). The password exists only as its
// argon2id hash, with the parameters it was made with.
type Staff struct {
	ID         string
	LocationID string
	// Email is stored lower-cased and is unique across all offices.
	Email string
	// PasswordHash is "" until the password is set (a setup link).
	PasswordHash string
	// FailedAttempts counts wrong passwords since the last sign-in or lock.
	FailedAttempts int
	LockedUntil    *time.Time
	DisabledAt     *time.Time
	CreatedAt      time.Time
}

// StaffSession is a signed-in staff member's session. Its id and its CSRF
// token exist only in the browser; the store keeps their hashes.
type StaffSession struct {
	IDHash     string
	StaffID    string
	CSRFHash   string
	CreatedAt  time.Time
	LastSeenAt time.Time
	// ExpiresAt is the absolute end, however active the session is.
	ExpiresAt time.Time
	RevokedAt *time.Time
}

// StaffSetupToken lets a new staff member choose a password once.
type StaffSetupToken struct {
	Hash      string
	StaffID   string
	ExpiresAt time.Time
	UsedAt    *time.Time
	CreatedAt time.Time
}

// OfficeAuditEntry is one row of the office audit log: who did what, when,
// from where. Details never hold personal data or secrets.
type OfficeAuditEntry struct {
	ID         string
	LocationID string
	// StaffID is "" when nobody was identified (an unknown email).
	StaffID string
	Action  string
	IP      string
	Details string
	At      time.Time
}

// Office audit actions.
const (
	AuditSignIn          = "sign_in"
	AuditSignInFailed    = "sign_in_failed"
	AuditLocked          = "locked"
	AuditSignOut         = "sign_out"
	AuditSetup           = "password_set"
	AuditViewApplication = "view_application"
	AuditViewList        = "view_list"
	AuditExportCSV       = "export_csv"
	AuditInviteCreated   = "invite_created"
	AuditInviteCanceled  = "invite_canceled"
)

// StaffStore keeps staff accounts, their sessions and the office audit log.
// Package store implements it beside Store (store/staff.go).
//
// The audit log is append-only: there is no method to change or remove a
// row.
type StaffStore interface {
	CreateStaff(ctx context.Context, s *Staff) error
	FindStaffByID(ctx context.Context, id string) (*Staff, error)
	FindStaffByEmail(ctx context.Context, email string) (*Staff, error)
	SetStaffPassword(ctx context.Context, id, hash string) error
	DisableStaff(ctx context.Context, id string, now time.Time) error
	// RecordSignInFailure counts one wrong password in one statement; the
	// max-th failure locks the account until now+lockFor and starts the
	// count again. It answers the staff member as stored afterwards.
	RecordSignInFailure(ctx context.Context, id string, max int, lockFor time.Duration, now time.Time) (*Staff, error)
	ResetSignInFailures(ctx context.Context, id string) error

	CreateStaffSetupToken(ctx context.Context, t *StaffSetupToken) error
	// FindStaffSetupToken answers used and expired tokens too.
	FindStaffSetupToken(ctx context.Context, hash string) (*StaffSetupToken, error)
	// ConsumeStaffSetupToken marks the token used and returns it in one
	// step; a missing, used or expired token answers ENOTFOUND.
	ConsumeStaffSetupToken(ctx context.Context, hash string, now time.Time) (*StaffSetupToken, error)

	CreateStaffSession(ctx context.Context, s *StaffSession) error
	FindStaffSession(ctx context.Context, idHash string) (*StaffSession, error)
	TouchStaffSession(ctx context.Context, idHash string, now time.Time) error
	SetStaffSessionCSRF(ctx context.Context, idHash, csrfHash string) error
	RevokeStaffSession(ctx context.Context, idHash string, now time.Time) error

	AppendOfficeAudit(ctx context.Context, e *OfficeAuditEntry) error
	ListOfficeAudit(ctx context.Context, locationID string) ([]*OfficeAuditEntry, error)

	// CreateInvite stores an office invitation (a flow token with an ID)
	// and the outbox messages that send its link, in one transaction.
	CreateInvite(ctx context.Context, t *FlowToken, msgs []*OutboxMessage) error
	// CancelInvite spends the invitation id of the location at now, as a
	// use would. An unknown id, or another location's, answers ENOTFOUND;
	// one already used, canceled or expired answers ECONFLICT.
	CancelInvite(ctx context.Context, locationID, id string, now time.Time) error
	// ListInvites answers the location's invitations created in
	// [from, to) whose link no patient opened (waiting, expired or
	// canceled), newest first.
	ListInvites(ctx context.Context, locationID string, from, to time.Time) ([]*FlowToken, error)
	// ListLocationSessions answers the sessions started at the location
	// in [from, to), newest first.
	ListLocationSessions(ctx context.Context, locationID string, from, to time.Time) ([]*Session, error)

	// The outbox. ClaimOutbox takes up to limit messages that are due
	// (queued and due, or sending with an ended lease) and marks them
	// sending until now+lease, one attempt more; two dispatchers never
	// take the same message. The Mark methods settle a claimed message:
	// sent and failed erase its recipient and body.
	ClaimOutbox(ctx context.Context, now time.Time, lease time.Duration, limit int) ([]*OutboxMessage, error)
	MarkOutboxSent(ctx context.Context, id string, now time.Time) error
	MarkOutboxRetry(ctx context.Context, id string, next time.Time, lastError string) error
	MarkOutboxFailed(ctx context.Context, id, lastError string) error
	// ListOutbox answers the location's messages, newest first, without
	// their recipient and body.
	ListOutbox(ctx context.Context, locationID string) ([]*OutboxMessage, error)
}
