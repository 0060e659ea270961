package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/backup"
	"github.com/chairside/chairside/flow"
	"github.com/chairside/chairside/httpapi"
	"github.com/chairside/chairside/messaging"
	"github.com/chairside/chairside/pms/opendental"
)

// Config is what `chairside serve` is told: by flag, or by the environment
// variable of the same setting. Each field is one row of settings below.
type Config struct {
	Addr string
	DB   string // SQLite file path or postgres:// URL
	// Env is the environment, prod unless told otherwise: demo offices and
	// test cases exist only where someone asked for them (-env dev).
	Env            string
	SandboxLatency time.Duration
	SandboxJournal string
	// SandboxFundingDay is how long a sandbox lender's business day of
	// funding lasts; 0 counts real business days.
	SandboxFundingDay time.Duration
	// LenderTimeout bounds every lender call; the graceful shutdown and
	// the HTTP write time-out are sized from it.
	LenderTimeout time.Duration
	KeyFile       string
	Keys          string // CHAIRSIDE_KEYS: the key file's JSON, instead of a file (no flag: a secret on a command line is seen by every user of the machine)
	Retention     time.Duration
	PublicURL     string
	LogLevel      string
	RateLimit     float64
	// TrustedProxies lists the proxies whose X-Forwarded-For is believed
	// (httpapi/client.go): addresses or CIDR prefixes.
	TrustedProxies string
	LendersFile    string
	// Texts through Twilio (docs/operations.md, "Texts"): the account, its
	// auth token (CHAIRSIDE_TWILIO_AUTH_TOKEN only, comma-separated while
	// it is rotated: the first sends, any verifies), the sender and the
	// API's address. No account: texts are written to the log.
	TwilioAccount string
	TwilioToken   string
	TwilioSender  string
	TwilioURL     string
	// Email through SMTP (docs/operations.md, "Email"): the relay, its
	// user (the password in CHAIRSIDE_SMTP_PASSWORD only), the sender's
	// address and the TLS policy. No host: emails are written to the log.
	SMTPHost     string
	SMTPPort     string
	SMTPUsername string
	SMTPPassword string
	SMTPFrom     string
	SMTPTLS      string
	// Standins sends texts and emails to the stand-ins inside the server
	// instead (messaging/standin), and connects offices' records to the
	// Open Dental stand-in; refused in env prod.
	Standins bool
	// Open Dental (docs/practice-records.md): Chairside's developer key
	// (CHAIRSIDE_OPENDENTAL_DEVELOPER_KEY only) and the API's address.
	// No key: offices cannot connect their records.
	OpenDentalKey string
	OpenDentalURL string
	// RecordsTimeout bounds one post to a practice's system.
	RecordsTimeout time.Duration
	// The continuous backup of a SQLite database (package backup): the
	// replica, how often a full copy is taken and how long copies are kept.
	BackupTo            string
	BackupSnapshotEvery time.Duration
	BackupRetention     time.Duration
	BackupBehindAfter   time.Duration
	// ResealBatch is how many values a round of re-sealing after a key
	// rotation changes.
	ResealBatch int
}

// setting is one row of the configuration table: the flag, its variable,
// its default, what it means and how it is checked. The flags, their
// defaults from the environment, the checks and the table of
// docs/running.md ("The server's settings") are all read from the rows, so
// a setting is written in one place.
type setting struct {
	Flag, Env string
	// Default is applied before the variable and the flag; Shown is the
	// default as the docs say it, when the value alone would mislead.
	Default, Shown string
	Meaning        string
	value          flag.Value
	// check refuses a value, in every environment.
	check func(*Config) error
	// prod lists what, in env prod, makes the server refuse to start
	// before it opens anything (each with its fix).
	prod func(*Config) []string
}

