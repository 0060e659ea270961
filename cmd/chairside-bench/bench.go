package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // the "pgx" driver, for the benchmark's own database
)

// options are benchMain's flags.
type options struct {
	bin, postgres, profile string
	journeys, sessions     int
	engines                []string
	think                  time.Duration
}

// benchMain runs the whole benchmark and prints its report.
func benchMain(args []string) error {
	fs := flag.NewFlagSet("chairside-bench", flag.ContinueOnError)
	var o options
	fs.StringVar(&o.bin, "bin", "bin/chairside", "the server binary")
	fs.IntVar(&o.journeys, "journeys", 2000, "journeys of the closed loop (the paced run makes a quarter as many)")
	fs.IntVar(&o.sessions, "sessions", 32, "concurrent sessions")
	engines := fs.String("engines", "sqlite,postgres", "engines to measure")
	fs.StringVar(&o.postgres, "postgres", "postgres://postgres@127.0.0.1:5432/test?sslmode=disable", "PostgreSQL server; the benchmark makes and drops a database of its own on it")
	fs.StringVar(&o.profile, "profile", "", "write the SQLite server's CPU profile to this file")
	fs.DurationVar(&o.think, "think", 100*time.Millisecond, "mean pause between one session's calls in the paced run (each drawn evenly from half to one and a half of it)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	o.engines = strings.Split(*engines, ",")
	self, tmp, cleanup, err := workspace()
	if err != nil {
		return err
	}
	defer cleanup()

	fmt.Printf("Chairside benchmark, %s\n%s\n\n", time.Now().Format("2006-01-02 15:04"), machine())
	for _, engine := range o.engines {
		if err := benchEngine(o, self, tmp, engine); err != nil {
			return fmt.Errorf("%s: %w", engine, err)
		}
	}
	return nil
}

// benchEngine measures one engine: its server, then hello-world beside it.
func benchEngine(o options, self, tmp, engine string) error {
	dsn := filepath.Join(tmp, "bench.db")
	if engine == "postgres" {
		var drop func()
		var err error
		if dsn, drop, err = postgresDatabase(o.postgres); err != nil {
			return err
		}
		defer drop()
	}
	env := []string{}
	if engine == "sqlite" && o.profile != "" {
		env = append(env, "CHAIRSIDE_CPU_PROFILE="+o.profile)
	}
	srv, ready, err := startServer(o.bin, dsn, filepath.Join(tmp, engine+".keys.json"), env, 0)
	if err != nil {
		return err
	}
	defer srv.stop()
	if engine == "postgres" {
		srv.db = postgresCPU
	}
	var memory string
	if engine == "sqlite" {
		idle := srv.rss()
		if _, err := srv.load(self, "start", 1000, 0, o.sessions, 0); err != nil {
			return err
		}
		memory = fmt.Sprintf("resident memory %.1f MB once ready, %.1f MB with 1,000 live sessions", mb(idle), mb(srv.rss()))
	}
	yardstickDB := filepath.Join(tmp, "yardstick.db")
	if engine == "postgres" {
		yardstickDB = dsn
	}
	writer, err := startHello(self, yardstickDB)
	if err != nil {
		return err
	}
	defer writer.stop()
	writer.db = srv.db
	before := srv.storeWork()
	closed, durable, ratios, err := closedRounds(o, self, srv, writer)
	if err != nil {
		return err
	}
	work := srv.storeWork().since(before, closed.res.Calls)
	// The writer stays up, idle, through the paced run: on PostgreSQL its
	// backends would end with it, and the CPU they had used would drop out
	// of what postgresCPU counts during that run.
	paced, err := srv.load(self, "flow", max(o.sessions, o.journeys/4), o.journeys, o.sessions, o.think)
	if err != nil {
		return err
	}
	if err := srv.stop(); err != nil {
		return err
	}

	helloClosed, helloPaced, err := yardsticks(o, self, closed.res.Calls, paced.res.Calls)
	if err != nil {
		return err
	}

	printTable(o, engine, closed, paced, helloClosed, helloPaced)
	printFloor(engine, closed, helloClosed, durable, ratios)
	fmt.Printf("  the store, closed loop: %s\n", work)
	if engine == "sqlite" {
		fmt.Printf("  ready %s after start on a new database (migrations, demo offices), %s on an existing one; %s\n",
			ready.Round(time.Millisecond), restartReady(o.bin, dsn, filepath.Join(tmp, engine+".keys.json")), memory)
	}
	fmt.Printf("  closed loop by call, slowest p99 first:\n%s", breakdown(closed.res))
	fmt.Printf("  paced by call, slowest p99 first:\n%s\n", breakdown(paced.res))
	return nil
}

// floorRounds is how many turns the closed loop takes with the durable
// write: each share of the journeys is followed at once by as many durable
// writes. On a shared machine the CPU a call drifts by a third from one
// minute to the next (docs/performance.md, "The floor under a writing
// call"); a ratio of two figures measured side by side does not.
const floorRounds = 3

// closedRounds runs the journey's closed loop in floorRounds shares, each
// followed by as many durable writes on writer, and answers both merged,
// with each round's ratio of the journey's CPU a call to the write's.
func closedRounds(o options, self string, srv, writer *process) (closed, durable measured, ratios []float64, err error) {
	done := 0
	for i := range floorRounds {
		n := o.journeys*(i+1)/floorRounds - done
		j, err := srv.load(self, "flow", n, done, o.sessions, 0)
		if err != nil {
			return closed, durable, nil, err
		}
		d, err := writer.load(self, "durable", j.res.Calls, 0, o.sessions, 0)
		if err != nil {
			return closed, durable, nil, err
		}
		done += n
		ratios = append(ratios, float64(j.cpuPerCall())/float64(max(1, d.cpuPerCall())))
		closed, durable = closed.add(j), durable.add(d)
	}
	return closed, durable, ratios, nil
}

// add answers m and n as one run: calls, time and work summed, latencies
// merged.
func (m measured) add(n measured) measured {
	if m.res == nil {
		return n
	}
	r := &loadResult{
		Calls:     m.res.Calls + n.res.Calls,
		ElapsedMS: m.res.ElapsedMS + n.res.ElapsedMS,
		Latencies: append(slices.Clone(m.res.Latencies), n.res.Latencies...),
		ByCall:    map[string][]int64{},
	}
	slices.Sort(r.Latencies)
	for _, by := range []map[string][]int64{m.res.ByCall, n.res.ByCall} {
		for call, l := range by {
			r.ByCall[call] = append(r.ByCall[call], l...)
		}
	}
	for call := range r.ByCall {
		slices.Sort(r.ByCall[call])
	}
	return measured{res: r, cpu: m.cpu + n.cpu, mallocs: m.mallocs + n.mallocs, dbCPU: m.dbCPU + n.dbCPU}
}

// yardsticks measures hello-world, closed loop and paced, each for as many
// calls as the journey's runs made.
func yardsticks(o options, self string, closedCalls, pacedCalls int) (helloClosed, helloPaced measured, err error) {
	hello, err := startHello(self, "")
	if err != nil {
		return
	}
	defer hello.stop()
	if helloClosed, err = hello.load(self, "hello", closedCalls, 0, o.sessions, 0); err != nil {
		return
	}
	helloPaced, err = hello.load(self, "hello", pacedCalls, 0, o.sessions, o.think)
	return
}

// printTable prints one engine's runs beside hello-world's, the journey's
// share of hello-world's calls per second and, on PostgreSQL, what its own
// processes spent a call.
func printTable(o options, engine string, closed, paced, helloClosed, helloPaced measured) {
	fmt.Printf("%s, %d sessions\n", engine, o.sessions)
	fmt.Printf("  %-22s %-8s %7s %9s %9s %9s %10s %12s\n", "run", "handler", "calls", "calls/s", "p50", "p99", "CPU/call", "allocs/call")
	for _, row := range []struct {
		run, handler string
		m            measured
	}{
		{"closed loop", "hello", helloClosed}, {"closed loop", "journey", closed},
		{fmt.Sprintf("paced (~%s)", o.think), "hello", helloPaced}, {fmt.Sprintf("paced (~%s)", o.think), "journey", paced},
	} {
		fmt.Printf("  %-22s %-8s %7d %9.0f %9s %9s %10s %12.0f\n", row.run, row.handler, row.m.res.Calls, row.m.res.perSecond(),
			percentile(row.m.res.Latencies, 0.5), percentile(row.m.res.Latencies, 0.99), row.m.cpuPerCall(), row.m.allocsPerCall())
	}
	fmt.Printf("  the journey's calls/s, closed loop: %.1f%% of hello-world's\n", 100*closed.res.perSecond()/helloClosed.res.perSecond())
	if engine == "postgres" {
		fmt.Printf("  PostgreSQL's own processes: %s CPU a call in the closed loop, %s paced\n", closed.dbCPUPerCall(), paced.dbCPUPerCall())
	}
}

// printFloor prints the second yardstick beside the journey: one durable
// write a call through the store's group commit, with nothing else a
// journey call does. Its share of hello-world is the most any call that
// writes can reach on this stack and machine (docs/performance.md, "The
// floor under a writing call").
func printFloor(engine string, closed, helloClosed, durable measured, ratios []float64) {
	share := func(m measured) float64 { return 100 * m.res.perSecond() / helloClosed.res.perSecond() }
	fmt.Printf("  one durable write a call (POST /event), closed loop: %.0f calls/s, %.1f%% of hello-world's, p99 %s, %s CPU a call",
		durable.res.perSecond(), share(durable), percentile(durable.res.Latencies, 0.99), durable.cpuPerCall())
	if engine == "postgres" {
		fmt.Printf(" and PostgreSQL's own %s", durable.dbCPUPerCall())
	}
	each := make([]string, len(ratios))
	for i, r := range ratios {
		each[i] = fmt.Sprintf("%.1f", r)
	}
	sorted := slices.Sorted(slices.Values(ratios))
	fmt.Printf("\n  the journey's CPU a call is %.1f times one durable write's (median of %d rounds side by side: %s) and %.1f times hello-world's\n",
		sorted[len(sorted)/2], len(ratios), strings.Join(each, ", "),
		float64(closed.cpuPerCall())/float64(max(1, helloClosed.cpuPerCall())))
}

// restartReady answers how long the server takes to be ready on dsn again.
func restartReady(bin, dsn, keys string) string {
	srv, ready, err := startServer(bin, dsn, keys, nil, 0)
	if err != nil {
		return "(restart failed: " + err.Error() + ")"
	}
	srv.stop()
	return ready.Round(time.Millisecond).String()
}

// A process is a server the benchmark started, pinned to the first core.
type process struct {
	cmd  *exec.Cmd
	base string
	// stats answers the process's allocations so far.
	stats func() (uint64, error)
	// db answers the CPU time its database's own processes have used so
	// far; nil when the database runs inside the server.
	db   func() time.Duration
	done chan error
}

// measured is a load run with what the server spent on it.
type measured struct {
	res     *loadResult
	cpu     time.Duration
	mallocs uint64
	// dbCPU is what the PostgreSQL processes spent meanwhile (zero on
	// SQLite, which runs inside the server).
	dbCPU time.Duration
}

func (m measured) cpuPerCall() time.Duration {
	return (m.cpu / time.Duration(max(1, m.res.Calls))).Round(time.Microsecond)
}

// dbCPUPerCall is what the PostgreSQL processes spent a call.
func (m measured) dbCPUPerCall() time.Duration {
	return (m.dbCPU / time.Duration(max(1, m.res.Calls))).Round(time.Microsecond)
}

func (m measured) allocsPerCall() float64 { return float64(m.mallocs) / float64(max(1, m.res.Calls)) }

// load runs the load client, pinned to the second core, against p, and
// measures the CPU time and allocations p spent meanwhile.
func (p *process) load(self, kind string, n, offset, sessions int, think time.Duration) (measured, error) {
	cpu0, m0, db0 := p.cpu(), p.mallocs(), p.dbCPU()
	args := []string{"load", "-base", p.base, "-kind", kind, "-n", strconv.Itoa(n), "-offset", strconv.Itoa(offset),
		"-sessions", strconv.Itoa(sessions), "-think", think.String()}
	cmd := pinned(1, self, args...)
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		return measured{}, fmt.Errorf("load %s: %w", kind, err)
	}
	var r loadResult
	if err := json.Unmarshal(out, &r); err != nil {
		return measured{}, fmt.Errorf("load %s: %w", kind, err)
	}
	return measured{res: &r, cpu: p.cpu() - cpu0, mallocs: p.mallocs() - m0, dbCPU: p.dbCPU() - db0}, nil
}

