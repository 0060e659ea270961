package office

import (
	"context"
	"time"

	"github.com/chairside/chairside"
)

// Store is what the office side reads and writes: the methods of package
// store's DB this package calls, grouped by what they keep. Find methods
// answer ENOTFOUND when nothing matches.
type Store interface {
	staffAccounts
	secondFactors
	staffSessions
	invites
	outbox
	patientRecords
	practiceRecords
	// AppendOfficeAudit adds to the office audit log, which is
	// append-only: nothing changes or removes a row. ListOfficeAuditBetween
	// reads an office's rows of [from, to), oldest first.
	AppendOfficeAudit(ctx context.Context, e *chairside.OfficeAuditEntry) error
	ListOfficeAuditBetween(ctx context.Context, locationID string, from, to time.Time) ([]*chairside.OfficeAuditEntry, error)
}

// secondFactors keeps staff members' authenticator keys and recovery
// codes (second_factor.go), and their passkeys. SetStaffTOTP keeps a key not yet confirmed
// (ECONFLICT once one is); ConfirmStaffTOTP turns it on with its recovery
// codes' hashes in one step. UseTOTPStep and UseRecoveryCode spend a step
// or a code once, false when already spent. ResetStaffSecondFactor
// forgets key and codes and ends the member's sessions.
type secondFactors interface {
	SetStaffTOTP(ctx context.Context, id, secret string) error
	ConfirmStaffTOTP(ctx context.Context, id string, step int64, codeHashes []string, now time.Time) error
	UseTOTPStep(ctx context.Context, id string, step int64) (bool, error)
	UseRecoveryCode(ctx context.Context, id, hash string, now time.Time) (bool, error)
	RecoveryCodesLeft(ctx context.Context, id string) (int, error)
	ReplaceRecoveryCodes(ctx context.Context, id string, codeHashes []string) error
	ResetStaffSecondFactor(ctx context.Context, id string, now time.Time) error
	passkeys
}

// passkeys keeps staff members' passkeys (passkey.go) and the challenges
// of ceremonies begun. TakePasskeyCeremony removes one before its end and
// answers it, once (ENOTFOUND after, or once ended).
type passkeys interface {
	AddStaffPasskey(ctx context.Context, p *chairside.StaffPasskey) error
	ListStaffPasskeys(ctx context.Context, staffID string) ([]*chairside.StaffPasskey, error)
	UsedStaffPasskey(ctx context.Context, id string, credential []byte, now time.Time) error
	CreatePasskeyCeremony(ctx context.Context, c *chairside.PasskeyCeremony, now time.Time) error
	TakePasskeyCeremony(ctx context.Context, idHash string, now time.Time) (*chairside.PasskeyCeremony, error)
}

// staffAccounts keeps staff members, their sign-in tries and their setup
// links. ReserveSignIn takes one try of a scope (an email and a client
// address) before its password is checked, in one statement: at most max
// in a window, the one taking the last locking the scope until
// now+window; false with the lock's end when locked. ClearSignIn forgets
// a scope's tries after a right password. FindStaffSetupToken
// answers used and expired tokens too; ConsumeStaffSetupToken marks one
// used in one step (missing, used or expired: ENOTFOUND).
type staffAccounts interface {
	CreateStaff(ctx context.Context, s *chairside.Staff) error
	FindStaffByID(ctx context.Context, id string) (*chairside.Staff, error)
	FindStaffByEmail(ctx context.Context, email string) (*chairside.Staff, error)
	ListStaff(ctx context.Context, locationID string) ([]*chairside.Staff, error)
	SetStaffPassword(ctx context.Context, id, hash string) error
	DisableStaff(ctx context.Context, id string, now time.Time) error
	ReserveSignIn(ctx context.Context, scope string, max int, window time.Duration, now time.Time) (bool, time.Time, error)
	ClearSignIn(ctx context.Context, scope string) error
	CreateStaffSetupToken(ctx context.Context, t *chairside.StaffSetupToken) error
	FindStaffSetupToken(ctx context.Context, hash string) (*chairside.StaffSetupToken, error)
	ConsumeStaffSetupToken(ctx context.Context, hash string, now time.Time) (*chairside.StaffSetupToken, error)
}

// staffSessions keeps signed-in staff's sessions, by the hash of their
// id, with the office each works in and when it passed the second factor.
type staffSessions interface {
	CreateStaffSession(ctx context.Context, s *chairside.StaffSession) error
	FindStaffSession(ctx context.Context, idHash string) (*chairside.StaffSession, error)
	TouchStaffSession(ctx context.Context, idHash string, now time.Time) error
	SetStaffSessionCSRF(ctx context.Context, idHash, csrfHash string) error
	RevokeStaffSession(ctx context.Context, idHash string, now time.Time) error
	PassStaffSessionSecondFactor(ctx context.Context, idHash string, now time.Time) error
	SetStaffSessionLocation(ctx context.Context, idHash, locationID string) error
}

