package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/api"
	"github.com/chairside/chairside/demo"
	"github.com/chairside/chairside/flow"
	"github.com/chairside/chairside/httpapi"
	"github.com/chairside/chairside/lender"
	"github.com/chairside/chairside/lender/registry"
	"github.com/chairside/chairside/lender/sandbox"
	"github.com/chairside/chairside/metrics"
	"github.com/chairside/chairside/office"
	"github.com/chairside/chairside/seal"
	"github.com/chairside/chairside/store"
	"github.com/chairside/chairside/web"
)

// Config is what `chairside serve` is told: by flag, or by the environment
// variable named beside each flag.
type Config struct {
	Addr string // CHAIRSIDE_ADDR
	DB   string // CHAIRSIDE_DB: SQLite file path or postgres:// URL
	// Env is the environment, prod unless told otherwise: demo offices and
	// test cases exist only where someone asked for them (-env dev).
	Env            string        // CHAIRSIDE_ENV
	SandboxLatency time.Duration // CHAIRSIDE_SANDBOX_LATENCY
	// SandboxJournal, when set, is a file the sandbox lenders append every
	// call they receive to, one JSON line each (no personal data).
	SandboxJournal string // CHAIRSIDE_SANDBOX_JOURNAL
	// LenderTimeout bounds every lender call; the graceful shutdown and
	// the HTTP write time-out are sized from it.
	LenderTimeout time.Duration // CHAIRSIDE_LENDER_TIMEOUT
	KeyFile       string        // CHAIRSIDE_KEY_FILE: where sealing keys live
	Keys          string        // CHAIRSIDE_KEYS: the key file's JSON, instead of a file
	Retention     time.Duration // CHAIRSIDE_RETENTION: personal data kept after a session ends
	PublicURL     string        // CHAIRSIDE_PUBLIC_URL: the address patients use
	LogLevel      string        // CHAIRSIDE_LOG_LEVEL: debug, info, warn, error
	// RateLimit is the requests per second one client address may make
	// (bursts of three times that); 0 turns the limit off.
	RateLimit float64 // CHAIRSIDE_RATE_LIMIT
	// LendersFile names the lenders file: which providers go to a lender
	// over HTTP, where, with which credentials (docs/operations.md,
	// "Lenders"). Empty: every provider is the sandbox.
	LendersFile string // CHAIRSIDE_LENDERS_FILE
}

// Main is the whole program for one `chairside serve`. Tests and benchmarks
// run it in-process on a free port with a temporary database.
type Main struct {
	Config Config
	Stdout io.Writer
	// Logger receives the JSON request and error logs; stderr by default.
	Logger *slog.Logger
	// Now is the clock of the service; time.Now by default.
	Now chairside.Clock

	// envErr is a malformed environment variable, reported by ParseFlags
	// and Run rather than silently replaced by a default.
	envErr error

	store    *store.DB
	server   *http.Server
	listener net.Listener
	// stopLoops ends the background loops (loops.go); loops says when
	// they have all returned.
	stopLoops context.CancelFunc
	loops     sync.WaitGroup
	office    *office.Service
	svc       *flow.Service
	metrics   *metrics.Metrics
	registry  *registry.Registry
	done      chan struct{}
}

// NewMain returns a Main with the defaults and environment applied.
func NewMain() *Main {
	var envErrs []error
	envFloat := func(name string, def float64) float64 {
		v := os.Getenv(name)
		if v == "" {
			return def
		}
		f, err := strconv.ParseFloat(v, 64)
		if err != nil {
			envErrs = append(envErrs, fmt.Errorf("%s=%q: not a number", name, v))
			return def
		}
		return f
	}
	envDuration := func(name string, def time.Duration) time.Duration {
		v := os.Getenv(name)
		if v == "" {
			return def
		}
		d, err := time.ParseDuration(v)
		if err != nil {
			envErrs = append(envErrs, fmt.Errorf("%s=%q: not a duration such as 1s or 72h", name, v))
			return def
		}
		return d
	}
	m := &Main{
		Config: Config{
			Addr:           envOr("CHAIRSIDE_ADDR", "127.0.0.1:8080"),
			DB:             envOr("CHAIRSIDE_DB", filepath.Join("data", "chairside.db")),
			Env:            envOr("CHAIRSIDE_ENV", chairside.EnvProd),
			SandboxLatency: envDuration("CHAIRSIDE_SANDBOX_LATENCY", 0),
			SandboxJournal: os.Getenv("CHAIRSIDE_SANDBOX_JOURNAL"),
			LenderTimeout:  envDuration("CHAIRSIDE_LENDER_TIMEOUT", flow.DefaultLenderTimeout),
			KeyFile:        os.Getenv("CHAIRSIDE_KEY_FILE"),
			Keys:           os.Getenv("CHAIRSIDE_KEYS"),
			Retention:      envDuration("CHAIRSIDE_RETENTION", 72*time.Hour),
			PublicURL:      os.Getenv("CHAIRSIDE_PUBLIC_URL"),
			LogLevel:       envOr("CHAIRSIDE_LOG_LEVEL", "info"),
			RateLimit:      envFloat("CHAIRSIDE_RATE_LIMIT", httpapi.DefaultRatePerSecond),
			LendersFile:    os.Getenv("CHAIRSIDE_LENDERS_FILE"),
		},
		Stdout: os.Stdout,
		Now:    time.Now,
	}
	m.envErr = errors.Join(envErrs...)
	return m
}

