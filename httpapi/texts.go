package httpapi

import (
	"net/http"
	"regexp"
	"strings"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/messaging"
)

// Twilio's webhooks (docs/behaviour.md, "Texts and emails"): the status
// of each text we sent, and the patients' replies. Each is a form POST
// signed with the account's auth token over the URL Twilio called (our
// public URL and the path) and the parameters; an unsigned or wrongly
// signed one changes nothing and is answered 401.

// textRoutes adds Twilio's webhooks (with the office side) and the short
// link of an invitation as texts carry it (messaging.ShortLink), which
// leads to the start page of its token.
func (h *Handler) textRoutes(public func(string, http.HandlerFunc)) {
	if h.office != nil {
		public("POST "+api+"/texts/twilio/status", h.twilioStatus)
		public("POST "+api+"/texts/twilio/inbound", h.twilioInbound)
	}
	public("GET /i/{token}", func(w http.ResponseWriter, r *http.Request) {
		token := r.PathValue("token")
		if !shortToken.MatchString(token) {
			http.NotFound(w, r)
			return
		}
		http.Redirect(w, r, "/start/tokens/"+token, http.StatusFound)
	})
}

// shortToken is what a one-time link's token can be.
var shortToken = regexp.MustCompile(`^[A-Za-z0-9_-]{16,64}$`)

// textsMaxBytes bounds a Twilio webhook's form.
const textsMaxBytes = 16 << 10

// twilioForm reads and checks a Twilio webhook's form, answering false
// (with the error written) for one too large, unreadable or not signed by
// the account.
func (h *Handler) twilioForm(w http.ResponseWriter, r *http.Request) bool {
	if len(h.opts.TwilioTokens) == 0 {
		h.writeError(w, r, chairside.Errorf(chairside.ENOTFOUND, "Texts are not sent through Twilio here."))
		return false
	}
	r.Body = http.MaxBytesReader(w, r.Body, textsMaxBytes)
	if err := r.ParseForm(); err != nil {
		h.writeError(w, r, chairside.Errorf(chairside.EBADREQUEST, "The form could not be read."))
		return false
	}
	// The URL Twilio called: our public URL, or (without one, in
	// development) the address the request reached.
	base := strings.TrimSuffix(h.opts.PublicURL, "/")
	if base == "" {
		base = "http://" + r.Host
		if r.TLS != nil {
			base = "https://" + r.Host
		}
	}
	full := base + r.URL.RequestURI()
	if !messaging.Verify(h.opts.TwilioTokens, full, r.PostForm, r.Header.Get(messaging.SignatureHeader)) {
		h.log.Warn("twilio webhook refused", "path", r.URL.Path, "result", "bad_signature")
		h.writeError(w, r, chairside.Errorf(chairside.EUNAUTHORIZED, "The signature is missing or wrong."))
		return false
	}
	return true
}

// senderOf is the sender a webhook's form names: the Messaging Service
// when there is one, else the number.
func senderOf(form map[string][]string, number string) string {
	if v := form["MessagingServiceSid"]; len(v) > 0 && v[0] != "" {
		return v[0]
	}
	if v := form[number]; len(v) > 0 {
		return v[0]
	}
	return ""
}

// twilioStatus is a text's status callback.
func (h *Handler) twilioStatus(w http.ResponseWriter, r *http.Request) {
	if !h.twilioForm(w, r) {
		return
	}
	report, ok := messaging.ReadStatus(r.PostForm)
	if !ok {
		// A status we do not follow (or none): nothing to apply, and
		// nothing for Twilio to deliver again.
		w.WriteHeader(http.StatusNoContent)
		return
	}
	if _, err := h.office.MessageStatus(r.Context(), report, senderOf(r.PostForm, "From"), r.PostForm.Get("To")); err != nil {
		h.writeError(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// twilioInbound is a patient's reply. The answer is an empty TwiML
// response: Twilio's own opt-out handling answers STOP and START, and
// nothing else is ours to answer.
func (h *Handler) twilioInbound(w http.ResponseWriter, r *http.Request) {
	if !h.twilioForm(w, r) {
		return
	}
	if _, err := h.office.TextReply(r.Context(), senderOf(r.PostForm, "To"), r.PostForm.Get("From"), r.PostForm.Get("Body")); err != nil {
		h.writeError(w, r, err)
		return
	}
	w.Header().Set("Content-Type", "text/xml; charset=utf-8")
	_, _ = w.Write([]byte(`<?xml version="1.0" encoding="UTF-8"?><Response></Response>`))
}
