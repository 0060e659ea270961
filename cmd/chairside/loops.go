package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"log/slog"
	"strconv"
	"time"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/messaging"
	"github.com/chairside/chairside/office"
	"github.com/chairside/chairside/store"
)

// The background loops of one server. Several servers may share one
// PostgreSQL database, so each loop's work is taken with a claim in the
// database that one server at a time can win (docs/operations.md,
// "Several servers"):
//
//   - the purge takes a named lease for its round;
//   - the reconciler claims each pending application for one poll;
//   - the office outbox dispatcher claims each message for one send;
//   - the records poster claims each post to a practice's ledger;
//   - the re-sealing after a key rotation takes a named lease.

// Loop pacing.
const (
	purgeEvery     = 10 * time.Minute
	reconcileEvery = 5 * time.Second
	// reconcileBatch bounds the polls of one reconciler round, so a
	// backlog is spread over rounds (and over servers).
	reconcileBatch = 50
	// postEvery paces the posts to the offices' own records.
	postEvery = 5 * time.Second
	// alertsEvery paces the counts of money alerts and messages /metrics
	// shows.
	alertsEvery = time.Minute
	// resealEvery paces the rounds of re-sealing while a rotation has
	// work left; resealIdle is the pause once a round found none, until
	// the old key is retired (a round then reads every sealed column).
	resealEvery = time.Second
	resealIdle  = 10 * time.Minute
	// resealLease is how long the reseal lease lasts past a round: a
	// server that dies mid-rotation leaves it to another (or to itself,
	// restarted) this long after.
	resealLease = 10 * time.Second
)

// startLoops starts the background loops on ctx.
func (m *Main) startLoops(ctx context.Context, db *store.DB, log *slog.Logger) {
	holder := newHolder()
	m.loops.Go(func() {
		leased(ctx, db, "purge", holder, purgeEvery, m.Now, log, func() { m.purge(ctx, db, log) })
	})
	m.loops.Go(func() { every(ctx, reconcileEvery, func() { m.reconcile(ctx, log) }) })
	m.loops.Go(func() { every(ctx, alertsEvery, func() { m.countAlerts(ctx, db, log) }) })
	m.loops.Go(func() { m.office.Dispatcher(m.notifier(db, log)).Run(ctx) })
	m.loops.Go(func() { every(ctx, postEvery, func() { m.postRecords(ctx, log) }) })
	if m.keyIDs > 1 {
		m.loops.Go(func() { m.resealLoop(ctx, db, holder, log) })
	}
}

// resealLoop seals again with the current key what older keys sealed,
// a batch a round, on the one server that holds the reseal lease, while
// patients keep applying (docs/operations.md, "Rotating the data keys").
// It keeps nothing but the values themselves: after a crash or a restart
// it goes on from what is left.
func (m *Main) resealLoop(ctx context.Context, db *store.DB, holder string, log *slog.Logger) {
	wait, total := time.Duration(0), 0
	for {
		select {
		case <-ctx.Done():
			return
		case <-time.After(wait):
		}
		t := m.Now()
		if ok, err := db.TakeLease(ctx, "reseal", holder, t, t.Add(resealLease)); err != nil || !ok {
			if err != nil && ctx.Err() == nil {
				log.Error("take lease", "lease", "reseal", "err", err)
			}
			wait = resealLease
			continue
		}
		n, err := db.Reseal(ctx, m.Config.ResealBatch)
		total += n
		switch {
		case err != nil && ctx.Err() == nil:
			log.Error("re-seal with the current key", "err", err, "resealed", total)
			wait = resealIdle
		case n > 0:
			wait = resealEvery
		default:
			if total > 0 {
				log.Info("re-sealed every value with the current key; the old keys may be retired (chairside keys retire)", "resealed", total)
				total = 0
			}
			wait = resealIdle
		}
	}
}

// postRecords sends the due posts to the patients' ledgers in the
// offices' own systems (office/records_post.go).
func (m *Main) postRecords(ctx context.Context, log *slog.Logger) {
	if _, err := m.office.PostRecords(ctx); err != nil && ctx.Err() == nil {
		log.Error("post to practice records", "err", err)
	}
}