// cpu answers the CPU time (user and system) all the process's threads
// have used.
func (p *process) cpu() time.Duration { return procCPU(fmt.Sprint(p.cmd.Process.Pid)) }

// procCPU answers the CPU time a process has used: fields 14 and 15 of
// /proc/PID/stat, in clock ticks (USER_HZ is 100 on Linux), fine enough
// over a run of thousands of calls.
func procCPU(pid string) time.Duration {
	b, err := os.ReadFile("/proc/" + pid + "/stat")
	if err != nil {
		return 0
	}
	// The command name, in parentheses, may hold spaces: count fields
	// after its closing parenthesis (field 3 onwards).
	_, rest, ok := bytes.Cut(b, []byte(") "))
	f := strings.Fields(string(rest))
	if !ok || len(f) < 13 {
		return 0
	}
	utime, _ := strconv.ParseInt(f[11], 10, 64)
	stime, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(utime+stime) * 10 * time.Millisecond
}

// postgresCPU answers the CPU time used so far by the PostgreSQL processes
// on this machine (every process named postgres): on one machine they
// share the cores with the server and the client, and their work per call
// is the ceiling of the PostgreSQL runs (docs/performance.md). Processes
// that began or ended during a run make it approximate.
func postgresCPU() time.Duration {
	var total time.Duration
	dirs, _ := os.ReadDir("/proc")
	for _, d := range dirs {
		if _, err := strconv.Atoi(d.Name()); err != nil {
			continue
		}
		if comm, err := os.ReadFile("/proc/" + d.Name() + "/comm"); err == nil && strings.TrimSpace(string(comm)) == "postgres" {
			total += procCPU(d.Name())
		}
	}
	return total
}

