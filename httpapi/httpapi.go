// Package httpapi is the HTTP layer of Chairside: the JSON API under
// /api/v1 (described by api/openapi.yaml, which it also serves) and the
// built web app. Handlers are thin — decode, call package flow (or, for the
// single-value checks, package validate), encode — and every failure goes
// through one mapping from chairside error codes to HTTP statuses
// (writeError).
package httpapi

import (
	"context"
	"io"
	"io/fs"
	"log/slog"
	"net/http"
	"net/netip"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/flow"
	"github.com/chairside/chairside/metrics"
	"github.com/chairside/chairside/office"
)

// Default limits.
const (
	DefaultMaxBodyBytes  = 64 << 10 // every JSON body but e-sign
	DefaultESignMaxBytes = 1 << 20  // the e-sign body carries a signature PNG
	DefaultRatePerSecond = 20       // per client IP
	DefaultRateBurst     = 60
	// LogMaxBytes bounds the body of POST /log: a level, a code and a
	// route fit in far less.
	LogMaxBytes = 1 << 10
	// LogPerMinute and LogBurst bound the lines one session may log: a
	// bucket of LogBurst refilled at LogPerMinute, so no more than
	// LogBurst+LogPerMinute = 30 lines in any minute.
	LogPerMinute = 20
	LogBurst     = 10
)

// Options configure the handler. Zero values get the defaults above.
type Options struct {
	// Env is the environment answered by /internal/version.
	Env string
	// Logger receives one JSON line per request and the internal errors.
	// NewLogger makes a suitable one. Default: discard.
	Logger *slog.Logger
	// Web is the built web app (index.html and assets/); nil or empty
	// answers a small page saying the web app is not built.
	Web fs.FS
	// OpenAPI is the API description served at /api/v1/openapi.yaml
	// (api.Spec).
	OpenAPI []byte
	// MaxBodyBytes bounds JSON bodies (default 64 KiB); ESignMaxBytes the
	// e-sign body (default 1 MiB).
	MaxBodyBytes  int64
	ESignMaxBytes int64
	// RatePerSecond and RateBurst set the per-IP limit (defaults 20/s,
	// burst 60). A negative RatePerSecond turns the limit off.
	RatePerSecond float64
	RateBurst     int
	// HSTS sends Strict-Transport-Security on every answer. Set it when
	// patients reach the server over https, even when TLS ends at a proxy
	// in front of it (the public URL is https).
	HSTS bool
	// Office serves the office API (/api/v1/office/…); nil leaves it out.
	Office *office.Service
	// PublicURL is the address patients open (https://chairside.example),
	// for the links of office invitations; "" uses the address the staff
	// member's browser reached us at.
	PublicURL string
	// Metrics, when set, counts every request by route and is served at
	// /metrics.
	Metrics *metrics.Metrics
	// Ready answers /readyz: nil when the server can take patients (the
	// database answers, its migrations are applied). nil Ready: always.
	Ready func(context.Context) error
	// Backup answers where the continuous backup of the built-in database
	// stands (package backup), for /readyz, /metrics and the office
	// manager's banner; nil, or an answer of nil: no backup on this server.
	Backup func() *chairside.BackupStatus
	// TrustedProxies are the proxies whose X-Forwarded-For is believed
	// (client.go); none: the connection's address is the client's.
	TrustedProxies []netip.Prefix
	// WebhookSecrets finds the webhook signing secrets of a lender by its
	// base lender key (several while it rotates them); false for a lender
	// that sends no webhooks.
	WebhookSecrets func(lenderKey string) ([][]byte, bool)
	// TwilioTokens are the Twilio account's auth tokens that sign its
	// webhooks (several while the token is rotated); none: texts are not
	// sent through Twilio and its webhooks answer 404. The webhooks are
	// checked against PublicURL, the address Twilio calls.
	TwilioTokens []string
}

