package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/chairside/chairside/demo"
	"github.com/chairside/chairside/lender/sandbox"
	"github.com/chairside/chairside/seal"
	"github.com/chairside/chairside/store"
	"github.com/chairside/chairside/store/storetest"
	"github.com/chairside/chairside/testkit"
)

// The tests here run the real program in a child process — this test
// binary, re-executed as `chairside serve` — so that they can kill it.

// childArgsEnv carries the command line of a child server (JSON).
const childArgsEnv = "CHAIRSIDE_TEST_CHILD_ARGS"

func TestMain(m *testing.M) {
	if args := os.Getenv(childArgsEnv); args != "" {
		var a []string
		if err := json.Unmarshal([]byte(args), &a); err != nil {
			fmt.Fprintln(os.Stderr, "child args:", err)
			os.Exit(2)
		}
		os.Args = append([]string{"chairside"}, a...)
		main()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// child is one `chairside serve` process.
type child struct {
	cmd  *exec.Cmd
	url  string
	done chan error
	out  *testkit.LockedBuffer
}

// server describes the servers a test starts one after another on one
// database, as restarts of the same deployment.
type server struct {
	dsn     string
	keys    string // the keyring's JSON, passed as CHAIRSIDE_KEYS
	journal string // the sandbox's journal of lender calls
	// extra are more flags for every start (a fast funding day), env more
	// variables (a developer key).
	extra, env []string
}

func newServer(t *testing.T, engine string) *server {
	t.Helper()
	data, err := seal.Generate()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	s := &server{keys: string(data), journal: filepath.Join(dir, "lender-calls.jsonl")}
	if engine == store.Postgres {
		s.dsn = storetest.Postgres(t).DSN
	} else {
		s.dsn = filepath.Join(dir, "chairside.db")
	}
	return s
}

// start runs a child server; latency is how long each sandbox answer takes
// and lenderTimeout how long the server waits for one.
func (s *server) start(t *testing.T, latency, lenderTimeout time.Duration) *child {
	t.Helper()
	args, _ := json.Marshal(append([]string{"serve", "-addr", "127.0.0.1:0", "-db", s.dsn, "-env", "test",
		"-sandbox-latency", latency.String(), "-lender-timeout", lenderTimeout.String(),
		"-sandbox-journal", s.journal, "-rate-limit", "0", "-log-level", "error"}, s.extra...))
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(append(os.Environ(), childArgsEnv+"="+string(args), "CHAIRSIDE_KEYS="+s.keys), s.env...)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	c := &child{cmd: cmd, done: make(chan error, 1), out: &testkit.LockedBuffer{}}
	cmd.Stderr = c.out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); <-c.done })
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if u, ok := strings.CutPrefix(sc.Text(), "Open "); ok {
				found <- strings.TrimSuffix(u, "/")
			}
		}
		c.done <- cmd.Wait()
	}()
	select {
	case c.url = <-found:
	case err := <-c.done:
		c.done <- err
		t.Fatalf("server exited before listening: %v\n%s", err, c.out.String())
	case <-time.After(30 * time.Second):
		t.Fatalf("server did not start\n%s", c.out.String())
	}
	return c
}

// client is a patient's client of this server.
func (c *child) client() *testkit.Client {
	return &testkit.Client{Base: c.url, HTTP: &http.Client{Timeout: time.Minute}}
}

// kill ends the process at once, as a power cut or an OOM kill would.
func (c *child) kill(t *testing.T) {
	t.Helper()
	if err := c.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	<-c.done
	c.done <- nil
}

// calls reads the sandbox's journal: every lender call, in order.
func (s *server) calls(t *testing.T) []sandbox.Call {
	t.Helper()
	data, err := os.ReadFile(s.journal)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	} else if err != nil {
		t.Fatal(err)
	}
	var out []sandbox.Call
	for line := range strings.Lines(string(data)) {
		var c sandbox.Call
		if err := json.Unmarshal([]byte(line), &c); err != nil {
			t.Fatalf("journal line %q: %v", line, err)
		}
		out = append(out, c)
	}
	return out
}