// rss answers the process's resident memory in bytes.
func (p *process) rss() int64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", p.cmd.Process.Pid))
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return kb << 10
		}
	}
	return 0
}

func (p *process) mallocs() uint64 {
	n, err := p.stats()
	if err != nil {
		fmt.Fprintln(os.Stderr, "chairside-bench: allocations:", err)
	}
	return n
}

func (p *process) dbCPU() time.Duration {
	if p.db == nil {
		return 0
	}
	return p.db()
}

// storeWork is what the server's store has done so far, from its metrics:
// statements sent (reads outside a transaction, statements inside units
// of work), units of work and the commits that held them, and the times
// it waited for the database (store.DB.RoundTrips).
type storeWork struct{ reads, inTx, units, commits, trips float64 }

func (p *process) storeWork() storeWork {
	m, err := metrics(p.base + "/metrics")
	if err != nil {
		fmt.Fprintln(os.Stderr, "chairside-bench: store counters:", err)
	}
	return storeWork{m["chairside_store_reads_total"], m["chairside_store_tx_statements_total"],
		m["chairside_store_commit_units_total"], m["chairside_store_commit_groups_total"],
		m["chairside_store_round_trips_total"]}
}

// since answers, as a sentence, what the store did between then and w for
// calls calls: statements and round trips a call, whatever the machine's
// speed, and units a commit, which grow with the load.
func (w storeWork) since(then storeWork, calls int) string {
	n := float64(max(1, calls))
	commits := max(1, w.commits-then.commits)
	return fmt.Sprintf("%.2f statements a call (%.2f reads, %.2f inside units of work), %.2f round trips a call, %.2f units of work a call, %.2f a commit",
		(w.reads-then.reads+w.inTx-then.inTx)/n, (w.reads-then.reads)/n, (w.inTx-then.inTx)/n,
		(w.trips-then.trips)/n, (w.units-then.units)/n, (w.units-then.units)/commits)
}