// Handler serves the API and the web app. Build it with New.
type Handler struct {
	svc     *flow.Service
	opts    Options
	log     *slog.Logger
	limiter *keyLimiter // per client IP; nil when off
	// logLimiter bounds POST /log per session. It is in memory, per
	// server: behind several servers a session may log that much on each,
	// which is still bounded and harmless.
	logLimiter *keyLimiter
	web        *webApp
	office     *office.Service
	root       http.Handler
}

// New returns the http.Handler of the whole server: API, OpenAPI document
// and web app, wrapped in request logging, security headers, panic recovery
// and the per-IP rate limit.
func New(svc *flow.Service, opts Options) http.Handler {
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.NewJSONHandler(io.Discard, nil))
	}
	if opts.MaxBodyBytes <= 0 {
		opts.MaxBodyBytes = DefaultMaxBodyBytes
	}
	if opts.ESignMaxBytes <= 0 {
		opts.ESignMaxBytes = DefaultESignMaxBytes
	}
	if opts.RatePerSecond == 0 {
		opts.RatePerSecond = DefaultRatePerSecond
	}
	if opts.RateBurst <= 0 {
		opts.RateBurst = DefaultRateBurst
	}
	if opts.Env == "" {
		opts.Env = svc.Env()
	}
	h := &Handler{svc: svc, opts: opts, log: opts.Logger, web: newWebApp(opts.Web), office: opts.Office,
		logLimiter: newKeyLimiter(LogPerMinute/60.0, LogBurst)}
	if opts.RatePerSecond > 0 {
		h.limiter = newKeyLimiter(opts.RatePerSecond, opts.RateBurst)
	}
	mux := http.NewServeMux()
	h.routes(mux)
	// Outermost first: the log line sees the final status; headers are set
	// before anything can answer; a panic anywhere inside is recovered.
	h.root = h.withRequestLog(h.withHeaders(h.withRecover(h.withRateLimit(mux))))
	return h
}

// ServeHTTP implements http.Handler.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) { h.root.ServeHTTP(w, r) }

// NewLogger returns a JSON slog logger writing UTC timestamps to w, the
// format every Chairside log line uses.
func NewLogger(w io.Writer, level slog.Leveler) *slog.Logger {
	return slog.New(slog.NewJSONHandler(w, &slog.HandlerOptions{
		Level: level,
		ReplaceAttr: func(groups []string, a slog.Attr) slog.Attr {
			if a.Key == slog.TimeKey && len(groups) == 0 {
				a.Value = slog.TimeValue(a.Value.Time().UTC())
			}
			return a
		},
	}))
}

const api = "/api/v1"

