package httpapi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	"github.com/chairside/chairside/office"
)

// keepAliveEvery is how often a quiet stream sends a comment line, so that
// proxies and the browser keep the connection open.
const keepAliveEvery = 15 * time.Second

// officeStream serves the office's list as server-sent events: the list at
// once, then again whenever it differs from the last one sent. It looks
// every office.Service.StreamEvery, reading the store, so a change made
// through any server sharing the database reaches every screen. It ends
// when the staff session does (checked without keeping it alive), with a
// signed_out event, or when the client goes away.
func (h *Handler) officeStream(w http.ResponseWriter, r *http.Request, c *office.Caller) {
	q := r.URL.Query()
	f, err := h.officeFilter(r)
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	rc := http.NewResponseController(w)
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("X-Accel-Buffering", "no") // a proxy must pass events on at once
	w.WriteHeader(http.StatusOK)
	h.office.AuditListView(r.Context(), c, f)

	ctx := r.Context()
	tick := time.NewTicker(h.office.StreamEvery)
	defer tick.Stop()
	var last []byte
	lastWrite := time.Now()
	for {
		if err := h.office.StillSignedIn(ctx, c); err != nil {
			// Said before closing, so the screen signs out at once instead of
			// after the browser's reconnection answers 401.
			_, _ = w.Write([]byte("event: signed_out\ndata: {}\n\n"))
			_ = rc.Flush()
			return
		}
		if q.Get("day") == "" { // "today" moves at midnight
			f, _ = office.ParseFilter("", q.Get("tz"), q.Get("status"), h.office.Now())
		}
		list, err := h.office.List(ctx, c, f)
		if err != nil {
			if ctx.Err() == nil {
				h.log.ErrorContext(ctx, "office stream", "err", err.Error(), "requestId", infoOf(w).id)
			}
			return
		}
		buf, err := json.Marshal(list)
		if err != nil {
			return
		}
		var out []byte
		switch {
		case !bytes.Equal(buf, last):
			out, last = fmt.Appendf(nil, "event: applications\ndata: %s\n\n", buf), buf
		case time.Since(lastWrite) >= keepAliveEvery:
			out = []byte(": still here\n\n")
		}
		if out != nil {
			// The server's write time-out is sized for one answer; a stream
			// moves it on with every write.
			_ = rc.SetWriteDeadline(time.Now().Add(keepAliveEvery + 30*time.Second))
			if _, err := w.Write(out); err != nil {
				return
			}
			if err := rc.Flush(); err != nil {
				return
			}
			lastWrite = time.Now()
		}
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}
