package flow

import (
	"context"
	"log/slog"
	"regexp"
	"time"

	"github.com/chairside/chairside"
)

// Shapes of a client log line's code and route: identifiers only, so
// neither can carry a name, an email address or a sentence.
var (
	logCode  = regexp.MustCompile(`^[a-z][a-z0-9_.-]{0,63}$`)
	logRoute = regexp.MustCompile(`^/[A-Za-z0-9_./{}:-]{0,127}$`)
)

// ClientLog writes a browser's error report as one log line of the
// caller's session: the level the browser gave, message "client log", and
// source, code, route and the session hash — no text of the browser's
// beyond the code and the route, which are checked against narrow
// shapes. Anything else is bad_request. The caller must have a live
// session; the HTTP layer bounds the size and the rate.
func (s *Service) ClientLog(ctx context.Context, c *Caller, req *LogRequest) error {
	var level slog.Level
	switch req.Level {
	case "error":
		level = slog.LevelError
	case "warn":
		level = slog.LevelWarn
	case "info":
		level = slog.LevelInfo
	default:
		return errorf(chairside.EBADREQUEST, `level must be "error", "warn" or "info".`)
	}
	if !logCode.MatchString(req.Code) {
		return errorf(chairside.EBADREQUEST, "code must be an error code of 1 to 64 characters: a lower-case letter, then lower-case letters, digits, _ . or -.")
	}
	if !logRoute.MatchString(req.Route) {
		return errorf(chairside.EBADREQUEST, "route must be the app's route pattern: / then at most 127 letters, digits, _ . / { } : or -.")
	}
	if req.ClientDateTime != "" {
		if _, err := time.Parse(time.RFC3339, req.ClientDateTime); len(req.ClientDateTime) > 40 || err != nil {
			return errorf(chairside.EBADREQUEST, "clientDateTime must be an RFC 3339 date and time, e.g. 2026-01-31T14:05:00Z.")
		}
	}
	s.log.LogAttrs(ctx, level, "client log",
		slog.String("source", "browser"),
		slog.String("code", req.Code),
		slog.String("route", req.Route),
		slog.String("session", SessionHash(c.Session.ID)),
	)
	return nil
}
