package httpapi

import (
	"net/http"

	"github.com/chairside/chairside/flow"
)

// patch gives a pending application what its lender asked for
// (docs/behaviour.md, "Pending, patches and stipulations").
func (h *Handler) patch(w http.ResponseWriter, r *http.Request, c *flow.Caller) {
	var req flow.PatchRequest
	if !h.body(w, r, &req, false) {
		return
	}
	resp, err := h.svc.Patch(r.Context(), c, r.PathValue("providerKey"), r.PathValue("patchType"), &req)
	h.answer(w, r, resp, err)
}

// stipulationStatus answers one stipulation of a lender's decision as last
// recorded (docs/behaviour.md, "Pending, patches and stipulations").
func (h *Handler) stipulationStatus(w http.ResponseWriter, r *http.Request, c *flow.Caller) {
	resp, err := h.svc.StipulationStatus(r.Context(), c, r.PathValue("providerKey"), r.PathValue("id"))
	h.answer(w, r, resp, err)
}
