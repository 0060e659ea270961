// Package metrics is what Chairside tells Prometheus at /metrics: lender
// calls (count, latency, errors by kind, circuit breaker state), webhook
// deliveries, the reconciler's polls, API requests by route, and the Go
// runtime (docs/operations.md, "Metrics").
//
// Every label has a bounded set of values (lender keys, operations,
// route patterns, kinds); nothing personal or per-session is ever a label.
// A nil *Metrics records nothing, so code under test may pass none.
package metrics

import (
	"net/http"
	"strconv"
	"time"

	"github.com/chairside/chairside"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Breaker states as the gauge shows them.
const (
	BreakerClosed   = 0
	BreakerHalfOpen = 1
	BreakerOpen     = 2
)

// Metrics holds the collectors of one server. Build it with New.
type Metrics struct {
	reg           *prometheus.Registry
	lenderCalls   *prometheus.CounterVec
	lenderLatency *prometheus.HistogramVec
	lenderErrors  *prometheus.CounterVec
	breaker       *prometheus.GaugeVec
	webhooks      *prometheus.CounterVec
	polls         *prometheus.CounterVec
	fundingPolls  *prometheus.CounterVec
	moneyAlerts   *prometheus.GaugeVec
	plansRefused  *prometheus.CounterVec
	requests      *prometheus.CounterVec
	reqLatency    *prometheus.HistogramVec
	messages      *prometheus.GaugeVec
	outbox        *prometheus.GaugeVec
}

// New returns Metrics registered in a registry of their own, with the Go
// runtime and process collectors.
func New() *Metrics {
	m := &Metrics{
		reg: prometheus.NewRegistry(),
		lenderCalls: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "chairside_lender_calls_total",
			Help: "Calls to lenders by provider, operation and result (ok or the error kind).",
		}, []string{"lender", "op", "result"}),
		lenderLatency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "chairside_lender_call_duration_seconds",
			Help:    "Time lender calls took, failed ones included, by lender and operation.",
			Buckets: []float64{.01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 25},
		}, []string{"lender", "op"}),
		lenderErrors: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "chairside_lender_errors_total",
			Help: "Failed lender calls by provider, operation and kind (timeout, unavailable, malformed, breaker_open, rejected, not_found, other).",
		}, []string{"lender", "op", "kind"}),
		breaker: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "chairside_lender_breaker_state",
			Help: "Circuit breaker state per HTTP lender: 0 closed, 1 half-open, 2 open.",
		}, []string{"lender"}),
		webhooks: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "chairside_lender_webhooks_total",
			Help: "Webhook deliveries by lender and result (applied, duplicate, ignored, bad_signature, stale, malformed, unknown_application, error).",
		}, []string{"lender", "result"}),
		polls: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "chairside_reconciler_polls_total",
			Help: "Status polls of pending applications by lender and result (changed, unchanged, error).",
		}, []string{"lender", "result"}),
		fundingPolls: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "chairside_reconciler_funding_polls_total",
			Help: "Funding polls of completed applications by lender and result (changed, unchanged, error).",
		}, []string{"lender", "result"}),
		moneyAlerts: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "chairside_money_alerts",
			Help: "Cases to look at, by kind: late_funding, refund_refused and deposit_mismatch (the last two over 30 days).",
		}, []string{"kind"}),
		plansRefused: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "chairside_lender_plans_refused_total",
			Help: "Lender plans left out because their figures do not add up, by lender and reason (missing, schedule, balloon, term, apr, lease, amount).",
		}, []string{"lender", "reason"}),
		messages: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "chairside_messages",
			Help: "Invitations' texts and emails of the last 24 hours by channel (sms, email) and state (sending, held, sent, delivered, undelivered, opted_out, failed).",
		}, []string{"channel", "state"}),
		outbox: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "chairside_outbox",
			Help: "The outbox now: waiting (messages to send), retrying (waiting after a failed attempt), oldest_seconds (age of the oldest waiting message).",
		}, []string{"measure"}),
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "chairside_http_requests_total",
			Help: "API requests by route pattern and status code.",
		}, []string{"route", "code"}),
		reqLatency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "chairside_http_request_duration_seconds",
			Help:    "Time API requests took by route pattern.",
			Buckets: []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 10, 30},
		}, []string{"route"}),
	}
	m.reg.MustRegister(m.lenderCalls, m.lenderLatency, m.lenderErrors, m.breaker, m.webhooks, m.polls, m.fundingPolls, m.moneyAlerts, m.plansRefused, m.requests, m.reqLatency,
		m.messages, m.outbox,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// Handler serves the metrics in the Prometheus text format.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{Registry: m.reg})
}

