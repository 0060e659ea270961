package httpapi

import (
	"net/http"

	"github.com/chairside/chairside/office"
)

// The passkey ceremonies (office/passkey.go): each is a begin call that
// answers options for navigator.credentials, and a call that takes the
// browser's answer. The relying party is the address staff reach us at.

func (h *Handler) officePasskeySignInBegin(w http.ResponseWriter, r *http.Request) {
	opts, err := h.office.BeginPasskeySignIn(r.Context(), h.publicBase(r))
	h.answer(w, r, opts, err)
}

// officePasskeySignIn signs in with a passkey alone: the cookie and the
// session, as a password sign-in answers them, its second factor passed.
func (h *Handler) officePasskeySignIn(w http.ResponseWriter, r *http.Request) {
	var a office.PasskeyAnswer
	if !h.body(w, r, &a, false) {
		return
	}
	in, err := h.office.FinishPasskeySignIn(r.Context(), h.publicBase(r), a, h.clientIP(r))
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	http.SetCookie(w, h.staffCookie(r, in.SessionID, office.MaxAge))
	h.answerSession(w, r, &in.Caller, in.CSRFToken)
}

func (h *Handler) officePasskeyCheckBegin(w http.ResponseWriter, r *http.Request, c *office.Caller) {
	opts, err := h.office.BeginPasskeyCheck(r.Context(), c, h.publicBase(r))
	h.answer(w, r, opts, err)
}

func (h *Handler) officePasskeyCheck(w http.ResponseWriter, r *http.Request, c *office.Caller) {
	sessionChange(h, w, r, c, func(a office.PasskeyAnswer) error {
		return h.office.FinishPasskeyCheck(r.Context(), c, h.publicBase(r), a)
	})
}

func (h *Handler) officePasskeyBegin(w http.ResponseWriter, r *http.Request, c *office.Caller) {
	opts, err := h.office.BeginPasskey(r.Context(), c, h.publicBase(r))
	h.answer(w, r, opts, err)
}

func (h *Handler) officePasskeyAdd(w http.ResponseWriter, r *http.Request, c *office.Caller) {
	var a office.PasskeyAnswer
	if !h.body(w, r, &a, false) {
		return
	}
	codes, err := h.office.FinishPasskey(r.Context(), c, h.publicBase(r), a)
	h.answer(w, r, codes, err)
}