// settings are the rows, bound to c's fields.
func (c *Config) settings() []setting {
	return append([]setting{
		{Flag: "addr", Env: "CHAIRSIDE_ADDR", Default: "127.0.0.1:8080", Meaning: "listen address", value: stringVar{&c.Addr}},
		{Flag: "db", Env: "CHAIRSIDE_DB", Default: filepath.Join("data", "chairside.db"), Meaning: "SQLite file, or a `postgres://` URL; in prod the SQLite file and its `-wal` and `-shm` files must be private to the server's user (mode 0600)",
			value: stringVar{&c.DB}, prod: func(c *Config) []string { return filePermissionProblems(c.dbFiles()) }},
		{Flag: "env", Env: "CHAIRSIDE_ENV", Default: chairside.EnvProd, Shown: "`prod` (`make run`: `dev`)", Meaning: "`prod`, `test`, `uat`, `demo`, `dev` or `default`; demo offices in dev, demo and test; test cases refused in prod",
			value: stringVar{&c.Env}, check: func(c *Config) error {
				if !chairside.ValidEnv(c.Env) {
					return fmt.Errorf("-env %q: must be one of prod, test, uat, demo, dev, default", c.Env)
				}
				return nil
			}},
		{Flag: "sandbox-latency", Env: "CHAIRSIDE_SANDBOX_LATENCY", Default: "0s", Shown: "`0` (`make run`: `1s`)", Meaning: "how long sandbox lenders take to answer",
			value: durationVar{&c.SandboxLatency}, check: func(c *Config) error { return notNegative("-sandbox-latency", float64(c.SandboxLatency)) }},
		{Flag: "sandbox-funding-day", Env: "CHAIRSIDE_SANDBOX_FUNDING_DAY", Default: "0s", Shown: "`0` (`make run`: `20s`)", Meaning: "how long a business day lasts for the sandbox lenders' funding and deposits; `0` counts real business days, a few seconds shows a whole funding in minutes",
			value: durationVar{&c.SandboxFundingDay}, check: func(c *Config) error { return notNegative("-sandbox-funding-day", float64(c.SandboxFundingDay)) }},
		{Flag: "sandbox-journal", Env: "CHAIRSIDE_SANDBOX_JOURNAL", Meaning: "a file the sandbox lenders append every call they get to (one JSON line: time, step, lender, reference; no personal data)", value: stringVar{&c.SandboxJournal}},
		{Flag: "lender-timeout", Env: "CHAIRSIDE_LENDER_TIMEOUT", Default: flow.DefaultLenderTimeout.String(), Meaning: "how long a lender call may take; a graceful stop waits this plus 10 s for running requests",
			value: durationVar{&c.LenderTimeout}, check: func(c *Config) error {
				if c.LenderTimeout <= 0 || c.LenderTimeout > maxLenderTimeout {
					return fmt.Errorf("-lender-timeout must be between 1ms and %s", maxLenderTimeout)
				}
				return nil
			}},
		{Flag: "key-file", Env: "CHAIRSIDE_KEY_FILE", Shown: "beside the SQLite file", Meaning: "AES-256 keys for personal data, created on first start with mode 0600 (`CHAIRSIDE_KEYS` may hold the same JSON instead); in prod it must be private and in another directory than the database",
			value: stringVar{&c.KeyFile}, prod: keyFileProblems},
		{Flag: "retention", Env: "CHAIRSIDE_RETENTION", Default: "72h", Meaning: "how long an applicant's personal data is kept after the session ends; decisions, consents and signatures stay",
			value: durationVar{&c.Retention}, check: func(c *Config) error {
				if c.Retention <= 0 {
					return fmt.Errorf("-retention must be positive")
				}
				return nil
			}},
		{Flag: "public-url", Env: "CHAIRSIDE_PUBLIC_URL", Shown: "`http://ADDR`", Meaning: "the address printed in links; an `https://` URL (TLS ended by a proxy) turns on `Strict-Transport-Security`", value: stringVar{&c.PublicURL}},
		{Flag: "rate-limit", Env: "CHAIRSIDE_RATE_LIMIT", Default: strconv.FormatFloat(httpapi.DefaultRatePerSecond, 'g', -1, 64), Meaning: "requests per second per client address (bursts of three times that; the app's own files are not counted); `0` turns it off",
			value: floatVar{&c.RateLimit}, check: func(c *Config) error { return notNegative("-rate-limit", c.RateLimit) }},
		{Flag: "trusted-proxies", Env: "CHAIRSIDE_TRUSTED_PROXIES", Shown: "none", Meaning: "the proxies in front of the server whose `X-Forwarded-For` says who the client is: addresses or CIDR prefixes, comma-separated (`10.0.0.0/8`); the rate limit, consents and the office audit then see the client, not the proxy (docs/operations.md, \"Behind a proxy\")",
			value: stringVar{&c.TrustedProxies}, check: func(c *Config) error {
				if _, err := httpapi.ParseProxies(c.TrustedProxies); err != nil {
					return fmt.Errorf("-trusted-proxies: %w", err)
				}
				return nil
			}},
		{Flag: "log-level", Env: "CHAIRSIDE_LOG_LEVEL", Default: "info", Meaning: "`debug`, `info`, `warn` or `error`: JSON log lines on stderr, one per request, never with personal data", value: stringVar{&c.LogLevel}},
		{Flag: "lenders", Env: "CHAIRSIDE_LENDERS_FILE", Meaning: "lenders file: which lenders are reached over HTTP, where and with which credentials (docs/operations.md, \"Lenders\"); none: the sandbox everywhere", value: stringVar{&c.LendersFile}},
	}, append(c.messagingSettings(), c.dataSettings()...)...)
}