// waitForCall waits until the lender has received an n-th call of op.
func (s *server) waitForCall(t *testing.T, op string, n int) sandbox.Call {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		seen := 0
		for _, c := range s.calls(t) {
			if c.Op == op {
				if seen++; seen == n {
					return c
				}
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("the lender never received call %d of %s", n, op)
	return sandbox.Call{}
}

// open opens the database the servers use, as they do.
func (s *server) open(t *testing.T) *store.DB {
	t.Helper()
	keys, err := seal.FromJSON([]byte(s.keys))
	if err != nil {
		t.Fatal(err)
	}
	db, err := store.Open(context.Background(), s.dsn, keys)
	if err != nil {
		t.Fatal(err)
	}
	return db
}

// audit opens the database the servers used and checks that no status
// lacks its evidence.
func (s *server) audit(t *testing.T) {
	t.Helper()
	db := s.open(t)
	defer db.Close()
	problems, err := db.Audit(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Errorf("audit: %s", p)
	}
}

// consentTo reads a lender document as the browser shows it and answers
// the patient's agreement to it.
func consentTo(t *testing.T, c *testkit.Client, kind string) map[string]any {
	t.Helper()
	consent, err := c.Consent("synchrony_standard", kind)
	if err != nil {
		t.Fatal(err)
	}
	return consent
}

// startSession starts a patient's session at the demo office.
func startSession(t *testing.T, c *testkit.Client) {
	t.Helper()
	if _, err := c.Start(demo.EntityKey); err != nil {
		t.Fatal(err)
	}
}

// TestCrashDuringLenderCalls kills the real server (SIGKILL) while the
// lender answers each of the four lender steps of a journey, on both
// engines. After each restart the next step is refused while the killed
// step is in flight; its retry waits, then takes the step over and the
// lender sees the same reference again; the journey goes on to
// finish/completed, and the audit finds every status with its evidence.
func TestCrashDuringLenderCalls(t *testing.T) {
	if testing.Short() {
		t.Skip("starts and kills servers")
	}
	for _, engine := range []string{store.SQLite, store.Postgres} {
		t.Run(engine, func(t *testing.T) {
			t.Parallel()
			srv := newServer(t, engine)
			const slow, timeout = 1500 * time.Millisecond, 3 * time.Second
			live := srv.start(t, 0, timeout)
			c := live.client()
			startSession(t, c)
			const p = "/providers/synchrony_standard"
			plain := func(name, path string, body any, out any) {
				t.Helper()
				if err := c.Call("POST", path, body, out); err != nil {
					t.Fatalf("%s: %v", name, err)
				}
			}
			// crashAt runs one lender step on a slow server and kills it
			// while the lender answers, then restarts a quick one and
			// checks the recovery.
			crashAt := func(name, op, path string, body any, next func() error) {
				t.Helper()
				live.kill(t)
				live = srv.start(t, slow, timeout)
				c.Base = live.url
				before := len(srv.calls(t))
				sent := make(chan error, 1)
				go func() { sent <- c.Call("POST", path, body, nil) }()
				first := srv.waitForCall(t, op, countOp(srv.calls(t)[:before], op)+1)
				live.kill(t)
				if err := <-sent; err == nil {
					t.Fatalf("%s answered although the server was killed mid-call", name)
				}
				live = srv.start(t, 0, timeout)
				c.Base = live.url
				if err := next(); !isStatus(err, http.StatusConflict) {
					t.Fatalf("after a crash in %s the next step was not refused: %v", name, err)
				}
				// The retry waits while the claim's lease runs, then takes over.
				deadline := time.Now().Add(30 * time.Second)
				for {
					err := c.Call("POST", path, body, nil)
					if err == nil {
						break
					}
					if !isStatus(err, http.StatusConflict) || !strings.Contains(err.Error(), `"in_flight"`) || time.Now().After(deadline) {
						t.Fatalf("retry of %s: %v", name, err)
					}
					time.Sleep(250 * time.Millisecond)
				}
				n, refs := 0, map[string]bool{}
				for _, call := range srv.calls(t) {
					if call.Op == op {
						n++
						refs[call.Reference] = true
					}
				}
				if !refs[first.Reference] || len(refs) != 1 {
					t.Fatalf("%s: the lender saw references %v; want only %s", name, refs, first.Reference)
				}
				t.Logf("%s: %d lender calls with reference %s", name, n, first.Reference)
			}

			prequalify := map[string]any{"primary": testkit.Applicant("Approve", "123455000"), "jointEnabled": false, "consent": consentTo(t, c, "prequalification")}
			crashAt("prequalify", sandbox.OpDecide, p+"/prequalify", prequalify, func() error {
				return c.Call("POST", p+"/payment/plans", map[string]any{"amountCents": 300000}, nil)
			})
			var plans struct {
				PaymentPlans []struct {
					LenderPlanCode      string `json:"providerPlanCode"`
					MinAmountCents      int64  `json:"minAmountCents"`
					AmountFinancedCents int64  `json:"amountFinancedCents"`
				} `json:"paymentPlans"`
			}
			plain("plans", p+"/payment/plans", map[string]any{"amountCents": 300000}, &plans)
			planCode := plans.PaymentPlans[0].LenderPlanCode
			plain("select", p+"/payment/plans/"+planCode+"/select", nil, nil)
			plain("confirm", p+"/payment/plans/"+planCode+"/confirm-selection", nil, nil)
			esign, err := c.SigningConsents("synchrony_standard", testkit.SignaturePNG(t))
			if err != nil {
				t.Fatal(err)
			}
			crashAt("acceptOffer", sandbox.OpAcceptOffer, p+"/acceptOffer", map[string]any{}, func() error {
				return c.Call("POST", p+"/application/esign", esign, nil)
			})
			crashAt("esign", sandbox.OpESign, p+"/application/esign", esign, func() error {
				return c.Call("POST", p+"/application/complete", nil, nil)
			})
			crashAt("complete", sandbox.OpComplete, p+"/application/complete", map[string]any{}, func() error {
				return c.Call("POST", "/flow/finish/completed", nil, nil)
			})
			plain("finish", "/flow/finish/completed", nil, nil)
			live.kill(t)
			srv.audit(t)
		})
	}
}

// TestSIGTERMLetsLenderCallsSettle: a server told to stop while the lender
// is answering waits for the answer, records it, answers the patient and
// only then exits; after a restart the patient's retry gets the same
// answer without another lender call.
func TestSIGTERMLetsLenderCallsSettle(t *testing.T) {
	if testing.Short() {
		t.Skip("starts and stops servers")
	}
	t.Parallel()
	srv := newServer(t, store.SQLite)
	live := srv.start(t, 2*time.Second, 5*time.Second)
	c := live.client()
	startSession(t, c)
	body := map[string]any{"primary": testkit.Applicant("Approve", "123455001"), "jointEnabled": false, "consent": consentTo(t, c, "prequalification")}
	type answer struct {
		ResponseCode string `json:"responseCode"`
		LenderRef    string `json:"lenderApplicationId"`
	}
	var first answer
	sent := make(chan error, 1)
	go func() { sent <- c.Call("POST", "/providers/synchrony_standard/prequalify", body, &first) }()
	srv.waitForCall(t, sandbox.OpDecide, 1)
	if err := live.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := <-sent; err != nil {
		t.Fatalf("the call in flight at SIGTERM: %v\n%s", err, live.out.String())
	}
	if err := <-live.done; err != nil {
		t.Fatalf("exit after SIGTERM: %v\n%s", err, live.out.String())
	}
	live.done <- nil
	if first.ResponseCode == "" {
		t.Fatal("no decision answered")
	}

	live = srv.start(t, 0, 5*time.Second)
	c.Base = live.url
	var again answer
	if err := c.Call("POST", "/providers/synchrony_standard/prequalify", body, &again); err != nil {
		t.Fatal(err)
	}
	if again != first || countOp(srv.calls(t), sandbox.OpDecide) != 1 {
		t.Fatalf("retry after restart: %+v, first %+v, %d lender calls", again, first, countOp(srv.calls(t), sandbox.OpDecide))
	}
	live.kill(t)
	srv.audit(t)
}

func countOp(calls []sandbox.Call, op string) int {
	n := 0
	for _, c := range calls {
		if c.Op == op {
			n++
		}
	}
	return n
}

func isStatus(err error, status int) bool {
	var ae *testkit.APIError
	return errors.As(err, &ae) && ae.Status == status
}