// routes registers every endpoint. Public ones take an http.HandlerFunc;
// the rest take an authedFunc and get the caller's live session.
func (h *Handler) routes(mux *http.ServeMux) {
	public := func(pattern string, fn http.HandlerFunc) {
		mux.Handle(pattern, h.named(pattern, fn))
	}
	authed := func(pattern string, fn authedFunc) {
		mux.Handle(pattern, h.named(pattern, h.authed(fn)))
	}

	// Flow.
	public("POST "+api+"/flow/start", h.flowStart)
	public("POST "+api+"/flow/start/again", h.flowStartAgain)
	public("POST "+api+"/flow/start/tokens/{token}", h.flowStartToken)
	public("POST "+api+"/flow/start/entity-keys/{entityKey}", h.flowStartEntityKey)
	authed("POST "+api+"/flow/restart", h.flowRestart)
	authed("POST "+api+"/flow/finish/{outcome}", h.flowFinish)

	// Applying.
	authed("POST "+api+"/apply/start/providers/{providerKey}", h.applyStart)
	authed("POST "+api+"/providers/{providerKey}/prequalify", h.submit(flow.OpPrequalify))
	authed("POST "+api+"/providers/{providerKey}/prescreen", h.submit(flow.OpPrescreen))
	authed("POST "+api+"/providers/{providerKey}/apply", h.submit(flow.OpApply))
	authed("POST "+api+"/providers/{providerKey}/payment/plans", h.plans)
	authed("POST "+api+"/providers/{providerKey}/payment/plans/{providerPlanCode}/select", h.selectPlan)
	authed("POST "+api+"/providers/{providerKey}/payment/plans/{providerPlanCode}/confirm-selection", h.confirmPlan)
	authed("POST "+api+"/providers/{providerKey}/acceptOffer", lenderCall(h, true, h.svc.AcceptOffer))
	authed("POST "+api+"/providers/{providerKey}/application/bank-account", lenderCall(h, false, h.svc.AddBankAccount))
	authed("POST "+api+"/providers/{providerKey}/application/bank-card", lenderCall(h, false, h.svc.AddCard))
	authed("GET "+api+"/providers/{providerKey}/application", lenderAction(h, h.svc.LenderApplication))
	authed("POST "+api+"/providers/{providerKey}/application/down-payment", lenderCall(h, false, h.svc.DownPayment))
	authed("POST "+api+"/providers/{providerKey}/application/additional-contact", lenderCall(h, false, h.svc.AddContact))
	authed("POST "+api+"/providers/{providerKey}/application/agreement", lenderCall(h, false, h.svc.AgreeAgreement))
	authed("POST "+api+"/providers/{providerKey}/application/wisconsin", lenderCall(h, false, h.svc.AnswerWisconsin))
	authed("POST "+api+"/providers/{providerKey}/application/california-notice", lenderCall(h, false, h.svc.AcknowledgeCaliforniaNotice))
	authed("POST "+api+"/providers/{providerKey}/application/cardholder-agreement", lenderCall(h, false, h.svc.AgreeCardholderAgreement))
	authed("GET "+api+"/providers/{providerKey}/quiz", lenderAction(h, h.svc.Quiz))
	authed("POST "+api+"/providers/{providerKey}/answers", lenderCall(h, false, h.svc.Answers))
	authed("POST "+api+"/providers/{providerKey}/application/esign", h.esign)
	authed("POST "+api+"/providers/{providerKey}/application/complete", lenderAction(h, h.svc.Complete))
	authed("POST "+api+"/providers/{providerKey}/application-status", lenderAction(h, h.svc.ApplicationStatus))
	authed("POST "+api+"/providers/{providerKey}/patch/{patchType}", h.patch)
	authed("GET "+api+"/providers/{providerKey}/application/stipulations/{id}/status", h.stipulationStatus)
	authed("POST "+api+"/providers/{providerKey}/application/stipulations/refresh", lenderCall(h, true, h.svc.RefreshStipulations))
	authed("POST "+api+"/providers/{providerKey}/agreement", lenderAction(h, h.svc.Agreement))
	authed("GET "+api+"/providers/{providerKey}/disclosures", h.disclosures)
	authed("GET "+api+"/providers/{providerKey}/termsUrl", h.terms)
	h.contentRoutes(public, authed)

	// Checks and the rest.
	authed("POST "+api+"/validate", h.validate)
	authed("POST "+api+"/validate/phone", h.validatePhone)
	authed("POST "+api+"/validate/zipCode", h.validateZipCode)
	authed("POST "+api+"/validate/email", h.validateEmail)
	authed("GET "+api+"/zipCodes/{zipCode}", h.zipPlace)
	authed("GET "+api+"/locations/current", h.currentLocation)
	authed("POST "+api+"/log", h.clientLog)
	authed("POST "+api+"/application/events/financing-plans-presented", h.plansPresented)
	authed("GET "+api+"/application/amounts", h.amounts)
	authed("GET "+api+"/application/progress", h.progress)
	authed("POST "+api+"/test-cases/apply/{id}", h.applyTestCase)
	public("GET "+api+"/internal/version", h.version)
	public("GET "+api+"/openapi.yaml", h.openAPI)

	// Lenders' news.
	public("POST "+api+"/lenders/{providerKey}/webhooks", h.lenderWebhook)
	h.textRoutes(public)

	// The office side.
	h.officeRoutes(public, func(pattern string, fn http.Handler) { mux.Handle(pattern, h.named(pattern, fn)) })

	// Anything else under /api is a JSON 404, never the web app's HTML —
	// including a known path with the wrong method.
	public("/api/", func(w http.ResponseWriter, r *http.Request) {
		h.writeError(w, r, chairside.Errorf(chairside.ENOTFOUND, "There is no such API endpoint."))
	})
	h.opsRoutes(mux)
	mux.Handle("/", h.web)
}