// dataSettings are the rows of the data's safety: the built-in database's
// backup and the re-sealing after a key rotation (docs/operations.md,
// "Backups" and "Rotating the data keys").
func (c *Config) dataSettings() []setting {
	return []setting{
		{Flag: "backup-to", Env: "CHAIRSIDE_BACKUP_TO", Shown: "none", Meaning: "where the SQLite database is copied as it changes, about a second behind: a folder on another disk or a network share, or `s3://bucket/path` (S3-compatible storage: `?endpoint=https://host`), with S3's keys in `AWS_ACCESS_KEY_ID` and `AWS_SECRET_ACCESS_KEY`; none: no backup; not with PostgreSQL, which has its own (docs/operations.md, \"Backups\")",
			value: stringVar{&c.BackupTo}, check: func(c *Config) error {
				if c.BackupTo == "" {
					return nil
				}
				if isPostgres(c.DB) {
					return fmt.Errorf("-backup-to copies a SQLite database; PostgreSQL is backed up by its own means (docs/operations.md, \"Backups\")")
				}
				if _, err := backup.Client(c.BackupTo); err != nil {
					return fmt.Errorf("-backup-to: %w", err)
				}
				return nil
			}},
		{Flag: "backup-snapshot-every", Env: "CHAIRSIDE_BACKUP_SNAPSHOT_EVERY", Default: backup.DefaultSnapshotEvery.String(), Meaning: "how often the backup takes a full copy; a restore reads the last one before its point and the changes after it",
			value: durationVar{&c.BackupSnapshotEvery}, check: func(c *Config) error {
				if c.BackupSnapshotEvery < time.Minute {
					return fmt.Errorf("-backup-snapshot-every must be at least 1m")
				}
				return nil
			}},
		{Flag: "backup-behind-after", Env: "CHAIRSIDE_BACKUP_BEHIND_AFTER", Default: backup.DefaultBehindAfter.String(), Meaning: "how long the backup may lag or fail before the office manager's screen shows a banner and `chairside_backup_behind` turns 1",
			value: durationVar{&c.BackupBehindAfter}, check: func(c *Config) error { return notNegative("-backup-behind-after", float64(c.BackupBehindAfter)) }},
		{Flag: "reseal-batch", Env: "CHAIRSIDE_RESEAL_BATCH", Default: "200", Meaning: "after `chairside keys rotate`, how many values sealed with an older key a round seals again with the current one (a round a second, beside patients' requests; docs/operations.md, \"Rotating the data keys\")",
			value: intVar{&c.ResealBatch}, check: func(c *Config) error {
				if c.ResealBatch < 1 || c.ResealBatch > 10000 {
					return fmt.Errorf("-reseal-batch must be between 1 and 10000")
				}
				return nil
			}},
		{Flag: "backup-retention", Env: "CHAIRSIDE_BACKUP_RETENTION", Default: backup.DefaultRetention.String(), Meaning: "how long the backup keeps its copies: how far back a restore can go",
			value: durationVar{&c.BackupRetention}, check: func(c *Config) error {
				if c.BackupRetention < c.BackupSnapshotEvery {
					return fmt.Errorf("-backup-retention must be at least -backup-snapshot-every, or a restore would find no full copy to start from")
				}
				return nil
			}},
	}
}