// Registry is where the collectors are registered, for tests that gather
// them.
func (m *Metrics) Registry() *prometheus.Registry { return m.reg }

// LenderCall counts one lender call that took d and failed with kind (""
// when it succeeded).
func (m *Metrics) LenderCall(lender, op string, d time.Duration, kind string) {
	if m == nil {
		return
	}
	result := "ok"
	if kind != "" {
		result = kind
		m.lenderErrors.WithLabelValues(lender, op, kind).Inc()
	}
	m.lenderCalls.WithLabelValues(lender, op, result).Inc()
	m.lenderLatency.WithLabelValues(lender, op).Observe(d.Seconds())
}

// BreakerState sets the breaker gauge of lender (BreakerClosed …).
func (m *Metrics) BreakerState(lender string, state int) {
	if m == nil {
		return
	}
	m.breaker.WithLabelValues(lender).Set(float64(state))
}

// Webhook counts one webhook delivery and how it ended.
func (m *Metrics) Webhook(lender, result string) {
	if m == nil {
		return
	}
	m.webhooks.WithLabelValues(lender, result).Inc()
}

// Poll counts one status poll of the reconciler.
func (m *Metrics) Poll(lender, result string) {
	if m == nil {
		return
	}
	m.polls.WithLabelValues(lender, result).Inc()
}

// MoneyAlerts sets the number of cases to look at of each kind; a kind
// not in counts is set to 0.
func (m *Metrics) MoneyAlerts(kinds []string, counts map[string]int) {
	if m == nil {
		return
	}
	for _, k := range kinds {
		m.moneyAlerts.WithLabelValues(k).Set(float64(counts[k]))
	}
}

// Messages sets the count of messages by channel and state; a state of
// a channel not in counts is set to 0.
func (m *Metrics) Messages(channels, states []string, counts map[[2]string]int) {
	if m == nil {
		return
	}
	for _, c := range channels {
		for _, st := range states {
			m.messages.WithLabelValues(c, st).Set(float64(counts[[2]string{c, st}]))
		}
	}
}

// Outbox sets the outbox's waiting and retrying messages and the age of
// the oldest waiting one.
func (m *Metrics) Outbox(waiting, retrying int, oldest time.Duration) {
	if m == nil {
		return
	}
	m.outbox.WithLabelValues("waiting").Set(float64(waiting))
	m.outbox.WithLabelValues("retrying").Set(float64(retrying))
	m.outbox.WithLabelValues("oldest_seconds").Set(oldest.Seconds())
}

// FundingPoll counts one funding poll of the reconciler by its result.
func (m *Metrics) FundingPoll(lender, result string) {
	if m == nil {
		return
	}
	m.fundingPolls.WithLabelValues(lender, result).Inc()
}

// PlanRefused counts a lender plan left out because its figures do not add
// up (money.Settle's reason).
func (m *Metrics) PlanRefused(lender, reason string) {
	if m == nil {
		return
	}
	m.plansRefused.WithLabelValues(lender, reason).Inc()
}

// Request counts one API request by its route pattern.
func (m *Metrics) Request(route string, code int, d time.Duration) {
	if m == nil {
		return
	}
	m.requests.WithLabelValues(route, strconv.Itoa(code)).Inc()
	m.reqLatency.WithLabelValues(route).Observe(d.Seconds())
}

