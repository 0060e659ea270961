package httpapi

import (
	"net/http"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/flow"
	"github.com/chairside/chairside/validate"
)

// The single-value checks the browser asks for while a patient types
// (docs/behaviour.md, "Validation"). Each only wraps a rule of package
// validate, so they live here rather than in the application service.

// validResponse answers the single-value checks.
type validResponse struct {
	Valid bool `json:"valid"`
}

// phoneRequest is the body of /validate/phone.
type phoneRequest struct {
	PhoneNumber string `json:"phoneNumber"`
}

// zipCodeRequest is the body of /validate/zipCode.
type zipCodeRequest struct {
	ZipCode string `json:"zipCode"`
	State   string `json:"state"`
}

// emailRequest is the body of /validate/email.
type emailRequest struct {
	Email string `json:"email"`
}

// validatePhone answers whether a phone number (digits) is valid.
func (h *Handler) validatePhone(w http.ResponseWriter, r *http.Request, _ *flow.Caller) {
	var req phoneRequest
	if h.body(w, r, &req, false) {
		writeJSON(w, http.StatusOK, validResponse{Valid: validate.Phone(req.PhoneNumber)})
	}
}

// validateZipCode answers whether a ZIP code is valid, and valid for the
// state.
func (h *Handler) validateZipCode(w http.ResponseWriter, r *http.Request, _ *flow.Caller) {
	var req zipCodeRequest
	if h.body(w, r, &req, false) {
		writeJSON(w, http.StatusOK, validResponse{Valid: validate.ZipCode(req.ZipCode) && validate.ZipForState(req.ZipCode, req.State)})
	}
}

// zipPlace answers the city and state of a ZIP code, for the form to fill
// them in (docs/behaviour.md, "Validation"): 404 when the ZIP list does not
// have it, 400 when it is not a ZIP code at all.
func (h *Handler) zipPlace(w http.ResponseWriter, r *http.Request, _ *flow.Caller) {
	zip := r.PathValue("zipCode")
	if len(zip) != 5 || !validate.ZipCode(zip) {
		h.writeError(w, r, chairside.Errorf(chairside.EBADREQUEST, "A ZIP code is five digits."))
		return
	}
	p, ok := validate.ZipPlace(zip)
	if !ok {
		h.writeError(w, r, chairside.Errorf(chairside.ENOTFOUND, "This ZIP code is not in our list."))
		return
	}
	writeJSON(w, http.StatusOK, p)
}

// validateEmail answers whether an email address is valid.
func (h *Handler) validateEmail(w http.ResponseWriter, r *http.Request, _ *flow.Caller) {
	var req emailRequest
	if h.body(w, r, &req, false) {
		writeJSON(w, http.StatusOK, validResponse{Valid: validate.Email(req.Email)})
	}
}

// finishOutcomes maps the URL word of /flow/finish/{outcome} to the outcome
// asked of the service.
var finishOutcomes = map[string]string{
	"completed": chairside.OutcomeCompleted,
	"canceled":  chairside.OutcomeCancel,
	"pending":   chairside.OutcomePending,
	"timeout":   chairside.OutcomeTimeout,
}

// versionResponse answers GET /internal/version.
type versionResponse struct {
	Version string `json:"version"`
	Commit  string `json:"commit"`
	Env     string `json:"env"`
}
