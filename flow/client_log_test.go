package flow_test

import (
	"testing"

	"github.com/chairside/chairside/flow"
	"github.com/chairside/chairside/testkit"
)

// TestBrowserClientLog: the web app's copy of what it may log is the
// server's (flow/client_log.go).
func TestBrowserClientLog(t *testing.T) {
	testkit.Generated(t, "../"+flow.ClientLogFile, flow.BrowserClientLog())
}
