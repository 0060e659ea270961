package httpapi

import (
	"bytes"
	"io"
	"net/http"
	"time"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/office"
)

// StaffCookie is the name of the staff session cookie. Only office calls
// read it; patient calls read only X-Web-Session-Id.
const StaffCookie = "chairside_staff"

// officeRoutes registers the office API (docs/behaviour.md, "The office
// side") when an office service is configured.
func (h *Handler) officeRoutes(public func(string, http.HandlerFunc), named func(string, http.Handler)) {
	if h.office == nil {
		return
	}
	public("POST "+api+"/office/session", h.officeSignIn)
	public("POST "+api+"/office/setup/{token}", h.officeSetup)
	public("POST "+api+"/office/session/passkey/begin", h.officePasskeySignInBegin)
	public("POST "+api+"/office/session/passkey", h.officePasskeySignIn)
	// Signing in itself, open before the second factor is passed.
	named("GET "+api+"/office/session", h.staffAuthed(office.SignInOnly, h.officeWhoAmI))
	named("DELETE "+api+"/office/session", h.staffAuthed(office.SignInOnly, h.officeSignOut))
	named("POST "+api+"/office/session/second-factor", h.staffAuthed(office.SignInOnly, h.officeSecondFactor))
	named("POST "+api+"/office/second-factor/setup", h.staffAuthed(office.SignInOnly, h.officeBeginTOTP))
	named("POST "+api+"/office/second-factor/confirm", h.staffAuthed(office.SignInOnly, h.officeConfirmTOTP))
	named("POST "+api+"/office/session/second-factor/passkey/begin", h.staffAuthed(office.SignInOnly, h.officePasskeyCheckBegin))
	named("POST "+api+"/office/session/second-factor/passkey", h.staffAuthed(office.SignInOnly, h.officePasskeyCheck))
	named("POST "+api+"/office/passkeys/begin", h.staffAuthed(office.SignInOnly, h.officePasskeyBegin))
	named("POST "+api+"/office/passkeys", h.staffAuthed(office.SignInOnly, h.officePasskeyAdd))
	// The office's day: every role.
	named("GET "+api+"/office/applications", h.staffAuthed(office.SeeDay, h.officeList))
	named("GET "+api+"/office/applications/stream", h.staffAuthed(office.SeeDay, h.officeStream))
	named("GET "+api+"/office/applications.csv", h.staffAuthed(office.SeeDay, h.officeCSV))
	named("GET "+api+"/office/applications/{id}", h.staffAuthed(office.SeeDay, h.officeApplication))
	named("GET "+api+"/office/funding", h.staffAuthed(office.SeeDay, h.officeFunding))
	named("GET "+api+"/office/funding.csv", h.staffAuthed(office.SeeDay, h.officeFundingCSV))
	named("POST "+api+"/office/invites", h.staffAuthed(office.SeeDay, h.officeCreateInvite))
	named("DELETE "+api+"/office/invites/{id}", h.staffAuthed(office.SeeDay, h.officeCancelInvite))
	named("POST "+api+"/office/invites/{id}/resend", h.staffAuthed(office.SeeDay, h.officeResendInvite))
	// A group administrator's offices, staff and the audit log
	// (office_staff.go); a manager's changes to a case (office_changes.go).
	h.officeStaffRoutes(named)
	h.officeChangeRoutes(named)
	h.officeRecordsRoutes(named)
	named("GET "+api+"/office/backup", h.staffAuthed(office.ManageStaff, h.officeBackup))
}

// OfficeSession is the answer of the office session calls.
type OfficeSession struct {
	Staff OfficeStaff `json:"staff"`
	// Stage is how far the sign-in has come (office.StageReady, ...);
	// Permissions what the staff member may do now.
	Stage       string              `json:"stage"`
	Permissions []office.Permission `json:"permissions"`
	Office      OfficeInfo          `json:"office"`
	// Offices are those the staff member may work in: their own, or every
	// office of the group for a group administrator. Empty before the
	// sign-in is ready.
	Offices []OfficeRef `json:"offices"`
	// Passkeys says passkeys work at the address staff use (a name, not a
	// numeric address).
	Passkeys  bool   `json:"passkeys"`
	CSRFToken string `json:"csrfToken"`
}

// OfficeStaff is the signed-in staff member.
type OfficeStaff struct {
	Email        string `json:"email"`
	Role         string `json:"role"`
	SecondFactor bool   `json:"secondFactor"`
}

// OfficeRef names an office a staff member may work in.
type OfficeRef struct {
	Name      string `json:"name"`
	EntityKey string `json:"entityKey"`
}

