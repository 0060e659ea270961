package httpapi

import (
	"net/http"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/flow"
	"github.com/chairside/chairside/office"
)

// The office's changes to a completed case: cancel before the lender
// funds, refund after (docs/behaviour.md, "After the signature"). A
// manager's call; the preview answers what the lender will be asked, and
// the change itself is made once per Idempotency-Key, which the screen
// makes once per change it confirms.

// officeChangeRoutes adds the change routes.
func (h *Handler) officeChangeRoutes(named func(pattern string, handler http.Handler)) {
	named("POST "+api+"/office/applications/{id}/changes/preview", h.staffAuthed(office.ChangeCases, h.officePreviewChange))
	named("POST "+api+"/office/applications/{id}/changes", h.staffAuthed(office.ChangeCases, h.officeChangeCase))
}

// caseChange reads a change's body for an application of the caller's
// office, answering false (with the error written) when there is none.
func (h *Handler) caseChange(w http.ResponseWriter, r *http.Request, c *office.Caller) (string, *flow.CaseChange, bool) {
	var ch flow.CaseChange
	if !h.body(w, r, &ch, false) {
		return "", nil, false
	}
	a, err := h.office.OwnApplication(r.Context(), c, r.PathValue("id"))
	if err != nil {
		h.writeError(w, r, err)
		return "", nil, false
	}
	return a.ID, &ch, true
}

func (h *Handler) officePreviewChange(w http.ResponseWriter, r *http.Request, c *office.Caller) {
	id, ch, ok := h.caseChange(w, r, c)
	if !ok {
		return
	}
	plan, err := h.svc.PreviewChange(r.Context(), id, ch)
	h.answer(w, r, plan, err)
}

func (h *Handler) officeChangeCase(w http.ResponseWriter, r *http.Request, c *office.Caller) {
	idem := r.Header.Get("Idempotency-Key")
	if len(idem) > maxIdempotencyKey {
		h.writeError(w, r, chairside.Errorf(chairside.EBADREQUEST, "Idempotency-Key is longer than %d characters.", maxIdempotencyKey))
		return
	}
	id, ch, ok := h.caseChange(w, r, c)
	if !ok {
		return
	}
	res, err := h.svc.ChangeCase(r.Context(), id, idem, ch)
	if err == nil {
		h.office.AuditChange(r.Context(), c, id, ch.Kind, res.Status, res.AmountCents, ch.Reason)
	}
	h.answer(w, r, res, err)
}
