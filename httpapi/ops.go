package httpapi

import (
	"context"
	"net/http"
	"time"
)

// The operator's endpoints, outside /api/v1 and outside the API contract
// (docs/operations.md): /healthz says the process serves, /readyz that it
// can take patients (the database answers and its migrations are applied),
// /metrics what Prometheus scrapes. None depends on a lender: a lender
// that is down makes its patients cascade to the next one, never the
// server unready.

// readyTimeout bounds /readyz's database check, so a hung database reads
// as not ready instead of a hung probe.
const readyTimeout = 2 * time.Second

func (h *Handler) opsRoutes(mux *http.ServeMux) {
	mux.Handle("GET /healthz", h.named("GET /healthz", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
	})))
	mux.Handle("GET /readyz", h.named("GET /readyz", http.HandlerFunc(h.readyz)))
	if h.opts.Metrics != nil {
		mux.Handle("GET /metrics", h.named("GET /metrics", h.opts.Metrics.Handler()))
	}
}

func (h *Handler) readyz(w http.ResponseWriter, r *http.Request) {
	if h.opts.Ready != nil {
		ctx, cancel := context.WithTimeout(r.Context(), readyTimeout)
		defer cancel()
		if err := h.opts.Ready(ctx); err != nil {
			h.log.Warn("not ready", "err", err.Error())
			writeJSON(w, http.StatusServiceUnavailable, map[string]string{"status": "unavailable", "reason": "database"})
			return
		}
	}
	// The backup's state is detail, not readiness: a replica out of reach
	// must not take the server away from patients.
	if b := h.backupStatus(); b != nil {
		writeJSON(w, http.StatusOK, map[string]any{"status": "ready", "backup": backupView(b)})
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"status": "ready"})
}

// isOps reports whether a path is one of the operator's endpoints, which
// the per-IP rate limit leaves alone: probes and scrapes come often from
// one address.
func isOps(path string) bool {
	return path == "/healthz" || path == "/readyz" || path == "/metrics"
}
