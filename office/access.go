package office

import (
	"slices"

	"github.com/chairside/chairside"
)

// Permission is one kind of office call. Every office API route names the
// permission it needs (httpapi/office.go) and the server checks it against
// the caller's role and sign-in stage; the screens ask the session what
// the caller may do and show only that.
type Permission string

// The permissions (docs/behaviour.md, "Staff and roles").
const (
	// SignInOnly: the calls of signing in itself (who am I, the second
	// factor, signing out), open before the second factor is passed.
	SignInOnly Permission = "sign_in"
	// SeeDay: the office's list, an application's history, the CSV of a
	// day, and inviting patients.
	SeeDay Permission = "see_day"
	// ManageStaff: the office's staff, their roles, setup links, disabling
	// and second-factor resets, and the office audit log.
	ManageStaff Permission = "manage_staff"
	// SwitchOffice: working in another office of the group.
	SwitchOffice Permission = "switch_office"
	// ChangeCases: canceling or refunding a completed case with its
	// lender (docs/behaviour.md, "After the signature").
	ChangeCases Permission = "change_cases"
)

// rolePermissions is what each role may do once signed in with its
// second factor: the one table the server and the screens follow.
var rolePermissions = map[string][]Permission{
	chairside.StaffFrontDesk:  {SeeDay},
	chairside.StaffManager:    {SeeDay, ManageStaff, ChangeCases},
	chairside.StaffGroupAdmin: {SeeDay, ManageStaff, ChangeCases, SwitchOffice},
}

// Sign-in stages of a session.
const (
	// StageReady: signed in; the role decides the rest.
	StageReady = "ready"
	// StageSecondFactor: the password was right; a code from the
	// authenticator app (or a recovery code) is asked next.
	StageSecondFactor = "second_factor"
	// StageSetUpSecondFactor: the password was right and the account has
	// no second factor where one is required: setting one up comes first.
	StageSetUpSecondFactor = "set_up_second_factor"
)

// May says whether the caller may make calls of permission p now.
func (c *Caller) May(p Permission) bool {
	if p == SignInOnly {
		return true
	}
	return c.Stage == StageReady && slices.Contains(rolePermissions[c.Staff.Role], p)
}

// Permissions are what the caller may do now, for the screens.
func (c *Caller) Permissions() []Permission {
	if c.Stage != StageReady {
		return []Permission{}
	}
	return slices.Clone(rolePermissions[c.Staff.Role])
}

// Allow answers nil when the caller may make calls of p, else EFORBIDDEN
// in the words staff read.
func (c *Caller) Allow(p Permission) error {
	switch {
	case c.May(p):
		return nil
	case c.Stage != StageReady:
		return chairside.Errorf(chairside.EFORBIDDEN, "Finish signing in with your second factor first.")
	default:
		return chairside.Errorf(chairside.EFORBIDDEN, "Your role does not allow this. Ask your office manager.")
	}
}

// stageOf is where a session of st stands: a member with a second factor
// must have passed it in this session; one without must set one up first
// where the server requires it.
func stageOf(st *chairside.Staff, sess *chairside.StaffSession, require bool) string {
	switch {
	case st.HasSecondFactor() && sess.SecondFactorAt == nil:
		return StageSecondFactor
	case !st.HasSecondFactor() && require:
		return StageSetUpSecondFactor
	default:
		return StageReady
	}
}

// mayAssign says whether a member of role actor may give role to a
// colleague or act on a colleague who has it: a manager manages front
// desks and managers, a group administrator everyone.
func mayAssign(actor, role string) bool {
	return actor == chairside.StaffGroupAdmin || (actor == chairside.StaffManager && role != chairside.StaffGroupAdmin)
}
