package office

import (
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/chairside/chairside"
)

// Staff managed from the office screen by a manager (docs/behaviour.md,
// "Staff and roles"): the office's colleagues, an invitation by one-time
// setup link with a role, disabling, a second-factor reset, and the
// office audit log. Every call acts in the caller's office only; another
// office's member answers ENOTFOUND as an unknown one does.

// Member is one colleague as the staff screen lists them.
type Member struct {
	ID    string `json:"id"`
	Email string `json:"email"`
	Role  string `json:"role"`
	// Status: "invited" (no password yet), "active" or "disabled".
	Status       string    `json:"status"`
	SecondFactor bool      `json:"secondFactor"`
	CreatedAt    time.Time `json:"createdAt"`
}

// Member statuses.
const (
	MemberInvited  = "invited"
	MemberActive   = "active"
	MemberDisabled = "disabled"
)

func memberOf(st *chairside.Staff) Member {
	m := Member{ID: st.ID, Email: st.Email, Role: st.Role, Status: MemberActive, SecondFactor: st.HasSecondFactor(), CreatedAt: st.CreatedAt}
	switch {
	case st.DisabledAt != nil:
		m.Status = MemberDisabled
	case st.PasswordHash == "":
		m.Status = MemberInvited
	}
	return m
}

// StaffInvite is a new colleague's setup link, shown once to hand over.
type StaffInvite struct {
	Member    Member    `json:"member"`
	SetupLink string    `json:"setupLink"`
	ExpiresAt time.Time `json:"expiresAt"`
}

// StaffInviteRequest is what the manager types to invite a colleague.
type StaffInviteRequest struct {
	Email string `json:"email"`
	Role  string `json:"role"`
}

// ListStaff answers the colleagues of the caller's office.
func (s *Service) ListStaff(ctx context.Context, c *Caller) ([]Member, error) {
	list, err := s.store.ListStaff(ctx, c.Location.ID)
	if err != nil {
		return nil, err
	}
	out := make([]Member, 0, len(list))
	for _, st := range list {
		out = append(out, memberOf(st))
	}
	return out, nil
}

// InviteStaff adds a colleague to the caller's office with a role the
// caller may give, and answers their one-time setup link on base.
func (s *Service) InviteStaff(ctx context.Context, c *Caller, req StaffInviteRequest, base string) (*StaffInvite, error) {
	email := normalEmail(req.Email)
	if !validEmail(email) {
		return nil, chairside.Errorf(chairside.EINVALID, "Enter an email address such as name@example.com.")
	}
	if !slices.Contains(chairside.StaffRoles, req.Role) {
		return nil, chairside.Errorf(chairside.EINVALID, "Choose a role.")
	}
	if !mayAssign(c.Staff.Role, req.Role) {
		return nil, chairside.Errorf(chairside.EFORBIDDEN, "Your role does not allow giving this role.")
	}
	st := &chairside.Staff{LocationID: c.Location.ID, Email: email, Role: req.Role, CreatedAt: s.Now()}
	if err := s.store.CreateStaff(ctx, st); err != nil {
		if chairside.ErrorCode(err) == chairside.ECONFLICT {
			return nil, chairside.Errorf(chairside.ECONFLICT, "Someone already has an account with this email.")
		}
		return nil, err
	}
	inv, err := s.setupLinkFor(ctx, st, base)
	if err != nil {
		return nil, err
	}
	s.did(ctx, c, chairside.AuditStaffInvited, fmt.Sprintf("%s as %s", st.Email, st.Role))
	return inv, nil
}

// NewStaffLink answers a new setup link for a colleague (one whose link
// expired, or who forgot their password); their older links stay good
// until they expire or one is used.
func (s *Service) NewStaffLink(ctx context.Context, c *Caller, id, base string) (*StaffInvite, error) {
	st, err := s.colleague(ctx, c, id)
	if err != nil {
		return nil, err
	}
	if st.DisabledAt != nil {
		return nil, chairside.Errorf(chairside.ECONFLICT, "This account is disabled.")
	}
	inv, err := s.setupLinkFor(ctx, st, base)
	if err != nil {
		return nil, err
	}
	s.did(ctx, c, chairside.AuditStaffInvited, st.Email+": new setup link")
	return inv, nil
}

func (s *Service) setupLinkFor(ctx context.Context, st *chairside.Staff, base string) (*StaffInvite, error) {
	token, expires, err := s.NewSetupLink(ctx, st)
	if err != nil {
		return nil, err
	}
	link := strings.TrimSuffix(base, "/") + "/office/setup/" + url.PathEscape(token)
	return &StaffInvite{Member: memberOf(st), SetupLink: link, ExpiresAt: expires}, nil
}

// DisableColleague disables a colleague of the caller's office: their
// sessions end at once, live lists included, and their setup links are
// spent.
func (s *Service) DisableColleague(ctx context.Context, c *Caller, id string) error {
	st, err := s.colleague(ctx, c, id)
	if err != nil {
		return err
	}
	if err := s.store.DisableStaff(ctx, st.ID, s.Now()); err != nil {
		return err
	}
	s.did(ctx, c, chairside.AuditStaffDisabled, st.Email)
	return nil
}