// stop ends the process with SIGTERM (a clean shutdown, which writes the
// CPU profile) and waits for it.
func (p *process) stop() error {
	if p.cmd.ProcessState != nil {
		return nil
	}
	p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case err := <-p.done:
		var exit *exec.ExitError
		if errors.As(err, &exit) && exit.Sys().(syscall.WaitStatus).Signaled() {
			return nil // hello-world ends by the signal itself
		}
		return err
	case <-time.After(30 * time.Second):
		p.cmd.Process.Kill()
		return errors.New("did not stop within 30s")
	}
}

// startServer starts the real server, env test, its sandbox lenders
// answering after latency, and answers it once /readyz says ready, with
// the time that took.
func startServer(bin, dsn, keys string, env []string, latency time.Duration) (*process, time.Duration, error) {
	addr, err := freeAddr()
	if err != nil {
		return nil, 0, err
	}
	cmd := pinned(0, bin, "serve", "-env", "test", "-sandbox-latency", latency.String(), "-rate-limit", "0", "-log-level", "warn",
		"-addr", addr, "-db", dsn, "-key-file", keys)
	cmd.Env = append(os.Environ(), env...)
	cmd.Stdout, cmd.Stderr = io.Discard, os.Stderr
	start := time.Now()
	p, err := run(cmd, "http://"+addr)
	if err != nil {
		return nil, 0, err
	}
	p.stats = func() (uint64, error) {
		m, err := metrics(p.base + "/metrics")
		return uint64(m["go_memstats_mallocs_total"]), err
	}
	for {
		resp, err := http.Get(p.base + "/readyz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return p, time.Since(start), nil
			}
		}
		select {
		case err := <-p.done:
			return nil, 0, fmt.Errorf("server ended before ready: %v", err)
		case <-time.After(time.Millisecond):
		}
		if time.Since(start) > time.Minute {
			p.stop()
			return nil, 0, errors.New("server not ready after a minute")
		}
	}
}

