package chairside

import (
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
	DisabledAt   *time.Time
	CreatedAt    time.Time
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
