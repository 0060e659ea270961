package httpapi

import (
	"net/http"

	"github.com/chairside/chairside/office"
	"github.com/chairside/chairside/pms"
)

// The office's own records (office/records.go, docs/practice-records.md):
// the manager connects the practice-management system; every role reads
// the connection and finds the patient it invites there.
func (h *Handler) officeRecordsRoutes(named func(string, http.Handler)) {
	named("GET "+api+"/office/records", h.staffAuthed(office.SeeDay, h.officeRecords))
	named("PUT "+api+"/office/records", h.staffAuthed(office.ManageStaff, h.officeConnectRecords))
	named("DELETE "+api+"/office/records", h.staffAuthed(office.ManageStaff, h.officeDisconnectRecords))
	named("GET "+api+"/office/records/patients", h.staffAuthed(office.SeeDay, h.officeRecordPatients))
	named("GET "+api+"/office/records/patients/{id}", h.staffAuthed(office.SeeDay, h.officeRecordPatient))
	named("POST "+api+"/office/applications/{id}/records/retry", h.staffAuthed(office.SeeDay, h.officeRetryRecords))
}

func (h *Handler) officeRetryRecords(w http.ResponseWriter, r *http.Request, c *office.Caller) {
	h.noContent(w, r, h.office.RetryRecords(r.Context(), c, r.PathValue("id")))
}

func (h *Handler) officeRecords(w http.ResponseWriter, r *http.Request, c *office.Caller) {
	v, err := h.office.Records(r.Context(), c)
	h.answer(w, r, v, err)
}

func (h *Handler) officeConnectRecords(w http.ResponseWriter, r *http.Request, c *office.Caller) {
	var req office.RecordsRequest
	if !h.body(w, r, &req, false) {
		return
	}
	v, err := h.office.ConnectRecords(r.Context(), c, req)
	h.answer(w, r, v, err)
}

func (h *Handler) officeDisconnectRecords(w http.ResponseWriter, r *http.Request, c *office.Caller) {
	h.noContent(w, r, h.office.DisconnectRecords(r.Context(), c))
}

func (h *Handler) officeRecordPatients(w http.ResponseWriter, r *http.Request, c *office.Caller) {
	q := r.URL.Query()
	found, err := h.office.FindRecordPatients(r.Context(), c, pms.Query{ID: q.Get("chart"), LastName: q.Get("lastName"),
		FirstName: q.Get("firstName"), Birthdate: q.Get("birthdate")})
	h.answer(w, r, map[string]any{"patients": found}, err)
}

func (h *Handler) officeRecordPatient(w http.ResponseWriter, r *http.Request, c *office.Caller) {
	p, err := h.office.FindRecordPatient(r.Context(), c, r.PathValue("id"))
	h.answer(w, r, p, err)
}
