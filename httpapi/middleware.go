package httpapi

import (
	"crypto/rand"
	"encoding/hex"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"

	"golang.org/x/time/rate"

	"github.com/chairside/chairside"
)

// Security headers (docs/data-safety.md). The CSP
// allows nothing but our own origin: no inline scripts or styles, no eval,
// no framing.
const contentSecurityPolicy = "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; frame-ancestors 'none'; base-uri 'self'; form-action 'self'"

// permissionsPolicy turns off every powerful browser feature for our pages
// and anything they might embed: the app uses none of them (no camera, no
// microphone, no location, no Payment Request API, no USB or serial
// devices). Only names Chromium recognises are listed: an unknown name
// makes Chromium log "Unrecognized feature" as a console error, which the
// browser tests (web/e2e/helpers.ts) count as a failure. Checked against
// Debian's Chromium 156; interest-cohort (the retired FLoC) and its
// successor browsing-topics both opt the pages out of interest grouping.
// Passkeys are the one exception: staff sign in with them
// (office/passkey.go), so this origin, and no frame of another, may ask.
const permissionsPolicy = "accelerometer=(), autoplay=(), browsing-topics=(), camera=(), display-capture=(), " +
	"encrypted-media=(), fullscreen=(), geolocation=(), gyroscope=(), hid=(), idle-detection=(), " +
	"interest-cohort=(), local-fonts=(), magnetometer=(), microphone=(), midi=(), payment=(), " +
	"picture-in-picture=(), publickey-credentials-get=(self), screen-wake-lock=(), serial=(), usb=(), " +
	"xr-spatial-tracking=()"

// hstsValue asks browsers to use https only, for a year, on this host and
// its subdomains.
const hstsValue = "max-age=31536000; includeSubDomains"

// reqInfo is what the log line written after a handler needs to know of
// what the handler learned: the route pattern and the session. It rides
// with the response writer the logging middleware hands down (statusWriter),
// never in the request's context; handlers fill it, only the logging
// middleware reads it.
type reqInfo struct {
	id      string
	pattern string
	session string // SessionHash of the caller's session, if any
}

// infoOf returns the info of the response w writes (a zero one outside the
// middleware), looking through the writers that wrap it.
func infoOf(w http.ResponseWriter) *reqInfo {
	for {
		if sw, ok := w.(*statusWriter); ok {
			return sw.info
		}
		u, ok := w.(interface{ Unwrap() http.ResponseWriter })
		if !ok {
			return &reqInfo{}
		}
		w = u.Unwrap()
	}
}

// statusWriter remembers the status a handler wrote.
type statusWriter struct {
	http.ResponseWriter
	status int
	info   *reqInfo
}

func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return w.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the real writer.
func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// withRequestLog gives the request an id (answered as X-Request-Id) and
// writes one log line per request after it: method, route pattern (never
// the path, which can hold a flow token), status, duration, request id and
// session hash. Never bodies or headers.
func (h *Handler) withRequestLog(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		info := &reqInfo{id: newRequestID()}
		w.Header().Set("X-Request-Id", info.id)
		sw := &statusWriter{ResponseWriter: w, info: info}
		next.ServeHTTP(sw, r)
		if sw.status == 0 {
			sw.status = http.StatusOK
		}
		route := info.pattern
		if route == "" {
			route = "web"
			if strings.HasPrefix(r.URL.Path, "/api/") {
				route = "unmatched"
			}
		}
		h.opts.Metrics.Request(route, sw.status, time.Since(start))
		level := slog.LevelInfo
		if sw.status >= 500 {
			level = slog.LevelError
		}
		h.log.LogAttrs(r.Context(), level, "request",
			slog.String("method", r.Method),
			slog.String("route", route),
			slog.Int("status", sw.status),
			slog.Float64("durationMs", float64(time.Since(start).Microseconds())/1000),
			slog.String("requestId", info.id),
			slog.String("session", info.session),
		)
	})
}

// withRecover turns a panic into 500 {"code":"internal","requestId"}; the
// log line carries the panic value and the same id, the answer neither.
func (h *Handler) withRecover(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			if v := recover(); v != nil {
				if v == http.ErrAbortHandler {
					panic(v) // the server's own way to abort a response
				}
				info := infoOf(w)
				h.log.ErrorContext(r.Context(), "panic", "requestId", info.id, "route", info.pattern, "panic", panicText(v))
				writeJSON(w, http.StatusInternalServerError, ErrorResponse{
					Code:      chairside.EINTERNAL,
					Message:   "Something went wrong on our side. Please try again.",
					RequestID: info.id,
				})
			}
		}()
		next.ServeHTTP(w, r)
	})
}