// messagingSettings are the rows of the providers a server reaches for
// its offices: texts, email, their stand-ins, the offices' own records.
func (c *Config) messagingSettings() []setting {
	return []setting{
		{Flag: "twilio-account", Env: "CHAIRSIDE_TWILIO_ACCOUNT", Shown: "none", Meaning: "the Twilio account (`AC…`) that sends invitations by text, with its auth token in `CHAIRSIDE_TWILIO_AUTH_TOKEN` (never a flag); none: texts are written to the log (docs/operations.md, \"Texts\")",
			value: stringVar{&c.TwilioAccount}, check: twilioProblems},
		{Flag: "twilio-sender", Env: "CHAIRSIDE_TWILIO_SENDER", Shown: "none", Meaning: "who texts come from for offices without their own (`textSender` in the office file): a Messaging Service (`MG…`, so that a patient's STOP applies to it) or a number (`+15125550100`)", value: stringVar{&c.TwilioSender}},
		{Flag: "twilio-url", Env: "CHAIRSIDE_TWILIO_URL", Default: "https://api.twilio.com", Meaning: "the Twilio API's address (a stand-in's in development)", value: stringVar{&c.TwilioURL}},
		{Flag: "smtp-host", Env: "CHAIRSIDE_SMTP_HOST", Shown: "none", Meaning: "the SMTP relay that sends invitations by email, with `-smtp-username` and its password in `CHAIRSIDE_SMTP_PASSWORD` (never a flag); none: emails are written to the log (docs/operations.md, \"Email\")",
			value: stringVar{&c.SMTPHost}, check: smtpProblems, prod: func(c *Config) []string {
				if c.SMTPHost != "" && c.SMTPTLS != messaging.TLSRequired {
					return []string{"-smtp-tls must be required in env prod: invitations carry one-time links"}
				}
				return nil
			}},
		{Flag: "smtp-port", Env: "CHAIRSIDE_SMTP_PORT", Default: "587", Meaning: "the SMTP relay's port", value: stringVar{&c.SMTPPort}},
		{Flag: "smtp-username", Env: "CHAIRSIDE_SMTP_USERNAME", Shown: "none", Meaning: "the SMTP relay's user; none: no authentication", value: stringVar{&c.SMTPUsername}},
		{Flag: "smtp-from", Env: "CHAIRSIDE_SMTP_FROM", Shown: "none", Meaning: "the address emails come from; the practice's name goes with it", value: stringVar{&c.SMTPFrom}},
		{Flag: "smtp-tls", Env: "CHAIRSIDE_SMTP_TLS", Default: messaging.TLSRequired, Meaning: "`required`, `opportunistic` or `none` (a stand-in only; refused in prod)", value: stringVar{&c.SMTPTLS}},
		{Flag: "messaging-standins", Env: "CHAIRSIDE_MESSAGING_STANDINS", Default: "false", Shown: "`false` (`make run`: `true`)", Meaning: "send texts and emails to stand-ins inside the server, shown at `/dev/messages`, and let offices connect the Open Dental stand-in (`make run` does); refused in prod and beside a real account or relay",
			value: boolVar{&c.Standins}, check: func(c *Config) error {
				if c.Standins && (c.TwilioAccount != "" || c.SMTPHost != "") {
					return fmt.Errorf("-messaging-standins takes the place of -twilio-account and -smtp-host: give one or the other")
				}
				return nil
			}, prod: func(c *Config) []string {
				if c.Standins {
					return []string{"-messaging-standins is for development: texts and emails would reach no patient"}
				}
				return nil
			}},
		{Flag: "opendental-url", Env: "CHAIRSIDE_OPENDENTAL_URL", Default: opendental.DefaultURL, Meaning: "Open Dental's API, for offices that connect their records with Chairside's developer key in `CHAIRSIDE_OPENDENTAL_DEVELOPER_KEY` (never a flag; none: offices cannot connect; docs/practice-records.md)",
			value: stringVar{&c.OpenDentalURL}},
		{Flag: "records-timeout", Env: "CHAIRSIDE_RECORDS_TIMEOUT", Default: "30s", Meaning: "how long a post to a practice's own system may take; a server that stops mid-post leaves it to another after twice that, which first looks for it on the ledger",
			value: durationVar{&c.RecordsTimeout}, check: func(c *Config) error {
				if c.RecordsTimeout <= 0 || c.RecordsTimeout > 5*time.Minute {
					return fmt.Errorf("-records-timeout must be more than 0 and at most 5m")
				}
				return nil
			}},
	}
}

