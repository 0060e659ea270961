package httpapi

import (
	"bytes"
	"mime"
	"net/http"

	"github.com/chairside/chairside/office"
)

// officeStaffRoutes registers the calls of the second factor's setup, a
// group administrator's choice of office, and the managers' staff and
// audit screens (docs/behaviour.md, "Staff and roles").
func (h *Handler) officeStaffRoutes(named func(string, http.Handler)) {
	named("PUT "+api+"/office/session/office", h.staffAuthed(office.SwitchOffice, h.officeSwitch))
	named("GET "+api+"/office/staff", h.staffAuthed(office.ManageStaff, h.officeStaffList))
	named("POST "+api+"/office/staff", h.staffAuthed(office.ManageStaff, h.officeStaffInvite))
	named("POST "+api+"/office/staff/{id}/setup-link", h.staffAuthed(office.ManageStaff, h.officeStaffLink))
	named("POST "+api+"/office/staff/{id}/disable", h.staffAuthed(office.ManageStaff, h.officeStaffDisable))
	named("POST "+api+"/office/staff/{id}/reset-second-factor", h.staffAuthed(office.ManageStaff, h.officeStaffReset))
	named("GET "+api+"/office/audit", h.staffAuthed(office.ManageStaff, h.officeAudit))
	named("GET "+api+"/office/audit.csv", h.staffAuthed(office.ManageStaff, h.officeAuditCSV))
}

type officeCodeRequest struct {
	Code string `json:"code"`
}

type officeSwitchRequest struct {
	EntityKey string `json:"entityKey"`
}

// officeSecondFactor checks the code asked after the password and answers
// the session, now ready.
func (h *Handler) officeSecondFactor(w http.ResponseWriter, r *http.Request, c *office.Caller) {
	sessionChange(h, w, r, c, func(req officeCodeRequest) error {
		return h.office.PassSecondFactor(r.Context(), c, req.Code)
	})
}

func (h *Handler) officeBeginTOTP(w http.ResponseWriter, r *http.Request, c *office.Caller) {
	setup, err := h.office.BeginTOTP(r.Context(), c)
	h.answer(w, r, setup, err)
}

func (h *Handler) officeConfirmTOTP(w http.ResponseWriter, r *http.Request, c *office.Caller) {
	var req officeCodeRequest
	if !h.body(w, r, &req, false) {
		return
	}
	codes, err := h.office.ConfirmTOTP(r.Context(), c, req.Code)
	h.answer(w, r, codes, err)
}

func (h *Handler) officeSwitch(w http.ResponseWriter, r *http.Request, c *office.Caller) {
	sessionChange(h, w, r, c, func(req officeSwitchRequest) error {
		return h.office.SwitchOffice(r.Context(), c, req.EntityKey)
	})
}

// sessionChange decodes a request body, makes the change it asks of the
// caller's session, and answers the session as it is after it.
func sessionChange[T any](h *Handler, w http.ResponseWriter, r *http.Request, c *office.Caller, change func(T) error) {
	var req T
	if !h.body(w, r, &req, false) {
		return
	}
	if err := change(req); err != nil {
		h.writeError(w, r, err)
		return
	}
	h.refreshedSession(w, r, c)
}

// refreshedSession answers the session as it is after a change to it,
// read again as the next call will.
func (h *Handler) refreshedSession(w http.ResponseWriter, r *http.Request, c *office.Caller) {
	again, err := h.office.Reread(r.Context(), c)
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	h.officeWhoAmI(w, r, again)
}

// officeStaffList is the answer of GET /office/staff.
type officeStaffList struct {
	Staff []office.Member `json:"staff"`
}

func (h *Handler) officeStaffList(w http.ResponseWriter, r *http.Request, c *office.Caller) {
	list, err := h.office.ListStaff(r.Context(), c)
	h.answer(w, r, officeStaffList{Staff: list}, err)
}

func (h *Handler) officeStaffInvite(w http.ResponseWriter, r *http.Request, c *office.Caller) {
	var req office.StaffInviteRequest
	if !h.body(w, r, &req, false) {
		return
	}
	inv, err := h.office.InviteStaff(r.Context(), c, req, h.publicBase(r))
	h.answerCreated(w, r, inv, err)
}

func (h *Handler) officeStaffLink(w http.ResponseWriter, r *http.Request, c *office.Caller) {
	inv, err := h.office.NewStaffLink(r.Context(), c, r.PathValue("id"), h.publicBase(r))
	h.answer(w, r, inv, err)
}

func (h *Handler) officeStaffDisable(w http.ResponseWriter, r *http.Request, c *office.Caller) {
	h.noContent(w, r, h.office.DisableColleague(r.Context(), c, r.PathValue("id")))
}

func (h *Handler) officeStaffReset(w http.ResponseWriter, r *http.Request, c *office.Caller) {
	h.noContent(w, r, h.office.ResetColleagueSecondFactor(r.Context(), c, r.PathValue("id")))
}

// officeAuditLog is the answer of GET /office/audit.
type officeAuditLog struct {
	Day     string            `json:"day"`
	Entries []office.AuditRow `json:"entries"`
}

func (h *Handler) officeAudit(w http.ResponseWriter, r *http.Request, c *office.Caller) {
	f, err := h.officeFilter(r)
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	rows, err := h.office.AuditLog(r.Context(), c, f)
	h.answer(w, r, officeAuditLog{Day: f.Day, Entries: rows}, err)
}

func (h *Handler) officeAuditCSV(w http.ResponseWriter, r *http.Request, c *office.Caller) {
	f, err := h.officeFilter(r)
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	var buf bytes.Buffer
	if err := h.office.ExportAuditCSV(r.Context(), c, f, &buf); err != nil {
		h.writeError(w, r, err)
		return
	}
	h.attachment(w, office.AuditFileName(c, f), buf.Bytes())
}

// noContent answers 204, or err.
func (h *Handler) noContent(w http.ResponseWriter, r *http.Request, err error) {
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// attachment answers a CSV file to save.
func (h *Handler) attachment(w http.ResponseWriter, name string, body []byte) {
	w.Header().Set("Content-Type", "text/csv; charset=utf-8")
	w.Header().Set("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": name}))
	_, _ = w.Write(body)
}
