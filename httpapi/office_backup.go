package httpapi

import (
	"net/http"
	"time"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/office"
)

// OfficeBackup is where this server's backup of its database stands, for
// the office manager's banner (api/openapi.yaml, /office/backup).
type OfficeBackup struct {
	// State is off (no backup here: PostgreSQL, or none configured), ok,
	// or behind (lagging or failing for a minute: the banner shows).
	State        string     `json:"state"`
	Replica      string     `json:"replica,omitempty"`
	LagSeconds   float64    `json:"lagSeconds"`
	LastShipped  *time.Time `json:"lastShipped,omitempty"`
	LastSnapshot *time.Time `json:"lastSnapshot,omitempty"`
	// Failing is the last error reaching the replica, and FailingSince
	// when the errors began.
	Failing      string     `json:"failing,omitempty"`
	FailingSince *time.Time `json:"failingSince,omitempty"`
}

// backupView answers the backup's status as the API tells it.
func backupView(s *chairside.BackupStatus) OfficeBackup {
	if s == nil {
		return OfficeBackup{State: "off"}
	}
	v := OfficeBackup{State: "ok", Replica: s.Replica, LagSeconds: s.Lag.Seconds(), Failing: s.Failing,
		LastShipped: timeOrNil(s.LastShipped), LastSnapshot: timeOrNil(s.LastSnapshot), FailingSince: timeOrNil(s.FailingSince)}
	if s.Behind {
		v.State = "behind"
	}
	return v
}

func timeOrNil(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	t = t.UTC()
	return &t
}

// backupStatus answers the server's backup status, nil without one.
func (h *Handler) backupStatus() *chairside.BackupStatus {
	if h.opts.Backup == nil {
		return nil
	}
	return h.opts.Backup()
}

// officeBackup answers GET /office/backup: managers see whether the
// practice's records are being copied.
func (h *Handler) officeBackup(w http.ResponseWriter, r *http.Request, _ *office.Caller) {
	writeJSON(w, http.StatusOK, backupView(h.backupStatus()))
}
