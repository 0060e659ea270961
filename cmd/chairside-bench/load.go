package main

import (
	"cmp"
	"encoding/json"
	"flag"
	"fmt"
	"net/http"
	"os"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/chairside/chairside/demo"
	"github.com/chairside/chairside/testkit"
)

// The load client: `chairside-bench load` runs jobs on a number of
// concurrent sessions against one server and prints what it measured as
// JSON on standard output. The orchestrator starts it as a process of its
// own, on a core of its own, so that the client's work is not counted
// against the server's.

// loadResult is what one load run measured, as the client prints it.
type loadResult struct {
	Calls     int     `json:"calls"`
	ElapsedMS float64 `json:"elapsedMs"`
	// Latencies are every call's, sorted, in microseconds; ByCall the
	// same by kind of call ("POST prequalify").
	Latencies []int64            `json:"latencies"`
	ByCall    map[string][]int64 `json:"byCall"`
}

// loadMain is the client's main: flags, run, JSON out.
func loadMain(args []string) error {
	fs := flag.NewFlagSet("chairside-bench load", flag.ContinueOnError)
	base := fs.String("base", "", "server address, e.g. http://127.0.0.1:8080")
	kind := fs.String("kind", "flow", "flow (the whole journey), decision (to the first lender's decision), cascade (two declines and an approval in one call), start (a session started and left live), hello (GET /) or durable (POST /event: one durable write)")
	n := fs.Int("n", 100, "jobs: journeys, sessions or calls")
	offset := fs.Int("offset", 0, "first job number (each journey applies with SSN number offset+job)")
	sessions := fs.Int("sessions", 32, "concurrent sessions")
	think := fs.Duration("think", 0, "mean pause before every call but a journey's first")
	if err := fs.Parse(args); err != nil {
		return err
	}
	signature, err := testkit.Signature()
	if err != nil {
		return err
	}
	jobs := map[string]func(c *testkit.Client, n int) error{
		"flow": func(c *testkit.Client, n int) error {
			return c.CompleteFlow(demo.EntityKey, testkit.SSN(n), signature)
		},
		"decision": func(c *testkit.Client, n int) error {
			return c.Decide(demo.EntityKey, testkit.SSN(n), false)
		},
		"cascade": func(c *testkit.Client, n int) error {
			return c.Decide(demo.EntityKey, testkit.SSN(n), true)
		},
		"start": func(c *testkit.Client, n int) error {
			c.SessionID = "" // a new session each time
			_, err := c.Start(demo.EntityKey)
			return err
		},
		"hello": func(c *testkit.Client, n int) error {
			return c.CallURL("GET", *base+"/", "GET hello")
		},
		"durable": func(c *testkit.Client, n int) error {
			return c.CallURL("POST", *base+"/event", "POST event")
		},
	}
	job, ok := jobs[*kind]
	if !ok {
		return fmt.Errorf("unknown kind %q", *kind)
	}
	r, err := runLoad(*base, *sessions, *offset, *n, *think, job)
	if err != nil {
		return err
	}
	return json.NewEncoder(os.Stdout).Encode(r)
}

// runLoad runs jobs offset … offset+total-1 on `sessions` workers, each
// with its own testkit.Client over one shared keep-alive transport, and
// stops at the first error.
func runLoad(base string, sessions, offset, total int, think time.Duration, job func(c *testkit.Client, n int) error) (*loadResult, error) {
	transport := &http.Transport{MaxIdleConns: 2 * sessions, MaxIdleConnsPerHost: 2 * sessions}
	defer transport.CloseIdleConnections()
	client := &http.Client{Transport: transport, Timeout: 30 * time.Second}

	var next atomic.Int64
	var mu sync.Mutex
	r := &loadResult{ByCall: map[string][]int64{}}
	var firstErr error
	var wg sync.WaitGroup
	start := time.Now()
	for i := range sessions {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// Paced sessions start spread over one pause, as patients
			// arrive: started together, they would stay in step and send
			// the same call at the same moment all the way through.
			time.Sleep(think * time.Duration(i) / time.Duration(sessions))
			c := &testkit.Client{Base: base, HTTP: client, Think: think}
			for {
				n := int(next.Add(1)) - 1
				if n >= total {
					break
				}
				if err := job(c, offset+n); err != nil {
					mu.Lock()
					firstErr = cmp.Or(firstErr, fmt.Errorf("job %d: %w", offset+n, err))
					mu.Unlock()
					return
				}
			}
			mu.Lock()
			for i, name := range c.Names {
				us := c.Latencies[i].Microseconds()
				r.Latencies = append(r.Latencies, us)
				r.ByCall[name] = append(r.ByCall[name], us)
			}
			mu.Unlock()
		}()
	}
	wg.Wait()
	if firstErr != nil {
		return nil, firstErr
	}
	r.ElapsedMS = float64(time.Since(start).Microseconds()) / 1000
	r.Calls = len(r.Latencies)
	slices.Sort(r.Latencies)
	for _, l := range r.ByCall {
		slices.Sort(l)
	}
	return r, nil
}

func (r *loadResult) perSecond() float64 { return float64(r.Calls) / (r.ElapsedMS / 1000) }

// percentile answers the p-th latency (0 ≤ p ≤ 1) of sorted microseconds.
func percentile(sorted []int64, p float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	us := sorted[min(len(sorted)-1, int(p*float64(len(sorted))))]
	return (time.Duration(us) * time.Microsecond).Round(10 * time.Microsecond)
}