// named records the route pattern for the request's log line.
func (h *Handler) named(pattern string, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		infoOf(w).pattern = pattern
		next.ServeHTTP(w, r)
	})
}

// authedFunc is a handler that runs for a live session.
type authedFunc func(w http.ResponseWriter, r *http.Request, c *flow.Caller)

// maxIdempotencyKey bounds the Idempotency-Key header.
const maxIdempotencyKey = 128

// authed reads X-Web-Session-Id and runs fn for its live session; anything
// else answers 401 session_invalid.
func (h *Handler) authed(fn authedFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		c, err := h.svc.AuthenticateCall(r.Context(), r.Header.Get("X-Web-Session-Id"))
		if err != nil {
			h.writeError(w, r, err)
			return
		}
		infoOf(w).session = flow.SessionHash(c.Session.ID)
		idem := r.Header.Get("Idempotency-Key")
		if len(idem) > maxIdempotencyKey {
			h.writeError(w, r, chairside.Errorf(chairside.EBADREQUEST, "Idempotency-Key is longer than %d characters.", maxIdempotencyKey))
			return
		}
		ua := r.UserAgent()
		if len(ua) > 512 {
			ua = ua[:512]
		}
		c.IP, c.UserAgent, c.IdempotencyKey = h.clientIP(r), ua, idem
		// The patient's time zone, named by the browser on every call
		// (flow/timezone.go); a name that is not a zone counts from the
		// server's day.
		c.Zone = chairside.TimeZone(r.Header.Get("X-Time-Zone"))
		c.Language = languageOf(r)
		fn(w, r, c)
		// A call that wrote nothing moves the session's LastSeenAt now; one
		// that wrote did so in its own commit. The answer is written, so a
		// failure here is only logged.
		if err := h.svc.SettleTouch(context.WithoutCancel(r.Context()), c); err != nil {
			h.log.WarnContext(r.Context(), "session touch", "session", infoOf(w).session, "err", err.Error())
		}
	}
}

// answer writes v as 200 JSON, or err through the one error mapping.
func (h *Handler) answer(w http.ResponseWriter, r *http.Request, v any, err error) {
	h.answerStatus(w, r, http.StatusOK, v, err)
}

// answerCreated writes v as 201 JSON (a thing made), or err.
func (h *Handler) answerCreated(w http.ResponseWriter, r *http.Request, v any, err error) {
	h.answerStatus(w, r, http.StatusCreated, v, err)
}

func (h *Handler) answerStatus(w http.ResponseWriter, r *http.Request, status int, v any, err error) {
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	writeJSON(w, status, v)
}

// body decodes a JSON body with the default limit; on failure it answers
// and reports false.
func (h *Handler) body(w http.ResponseWriter, r *http.Request, dst any, optional bool) bool {
	return h.bodyN(w, r, h.opts.MaxBodyBytes, dst, optional)
}

func (h *Handler) bodyN(w http.ResponseWriter, r *http.Request, limit int64, dst any, optional bool) bool {
	if err := decode(w, r, limit, dst, optional); err != nil {
		h.writeError(w, r, err)
		return false
	}
	return true
}

// empty is the type of bodies that must be empty or {}.
type empty struct{}