// newConfig is the defaults with the environment over them; a malformed
// variable is returned as an error (reported by ParseFlags and Run rather
// than silently replaced by its default).
func newConfig() (Config, error) {
	var c Config
	var errs []string
	for _, s := range c.settings() {
		if err := s.value.Set(s.Default); err != nil {
			panic(fmt.Sprintf("setting -%s: default %q: %v", s.Flag, s.Default, err)) // a mistake in the table
		}
		if v := os.Getenv(s.Env); v != "" {
			if err := s.value.Set(v); err != nil {
				errs = append(errs, fmt.Sprintf("%s=%q: %v", s.Env, v, err))
			}
		}
	}
	c.Keys = os.Getenv("CHAIRSIDE_KEYS")
	c.TwilioToken = os.Getenv("CHAIRSIDE_TWILIO_AUTH_TOKEN")
	c.SMTPPassword = os.Getenv("CHAIRSIDE_SMTP_PASSWORD")
	c.OpenDentalKey = os.Getenv("CHAIRSIDE_OPENDENTAL_DEVELOPER_KEY")
	if len(errs) > 0 {
		return c, fmt.Errorf("%s", strings.Join(errs, "\n"))
	}
	return c, nil
}

// flags binds settings to flags of fs, its usage naming the variable:
// every setting (serve), or only those named (the other commands, which
// share serve's database, keys and address).
func (c *Config) flags(fs *flag.FlagSet, only ...string) {
	for _, s := range c.settings() {
		if len(only) == 0 || slices.Contains(only, s.Flag) {
			// Backquotes would make the flag package take a word for the value's name.
			fs.Var(s.value, s.Flag, strings.ReplaceAll(s.Meaning, "`", "")+" ("+s.Env+")")
		}
	}
}

// publicURL is the address links are printed with: -public-url, or the
// listen address over http.
func (c *Config) publicURL() string {
	if c.PublicURL != "" {
		return c.PublicURL
	}
	return "http://" + c.Addr
}

// validate runs every setting's check.
func (c *Config) validate() error {
	for _, s := range c.settings() {
		if s.check == nil {
			continue
		}
		if err := s.check(c); err != nil {
			return err
		}
	}
	return nil
}

// checkProdFiles refuses, in env prod, what the settings' prod checks find
// — a key file beside the SQLite database, files others may read — before
// anything is opened.
func (c *Config) checkProdFiles() error {
	var problems []string
	for _, s := range c.settings() {
		if s.prod != nil {
			problems = append(problems, s.prod(c)...)
		}
	}
	return refusal(problems)
}

// The lines around the settings table in docs/running.md.
const (
	settingsStart = "<!-- settings: written by `make generate` from cmd/chairside/config.go -->\n"
	settingsEnd   = "<!-- end of settings -->"
)

// runSettings is `chairside settings`: the table of serve's settings, in
// Markdown; with -doc FILE, FILE with the table between its two marker
// lines rewritten (what `make generate` writes back to docs/running.md).
func runSettings(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("settings", flag.ContinueOnError)
	fs.SetOutput(stderr)
	doc := fs.String("doc", "", "print this Markdown file with its settings table rewritten")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *doc == "" {
		_, err := io.WriteString(stdout, settingsTable())
		return err
	}
	text, err := os.ReadFile(*doc)
	if err != nil {
		return err
	}
	out, err := withSettingsTable(string(text))
	if err != nil {
		return fmt.Errorf("%s: %w", *doc, err)
	}
	_, err = io.WriteString(stdout, out)
	return err
}

// withSettingsTable answers doc with the table between its marker lines
// replaced by settingsTable().
func withSettingsTable(doc string) (string, error) {
	i, j := strings.Index(doc, settingsStart), strings.Index(doc, settingsEnd)
	if i < 0 || j < i {
		return "", fmt.Errorf("no settings markers")
	}
	return doc[:i+len(settingsStart)] + settingsTable() + doc[j:], nil
}

// settingsTable is the table of docs/running.md, "The server's settings".
func settingsTable() string {
	var c Config
	var b strings.Builder
	b.WriteString("| flag | variable | default | |\n|---|---|---|---|\n")
	for _, s := range c.settings() {
		shown := s.Shown
		switch {
		case shown != "":
		case s.Default == "":
			shown = "none"
		default:
			shown = "`" + s.Default + "`"
		}
		fmt.Fprintf(&b, "| `-%s` | `%s` | %s | %s |\n", s.Flag, s.Env, shown, s.Meaning)
	}
	return b.String()
}