// startHello starts the yardsticks' server (hello-world, and one durable
// write on db) and reads its address.
func startHello(self, db string) (*process, error) {
	args := []string{"hello"}
	if db != "" {
		args = append(args, "-db", db)
	}
	cmd := pinned(0, self, args...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	cmd.Stderr = os.Stderr
	p, err := run(cmd, "")
	if err != nil {
		return nil, err
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		p.stop()
		return nil, fmt.Errorf("hello: %w", err)
	}
	p.base = strings.TrimSpace(line)
	p.stats = func() (uint64, error) {
		var s struct{ Mallocs uint64 }
		err := getJSON(p.base+"/stats", &s)
		return s.Mallocs, err
	}
	return p, nil
}

// run starts cmd and watches for its end.
func run(cmd *exec.Cmd, base string) (*process, error) {
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	p := &process{cmd: cmd, base: base, done: make(chan error, 1)}
	go func() { p.done <- cmd.Wait() }()
	return p, nil
}

// pinned is a command pinned to one core with taskset, where the machine
// has more than one core and taskset is there.
func pinned(core int, name string, args ...string) *exec.Cmd {
	if runtime.NumCPU() > 1 {
		if taskset, err := exec.LookPath("taskset"); err == nil {
			return exec.Command(taskset, append([]string{"-c", strconv.Itoa(core), name}, args...)...)
		}
	}
	return exec.Command(name, args...)
}

// machine describes the machine for the report.
func machine() string {
	model := "unknown CPU"
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if rest, ok := strings.CutPrefix(line, "model name"); ok {
				model = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(rest), ":"))
				break
			}
		}
	}
	where := "nothing pinned (one core)"
	if runtime.NumCPU() > 1 {
		where = "server and hello-world on core 0, load client on core 1 (taskset); PostgreSQL unpinned"
	}
	return fmt.Sprintf("%s, %d cores, %s, %s", model, runtime.NumCPU(), runtime.Version(), where)
}