// OfficeInfo is the staff member's office.
type OfficeInfo struct {
	Name      string `json:"name"`
	EntityKey string `json:"entityKey"`
	// MessagesDelivered is false when invitations' texts and emails only
	// reach the server's log (no provider set up): the screen then says
	// to hand the link over by QR code or copy. TextsDelivered and
	// EmailsDelivered say it of each channel (texts need the office's
	// sender too).
	MessagesDelivered bool `json:"messagesDelivered"`
	TextsDelivered    bool `json:"textsDelivered"`
	EmailsDelivered   bool `json:"emailsDelivered"`
	// Language is the office's language for its patients ("" follows
	// each patient's browser): an invitation's, unless the desk chooses.
	Language string `json:"language"`
}

type officeSignInRequest struct {
	Email    string `json:"email"`
	Password string `json:"password"`
}

type officeSetupRequest struct {
	Password string `json:"password"`
}

// staffFunc is a handler that runs for a signed-in staff member.
type staffFunc func(w http.ResponseWriter, r *http.Request, c *office.Caller)

// staffAuthed runs fn for the live staff session of the request's cookie
// when its role and sign-in stage allow calls of need (office/access.go);
// a call that is not a GET only when X-CSRF-Token matches the session's
// token. The patient's session header is never looked at.
func (h *Handler) staffAuthed(need office.Permission, fn staffFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		var id string
		if ck, err := r.Cookie(StaffCookie); err == nil {
			id = ck.Value
		}
		c, err := h.office.Authenticate(r.Context(), id, h.clientIP(r))
		if err != nil {
			if chairside.ErrorCode(err) == chairside.EUNAUTHORIZED {
				h.clearStaffCookie(w, r)
			}
			h.writeError(w, r, err)
			return
		}
		if r.Method != http.MethodGet {
			if err := office.CheckCSRF(c, r.Header.Get("X-CSRF-Token")); err != nil {
				h.writeError(w, r, err)
				return
			}
		}
		if err := c.Allow(need); err != nil {
			h.writeError(w, r, err)
			return
		}
		fn(w, r, c)
	}
}

func (h *Handler) officeSignIn(w http.ResponseWriter, r *http.Request) {
	var req officeSignInRequest
	if !h.body(w, r, &req, false) {
		return
	}
	in, err := h.office.SignIn(r.Context(), req.Email, req.Password, h.clientIP(r))
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	http.SetCookie(w, h.staffCookie(r, in.SessionID, office.MaxAge))
	h.answerSession(w, r, &in.Caller, in.CSRFToken)
}

// officeWhoAmI answers who is signed in, with a fresh CSRF token for a
// browser that reloaded the page.
func (h *Handler) officeWhoAmI(w http.ResponseWriter, r *http.Request, c *office.Caller) {
	csrf, err := h.office.NewCSRFToken(r.Context(), c)
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	h.answerSession(w, r, c, csrf)
}

func (h *Handler) officeSignOut(w http.ResponseWriter, r *http.Request, c *office.Caller) {
	err := h.office.SignOut(r.Context(), c)
	if err == nil {
		h.clearStaffCookie(w, r)
	}
	h.noContent(w, r, err)
}

func (h *Handler) officeSetup(w http.ResponseWriter, r *http.Request) {
	var req officeSetupRequest
	if !h.body(w, r, &req, false) {
		return
	}
	h.noContent(w, r, h.office.Setup(r.Context(), r.PathValue("token"), req.Password, h.clientIP(r)))
}

func (h *Handler) officeApplication(w http.ResponseWriter, r *http.Request, c *office.Caller) {
	sum, err := h.office.Application(r.Context(), c, r.PathValue("id"))
	h.answer(w, r, sum, err)
}

// officeFilter reads the list's query parameters.
func (h *Handler) officeFilter(r *http.Request) (office.Filter, error) {
	q := r.URL.Query()
	return office.ParseFilter(q.Get("day"), q.Get("tz"), q.Get("status"), h.office.Now())
}

// officeFundingFilter reads the funding screen's query parameters.
func (h *Handler) officeFundingFilter(r *http.Request) (office.FundingFilter, error) {
	q := r.URL.Query()
	return office.ParseFundingFilter(q.Get("day"), q.Get("tz"), q.Get("period"), h.office.Now())
}

// officeView answers a screen read for a filter from the query: read
// makes it, audit records the view once it is made.
func officeView[F, V any](h *Handler, w http.ResponseWriter, r *http.Request, parse func(*http.Request) (F, error),
	read func(F) (V, error), audit func(F, V)) {
	f, err := parse(r)
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	v, err := read(f)
	if err == nil {
		audit(f, v)
	}
	h.answer(w, r, v, err)
}

// officeExport answers a CSV of a filter from the query as an attachment
// named name; export writes (and audits) it.
func officeExport[F any](h *Handler, w http.ResponseWriter, r *http.Request, parse func(*http.Request) (F, error),
	export func(F, io.Writer) error, name func(F) string) {
	f, err := parse(r)
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	var buf bytes.Buffer
	if err := export(f, &buf); err != nil {
		h.writeError(w, r, err)
		return
	}
	h.attachment(w, name(f), buf.Bytes())
}