func notNegative(name string, v float64) error {
	if v < 0 {
		return fmt.Errorf("%s must not be negative", name)
	}
	return nil
}

// The values a setting binds: flag.Value over a field of Config, with
// errors in the words an operator reads.
type (
	stringVar   struct{ p *string }
	durationVar struct{ p *time.Duration }
	floatVar    struct{ p *float64 }
	intVar      struct{ p *int }
	boolVar     struct{ p *bool }
)

func (v intVar) Set(s string) error {
	n, err := strconv.Atoi(s)
	if err != nil {
		return fmt.Errorf("not a whole number")
	}
	*v.p = n
	return nil
}
func (v intVar) String() string {
	if v.p == nil {
		return "0"
	}
	return strconv.Itoa(*v.p)
}

func (v boolVar) Set(s string) error {
	b, err := strconv.ParseBool(s)
	if err != nil {
		return fmt.Errorf("not true or false")
	}
	*v.p = b
	return nil
}
func (v boolVar) String() string { return strconv.FormatBool(v.p != nil && *v.p) }

// IsBoolFlag lets the flag be given alone (-messaging-standins).
func (boolVar) IsBoolFlag() bool { return true }

func (v stringVar) Set(s string) error { *v.p = s; return nil }
func (v stringVar) String() string {
	if v.p == nil {
		return ""
	}
	return *v.p
}

func (v durationVar) Set(s string) error {
	d, err := time.ParseDuration(s)
	if err != nil {
		return fmt.Errorf("not a duration such as 1s or 72h")
	}
	*v.p = d
	return nil
}
func (v durationVar) String() string {
	if v.p == nil {
		return "0s"
	}
	return v.p.String()
}

func (v floatVar) Set(s string) error {
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return fmt.Errorf("not a number")
	}
	*v.p = f
	return nil
}
func (v floatVar) String() string {
	if v.p == nil {
		return "0"
	}
	return strconv.FormatFloat(*v.p, 'g', -1, 64)
}

// twilioProblems refuses a Twilio account without its token or a sender
// to send from.
func twilioProblems(c *Config) error {
	if c.TwilioAccount == "" {
		return nil
	}
	if !strings.HasPrefix(c.TwilioAccount, "AC") {
		return fmt.Errorf("-twilio-account %q: a Twilio account SID starts with AC", c.TwilioAccount)
	}
	if strings.TrimSpace(c.TwilioToken) == "" {
		return fmt.Errorf("-twilio-account needs its auth token in CHAIRSIDE_TWILIO_AUTH_TOKEN")
	}
	if c.TwilioSender == "" {
		return nil // each office names its own (textSender in the office file)
	}
	if _, err := messaging.ParseSender(c.TwilioSender); err != nil {
		return fmt.Errorf("-twilio-sender: %w", err)
	}
	return nil
}

// TwilioTokens are the auth tokens of CHAIRSIDE_TWILIO_AUTH_TOKEN, the
// first the one that sends.
func (c *Config) TwilioTokens() []string {
	var out []string
	for t := range strings.SplitSeq(c.TwilioToken, ",") {
		if t = strings.TrimSpace(t); t != "" {
			out = append(out, t)
		}
	}
	return out
}

// smtpProblems refuses an SMTP relay without the address mail comes from,
// a port, or a known TLS policy.
func smtpProblems(c *Config) error {
	if c.SMTPHost == "" {
		return nil
	}
	if !strings.Contains(c.SMTPFrom, "@") {
		return fmt.Errorf("-smtp-from %q: the address emails come from", c.SMTPFrom)
	}
	if p, err := strconv.Atoi(c.SMTPPort); err != nil || p < 1 || p > 65535 {
		return fmt.Errorf("-smtp-port %q: a port number", c.SMTPPort)
	}
	switch c.SMTPTLS {
	case messaging.TLSRequired, messaging.TLSOpportunistic, messaging.TLSNone:
		return nil
	}
	return fmt.Errorf("-smtp-tls %q: required, opportunistic or none", c.SMTPTLS)
}
