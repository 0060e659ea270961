package main

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chairside/chairside/lender/sandbox"
	"github.com/chairside/chairside/store"
	"github.com/chairside/chairside/testkit"
)

// cascadeAnswer is what the test reads of a submit's answer: the first
// lender's code, and the later lenders' the server asked within it.
type cascadeAnswer struct {
	LenderKey    string `json:"providerKey"`
	ResponseCode string `json:"responseCode"`
	Cascaded     []struct {
		LenderKey    string `json:"providerKey"`
		ResponseCode string `json:"responseCode"`
	} `json:"cascaded"`
}

func (a cascadeAnswer) String() string {
	out := []string{a.LenderKey + " " + a.ResponseCode}
	for _, d := range a.Cascaded {
		out = append(out, d.LenderKey+" "+d.ResponseCode)
	}
	return strings.Join(out, ", ")
}

// TestCrashMidCascade kills the real server (SIGKILL) while the third
// lender of a cascade the server runs within one submit is deciding,
// after the first two declined (the demo office: synchrony, then fortiva
// and snap asked by themselves). The patient's retry of the same submit
// replays the two declines without asking those lenders again, waits
// while the killed call's lease runs, then takes the third lender's call
// over with its reference and ends with its approval; the audit finds
// every status with its evidence.
func TestCrashMidCascade(t *testing.T) {
	if testing.Short() {
		t.Skip("starts and kills servers")
	}
	for _, engine := range []string{store.SQLite, store.Postgres} {
		t.Run(engine, func(t *testing.T) {
			t.Parallel()
			srv := newServer(t, engine)
			// Each lender takes 1.5 s; the lease of a killed call runs 7 s.
			const slow, timeout = 1500 * time.Millisecond, 5 * time.Second
			live := srv.start(t, slow, timeout)
			c := live.client()
			startSession(t, c)
			if err := c.Call("POST", "/test-cases/apply/two-declines-then-approval", nil, nil); err != nil {
				t.Fatal(err)
			}
			applicant := testkit.Applicant("Smith", "123455001")
			request := func(lender string) map[string]any {
				consent, err := c.Consent(lender, "prequalification")
				if err != nil {
					t.Fatal(err)
				}
				return map[string]any{"primary": applicant, "jointEnabled": false, "consent": consent}
			}
			submit := request("synchrony_standard")
			submit["cascade"] = []map[string]any{
				{"provider": "fortiva_standard", "applyMode": "prequalify", "request": request("fortiva_standard")},
				{"provider": "snap_standard", "applyMode": "prequalify", "request": request("snap_standard")},
			}
			const path = "/providers/synchrony_standard/prequalify"
			sent := make(chan error, 1)
			go func() { sent <- c.Call("POST", path, submit, nil) }()
			third := srv.waitForCall(t, sandbox.OpDecide, 3)
			if third.LenderKey != "snap_standard" {
				t.Fatalf("the third decision asked %s, want snap_standard", third.LenderKey)
			}
			live.kill(t)
			if err := <-sent; err == nil {
				t.Fatal("the submit answered although the server was killed mid-cascade")
			}

			live = srv.start(t, 0, timeout)
			c.Base = live.url
			// Until the killed call's lease runs out, the retry answers the
			// two declines, the third lender in flight; then it asks that
			// lender again with its reference.
			var got cascadeAnswer
			deadline := time.Now().Add(30 * time.Second)
			for {
				got = cascadeAnswer{}
				if err := c.Call("POST", path, submit, &got); err != nil && !isStatus(err, http.StatusConflict) {
					t.Fatalf("retry: %v", err)
				}
				if len(got.Cascaded) == 2 || time.Now().After(deadline) {
					break
				}
				time.Sleep(250 * time.Millisecond)
			}
			if want := "synchrony_standard declined, fortiva_standard declined, snap_standard prequalified"; got.String() != want {
				t.Fatalf("after the crash the cascade answered %q, want %q", got, want)
			}
			asked := map[string]map[string]bool{}
			for _, call := range srv.calls(t) {
				if call.Op == sandbox.OpDecide {
					if asked[call.LenderKey] == nil {
						asked[call.LenderKey] = map[string]bool{}
					}
					asked[call.LenderKey][call.Reference] = true
				}
			}
			if n := countOp(srv.calls(t), sandbox.OpDecide); n != 4 {
				t.Errorf("%d decisions asked, want 4: each lender once, and the killed one again", n)
			}
			for _, lender := range []string{"synchrony_standard", "fortiva_standard", "snap_standard"} {
				if len(asked[lender]) != 1 {
					t.Errorf("%s saw references %v, want one", lender, asked[lender])
				}
			}
			if !asked["snap_standard"][third.Reference] {
				t.Errorf("snap was asked again with another reference: %v", asked["snap_standard"])
			}
			live.kill(t)
			srv.audit(t)
		})
	}
}