// postgresDatabase makes a database of the benchmark's own on server and
// answers its URL and how to drop it.
func postgresDatabase(server string) (string, func(), error) {
	adm, err := sql.Open("pgx", server)
	if err != nil {
		return "", nil, err
	}
	var b [6]byte
	rand.Read(b[:])
	name := "chairside_bench_" + hex.EncodeToString(b[:])
	ctx := context.Background()
	if _, err := adm.ExecContext(ctx, `CREATE DATABASE `+name); err != nil { // the name is ours: hex
		adm.Close()
		return "", nil, fmt.Errorf("create database: %w", err)
	}
	u, err := url.Parse(server)
	if err != nil {
		adm.Close()
		return "", nil, err
	}
	u.Path = "/" + name
	return u.String(), func() {
		adm.ExecContext(ctx, `DROP DATABASE IF EXISTS `+name+` WITH (FORCE)`)
		adm.Close()
	}, nil
}

// freeAddr answers a loopback address with a free port.
func freeAddr() (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer ln.Close()
	return ln.Addr().String(), nil
}

// metrics reads the unlabelled values of a Prometheus text page.
func metrics(page string) (map[string]float64, error) {
	resp, err := http.Get(page)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	out := map[string]float64{}
	for _, line := range bytes.Split(body, []byte("\n")) {
		name, value, ok := bytes.Cut(line, []byte(" "))
		if !ok || bytes.HasPrefix(name, []byte("#")) || bytes.ContainsRune(name, '{') {
			continue
		}
		if v, err := strconv.ParseFloat(string(bytes.TrimSpace(value)), 64); err == nil {
			out[string(name)] = v
		}
	}
	return out, nil
}

func getJSON(u string, v any) error {
	resp, err := http.Get(u)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	return json.NewDecoder(resp.Body).Decode(v)
}

func mb(bytes int64) float64 { return float64(bytes) / (1 << 20) }

// breakdown is a table of every kind of call's latency percentiles,
// slowest p99 first.
func breakdown(r *loadResult) string {
	names := make([]string, 0, len(r.ByCall))
	for name := range r.ByCall {
		names = append(names, name)
	}
	p99 := func(name string) time.Duration { return percentile(r.ByCall[name], 0.99) }
	slices.SortFunc(names, func(a, b string) int { return int(p99(b) - p99(a)) })
	var sb strings.Builder
	fmt.Fprintf(&sb, "    %-40s %6s %9s %9s %9s\n", "call", "n", "p50", "p99", "max")
	for _, name := range names {
		l := r.ByCall[name]
		fmt.Fprintf(&sb, "    %-40s %6d %9s %9s %9s\n", name, len(l), percentile(l, 0.5), p99(name), percentile(l, 1))
	}
	return sb.String()
}

// workspace answers what both benchmarks start with: this program's own
// path (the load client runs as a process of its own) and a temporary
// folder for the databases and keys, which cleanup removes.
func workspace() (self, tmp string, cleanup func(), err error) {
	if self, err = os.Executable(); err != nil {
		return "", "", nil, err
	}
	if tmp, err = os.MkdirTemp("", "chairside-bench-"); err != nil {
		return "", "", nil, err
	}
	return self, tmp, func() { os.RemoveAll(tmp) }, nil
}
