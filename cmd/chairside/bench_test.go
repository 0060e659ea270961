package main

import (
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/chairside/chairside/demo"
	"github.com/chairside/chairside/store/storetest"
	"github.com/chairside/chairside/testkit"
)

// benchConcurrency is the number of patients applying at once.
const benchConcurrency = 32

// thinkTime is the pause between one patient's calls in the latency phase.
// Real patients read and type for seconds between calls; 100 ms keeps the
// benchmark short while leaving the server most of its capacity, so the
// phase measures latency at 32 concurrent sessions rather than queueing.
const thinkTime = 100 * time.Millisecond

// BenchmarkFlow drives the whole patient journey (14 calls from start to
// finish/completed) with benchConcurrency concurrent sessions over real HTTP
// against the real binary's wiring, on SQLite and on PostgreSQL, and in the
// same run a plain hello-world handler with the same client and
// concurrency. b.N is the number of complete journeys; use -benchtime 2000x
// (make bench).
//
// Two phases, because one number cannot say both things:
//   - throughput: every session sends its next call as soon as the last
//     answers (a closed loop). It reports calls per second, the latency
//     under that saturation, and the share of hello-world's calls per
//     second — the load client shares the machine's cores with the server.
//   - latency: the same 32 sessions pause thinkTime between calls, as
//     people do, and it reports the p99 latency a patient would see.
func BenchmarkFlow(b *testing.B) {
	engines := map[string]func(testing.TB) string{
		"sqlite":   func(tb testing.TB) string { return filepath.Join(tb.TempDir(), "bench.db") },
		"postgres": func(tb testing.TB) string { return storetest.Postgres(tb).DSN },
	}
	for _, name := range []string{"sqlite", "postgres"} {
		b.Run(name, func(b *testing.B) {
			dsn := engines[name](b)
			m := startMain(b, dsn)

			hello := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				io.WriteString(w, `{"hello":"world"}`)
			}))
			defer hello.Close()

			signature := testkit.SignaturePNG(b)
			b.ResetTimer()
			flow := load(b, m.URL(), b.N, func(c *testkit.Client, n int) error {
				return c.CompleteFlow(demo.EntityKey, testkit.SSN(n), signature)
			})
			helloCalls := flow.calls
			base := load(b, hello.URL, helloCalls, func(c *testkit.Client, n int) error {
				return c.CallURL(hello.URL+"/", "GET hello")
			})
			paced := load(b, m.URL(), max(benchConcurrency, b.N/4), func(c *testkit.Client, n int) error {
				c.Think = thinkTime
				return c.CompleteFlow(demo.EntityKey, testkit.SSN(b.N+n), signature)
			})
			b.StopTimer()

			ratio := flow.perSecond() / base.perSecond()
			b.ReportMetric(flow.perSecond(), "calls/s")
			b.ReportMetric(float64(flow.p99().Microseconds())/1000, "p99-ms")
			b.ReportMetric(base.perSecond(), "hello-calls/s")
			b.ReportMetric(float64(base.p99().Microseconds())/1000, "hello-p99-ms")
			b.ReportMetric(100*ratio, "%-of-hello")
			b.ReportMetric(float64(paced.p99().Microseconds())/1000, "paced-p99-ms")
			b.ReportMetric(float64(flow.cpuPerCall().Microseconds()), "cpu-µs/call")
			b.Logf("%s, closed loop: flow %d calls in %s: %.0f calls/s, p50 %s, p99 %s, %s CPU a call | hello-world %.0f calls/s, p99 %s, %s CPU a call | flow = %.1f%% of hello-world",
				name, flow.calls, flow.elapsed.Round(time.Millisecond), flow.perSecond(), flow.p50(), flow.p99(), flow.cpuPerCall(),
				base.perSecond(), base.p99(), base.cpuPerCall(), 100*ratio)
			b.ReportMetric(float64(paced.p50().Microseconds())/1000, "paced-p50-ms")
			b.Logf("%s, %d sessions pausing %s between calls: %d calls at %.0f calls/s, p50 %s, p99 %s",
				name, benchConcurrency, thinkTime, paced.calls, paced.perSecond(), paced.p50(), paced.p99())
			if b.N > 1 {
				// Straight to stdout: the testing package keeps only the
				// first lines of a benchmark's log.
				fmt.Printf("%s, closed loop, by call:\n%s%s, %d sessions pausing %s, by call:\n%s",
					name, flow.breakdown(), name, benchConcurrency, thinkTime, paced.breakdown())
			}
		})
	}
}

