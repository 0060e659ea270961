package httpapi

import (
	"context"
	"net/http"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/flow"
	"github.com/chairside/chairside/office"
)

// The office's changes to a case: its treatment amount before the patient
// signs (docs/behaviour.md, "Changing the amount"); cancel before the
// lender funds, refund after (docs/behaviour.md, "After the signature"). A
// manager's call; the preview answers what the lender will be asked, and
// the change itself is made once per Idempotency-Key, which the screen
// makes once per change it confirms.

// officeChangeRoutes adds the change routes.
func (h *Handler) officeChangeRoutes(named func(pattern string, handler http.Handler)) {
	named("POST "+api+"/office/applications/{id}/changes/preview", h.staffAuthed(office.ChangeCases, casePreview(h, h.svc.PreviewChange)))
	named("POST "+api+"/office/applications/{id}/changes", h.staffAuthed(office.ChangeCases, caseMake(h, h.svc.ChangeCase,
		func(ctx context.Context, c *office.Caller, id string, ch *flow.CaseChange, res *flow.ChangeResult) {
			h.office.AuditChange(ctx, c, id, ch.Kind, res.Status, res.AmountCents, ch.Reason)
		})))
	named("POST "+api+"/office/applications/{id}/amount/preview", h.staffAuthed(office.ChangeCases, casePreview(h, h.svc.PreviewAmount)))
	named("POST "+api+"/office/applications/{id}/amount", h.staffAuthed(office.ChangeCases, caseMake(h, h.svc.ChangeAmount,
		func(ctx context.Context, c *office.Caller, id string, ch *flow.AmountChange, res *flow.AmountResult) {
			// A repeat answered from the record is in the log once.
			if !res.Replayed {
				h.office.AuditAmount(ctx, c, id, res.Status, res.FromCents, res.ToCents, ch.Reason)
			}
		})))
}

// caseChange reads a change's body for an application of the caller's
// office, answering false (with the error written) when there is none.
func caseChange[T any](h *Handler, w http.ResponseWriter, r *http.Request, c *office.Caller) (string, *T, bool) {
	var ch T
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

// casePreview is a change's preview route: what the change of the body
// would do, without doing it.
func casePreview[T, P any](h *Handler, preview func(context.Context, string, *T) (P, error)) func(http.ResponseWriter, *http.Request, *office.Caller) {
	return func(w http.ResponseWriter, r *http.Request, c *office.Caller) {
		id, ch, ok := caseChange[T](h, w, r, c)
		if !ok {
			return
		}
		plan, err := preview(r.Context(), id, ch)
		h.answer(w, r, plan, err)
	}
}

// caseMake is a change's route: made once per Idempotency-Key (the
// flow's), then audited with its answer.
func caseMake[T, R any](h *Handler, change func(context.Context, string, string, *T) (R, error),
	audit func(context.Context, *office.Caller, string, *T, R)) func(http.ResponseWriter, *http.Request, *office.Caller) {
	return func(w http.ResponseWriter, r *http.Request, c *office.Caller) {
		idem := r.Header.Get("Idempotency-Key")
		if len(idem) > maxIdempotencyKey {
			h.writeError(w, r, chairside.Errorf(chairside.EBADREQUEST, "Idempotency-Key is longer than %d characters.", maxIdempotencyKey))
			return
		}
		id, ch, ok := caseChange[T](h, w, r, c)
		if !ok {
			return
		}
		res, err := change(r.Context(), id, idem, ch)
		if err == nil {
			audit(r.Context(), c, id, ch, res)
		}
		h.answer(w, r, res, err)
	}
}