// notifier sends the texts and emails of office invitations: texts
// through Twilio when an account is set, emails through the SMTP relay
// when one is; the rest written to the log, with the link itself outside
// env prod.
func (m *Main) notifier(db *store.DB, log *slog.Logger) office.Notifier {
	logs := office.LogNotifier{Log: log, ShowBody: m.Config.Env != chairside.EnvProd}
	c := m.Config
	out := messaging.Channels{Text: logs, Email: logs}
	if c.SMTPHost != "" {
		port, _ := strconv.Atoi(c.SMTPPort) // checked by smtpProblems
		out.Email = &messaging.Mailer{Host: c.SMTPHost, Port: port, Username: c.SMTPUsername, Password: c.SMTPPassword,
			From: c.SMTPFrom, TLS: c.SMTPTLS}
	}
	if c.TwilioAccount != "" {
		out.Text = &messaging.Notifier{
			Twilio:  &messaging.Twilio{BaseURL: c.TwilioURL, AccountSID: c.TwilioAccount, AuthToken: c.TwilioTokens()[0]},
			Default: c.TwilioSender,
			OfficeSender: func(ctx context.Context, locationID string) (string, error) {
				loc, err := db.FindLocationByID(ctx, locationID)
				if err != nil {
					return "", err
				}
				return loc.TextSender, nil
			},
			StatusURL: m.URL() + "/api/v1/texts/twilio/status",
			Store:     db, Now: m.Now,
		}
	}
	return out
}

// every runs fn at once and then every period until ctx ends.
func every(ctx context.Context, period time.Duration, fn func()) {
	tick := time.NewTicker(period)
	defer tick.Stop()
	for {
		fn()
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}

// leased runs fn every period on the one server that holds the lease
// called name. The lease lasts two periods and is renewed each round, so
// when its holder stops another server takes over within two periods.
func leased(ctx context.Context, db *store.DB, name, holder string, period time.Duration, now chairside.Clock, log *slog.Logger, fn func()) {
	every(ctx, period, func() {
		t := now()
		ok, err := db.TakeLease(ctx, name, holder, t, t.Add(2*period))
		if err != nil {
			if ctx.Err() == nil {
				log.Error("take lease", "lease", name, "err", err)
			}
			return
		}
		if ok {
			fn()
		}
	})
}

// newHolder names this server process for its leases.
func newHolder() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// purge erases applicants' personal data once their session has been
// over for the retention period; decisions, consents and events stay.
func (m *Main) purge(ctx context.Context, db *store.DB, log *slog.Logger) {
	n, err := db.PurgePersonalData(ctx, m.Now().Add(-m.Config.Retention))
	if err != nil && ctx.Err() == nil {
		log.Error("purge personal data", "err", err)
	} else if n > 0 {
		log.Info("purged personal data", "applications", n)
	}
}

// reconcile runs one round of the reconciler: pending applications whose
// lender sent no webhook are asked for their status, and completed ones
// whose money is not deposited yet for their funding.
func (m *Main) reconcile(ctx context.Context, log *slog.Logger) {
	polls, err := m.svc.ReconcilePending(ctx, reconcileBatch)
	if err != nil && ctx.Err() == nil {
		log.Error("reconcile pending applications", "err", err)
	}
	for _, p := range polls {
		m.metrics.Poll(p.LenderKey, p.Result)
	}
	fundings, err := m.svc.ReconcileFunding(ctx, reconcileBatch)
	if err != nil && ctx.Err() == nil {
		log.Error("reconcile fundings", "err", err)
	}
	for _, p := range fundings {
		m.metrics.FundingPoll(p.LenderKey, p.Result)
	}
}

// countAlerts sets /metrics' count of money alerts across every office:
// each server counts the same database, so they agree.
func (m *Main) countAlerts(ctx context.Context, db *store.DB, log *slog.Logger) {
	now := m.Now()
	alerts, err := db.ListMoneyAlerts(ctx, "", now.Add(-chairside.MoneyAlertWindow), now)
	if err != nil {
		if ctx.Err() == nil {
			log.Error("count money alerts", "err", err)
		}
		return
	}
	counts := map[string]int{}
	for _, a := range alerts {
		counts[a.Kind]++
	}
	m.metrics.MoneyAlerts(chairside.AlertKinds, counts)
	m.countMessages(ctx, db, log)
}

// countMessages sets /metrics' count of the last day's messages by
// channel and state, and the outbox's backlog, from the database that
// every server shares.
func (m *Main) countMessages(ctx context.Context, db *store.DB, log *slog.Logger) {
	now := m.Now()
	rows, waiting, retrying, oldest, err := db.OutboxStats(ctx, now.Add(-24*time.Hour))
	if err != nil {
		if ctx.Err() == nil {
			log.Error("count messages", "err", err)
		}
		return
	}
	counts := map[[2]string]int{}
	for _, r := range rows {
		counts[[2]string{r.Channel, office.StateOf(r.State, r.Delivery)}] += r.N
	}
	var age time.Duration
	if !oldest.IsZero() {
		age = max(now.Sub(oldest), 0)
	}
	m.metrics.Messages([]string{chairside.ChannelSMS, chairside.ChannelEmail}, office.MessageStates, counts)
	m.metrics.Outbox(waiting, retrying, age)
}