// StoreCommits publishes the store's group commit counters (store/commit.go):
// groups committed and the units of work they held, read from stats
// whenever the metrics are scraped.
func (m *Metrics) StoreCommits(stats func() (groups, units int64)) {
	m.counterPair(stats,
		prometheus.CounterOpts{Name: "chairside_store_commit_groups_total", Help: "Commits of grouped writes (each one fsync)."},
		prometheus.CounterOpts{Name: "chairside_store_commit_units_total", Help: "Units of work (a step's writes, or one write) committed in those groups."})
}

// StoreStatements publishes the store's statement counters
// (store.DB.Statements): reads outside a transaction and statements inside
// units of work, read from stats whenever the metrics are scraped.
func (m *Metrics) StoreStatements(stats func() (reads, inTransactions int64)) {
	m.counterPair(stats,
		prometheus.CounterOpts{Name: "chairside_store_reads_total", Help: "Statements sent outside any transaction (reads)."},
		prometheus.CounterOpts{Name: "chairside_store_tx_statements_total", Help: "Statements sent inside units of work (writes and the reads they make)."})
}

// StoreRoundTrips publishes how many times the store waited for the
// database (store.DB.RoundTrips), read whenever the metrics are scraped.
func (m *Metrics) StoreRoundTrips(trips func() int64) {
	m.reg.MustRegister(prometheus.NewCounterFunc(
		prometheus.CounterOpts{Name: "chairside_store_round_trips_total", Help: "Times the store waited for the database: on PostgreSQL round trips, on SQLite statements."},
		func() float64 { return float64(trips()) }))
}

// counterPair registers two counters read from one stats function, the
// first from its first answer and the second from its second.
func (m *Metrics) counterPair(stats func() (int64, int64), first, second prometheus.CounterOpts) {
	m.reg.MustRegister(
		prometheus.NewCounterFunc(first, func() float64 { a, _ := stats(); return float64(a) }),
		prometheus.NewCounterFunc(second, func() float64 { _, b := stats(); return float64(b) }),
	)
}

// Backup publishes where the built-in database's backup stands (package
// backup), read from status whenever the metrics are scraped: its lag,
// when it last received changes and a full copy, and whether it is
// failing. Registered only on a server that keeps one.
func (m *Metrics) Backup(status func() *chairside.BackupStatus) {
	read := func(f func(*chairside.BackupStatus) float64) func() float64 {
		return func() float64 {
			if s := status(); s != nil {
				return f(s)
			}
			return 0
		}
	}
	unix := func(t time.Time) float64 {
		if t.IsZero() {
			return 0
		}
		return float64(t.UnixMilli()) / 1000
	}
	m.reg.MustRegister(
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "chairside_backup_lag_seconds", Help: "How long the backup has been missing commits the database has; 0 when it has them all."},
			read(func(s *chairside.BackupStatus) float64 { return s.Lag.Seconds() })),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "chairside_backup_last_shipped_timestamp_seconds", Help: "When the backup last received changes (Unix time; 0: never)."},
			read(func(s *chairside.BackupStatus) float64 { return unix(s.LastShipped) })),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "chairside_backup_last_snapshot_timestamp_seconds", Help: "When the backup last received a full copy (Unix time; 0: never)."},
			read(func(s *chairside.BackupStatus) float64 { return unix(s.LastSnapshot) })),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "chairside_backup_failing", Help: "1 while reaching the backup fails, 0 when it works."},
			read(func(s *chairside.BackupStatus) float64 {
				if s.Failing != "" {
					return 1
				}
				return 0
			})),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "chairside_backup_behind", Help: "1 once the backup has lagged or failed long enough for the office manager's banner."},
			read(func(s *chairside.BackupStatus) float64 {
				if s.Behind {
					return 1
				}
				return 0
			})),
	)
}