// panicText describes a panic value by type and short text, without a stack.
func panicText(v any) string {
	s := ""
	switch x := v.(type) {
	case error:
		s = x.Error()
	case string:
		s = x
	default:
		s = "non-error panic"
	}
	if len(s) > 200 {
		s = s[:200]
	}
	return s
}

// withHeaders sets the security headers on every answer (including the
// Permissions-Policy, and HSTS when served over https), and no-store on
// every API answer: personal data must not sit in a shared tablet's cache.
func (h *Handler) withHeaders(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hd := w.Header()
		hd.Set("X-Content-Type-Options", "nosniff")
		hd.Set("Referrer-Policy", "no-referrer")
		hd.Set("X-Frame-Options", "DENY")
		hd.Set("Content-Security-Policy", contentSecurityPolicy)
		hd.Set("Cross-Origin-Opener-Policy", "same-origin")
		hd.Set("Permissions-Policy", permissionsPolicy)
		// TLS usually ends at a proxy in front of us (Options.HSTS, set
		// when the public URL is https); r.TLS covers TLS served here.
		if h.opts.HSTS || r.TLS != nil {
			hd.Set("Strict-Transport-Security", hstsValue)
		}
		// Nothing is kept by a browser or a cache in between unless its
		// handler says so (the app's files, help content): an answer
		// that could hold personal data, a health check or an error page
		// alike.
		hd.Set("Cache-Control", "no-store")
		next.ServeHTTP(w, r)
	})
}

// keyLimiter is a token bucket per key (a client IP, a session). Buckets
// idle for a while are dropped so the map cannot grow without bound. It
// lives in memory: each server counts on its own.
type keyLimiter struct {
	limit rate.Limit
	burst int

	mu      sync.Mutex
	buckets map[string]*bucket
	swept   time.Time
}

type bucket struct {
	lim  *rate.Limiter
	seen time.Time
}

func newKeyLimiter(perSecond float64, burst int) *keyLimiter {
	return &keyLimiter{limit: rate.Limit(perSecond), burst: burst, buckets: map[string]*bucket{}, swept: time.Now()}
}

// allow reports whether key may make a request now, and if not, after how
// long it may.
func (l *keyLimiter) allow(key string) (bool, time.Duration) {
	now := time.Now()
	l.mu.Lock()
	defer l.mu.Unlock()
	if now.Sub(l.swept) > time.Minute {
		for k, b := range l.buckets {
			if now.Sub(b.seen) > 10*time.Minute {
				delete(l.buckets, k)
			}
		}
		l.swept = now
	}
	b, ok := l.buckets[key]
	if !ok {
		b = &bucket{lim: rate.NewLimiter(l.limit, l.burst)}
		l.buckets[key] = b
	}
	b.seen = now
	res := b.lim.ReserveN(now, 1)
	if d := res.DelayFrom(now); d > 0 {
		res.CancelAt(now)
		return false, d
	}
	return true, 0
}

// withRateLimit answers 429 rate_limited with Retry-After to an IP over its
// budget. The budget is generous: a whole office can share one address.
// The probes and the app's own static files are not counted: a page's
// first load fetches a score of files at once, several tablets of one
// office may load at the same moment, and a file answered from memory
// costs next to nothing; an app that lost one of its files to a 429 would
// fail to show its screen.
func (h *Handler) withRateLimit(next http.Handler) http.Handler {
	if h.limiter == nil {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if isOps(r.URL.Path) || isStaticFile(r.URL.Path) {
			next.ServeHTTP(w, r)
			return
		}
		if ok, wait := h.limiter.allow(h.clientIP(r)); !ok {
			err := chairside.Errorf(chairside.ERATELIMITED, "Too many requests. Please wait a moment and try again.")
			err.RetryAfter = wait
			h.writeError(w, r, err)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// isStaticFile: the web app's built files, which never touch the database.
func isStaticFile(path string) bool {
	return strings.HasPrefix(path, "/assets/") || strings.HasPrefix(path, "/logos/") || strings.HasPrefix(path, "/favicon.")
}

// newRequestID returns 64 random bits in hex.
func newRequestID() string {
	var b [8]byte
	_, _ = io.ReadFull(rand.Reader, b[:])
	return hex.EncodeToString(b[:])
}
