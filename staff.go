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
	// Role is what the member may do: StaffFrontDesk, StaffManager or
	// StaffGroupAdmin.
	Role string
	// TOTPSecret is the base32 key of the member's authenticator app, ""
	// when none; TOTPConfirmedAt is set once a code from it was typed
	// back, and only then is a code asked at sign-in.
	TOTPSecret      string
	TOTPConfirmedAt *time.Time
	// Passkeys counts the member's passkeys (read, never written).
	Passkeys   int
	DisabledAt *time.Time
	CreatedAt  time.Time
}

// HasSecondFactor says a second factor is asked at the member's sign-in:
// an authenticator app's code, or one of their passkeys.
func (s *Staff) HasSecondFactor() bool { return s.TOTPConfirmedAt != nil || s.Passkeys > 0 }

// Staff roles (docs/behaviour.md, "Staff and roles"). The front desk
// invites patients and follows the office's day; a manager also manages
// the office's staff and reads its audit log; a group administrator is a
// manager of every office of their office's group.
const (
	StaffFrontDesk  = "front_desk"
	StaffManager    = "manager"
	StaffGroupAdmin = "group_admin"
)

// StaffRoles are the roles, least first.
var StaffRoles = []string{StaffFrontDesk, StaffManager, StaffGroupAdmin}

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
	// SecondFactorAt is when the session passed the second factor; nil
	// while it has the password alone.
	SecondFactorAt *time.Time
	// LocationID is the office the session works in: the member's own,
	// or another of the group a group administrator chose ("" is the
	// member's own).
	LocationID string
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
// from where. Details never hold a patient's personal data or a secret;
// they may name a colleague by their work email.
type OfficeAuditEntry struct {
	ID         string
	LocationID string
	// StaffID is "" when nobody was identified (an unknown email).
	StaffID string
	// StaffEmail is the staff member's email, read with the row (never
	// stored in it).
	StaffEmail string
	Action     string
	IP         string
	Details    string
	At         time.Time
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
	AuditInviteResent    = "invite_resent"
	AuditSecondFactorSet = "second_factor_set"
	AuditSecondFactor    = "second_factor_passed"
	AuditSecondFactorBad = "second_factor_failed"
	AuditRecoveryCode    = "recovery_code_used"
	AuditPasskeyAdded    = "passkey_added"
	AuditStaffInvited    = "staff_invited"
	AuditStaffDisabled   = "staff_disabled"
	AuditStaffReset      = "second_factor_reset"
	AuditOfficeSwitched  = "office_switched"
	AuditViewAudit       = "view_audit"
	AuditExportAudit     = "export_audit"
	AuditViewFunding     = "view_funding"
	AuditExportFunding   = "export_funding"
	AuditCaseVoid        = "case_void"
	AuditCaseRefund      = "case_refund"
	AuditCaseAmount      = "case_amount"

	AuditRecordsConnected    = "records_connected"
	AuditRecordsDisconnected = "records_disconnected"
	AuditRecordsSearched     = "records_searched"
	AuditRecordsViewed       = "records_viewed"
	AuditRecordsRetried      = "records_retried"
)

// StaffPasskey is a staff member's passkey: a WebAuthn credential kept as
// the library's JSON record of it (its public key and counter, nothing
// secret).
type StaffPasskey struct {
	ID         string // the credential id, base64url
	StaffID    string
	Credential []byte
	CreatedAt  time.Time
	LastUsedAt *time.Time
}

// PasskeyCeremony is a passkey ceremony begun and not yet answered: its
// challenge, for one answer before ExpiresAt.
type PasskeyCeremony struct {
	IDHash      string
	Kind        string // PasskeyRegister, PasskeyCheck or PasskeySignIn
	StaffID     string // "" for a sign-in
	SessionHash string // the staff session's; "" for a sign-in
	Data        []byte
	ExpiresAt   time.Time
}

// Passkey ceremonies.
const (
	PasskeyRegister = "register"
	PasskeyCheck    = "check"
	PasskeySignIn   = "sign_in"
)