// loadResult is what one load run measured.
type loadResult struct {
	calls     int
	elapsed   time.Duration
	latencies []time.Duration // sorted
	// byCall holds the sorted latencies of each kind of call (callName).
	byCall map[string][]time.Duration
	// cpu is the CPU time (user+system) this process used during the run:
	// server and load client, not PostgreSQL's backends.
	cpu time.Duration
}

// cpuPerCall is the process's CPU time per call. On a machine shared with
// other work it is steadier than calls/s, which depends on how much CPU
// the neighbours leave.
func (r loadResult) cpuPerCall() time.Duration {
	if r.calls == 0 {
		return 0
	}
	return (r.cpu / time.Duration(r.calls)).Round(time.Microsecond)
}

// processCPU is the CPU time (user+system) the process has used.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// breakdown is a table of every kind of call's latency percentiles,
// slowest p99 first, so a slow endpoint shows at the top.
func (r loadResult) breakdown() string {
	type row struct {
		name string
		l    loadResult
	}
	var rows []row
	for name, l := range r.byCall {
		rows = append(rows, row{name, loadResult{calls: len(l), latencies: l}})
	}
	slices.SortFunc(rows, func(a, b row) int { return int(b.l.p99() - a.l.p99()) })
	var sb strings.Builder
	fmt.Fprintf(&sb, "    %-40s %6s %9s %9s %9s %9s\n", "call", "n", "p50", "p90", "p99", "max")
	for _, r := range rows {
		fmt.Fprintf(&sb, "    %-40s %6d %9s %9s %9s %9s\n", r.name, r.l.calls,
			r.l.p50(), r.l.percentile(0.90), r.l.p99(), r.l.percentile(1))
	}
	return sb.String()
}

func (r loadResult) perSecond() float64 { return float64(r.calls) / r.elapsed.Seconds() }
func (r loadResult) p50() time.Duration { return r.percentile(0.50) }
func (r loadResult) p99() time.Duration { return r.percentile(0.99) }

func (r loadResult) percentile(p float64) time.Duration {
	if len(r.latencies) == 0 {
		return 0
	}
	return r.latencies[min(len(r.latencies)-1, int(p*float64(len(r.latencies))))].Round(10 * time.Microsecond)
}

// load runs job n = 0 … total-1 on benchConcurrency workers, each with its
// own testkit.Client over one shared keep-alive transport, and fails the
// benchmark on the first error.
func load(b testing.TB, base string, total int, job func(c *testkit.Client, n int) error) loadResult {
	transport := &http.Transport{MaxIdleConns: 2 * benchConcurrency, MaxIdleConnsPerHost: 2 * benchConcurrency}
	defer transport.CloseIdleConnections()
	client := &http.Client{Transport: transport, Timeout: 30 * time.Second}

	var next atomic.Int64
	var mu sync.Mutex
	var all []time.Duration
	byCall := map[string][]time.Duration{}
	var firstErr error
	var wg sync.WaitGroup
	start, cpu0 := time.Now(), processCPU()
	for range benchConcurrency {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := &testkit.Client{Base: base, HTTP: client}
			for {
				n := int(next.Add(1)) - 1
				if n >= total {
					break
				}
				if err := job(c, n); err != nil {
					mu.Lock()
					if firstErr == nil {
						firstErr = fmt.Errorf("job %d: %w", n, err)
					}
					mu.Unlock()
					return
				}
			}
			mu.Lock()
			all = append(all, c.Latencies...)
			for i, name := range c.Names {
				byCall[name] = append(byCall[name], c.Latencies[i])
			}
			mu.Unlock()
		}()
	}
	wg.Wait()
	elapsed, cpu := time.Since(start), processCPU()-cpu0
	if firstErr != nil {
		b.Fatal(firstErr)
	}
	slices.Sort(all)
	for _, l := range byCall {
		slices.Sort(l)
	}
	return loadResult{calls: len(all), elapsed: elapsed, latencies: all, byCall: byCall, cpu: cpu}
}

// startMain runs the real program in-process on a free port against dsn,
// env test (demo offices seeded, sandbox answering at once, no rate limit),
// with quiet logs.
func startMain(tb testing.TB, dsn string) *Main {
	tb.Helper()
	return startMainAt(tb, dsn, filepath.Join(tb.TempDir(), "keys.json"))
}

func quietLogger() *slog.Logger { return slog.New(slog.NewJSONHandler(io.Discard, nil)) }