// ParseFlags reads the serve flags over the defaults.
func (m *Main) ParseFlags(args []string, stderr io.Writer) error {
	c := &m.Config
	fs := flag.NewFlagSet("chairside serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&c.Addr, "addr", c.Addr, "listen address (CHAIRSIDE_ADDR)")
	fs.StringVar(&c.DB, "db", c.DB, "SQLite file path or postgres:// URL (CHAIRSIDE_DB)")
	fs.StringVar(&c.Env, "env", c.Env, "environment: prod (the default), test, uat, demo, dev or default; dev, demo and test seed the demo offices (CHAIRSIDE_ENV)")
	fs.DurationVar(&c.SandboxLatency, "sandbox-latency", c.SandboxLatency, "delay of every sandbox lender answer, e.g. 1s; 0 answers at once (CHAIRSIDE_SANDBOX_LATENCY)")
	fs.StringVar(&c.SandboxJournal, "sandbox-journal", c.SandboxJournal, "file the sandbox lenders append every call to, one JSON line each; empty for none (CHAIRSIDE_SANDBOX_JOURNAL)")
	fs.DurationVar(&c.LenderTimeout, "lender-timeout", c.LenderTimeout, "how long a lender call may take; shutdown waits this plus 10s for running requests (CHAIRSIDE_LENDER_TIMEOUT)")
	fs.StringVar(&c.KeyFile, "key-file", c.KeyFile, "file holding the data-encryption keys, created on first start; default beside the SQLite file, or ./data/chairside.key (CHAIRSIDE_KEY_FILE)")
	fs.DurationVar(&c.Retention, "retention", c.Retention, "how long applicants' personal data is kept after their session ends (CHAIRSIDE_RETENTION)")
	fs.StringVar(&c.PublicURL, "public-url", c.PublicURL, "address patients open, for printed links (CHAIRSIDE_PUBLIC_URL); default http://ADDR")
	fs.Float64Var(&c.RateLimit, "rate-limit", c.RateLimit, "requests per second per client address, 0 for no limit (CHAIRSIDE_RATE_LIMIT)")
	fs.StringVar(&c.LogLevel, "log-level", c.LogLevel, "debug, info, warn or error (CHAIRSIDE_LOG_LEVEL)")
	fs.StringVar(&c.LendersFile, "lenders", c.LendersFile, "lenders file: which providers go to a lender over HTTP; empty for the sandbox everywhere (CHAIRSIDE_LENDERS_FILE)")
	if m.envErr != nil {
		return m.envErr
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	return c.validate()
}

func (c *Config) validate() error {
	if !chairside.ValidEnv(c.Env) {
		return fmt.Errorf("-env %q: must be one of prod, test, uat, demo, dev, default", c.Env)
	}
	if c.SandboxLatency < 0 {
		return fmt.Errorf("-sandbox-latency must not be negative")
	}
	if c.LenderTimeout <= 0 || c.LenderTimeout > maxLenderTimeout {
		return fmt.Errorf("-lender-timeout must be between 1ms and %s", maxLenderTimeout)
	}
	if c.RateLimit < 0 {
		return fmt.Errorf("-rate-limit must not be negative")
	}
	if c.Retention <= 0 {
		return fmt.Errorf("-retention must be positive")
	}
	return nil
}

// keyFile is where the sealing keys live when no path was given: beside a
// SQLite database, or in ./data for PostgreSQL.
func (c *Config) keyFile() string {
	if c.KeyFile != "" {
		return c.KeyFile
	}
	if isPostgres(c.DB) {
		return filepath.Join("data", "chairside.key")
	}
	return strings.TrimSuffix(c.DB, filepath.Ext(c.DB)) + ".key"
}

func isPostgres(dsn string) bool {
	return strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://")
}

// openKeys loads the data-encryption keys from configuration or the key file.
func (c *Config) openKeys() (*seal.Keyring, error) {
	if c.Keys != "" {
		return seal.FromEnv(c.Keys)
	}
	return seal.LoadOrCreate(c.keyFile())
}

// openStore opens the keys and the database (creating and migrating it).
func (c *Config) openStore(ctx context.Context) (*store.DB, *seal.Keyring, error) {
	keys, err := c.openKeys()
	if err != nil {
		return nil, nil, fmt.Errorf("keys: %w", err)
	}
	db, err := store.Open(ctx, c.DB, keys)
	if err != nil {
		return nil, nil, fmt.Errorf("database: %w", err)
	}
	return db, keys, nil
}

func (m *Main) logger() *slog.Logger {
	if m.Logger != nil {
		return m.Logger
	}
	var level slog.Level
	if err := level.UnmarshalText([]byte(m.Config.LogLevel)); err != nil {
		level = slog.LevelInfo
	}
	return httpapi.NewLogger(os.Stderr, level)
}

// Run opens the store, seeds demo data where the environment allows, starts
// listening and serving, and returns. Close stops it.
func (m *Main) Run(ctx context.Context) error {
	c := m.Config
	if m.envErr != nil {
		return m.envErr
	}
	if err := c.validate(); err != nil {
		return err
	}
	log := m.logger()
	// The lenders first: a lenders file with a mistake stops the start
	// before anything is opened.
	m.metrics = metrics.New()
	reg, err := m.lenders(log)
	if err != nil {
		return err
	}
	m.registry = reg
	db, keys, err := m.prepareStore(ctx)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", c.Addr)
	if err != nil {
		db.Close()
		return err
	}
	m.listener = ln
	m.metrics.StoreCommits(db.GroupStats)
	m.metrics.StoreStatements(db.Statements)
	m.serve(m.handler(db, keys, log), log)

	loopCtx, stop := context.WithCancel(context.Background())
	m.stopLoops = stop
	m.startLoops(loopCtx, db, log)
	m.printWelcome()
	return nil
}

// prepareStore opens the store for Run: in prod only after the files pass
// the checks and only when the database passes them too, and with the demo
// offices where the environment has them.
func (m *Main) prepareStore(ctx context.Context) (*store.DB, *seal.Keyring, error) {
	c := m.Config
	if c.Env == chairside.EnvProd {
		// Before anything is opened or created: a key file that would be
		// made beside the database is refused, not made, and a database
		// open to other users is not touched (SQLite would give the -wal
		// and -shm files it makes the same mode).
		if err := c.checkProdFiles(); err != nil {
			return nil, nil, err
		}
	}
	db, keys, err := c.openStore(ctx)
	if err != nil {
		return nil, nil, err
	}
	if c.Env == chairside.EnvProd {
		if err := c.checkProd(ctx, db); err != nil {
			db.Close()
			return nil, nil, err
		}
	}
	m.store = db
	if demo.Enabled(c.Env) {
		if err := demo.Seed(ctx, db); err != nil {
			db.Close()
			return nil, nil, err
		}
	}
	return db, keys, nil
}

// lenders builds the lenders: the sandbox, and over HTTP those the lenders
// file names.
func (m *Main) lenders(log *slog.Logger) (*registry.Registry, error) {
	c := m.Config
	sb := sandbox.New(sandbox.Options{Latency: c.SandboxLatency, Journal: c.SandboxJournal})
	if c.LendersFile == "" {
		return registry.New(nil, sb, m.metrics, log)
	}
	data, err := os.ReadFile(c.LendersFile)
	if err != nil {
		return nil, fmt.Errorf("lenders file: %w", err)
	}
	f, err := registry.Parse(c.LendersFile, data, os.Getenv, c.Env == chairside.EnvProd)
	if err != nil {
		return nil, fmt.Errorf("lenders file %w", err)
	}
	return registry.New(f, sb, m.metrics, log)
}

// handler wires the lenders, the application service and the HTTP
// layer over db.
func (m *Main) handler(db *store.DB, keys *seal.Keyring, log *slog.Logger) http.Handler {
	c := m.Config
	var testCases []flow.TestCaseInfo
	for _, tc := range sandbox.TestCases() {
		testCases = append(testCases, flow.TestCaseInfo{ID: tc.ID, Name: tc.Name, Description: tc.Description})
	}
	demoKey := ""
	if demo.Enabled(c.Env) {
		demoKey = demo.Locations()[0].EntityKey
	}
	svc := flow.New(db, lender.Instrument(m.registry, m.metrics), keys, flow.Options{
		Env:           c.Env,
		Now:           m.Now,
		Logger:        log,
		LenderTimeout: c.LenderTimeout,
		TestCases:     testCases,
		DemoEntityKey: demoKey,
		PlanRefused:   m.metrics.PlanRefused,
	})
	m.svc = svc
	staff := office.New(db, log)
	staff.Now = m.Now
	m.office = staff
	rate := c.RateLimit
	if rate == 0 {
		rate = -1 // httpapi's word for "no limit"
	}
	return httpapi.New(svc, httpapi.Options{
		Env:           c.Env,
		Logger:        log,
		Web:           web.Dist(),
		OpenAPI:       api.Spec,
		RatePerSecond: rate,
		RateBurst:     int(3 * rate),
		// TLS ends at the proxy in front of us; the public URL says
		// whether patients arrive over https.
		HSTS:      strings.HasPrefix(strings.ToLower(c.PublicURL), "https://"),
		Office:    staff,
		PublicURL: c.PublicURL,
		Metrics:   m.metrics,
		Ready:     db.Ready,
		// Webhooks are verified with the secrets of the lenders file.
		WebhookSecrets: m.registry.WebhookSecrets,
	})
}

// serve starts serving handler on m.listener in the background.
func (m *Main) serve(handler http.Handler, log *slog.Logger) {
	m.server = &http.Server{
		Handler: handler,
		// Go's defaults are no time-outs at all; a slow client must not
		// hold a connection forever.
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       30 * time.Second,
		// A lender step may take the whole lender time-out, after waiting
		// for the database and before recording its outcome: the answer
		// must still be written, so the margin is generous.
		WriteTimeout: m.Config.LenderTimeout + writeMargin,
		IdleTimeout:  120 * time.Second,
		ErrorLog:     slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
	m.done = make(chan struct{})
	go func() {
		defer close(m.done)
		if err := m.server.Serve(m.listener); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Error("serve", "err", err)
		}
	}()
}

// printWelcome says where the server is and, with demo data, where the
// demo patient starts.
func (m *Main) printWelcome() {
	c, url := m.Config, m.URL()
	fmt.Fprintf(m.Stdout, "Chairside %s is running (env %s, database %s).\n", chairside.Version, c.Env, describeDB(c.DB))
	fmt.Fprintf(m.Stdout, "Open %s/\n", url)
	if over := m.registry.Describe(); len(over) > 0 {
		fmt.Fprintf(m.Stdout, "Lenders over HTTP: %s; the others are the sandbox.\n", strings.Join(over, ", "))
	}
	if demo.Enabled(c.Env) {
		fmt.Fprintf(m.Stdout, "Demo patient link: %s/start/entity-keys/%s\n", url, demo.EntityKey)
		fmt.Fprintln(m.Stdout, "  (last names Approve, Decline, Pending, Nooffer, Error or Existing force a lender's answer)")
	}
}

// URL is the address patients open: the public URL if configured, else the
// listening address.
func (m *Main) URL() string {
	if m.Config.PublicURL != "" {
		return strings.TrimSuffix(m.Config.PublicURL, "/")
	}
	if m.listener != nil {
		return "http://" + m.listener.Addr().String()
	}
	return "http://" + m.Config.Addr
}

// Close stops accepting requests, lets running ones finish and closes the
// database. Running requests get the lender time-out plus shutdownMargin: a
// lender step that has just begun can finish and record its outcome, so
// no lender call is left without its answer stored (the flow service does
// not tie a lender call to the request's context, and Close does not cancel
// anything).
func (m *Main) Close() error {
	var errs []error
	if m.stopLoops != nil {
		// The database closes below: no loop may be mid-query.
		m.stopLoops()
		m.loops.Wait()
		m.stopLoops = nil
	}
	if m.server != nil {
		defer func() { m.server = nil }()
		ctx, cancel := context.WithTimeout(context.Background(), m.shutdownGrace())
		defer cancel()
		if err := m.server.Shutdown(ctx); err != nil {
			errs = append(errs, err)
		}
		<-m.done
	}
	if m.store != nil {
		if err := m.store.Close(); err != nil {
			errs = append(errs, err)
		}
		m.store = nil
	}
	return errors.Join(errs...)
}

// Time-outs around the lender time-out.
const (
	// maxLenderTimeout bounds -lender-timeout: a patient is waiting.
	maxLenderTimeout = 2 * time.Minute
	// shutdownMargin is what a graceful shutdown adds to the lender
	// time-out for the database work around a lender call.
	shutdownMargin = 10 * time.Second
	// writeMargin is what the HTTP write time-out adds to the lender
	// time-out (90 s with the default 25 s).
	writeMargin = 65 * time.Second
)

// shutdownGrace is how long Close waits for running requests.
func (m *Main) shutdownGrace() time.Duration {
	lt := m.Config.LenderTimeout
	if lt <= 0 {
		lt = flow.DefaultLenderTimeout
	}
	return lt + shutdownMargin
}

// checkProdFiles refuses, in env prod, a key file in the directory of the
// SQLite database — a copy or backup of that directory would carry the keys
// with the data they protect — and database or key files that exist with
// permissions for other users. It runs before anything is opened.
func (c *Config) checkProdFiles() error {
	if c.Keys == "" && !isPostgres(c.DB) && sameDir(c.keyFile(), c.DB) {
		return fmt.Errorf("refusing to start in env prod: the key file %s is in the same directory as the database %s, "+
			"so a copy of that directory would hold both the personal data and the keys that decrypt it. "+
			"Keep the keys elsewhere with -key-file (CHAIRSIDE_KEY_FILE), e.g. -key-file /etc/chairside/keys.json, "+
			"or pass them in CHAIRSIDE_KEYS; to try Chairside locally, run with -env dev", c.keyFile(), c.DB)
	}
	problems, err := c.filePermissionProblems()
	if err != nil {
		return err
	}
	return refusal(problems)
}

// checkProd runs after the store is open, in env prod: the files again
// (now that they all exist) and the database's contents, which must not
// hold the demo offices. Every problem found is named with its fix.
func (c *Config) checkProd(ctx context.Context, db *store.DB) error {
	problems, err := c.filePermissionProblems()
	if err != nil {
		return err
	}
	var demoKeys []string
	for _, l := range demo.Locations() {
		_, err := db.FindLocationByEntityKey(ctx, l.EntityKey)
		switch chairside.ErrorCode(err) {
		case "":
			demoKeys = append(demoKeys, l.EntityKey)
		case chairside.ENOTFOUND:
		default:
			return fmt.Errorf("check for demo offices: %w", err)
		}
	}
	if len(demoKeys) > 0 {
		problems = append(problems, fmt.Sprintf("the database holds the demo offices (entity keys %s) that -env dev, demo or test create, "+
			"and patients could apply at them; use a database of its own for production (-db, CHAIRSIDE_DB), "+
			"or run this one with -env dev", strings.Join(demoKeys, ", ")))
	}
	return refusal(problems)
}

// filePermissionProblems describes each existing file of ours — the SQLite
// database with its -wal and -shm files, the key file — that group or
// others may read or write (mode & 0o077 != 0).
func (c *Config) filePermissionProblems() ([]string, error) {
	var files, problems []string
	if !isPostgres(c.DB) {
		files = append(files, c.DB, c.DB+"-wal", c.DB+"-shm")
	}
	if c.Keys == "" {
		files = append(files, c.keyFile())
	}
	for _, f := range files {
		st, err := os.Stat(f)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		} else if err != nil {
			return nil, fmt.Errorf("check %s: %w", f, err)
		}
		if perm := st.Mode().Perm(); perm&0o077 != 0 {
			problems = append(problems, fmt.Sprintf("%s has mode %04o: other users of this machine may read or change it; "+
				"make it private to the server's user with: chmod 600 %s", f, perm, f))
		}
	}
	return problems, nil
}

// refusal is the error refusing env prod for problems, or nil.
func refusal(problems []string) error {
	if len(problems) == 0 {
		return nil
	}
	return fmt.Errorf("refusing to start in env prod:\n  - %s", strings.Join(problems, "\n  - "))
}

// sameDir reports whether two files are in the same directory, following
// symbolic links where the directories exist.
func sameDir(a, b string) bool {
	dir := func(p string) string {
		d, err := filepath.Abs(filepath.Dir(p))
		if err != nil {
			return filepath.Clean(filepath.Dir(p))
		}
		if r, err := filepath.EvalSymlinks(d); err == nil {
			return r
		}
		return d
	}
	return dir(a) == dir(b)
}

// describeDB names the database without its credentials.
func describeDB(dsn string) string {
	if isPostgres(dsn) {
		return "PostgreSQL"
	}
	return "SQLite " + dsn
}

func versionString() string {
	if chairside.Commit != "" {
		return chairside.Version + " (" + chairside.Commit + ")"
	}
	return chairside.Version
}

func envOr(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}
