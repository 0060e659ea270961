package main

import (
	"flag"
	"fmt"
	"path/filepath"
	"strings"
	"time"
)

// The time-to-decision benchmark (`chairside-bench decision`, `make
// bench-decision`; docs/performance.md, "Time to decision"): how long a
// patient waits, from the tap on "Check my options" to the answer, for
// one lender and for a cascade of three (two declines, then an approval,
// asked by the server within the one call), with the sandbox lenders
// taking a set time to decide and many patients at once. What the
// patient waits beyond the lenders' own time is ours.

// decisionCase is one way to a decision: the load kind that makes it and
// how many lenders decide in it.
type decisionCase struct {
	kind    string
	name    string
	lenders int
}

var decisionCases = []decisionCase{
	{"decision", "one lender", 1},
	{"cascade", "three lenders, one call", 3},
}

// decisionMain runs the benchmark and prints its table.
func decisionMain(args []string) error {
	fs := flag.NewFlagSet("chairside-bench decision", flag.ContinueOnError)
	bin := fs.String("bin", "bin/chairside", "the server binary")
	postgres := fs.String("postgres", "postgres://postgres@127.0.0.1:5432/test?sslmode=disable", "PostgreSQL server; the benchmark makes and drops a database of its own on it")
	engines := fs.String("engines", "sqlite,postgres", "engines to measure")
	latencies := fs.String("latencies", "1s,200ms", "how long each sandbox lender takes to decide, one run each")
	patients := fs.Int("patients", 32, "patients waiting at once")
	rounds := fs.Int("rounds", 8, "decisions per patient in each run")
	think := fs.Duration("think", 100*time.Millisecond, "mean pause between one patient's calls, as a person reading would make (the paced run of make bench)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	self, tmp, cleanup, err := workspace()
	if err != nil {
		return err
	}
	defer cleanup()
	fmt.Printf("Time to decision, %s, %d patients at once\n%s\n\n", time.Now().Format("2006-01-02 15:04"), *patients, machine())
	fmt.Printf("%-9s %-7s %-24s %9s %9s %9s %9s\n", "engine", "lender", "decision", "p50", "p99", "ours p50", "ours p99")
	for _, engine := range strings.Split(*engines, ",") {
		dsn := filepath.Join(tmp, engine+".db")
		if engine == "postgres" {
			var drop func()
			if dsn, drop, err = postgresDatabase(*postgres); err != nil {
				return err
			}
			defer drop()
		}
		offset := 0
		for _, l := range strings.Split(*latencies, ",") {
			latency, err := time.ParseDuration(l)
			if err != nil {
				return err
			}
			r := decisionRun{bin: *bin, self: self, dsn: dsn, keys: filepath.Join(tmp, engine+".keys.json"), engine: engine,
				latency: latency, patients: *patients, rounds: *rounds, think: *think}
			if offset, err = r.measure(offset); err != nil {
				return fmt.Errorf("%s at %s: %w", engine, latency, err)
			}
		}
	}
	return nil
}

// decisionRun is one server whose lenders take latency, and how it is
// loaded.
type decisionRun struct {
	bin, self, dsn, keys, engine string
	latency, think               time.Duration
	patients, rounds             int
}

// measure measures every decisionCase on the run's server, each patient
// applying with SSNs from offset on, and answers the next unused offset.
// Each case is first run once unmeasured, one decision a patient, so that
// what is measured is a server already warm (its database connections
// open, its lenders' documents held), as a practice's server is. The
// patients pause between calls as the paced run's do, so they reach the
// decision at moments of their own, not all in the same millisecond.
func (r decisionRun) measure(offset int) (int, error) {
	srv, _, err := startServer(r.bin, r.dsn, r.keys, nil, r.latency)
	if err != nil {
		return offset, err
	}
	defer srv.stop()
	for _, c := range decisionCases {
		if _, err := srv.load(r.self, c.kind, r.patients, offset, r.patients, r.think); err != nil {
			return offset, err
		}
		offset += r.patients
		n := r.patients * r.rounds
		m, err := srv.load(r.self, c.kind, n, offset, r.patients, r.think)
		if err != nil {
			return offset, err
		}
		offset += n
		waits := m.res.ByCall["POST prequalify"]
		own := time.Duration(c.lenders) * r.latency
		p50, p99 := percentile(waits, 0.50), percentile(waits, 0.99)
		fmt.Printf("%-9s %-7s %-24s %9s %9s %9s %9s\n", r.engine, r.latency, c.name, ms(p50), ms(p99), ms(p50-own), ms(p99-own))
	}
	return offset, srv.stop()
}

// ms writes d in milliseconds with one decimal.
func ms(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d.Microseconds())/1000) }
