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
	"github.com/chairside/chairside/backup"
	"github.com/chairside/chairside/demo"
	"github.com/chairside/chairside/flow"
	"github.com/chairside/chairside/httpapi"
	"github.com/chairside/chairside/lender"
	"github.com/chairside/chairside/lender/registry"
	"github.com/chairside/chairside/lender/sandbox"
	"github.com/chairside/chairside/messaging"
	"github.com/chairside/chairside/messaging/standin"
	"github.com/chairside/chairside/metrics"
	"github.com/chairside/chairside/office"
	"github.com/chairside/chairside/pms"
	"github.com/chairside/chairside/pms/opendental"
	"github.com/chairside/chairside/pms/opendental/odsim"
	"github.com/chairside/chairside/seal"
	"github.com/chairside/chairside/store"
	"github.com/chairside/chairside/web"
)

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
	// standins are the texting and mail stand-ins, when asked for.
	standins *standin.Standins
	// backup streams a SQLite database to its replica, when -backup-to
	// asks for it.
	backup   *backup.Replicator
	metrics  *metrics.Metrics
	registry *registry.Registry
	// keyIDs is how many data keys the keyring holds: more than one after a
	// rotation, which starts the re-sealing (loops.go).
	keyIDs int
	done   chan struct{}
}

// NewMain returns a Main with the defaults and environment applied
// (config.go).
func NewMain() *Main {
	c, err := newConfig()
	return &Main{Config: c, Stdout: os.Stdout, Now: time.Now, envErr: err}
}

// ParseFlags reads the serve flags over the defaults.
func (m *Main) ParseFlags(args []string, stderr io.Writer) error {
	c := &m.Config
	fs := flag.NewFlagSet("chairside serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	c.flags(fs)
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
	if err := m.startBackup(ctx, log); err != nil {
		ln.Close()
		db.Close()
		return err
	}
	m.metrics.StoreCommits(db.GroupStats)
	m.metrics.StoreStatements(db.Statements)
	m.metrics.StoreRoundTrips(db.RoundTrips)
	handler, err := m.withStandins(func() http.Handler { return m.handler(db, keys, log) })
	if err != nil {
		ln.Close()
		db.Close()
		if m.backup != nil {
			_ = m.backup.Close(context.Background())
			m.backup = nil
		}
		return err
	}
	m.serve(handler, log)

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
	m.keyIDs = len(keys.KeyIDs())
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
	sb := sandbox.New(sandbox.Options{Latency: c.SandboxLatency, Journal: c.SandboxJournal, FundingDay: c.SandboxFundingDay})
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
	if err := f.CheckTimeouts(c.LenderTimeout); err != nil {
		return nil, fmt.Errorf("lenders file %s: %w", c.LendersFile, err)
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
		Env:             c.Env,
		Now:             m.Now,
		Logger:          log,
		LenderTimeout:   c.LenderTimeout,
		DecisionTimeout: m.registry.DecisionTimeout,
		TestCases:       testCases,
		DemoEntityKey:   demoKey,
		PlanRefused:     m.metrics.PlanRefused,
	})
	m.svc = svc
	staff := office.New(db, log)
	staff.Now = m.Now
	// Office data is customer information (docs/behaviour.md, "Two-step
	// sign-in"): in prod no account reaches it on a password alone.
	staff.RequireSecondFactor = c.Env == chairside.EnvProd
	m.office = staff
	staff.PostTimeout = c.RecordsTimeout
	if c.OpenDentalKey != "" {
		staff.Bridge = func(conn *chairside.RecordsConnection) pms.Bridge {
			base := conn.BaseURL
			if base == "" {
				base = c.OpenDentalURL
			}
			return &opendental.Client{BaseURL: base, DeveloperKey: c.OpenDentalKey, CustomerKey: conn.CustomerKey}
		}
	}
	rate := c.RateLimit
	if rate == 0 {
		rate = -1 // httpapi's word for "no limit"
	}
	proxies, _ := httpapi.ParseProxies(c.TrustedProxies) // checked by validate
	return httpapi.New(svc, httpapi.Options{
		Env:           c.Env,
		Logger:        log,
		Web:           web.Dist(),
		OpenAPI:       api.Spec,
		RatePerSecond: rate,
		RateBurst:     int(3 * rate),
		// TLS ends at the proxy in front of us; the public URL says
		// whether patients arrive over https.
		HSTS:           strings.HasPrefix(strings.ToLower(c.PublicURL), "https://"),
		Office:         staff,
		PublicURL:      c.PublicURL,
		Metrics:        m.metrics,
		Ready:          db.Ready,
		Backup:         m.backupStatus,
		TrustedProxies: proxies,
		// Webhooks are verified with the secrets of the lenders file.
		WebhookSecrets: m.registry.WebhookSecrets,
		TwilioTokens:   c.TwilioTokens(),
	})
}