func (h *Handler) officeList(w http.ResponseWriter, r *http.Request, c *office.Caller) {
	ctx := r.Context()
	officeView(h, w, r, h.officeFilter, func(f office.Filter) (*office.List, error) { return h.office.List(ctx, c, f) },
		func(f office.Filter, _ *office.List) { h.office.AuditListView(ctx, c, f) })
}

func (h *Handler) officeCSV(w http.ResponseWriter, r *http.Request, c *office.Caller) {
	officeExport(h, w, r, h.officeFilter, func(f office.Filter, w io.Writer) error { return h.office.ExportCSV(r.Context(), c, f, w) },
		func(f office.Filter) string { return office.CSVFileName(c, f) })
}

func (h *Handler) officeFunding(w http.ResponseWriter, r *http.Request, c *office.Caller) {
	ctx := r.Context()
	officeView(h, w, r, h.officeFundingFilter, func(f office.FundingFilter) (*office.Funding, error) { return h.office.Funding(ctx, c, f) },
		func(_ office.FundingFilter, fd *office.Funding) { h.office.AuditFundingView(ctx, c, fd) })
}

func (h *Handler) officeFundingCSV(w http.ResponseWriter, r *http.Request, c *office.Caller) {
	officeExport(h, w, r, h.officeFundingFilter,
		func(f office.FundingFilter, w io.Writer) error {
			return h.office.ExportFundingCSV(r.Context(), c, f, w)
		},
		func(f office.FundingFilter) string { return office.FundingCSVFileName(c, f) })
}

func (h *Handler) officeCreateInvite(w http.ResponseWriter, r *http.Request, c *office.Caller) {
	var req office.InviteRequest
	if !h.body(w, r, &req, false) {
		return
	}
	inv, err := h.office.CreateInvite(r.Context(), c, req, h.publicBase(r))
	h.answerCreated(w, r, inv, err)
}

func (h *Handler) officeCancelInvite(w http.ResponseWriter, r *http.Request, c *office.Caller) {
	h.noContent(w, r, h.office.CancelInvite(r.Context(), c, r.PathValue("id")))
}

func (h *Handler) officeResendInvite(w http.ResponseWriter, r *http.Request, c *office.Caller) {
	sent, err := h.office.ResendInvite(r.Context(), c, r.PathValue("id"))
	h.answer(w, r, map[string]any{"sentTo": sent}, err)
}

// publicBase is the address patients open: the configured public URL, else
// the address the staff member's own browser used to reach us.
func (h *Handler) publicBase(r *http.Request) string {
	if h.opts.PublicURL != "" {
		return h.opts.PublicURL
	}
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	return scheme + "://" + r.Host
}

// answerSession answers who c is and what they may do, with csrf.
func (h *Handler) answerSession(w http.ResponseWriter, r *http.Request, c *office.Caller, csrf string) {
	texts, emails := h.office.MessagesReach(c.Location)
	out := OfficeSession{
		Staff:       OfficeStaff{Email: c.Staff.Email, Role: c.Staff.Role, SecondFactor: c.Staff.HasSecondFactor()},
		Stage:       c.Stage,
		Permissions: c.Permissions(),
		Office: OfficeInfo{Name: c.Location.Name, EntityKey: c.Location.EntityKey,
			MessagesDelivered: texts || emails, TextsDelivered: texts, EmailsDelivered: emails, Language: c.Location.Language},
		Offices:   []OfficeRef{},
		Passkeys:  office.PasskeysAt(h.publicBase(r)),
		CSRFToken: csrf,
	}
	if c.Stage == office.StageReady {
		offices, err := h.office.Offices(r.Context(), c)
		if err != nil {
			h.writeError(w, r, err)
			return
		}
		for _, l := range offices {
			out.Offices = append(out.Offices, OfficeRef{Name: l.Name, EntityKey: l.EntityKey})
		}
	}
	writeJSON(w, http.StatusOK, out)
}

// staffCookie is the staff session cookie: HttpOnly (no script reads it),
// SameSite=Strict (never sent from another site), Secure when staff reach
// us over https (the public URL is https, or TLS is served here).
func (h *Handler) staffCookie(r *http.Request, value string, maxAge time.Duration) *http.Cookie {
	return &http.Cookie{
		Name:     StaffCookie,
		Value:    value,
		Path:     "/",
		MaxAge:   int(maxAge / time.Second),
		HttpOnly: true,
		SameSite: http.SameSiteStrictMode,
		Secure:   h.opts.HSTS || r.TLS != nil,
	}
}

func (h *Handler) clearStaffCookie(w http.ResponseWriter, r *http.Request) {
	ck := h.staffCookie(r, "", 0)
	ck.MaxAge = -1
	http.SetCookie(w, ck)
}
