package httpapi_test

import (
	"encoding/json"
	"sync"
	"testing"
	"time"

	"github.com/chairside/chairside"
)

// TestOfficeBackup: managers read where the backup stands, the front desk
// may not; /readyz details it and stays ready while the backup is behind;
// a server without a backup says off.
func TestOfficeBackup(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	shipped := time.Date(2026, 12, 7, 9, 30, 0, 0, time.UTC)
	status := &chairside.BackupStatus{Replica: "/mnt/nas/chairside", LastShipped: shipped}
	current := func() *chairside.BackupStatus {
		mu.Lock()
		defer mu.Unlock()
		s := *status
		return &s
	}
	sqliteOnly(t, config{backup: current}, func(t *testing.T, h *harness) {
		mgr, desk := managerAndDesk(t, h, EntityKey, "backup")
		want(t, h.do(t, req{method: "GET", path: "/office/backup", header: desk.headers(false)}), 403, chairside.EFORBIDDEN)
		got := want(t, h.do(t, req{method: "GET", path: "/office/backup", header: mgr.headers(false)}), 200, "")
		if got["state"] != "ok" || got["replica"] != "/mnt/nas/chairside" || got["lastShipped"] != "2026-12-07T09:30:00Z" || got["lagSeconds"] != 0.0 {
			t.Errorf("a backup that keeps up: %v", got)
		}
		if _, ok := got["failing"]; ok {
			t.Errorf("a working backup has an error: %v", got)
		}

		mu.Lock()
		status.Lag, status.Behind = 95*time.Second, true
		status.Failing, status.FailingSince = "dial tcp 10.0.0.5:443: connect: connection refused", shipped.Add(time.Minute)
		mu.Unlock()
		got = want(t, h.do(t, req{method: "GET", path: "/office/backup", header: mgr.headers(false)}), 200, "")
		if got["state"] != "behind" || got["lagSeconds"] != 95.0 || got["failingSince"] != "2026-12-07T09:31:00Z" || got["failing"] == "" {
			t.Errorf("a backup behind: %v", got)
		}
		ready := readyz(t, h)
		if b, _ := ready["backup"].(map[string]any); ready["status"] != "ready" || b["state"] != "behind" {
			t.Errorf("/readyz with the backup behind: %v", ready)
		}
	})
	sqliteOnly(t, config{}, func(t *testing.T, h *harness) {
		mgr, _ := managerAndDesk(t, h, EntityKey, "nobackup")
		if got := want(t, h.do(t, req{method: "GET", path: "/office/backup", header: mgr.headers(false)}), 200, ""); got["state"] != "off" {
			t.Errorf("no backup: %v", got)
		}
		if ready := readyz(t, h); ready["backup"] != nil {
			t.Errorf("/readyz without a backup: %v", ready)
		}
	})
}

// readyz reads /readyz, which is the operator's, outside the API.
func readyz(t *testing.T, h *harness) map[string]any {
	t.Helper()
	res, err := h.srv.Client().Get(h.srv.URL + "/readyz")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var body map[string]any
	if err := json.NewDecoder(res.Body).Decode(&body); err != nil || res.StatusCode != 200 {
		t.Fatalf("/readyz: %d %v", res.StatusCode, err)
	}
	return body
}
