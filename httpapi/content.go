package httpapi

import (
	"context"
	"net/http"
	"strings"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/flow"
	"github.com/chairside/chairside/locale"
)

// The calls of the documents pages, help, lender pages and QA
// (docs/content.md): decode, ask the service, encode.

// optionalSession answers the live session a request names in
// X-Web-Session-Id, or nil when it names none, or one that is not live:
// the calls that take a session only to choose an office's content answer
// without one rather than 401.
func (h *Handler) optionalSession(w http.ResponseWriter, r *http.Request) (*chairside.Session, error) {
	id := r.Header.Get("X-Web-Session-Id")
	if id == "" {
		return nil, nil
	}
	sess, err := h.svc.Authenticate(r.Context(), id)
	if err != nil {
		if chairside.ErrorCode(err) == chairside.EUNAUTHORIZED {
			return nil, nil
		}
		return nil, err
	}
	infoOf(w).session = flow.SessionHash(sess.ID)
	return sess, nil
}

func (h *Handler) document(w http.ResponseWriter, r *http.Request) {
	sess, err := h.optionalSession(w, r)
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	resp, err := h.svc.Document(r.Context(), languageOf(r), sess, r.PathValue("doc"), r.URL.Query().Get("providerKey"))
	h.answer(w, r, resp, err)
}

// pdfFramePolicy is the CSP of a printable sheet: the app's, except that
// the app's own documents page may show it in a frame (docs/content.md,
// "Documents"); no other site may.
var pdfFramePolicy = strings.Replace(contentSecurityPolicy, "frame-ancestors 'none'", "frame-ancestors 'self'", 1)

// documentPDF answers a printable sheet for the browser's own viewer:
// inline, under its name (a name of the pattern flow checks, so safe in
// the header), framed only by our own pages. The browser opens it as a
// plain link, with the browser's own Accept-Language, so the app names the
// patient's language in lang (docs/languages.md).
func (h *Handler) documentPDF(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("name")
	lang := languageOf(r)
	if l, ok := locale.Parse(r.URL.Query().Get("lang")); ok {
		lang = l
	}
	pdf, err := h.svc.DocumentPDF(r.Context(), lang, name)
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	w.Header().Set("Content-Security-Policy", pdfFramePolicy)
	w.Header().Set("X-Frame-Options", "SAMEORIGIN")
	w.Header().Set("Content-Type", "application/pdf")
	w.Header().Set("Content-Disposition", `inline; filename="`+name+`"`)
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(pdf)
}

// helpCall is one of the help calls, for a session (or nil) and a
// language.
type helpCall func(ctx context.Context, sess *chairside.Session, lang string, r *http.Request) (*flow.HelpAnswer, error)

// help answers a help call: unlike every other API answer the browser may
// keep it for a minute, and a request naming its ETag gets 304 without a
// body (docs/content.md, "Help").
func (h *Handler) help(fn helpCall) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		lang, err := flow.HelpLanguage(r.URL.Query().Get("lang"), languageOf(r))
		if err != nil {
			h.writeError(w, r, err)
			return
		}
		sess, err := h.optionalSession(w, r)
		if err != nil {
			h.writeError(w, r, err)
			return
		}
		a, err := fn(r.Context(), sess, lang, r)
		if err != nil {
			h.writeError(w, r, err)
			return
		}
		hd := w.Header()
		hd.Set("Cache-Control", "private, max-age=60")
		hd.Set("ETag", a.ETag)
		hd.Set("Vary", "Accept-Language, X-Web-Session-Id")
		if etagMatches(r.Header.Get("If-None-Match"), a.ETag) {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		hd.Set("Content-Type", "application/json; charset=utf-8")
		w.WriteHeader(http.StatusOK)
		_, _ = w.Write(append(a.Body, '\n'))
	}
}

// etagMatches reports whether an If-None-Match header names etag (or is
// "*"); If-None-Match compares weakly, so W/ is ignored.
func etagMatches(header, etag string) bool {
	for _, t := range strings.Split(header, ",") {
		t = strings.TrimPrefix(strings.TrimSpace(t), "W/")
		if t == "*" || (t != "" && t == etag) {
			return true
		}
	}
	return false
}

// contentRoutes registers the calls of docs/content.md: a credit limit
// change, the lender-page and payment-choice calls, the documents pages,
// help and the test case list (the last three with an optional session).
func (h *Handler) contentRoutes(public func(string, http.HandlerFunc), authed func(string, authedFunc)) {
	authed("GET "+api+"/providers/{providerKey}/disclosures-html", lenderAction(h, h.svc.DisclosuresHTML))
	authed("GET "+api+"/providers/{providerKey}/account/terms", lenderAction(h, h.svc.AccountTerms))
	authed("POST "+api+"/providers/{providerKey}/account/change-credit-limit", lenderCall(h, false, h.svc.ChangeCreditLimit))
	authed("GET "+api+"/providers/{providerKey}/iframeUrl", h.iframeURL)
	authed("POST "+api+"/providers/{providerKey}/iframeUrl", lenderCall(h, false,
		func(ctx context.Context, c *flow.Caller, key string, req *flow.IframeURLRequest) (*flow.IframeURL, error) {
			return h.svc.IframeURL(ctx, c, key, req.RedirectURL)
		}))
	authed("GET "+api+"/providers/{providerKey}/sdkConfig", lenderAction(h, h.svc.SDKConfig))
	authed("POST "+api+"/providers/{providerKey}/paymentMethod", lenderCall(h, false, h.svc.PaymentMethod))
	authed("POST "+api+"/providers/{providerKey}/emailAgreement", h.emailAgreement)

	public("GET "+api+"/documents/{doc}", h.document)
	public("GET "+api+"/documents/pdf/{name}", h.documentPDF)
	public("GET "+api+"/test-cases", h.testCases)
	public("GET "+api+"/help/faqs", h.help(func(ctx context.Context, sess *chairside.Session, lang string, _ *http.Request) (*flow.HelpAnswer, error) {
		return h.svc.HelpFAQs(ctx, sess, lang)
	}))
	public("GET "+api+"/help/glossary", h.help(func(ctx context.Context, sess *chairside.Session, lang string, _ *http.Request) (*flow.HelpAnswer, error) {
		return h.svc.HelpGlossary(ctx, sess, lang)
	}))
	public("GET "+api+"/help/glossary/search", h.help(func(ctx context.Context, sess *chairside.Session, lang string, r *http.Request) (*flow.HelpAnswer, error) {
		return h.svc.SearchGlossary(ctx, sess, lang, r.URL.Query().Get("q"))
	}))
}

func (h *Handler) iframeURL(w http.ResponseWriter, r *http.Request, c *flow.Caller) {
	resp, err := h.svc.IframeURL(r.Context(), c, r.PathValue("providerKey"), r.URL.Query().Get("redirectUrl"))
	h.answer(w, r, resp, err)
}

func (h *Handler) emailAgreement(w http.ResponseWriter, r *http.Request, c *flow.Caller) {
	if !h.body(w, r, &empty{}, true) {
		return
	}
	resp, err := h.svc.EmailAgreement(r.Context(), c, r.PathValue("providerKey"))
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusAccepted, resp)
}

func (h *Handler) testCases(w http.ResponseWriter, r *http.Request) {
	resp, err := h.svc.TestCases(r.Context())
	h.answer(w, r, resp, err)
}