// ResetColleagueSecondFactor forgets a colleague's authenticator app and
// recovery codes (one who lost their phone) and ends their sessions: they
// sign in with their password and set up a new one.
func (s *Service) ResetColleagueSecondFactor(ctx context.Context, c *Caller, id string) error {
	st, err := s.colleague(ctx, c, id)
	if err != nil {
		return err
	}
	if err := s.store.ResetStaffSecondFactor(ctx, st.ID, s.Now()); err != nil {
		return err
	}
	s.did(ctx, c, chairside.AuditStaffReset, st.Email)
	return nil
}

// colleague is the member with id in the caller's office whom the caller
// may act on: never the caller (nobody locks the office out by mistake),
// never a role above the caller's.
func (s *Service) colleague(ctx context.Context, c *Caller, id string) (*chairside.Staff, error) {
	st, err := s.store.FindStaffByID(ctx, id)
	if chairside.ErrorCode(err) == chairside.ENOTFOUND || (err == nil && st.LocationID != c.Location.ID) {
		return nil, chairside.Errorf(chairside.ENOTFOUND, "No colleague of this office has this account.")
	} else if err != nil {
		return nil, err
	}
	if st.ID == c.Staff.ID {
		return nil, chairside.Errorf(chairside.ECONFLICT, "You cannot change your own account here. Ask another manager.")
	}
	if !mayAssign(c.Staff.Role, st.Role) {
		return nil, chairside.Errorf(chairside.EFORBIDDEN, "Your role does not allow changing this account.")
	}
	return st, nil
}

// Offices answers the offices the caller may work in: their own, and for
// a group administrator every office of the group.
func (s *Service) Offices(ctx context.Context, c *Caller) ([]*chairside.Location, error) {
	home, err := s.store.FindLocationByID(ctx, c.Staff.LocationID)
	if err != nil {
		return nil, err
	}
	if !c.May(SwitchOffice) || home.GroupID == "" {
		return []*chairside.Location{home}, nil
	}
	return s.store.ListGroupLocations(ctx, home.GroupID)
}

// SwitchOffice makes the caller's session work in the office with
// entityKey, one of Offices; any other answers ENOTFOUND.
func (s *Service) SwitchOffice(ctx context.Context, c *Caller, entityKey string) error {
	offices, err := s.Offices(ctx, c)
	if err != nil {
		return err
	}
	i := slices.IndexFunc(offices, func(l *chairside.Location) bool { return l.EntityKey == entityKey })
	if i < 0 {
		return chairside.Errorf(chairside.ENOTFOUND, "No office of your group has this entity key.")
	}
	if err := s.store.SetStaffSessionLocation(ctx, c.Session.IDHash, offices[i].ID); err != nil {
		return err
	}
	c.Location = offices[i]
	s.did(ctx, c, chairside.AuditOfficeSwitched, "to "+entityKey)
	return nil
}

// AuditRow is one line of the office audit log as the manager reads it.
type AuditRow struct {
	At      time.Time `json:"at"`
	Email   string    `json:"email"`
	Action  string    `json:"action"`
	IP      string    `json:"ip"`
	Details string    `json:"details"`
}

// AuditLog answers the office audit rows of f's day, newest first, and
// records that the manager read them.
func (s *Service) AuditLog(ctx context.Context, c *Caller, f Filter) ([]AuditRow, error) {
	list, err := s.auditRows(ctx, c, f)
	if err != nil {
		return nil, err
	}
	slices.Reverse(list)
	s.did(ctx, c, chairside.AuditViewAudit, "day "+f.Day)
	return list, nil
}

// auditRows reads the audit rows of f's day, oldest first.
func (s *Service) auditRows(ctx context.Context, c *Caller, f Filter) ([]AuditRow, error) {
	list, err := s.store.ListOfficeAuditBetween(ctx, c.Location.ID, f.From, f.To)
	if err != nil {
		return nil, err
	}
	out := make([]AuditRow, 0, len(list))
	for _, e := range list {
		out = append(out, AuditRow{At: e.At, Email: e.StaffEmail, Action: e.Action, IP: e.IP, Details: e.Details})
	}
	return out, nil
}

// auditHeader names the audit export's columns.
var auditHeader = []string{"Time", "Staff email", "Action", "Address", "Details"}

// ExportAuditCSV writes the audit rows of f's day as CSV, oldest first,
// times in the filter's zone; cells a spreadsheet would run as a formula
// are made text, as in ExportCSV. The export is recorded as one, after
// the rows it wrote.
func (s *Service) ExportAuditCSV(ctx context.Context, c *Caller, f Filter, w io.Writer) error {
	rows, err := s.auditRows(ctx, c, f)
	if err != nil {
		return err
	}
	cw := csv.NewWriter(w)
	if err := cw.Write(auditHeader); err != nil {
		return err
	}
	for _, r := range rows {
		if err := cw.Write(safeCells([]string{r.At.In(f.Zone).Format("2006-01-02 15:04:05"), r.Email, r.Action, r.IP, r.Details})); err != nil {
			return err
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return err
	}
	s.did(ctx, c, chairside.AuditExportAudit, "day "+f.Day)
	return nil
}

// AuditFileName is the audit export's file name.
func AuditFileName(c *Caller, f Filter) string {
	return "chairside-audit-" + c.Location.EntityKey + "-" + f.Day + ".csv"
}