// backupShipLast bounds how long a stop waits for the last commits to
// reach the backup: a replica out of reach must not hold the stop.
const backupShipLast = 10 * time.Second

// startBackup begins streaming a SQLite database to -backup-to, or says in
// the log that a prod server on SQLite keeps no copy.
func (m *Main) startBackup(ctx context.Context, log *slog.Logger) error {
	c := m.Config
	if c.BackupTo == "" {
		if c.Env == chairside.EnvProd && !isPostgres(c.DB) {
			log.Warn("no backup: a lost disk loses every record; set -backup-to (docs/operations.md, \"Backups\")")
		}
		return nil
	}
	rep, err := backup.Start(ctx, c.DB, backup.Config{To: c.BackupTo, SnapshotEvery: c.BackupSnapshotEvery, Retention: c.BackupRetention, BehindAfter: c.BackupBehindAfter}, log)
	if err != nil {
		return err
	}
	m.backup = rep
	m.metrics.Backup(m.backupStatus)
	log.Info("backup streaming", "replica", backup.Describe(c.BackupTo))
	return nil
}

// backupStatus answers the backup's status; nil without one.
func (m *Main) backupStatus() *chairside.BackupStatus {
	if m.backup == nil {
		return nil
	}
	return m.backup.Status()
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
		// for the database and before recording its outcome, and a submit
		// may ask several lenders of the waterfall (flow.CascadeBudget):
		// the answer must still be written, so the margin is generous.
		WriteTimeout: flow.CascadeBudget(m.Config.LenderTimeout) + writeMargin,
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

// withStandins starts the texting and mail stand-ins when the settings
// ask for them (-messaging-standins): texts and emails then go to them,
// and the handler (made after, with their settings) is served behind the
// stand-ins' own routes (messaging/standin).
func (m *Main) withStandins(handler func() http.Handler) (http.Handler, error) {
	if !m.Config.Standins {
		return handler(), nil
	}
	s, err := standin.Start(m.URL())
	if err != nil {
		return nil, fmt.Errorf("messaging stand-ins: %w", err)
	}
	m.standins = s
	c := &m.Config
	c.TwilioAccount, c.TwilioToken, c.TwilioURL = s.Account, s.Token, s.TwilioURL()
	if c.TwilioSender == "" {
		c.TwilioSender = standin.Sender
	}
	c.SMTPHost, c.SMTPPort, c.SMTPTLS = s.SMTPHost, strconv.Itoa(s.SMTPPort), messaging.TLSNone
	if c.SMTPFrom == "" {
		c.SMTPFrom = "invitations@chairside.localhost"
	}
	// The Open Dental stand-in: a manager connects it with
	// odsim.StandinCustomerKey.
	od := odsim.New(odsim.StandinDeveloperKey, odsim.StandinCustomerKey)
	c.OpenDentalKey, c.OpenDentalURL = odsim.StandinDeveloperKey, m.URL()+openDentalStandinPath
	mux := http.NewServeMux()
	mux.Handle(openDentalStandinPath+"/", http.StripPrefix(openDentalStandinPath, od))
	mux.Handle("/", s.Handler(handler()))
	return mux, nil
}

// openDentalStandinPath is where the Open Dental stand-in answers.
const openDentalStandinPath = "/dev/opendental/api/v1"

// printWelcome says where the server is and, with demo data, where the
// demo patient starts.
func (m *Main) printWelcome() {
	c, url := m.Config, m.URL()
	fmt.Fprintf(m.Stdout, "Chairside %s is running (env %s, database %s).\n", chairside.Version, c.Env, describeDB(c.DB))
	fmt.Fprintf(m.Stdout, "Open %s/\n", url)
	if over := m.registry.Describe(); len(over) > 0 {
		fmt.Fprintf(m.Stdout, "Lenders over HTTP: %s; the others are the sandbox.\n", strings.Join(over, ", "))
	}
	if m.standins != nil {
		fmt.Fprintf(m.Stdout, "Texts and emails go to stand-ins; see them at %s%s\n", url, standin.PagePath)
		fmt.Fprintf(m.Stdout, "Open Dental stand-in: a manager connects it under Practice records with the key %s\n", odsim.StandinCustomerKey)
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
	if m.backup != nil {
		// After the store, as Litestream asks: the last commits are shipped.
		ctx, cancel := context.WithTimeout(context.Background(), backupShipLast)
		defer cancel()
		if err := m.backup.Close(ctx); err != nil {
			errs = append(errs, err)
		}
		m.backup = nil
	}
	if m.standins != nil {
		if err := m.standins.Close(); err != nil {
			errs = append(errs, err)
		}
		m.standins = nil
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
	// writeMargin is what the HTTP write time-out adds to the time a
	// submit may spend asking lenders (115 s with the default 25 s lender
	// time-out).
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

// keyFileProblems is the key file's prod check: not in the directory of
// the SQLite database — a copy or backup of that directory would carry the
// keys with the data they protect — and private to the server's user.
func keyFileProblems(c *Config) []string {
	if c.Keys != "" {
		return nil
	}
	var problems []string
	if !isPostgres(c.DB) && sameDir(c.keyFile(), c.DB) {
		problems = append(problems, fmt.Sprintf("the key file %s is in the same directory as the database %s, "+
			"so a copy of that directory would hold both the personal data and the keys that decrypt it; "+
			"keep the keys elsewhere with -key-file (CHAIRSIDE_KEY_FILE), e.g. -key-file /etc/chairside/keys.json, "+
			"or pass them in CHAIRSIDE_KEYS; to try Chairside locally, run with -env dev", c.keyFile(), c.DB))
	}
	return append(problems, filePermissionProblems([]string{c.keyFile()})...)
}

// dbFiles are the SQLite database's files (none for PostgreSQL).
func (c *Config) dbFiles() []string {
	if isPostgres(c.DB) {
		return nil
	}
	return []string{c.DB, c.DB + "-wal", c.DB + "-shm"}
}

// checkProd runs after the store is open, in env prod: the files again
// (now that they all exist) and the database's contents, which must not
// hold the demo offices. Every problem found is named with its fix.
func (c *Config) checkProd(ctx context.Context, db *store.DB) error {
	problems := filePermissionProblems(c.dbFiles())
	if c.Keys == "" {
		problems = append(problems, filePermissionProblems([]string{c.keyFile()})...)
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

// filePermissionProblems describes each existing file of files that group
// or others may read or write (mode & 0o077 != 0), or that cannot be
// checked.
func filePermissionProblems(files []string) []string {
	var problems []string
	for _, f := range files {
		st, err := os.Stat(f)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		} else if err != nil {
			problems = append(problems, fmt.Sprintf("cannot check %s: %v", f, err))
			continue
		}
		if perm := st.Mode().Perm(); perm&0o077 != 0 {
			problems = append(problems, fmt.Sprintf("%s has mode %04o: other users of this machine may read or change it; "+
				"make it private to the server's user with: chmod 600 %s", f, perm, f))
		}
	}
	return problems
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