// invites keeps the links an office sends a patient. CreateInvite stores
// the invitation (a flow token with an id) and the messages that send it
// in one transaction. CancelInvite spends the location's invitation as a
// use would: another location's or an unknown id answers ENOTFOUND, one
// already used, canceled or expired ECONFLICT. ListInvites answers the
// invitations created in [from, to) that no patient opened, newest first.
type invites interface {
	CreateInvite(ctx context.Context, t *chairside.FlowToken, msgs []*chairside.OutboxMessage) error
	CancelInvite(ctx context.Context, locationID, id string, now time.Time) error
	ListInvites(ctx context.Context, locationID string, from, to time.Time) ([]*chairside.FlowToken, error)
	ListInviteMessages(ctx context.Context, locationID string, from, to time.Time) (map[string][]*chairside.OutboxMessage, error)
	FindInvite(ctx context.Context, locationID, id string) (*chairside.FlowToken, error)
	ResendInvite(ctx context.Context, locationID, id string, now time.Time, maxSends int, msgs []*chairside.OutboxMessage) error
}

// outbox is the dispatcher's queue (notify.go). ClaimOutbox takes up to
// limit messages that are due (queued and due, or sending with an ended
// lease) and marks them sending until now+lease, one attempt more, so two
// dispatchers never take one message. Sent and failed erase a message's
// recipient and body.
type outbox interface {
	ClaimOutbox(ctx context.Context, now time.Time, lease time.Duration, limit int) ([]*chairside.OutboxMessage, error)
	MarkOutboxSent(ctx context.Context, id string, now time.Time) error
	// What becomes of a text (texts.go).
	RecordMessageStatus(ctx context.Context, ref, status string, rank, errorCode int, at time.Time) (bool, error)
	OptOut(ctx context.Context, sender, e164, source string, at time.Time) error
	OptIn(ctx context.Context, sender, e164 string) error
	// An invitation's held email goes when its text does not arrive.
	MessageByRef(ctx context.Context, ref string) (string, error)
	ReleaseHeld(ctx context.Context, id string, now time.Time) (int, error)
	ReleaseStaleHeld(ctx context.Context, before, now time.Time) (int, error)
	MarkOutboxRetry(ctx context.Context, id string, next time.Time, lastError string) error
	MarkOutboxFailed(ctx context.Context, id, lastError string) error
}

// patientRecords reads what the office's day shows of its patients:
// ListLocationSessions answers the sessions started at a location in
// [from, to), newest first.
type patientRecords interface {
	FindLocationByID(ctx context.Context, id string) (*chairside.Location, error)
	FindLocationByEntityKey(ctx context.Context, entityKey string) (*chairside.Location, error)
	ListGroupLocations(ctx context.Context, groupID string) ([]*chairside.Location, error)
	ListLocationSessions(ctx context.Context, locationID string, from, to time.Time) ([]*chairside.Session, error)
	FindSession(ctx context.Context, id string) (*chairside.Session, error)
	FindApplication(ctx context.Context, id string) (*chairside.Application, error)
	ListLenderApplications(ctx context.Context, applicationID string) ([]*chairside.LenderApplication, error)
	ListPaymentPlans(ctx context.Context, lenderApplicationID string) ([]chairside.PaymentPlan, error)
	ListEvents(ctx context.Context, sessionID string) ([]*chairside.Event, error)
	MoneyLine(ctx context.Context, applicationID string) ([]*chairside.MoneyEntry, error)
	ListLocationMoney(ctx context.Context, locationID string, from, to time.Time) ([]*chairside.MoneyEntry, error)
	ListMoneyAlerts(ctx context.Context, locationID string, since, now time.Time) ([]*chairside.MoneyAlert, error)
}

// practiceRecords keeps each office's connection to its practice-management
// system (records.go): RecordsConnection answers ENOTFOUND for an office
// without one.
type practiceRecords interface {
	SaveRecordsConnection(ctx context.Context, c *chairside.RecordsConnection) error
	RecordsConnection(ctx context.Context, locationID string) (*chairside.RecordsConnection, error)
	SetRecordsState(ctx context.Context, locationID, state, detail string, at time.Time) error
	DeleteRecordsConnection(ctx context.Context, locationID string) error
	// Posts to the patients' ledgers (records_post.go).
	RecordsCandidates(ctx context.Context, limit int) ([]chairside.RecordsCandidate, error)
	AddRecordsPost(ctx context.Context, p *chairside.RecordsPost) error
	ClaimRecordsPosts(ctx context.Context, now time.Time, today string, lease time.Duration, limit int) ([]*chairside.RecordsPost, error)
	SettleRecordsPost(ctx context.Context, id, state, remoteID, lastError string, next, now time.Time) error
	RetryRecordsPosts(ctx context.Context, locationID, applicationID string, now time.Time) (int, error)
	ListRecordsPosts(ctx context.Context, locationID string, from, to time.Time) (map[string][]*chairside.RecordsPost, error)
	ApplicationRecordsPosts(ctx context.Context, locationID, applicationID string) ([]*chairside.RecordsPost, error)
}
