package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/chairside/chairside"
)

// The money line (chairside.MoneyEntry): entries are inserted and read,
// never updated or deleted; this file has no statement that would.

const moneyColumns = `m.id, m.lender_application_id, pa.application_id, pa.provider_key, m.kind, m.amount_cents, m.fee_cents, m.fee_rate_bp,
	m.net_cents, m.reference, m.deposit_ref, m.deposit_on, m.on_at, m.recorded_at`

func scanMoney(s scanner) (*chairside.MoneyEntry, error) {
	var e chairside.MoneyEntry
	var dep, on, rec int64
	if err := s.Scan(&e.ID, &e.LenderApplicationID, &e.ApplicationID, &e.LenderKey, &e.Kind, &e.AmountCents, &e.FeeCents, &e.FeeRateBP,
		&e.NetCents, &e.Reference, &e.DepositRef, &dep, &on, &rec); err != nil {
		return nil, err
	}
	e.On, e.RecordedAt = fromMillis(on), fromMillis(rec)
	if dep != 0 {
		e.DepositOn = fromMillis(dep)
	}
	return &e, nil
}

// AppendMoney adds e to its lender application's money line, and answers
// whether it was new: a fact already on the line (the same kind and
// reference) is kept as it was, and the call answers false. A completed
// entry starts the funding watch when watch is set (its lender funds); a
// deposited or voided entry ends it.
func (db *DB) AppendMoney(ctx context.Context, e *chairside.MoneyEntry, watch bool) (bool, error) {
	if db.tx == nil {
		var added bool
		err := db.Batch(ctx, func(st *DB) error {
			var err error
			added, err = st.AppendMoney(ctx, e, watch)
			return err
		})
		return added, err
	}
	q, args := db.moneyInsert(e)
	res, err := db.exec(ctx, q, args...)
	if err := insertError(err, "append money", "", "Lender application not found."); err != nil {
		return false, err
	}
	n, err := rowsAffected(res)
	if err != nil || n == 0 {
		return false, err
	}
	db.fundingWatch(ctx, e, watch, false)
	return true, nil
}

// RecordMoney adds e as AppendMoney does, for a caller that does not ask
// whether it was new. Every statement is sent with later (sql.go): on
// PostgreSQL they leave with the step's other writes, and the funding
// watch asks the database itself whether the entry was new.
func (db *DB) RecordMoney(ctx context.Context, e *chairside.MoneyEntry, watch bool) error {
	q, args := db.moneyInsert(e)
	return db.Batch(ctx, func(st *DB) error {
		st.later(ctx, q, args, func(_ int64, err error) error {
			return insertError(err, "append money", "", "Lender application not found.")
		})
		st.fundingWatch(ctx, e, watch, true)
		return nil
	})
}

// moneyInsert fills e's id and times and answers the insert that adds it
// to the line once.
func (db *DB) moneyInsert(e *chairside.MoneyEntry) (string, []any) {
	if e.ID == "" {
		e.ID = newID()
	}
	e.RecordedAt = db.stamp(e.RecordedAt)
	if e.On.IsZero() {
		e.On = e.RecordedAt
	}
	return `INSERT INTO money_entries (id, lender_application_id, kind, amount_cents, fee_cents, fee_rate_bp,
			net_cents, reference, deposit_ref, deposit_on, on_at, recorded_at, seq)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (lender_application_id, kind, reference) DO NOTHING`,
		[]any{e.ID, e.LenderApplicationID, e.Kind, e.AmountCents, e.FeeCents, e.FeeRateBP,
			e.NetCents, e.Reference, e.DepositRef, zeroMillis(e.DepositOn), millis(e.On), millis(e.RecordedAt), db.nextSeq()}
}

// fundingWatch starts the funding watch for a completed entry e when
// watch is set, and ends it for a deposited or voided one; sent with later
// (sql.go). With ifNew the statement itself checks that e was added (its
// id is on the line) rather than the caller.
func (db *DB) fundingWatch(ctx context.Context, e *chairside.MoneyEntry, watch, ifNew bool) {
	check := func(_ int64, err error) error { return wrapErr("funding watch", err) }
	added := ""
	args := []any{e.LenderApplicationID}
	if ifNew {
		added = ` AND EXISTS (SELECT 1 FROM money_entries WHERE id = ?)`
	}
	switch {
	case e.Kind == chairside.MoneyCompleted && watch:
		at := millis(e.RecordedAt)
		args = append(args, at+chairside.FundingFirstPoll.Milliseconds(), at)
		if ifNew {
			args = append(args, e.ID)
		}
		db.later(ctx, `INSERT INTO funding_polls (lender_application_id, next_poll_at, polls, since)
			SELECT ?, CAST(? AS BIGINT), 0, CAST(? AS BIGINT) WHERE 1 = 1`+added+`
			ON CONFLICT (lender_application_id) DO NOTHING`, args, check)
	case e.Kind == chairside.MoneyDeposited || e.Kind == chairside.MoneyVoided:
		if ifNew {
			args = append(args, e.ID)
		}
		db.later(ctx, `DELETE FROM funding_polls WHERE lender_application_id = ?`+added, args, check)
	}
}

// zeroMillis is t in milliseconds, 0 for the zero time.
func zeroMillis(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return millis(t)
}

// MoneyLine answers the money lines of an application's lender
// applications, in the order the entries were added.
func (db *DB) MoneyLine(ctx context.Context, applicationID string) ([]*chairside.MoneyEntry, error) {
	return queryAll(ctx, db, "money line", scanMoney, `SELECT `+moneyColumns+` FROM money_entries m
		JOIN provider_applications pa ON pa.id = m.lender_application_id
		WHERE pa.application_id = ? ORDER BY m.seq`, applicationID)
}

// ListLocationMoney answers, for an office's funding screen, the funded
// and deposited entries of its cases whose deposit falls in [from, to),
// the voids and refunds made in it, and the held entries of its cases
// still held, in the order added.
func (db *DB) ListLocationMoney(ctx context.Context, locationID string, from, to time.Time) ([]*chairside.MoneyEntry, error) {
	return queryAll(ctx, db, "location money", scanMoney, `SELECT `+moneyColumns+` FROM money_entries m
		JOIN provider_applications pa ON pa.id = m.lender_application_id JOIN applications a ON a.id = pa.application_id
		WHERE a.location_id = ? AND (
			(m.kind IN ('funded', 'deposited') AND m.deposit_on >= ? AND m.deposit_on < ?)
			OR (m.kind IN ('voided', 'refunded', 'refund_refused', 'amount_changed') AND m.on_at >= ? AND m.on_at < ?)
			OR (m.kind = 'held' AND NOT EXISTS (SELECT 1 FROM money_entries f
				WHERE f.lender_application_id = m.lender_application_id AND f.kind IN ('funded', 'voided'))))
		ORDER BY m.seq`, locationID, millis(from), millis(to), millis(from), millis(to))
}

// ClaimFundingPolls takes due funding polls one by one, as
// ClaimPendingPolls does.
func (db *DB) ClaimFundingPolls(ctx context.Context, now time.Time, lease time.Duration, limit int) ([]*chairside.FundingPoll, error) {
	type due struct {
		poll chairside.FundingPoll
		next int64
	}
	cands, err := queryAll(ctx, db, "claim funding polls", func(s scanner) (d due, err error) {
		var completed int64
		err = scanRef(s, &d.poll.LenderApplicationRef, &d.poll.LenderPlanCode, &d.poll.AmountCents, &completed, &d.next)
		d.poll.CompletedAt = fromMillis(completed)
		return d, err
	}, `SELECT `+refColumns+`, pa.selected_plan_code, m.amount_cents, m.on_at, fp.next_poll_at FROM funding_polls fp
		JOIN provider_applications pa ON pa.id = fp.lender_application_id JOIN applications a ON a.id = pa.application_id
		JOIN money_entries m ON m.lender_application_id = pa.id AND m.kind = 'completed'
		WHERE fp.next_poll_at <= ? ORDER BY fp.next_poll_at LIMIT ?`, millis(now), limit)
	if err != nil {
		return nil, err
	}
	won, err := claimDue(ctx, db, fundingPolls, cands, now.Add(lease), func(d *due) (string, int64, *int, *time.Time) {
		return d.poll.LenderApplicationID, d.next, &d.poll.Polls, &d.poll.Since
	})
	out := make([]*chairside.FundingPoll, len(won))
	for i, d := range won {
		out[i] = &d.poll
	}
	return out, err
}

// RescheduleFundingPoll sets when a funding poll is next due.
// expected, when not zero, is when the lender now says it will fund.
func (db *DB) RescheduleFundingPoll(ctx context.Context, lenderApplicationID string, next, expected time.Time) error {
	if err := db.reschedule(ctx, fundingPolls, lenderApplicationID, next); err != nil || expected.IsZero() {
		return err
	}
	if _, err := db.exec(ctx, `UPDATE funding_polls SET expected_at = ? WHERE lender_application_id = ?`,
		millis(expected), lenderApplicationID); err != nil {
		return fmt.Errorf("store: funding poll expected: %w", err)
	}
	return nil
}

// RecordDeposit keeps the total a lender says it sent in a deposit, once
// per lender and reference: a repeat (the same deposit delivered again)
// keeps the first.
func (db *DB) RecordDeposit(ctx context.Context, lenderKey, reference string, on time.Time, netCents int64) error {
	if _, err := db.exec(ctx, `INSERT INTO lender_deposits (lender_key, reference, on_at, net_cents, recorded_at)
		VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`, lenderKey, reference, millis(on), netCents, millis(db.now())); err != nil {
		return fmt.Errorf("store: record deposit: %w", err)
	}
	return nil
}

// lateAfter is how long past its expected day (or past completion, when
// the lender has not said) a funding counts as late.
const (
	lateAfterExpected   = 24 * time.Hour
	lateAfterCompletion = 7 * 24 * time.Hour
)

// ListMoneyAlerts answers the money alerts of an office's cases at now
// ("" for every office): the cases funded late, and since since the
// refunds refused, the cases deposited for other figures than funded, and
// the cases of a deposit whose stated total is not the sum of its cases.
func (db *DB) ListMoneyAlerts(ctx context.Context, locationID string, since, now time.Time) ([]*chairside.MoneyAlert, error) {
	scan := func(s scanner) (*chairside.MoneyAlert, error) {
		var a chairside.MoneyAlert
		var at int64
		err := s.Scan(&a.Kind, &a.ApplicationID, &a.LenderApplicationID, &a.LenderKey, &at)
		a.Since = fromMillis(at)
		return &a, err
	}
	// The last part starts from the day's deposits: written as a CROSS JOIN,
	// which SQLite keeps in the order written (PostgreSQL plans it as any
	// join), it no longer reads every deposited entry there ever was
	// (TestJourneyStatementsUseAnIndex).
	return queryAll(ctx, db, "money alerts", scan, `SELECT ?, pa.application_id, pa.id, pa.provider_key,
			CASE WHEN fp.expected_at > 0 THEN fp.expected_at ELSE fp.since END
		FROM funding_polls fp JOIN provider_applications pa ON pa.id = fp.lender_application_id
		JOIN applications a ON a.id = pa.application_id
		WHERE (a.location_id = ? OR ? = '') AND NOT EXISTS (SELECT 1 FROM money_entries f
			WHERE f.lender_application_id = fp.lender_application_id AND f.kind IN ('funded', 'voided'))
		AND ((fp.expected_at > 0 AND fp.expected_at < ?) OR (fp.expected_at = 0 AND fp.since < ?))
		UNION ALL
		SELECT ?, pa.application_id, pa.id, pa.provider_key, m.on_at FROM money_entries m
		JOIN provider_applications pa ON pa.id = m.lender_application_id JOIN applications a ON a.id = pa.application_id
		WHERE (a.location_id = ? OR ? = '') AND m.kind = 'refund_refused' AND m.on_at >= ?
		UNION ALL
		SELECT ?, pa.application_id, pa.id, pa.provider_key, d.on_at FROM money_entries d
		JOIN money_entries f ON f.lender_application_id = d.lender_application_id AND f.kind = 'funded'
		JOIN provider_applications pa ON pa.id = d.lender_application_id JOIN applications a ON a.id = pa.application_id
		WHERE (a.location_id = ? OR ? = '') AND d.kind = 'deposited' AND d.on_at >= ?
			AND (d.net_cents <> f.net_cents OR d.amount_cents <> f.amount_cents OR d.reference <> f.deposit_ref)
		UNION ALL
		SELECT ?, pa.application_id, pa.id, pa.provider_key, ld.on_at FROM lender_deposits ld
		CROSS JOIN money_entries d
		JOIN provider_applications pa ON pa.id = d.lender_application_id AND pa.provider_key = ld.lender_key
		JOIN applications a ON a.id = pa.application_id
		WHERE d.deposit_ref = ld.reference AND d.kind = 'deposited' AND (a.location_id = ? OR ? = '') AND ld.on_at >= ?
			AND ld.net_cents <> (SELECT SUM(x.net_cents) FROM money_entries x JOIN provider_applications px ON px.id = x.lender_application_id
				WHERE x.kind = 'deposited' AND x.deposit_ref = ld.reference AND px.provider_key = ld.lender_key)`,
		chairside.AlertLateFunding, locationID, locationID, millis(now.Add(-lateAfterExpected)), millis(now.Add(-lateAfterCompletion)),
		chairside.AlertRefundRefused, locationID, locationID, millis(since),
		chairside.AlertDepositMismatch, locationID, locationID, millis(since),
		chairside.AlertDepositMismatch, locationID, locationID, millis(since))
}

// pollTable is a table of polls the reconciler claims (pending_polls,
// funding_polls): one row per lender application, whose next_poll_at is
// also the claim. Its names are constants of this package.
type pollTable struct{ table, column string }

var (
	pendingPolls = pollTable{"pending_polls", "provider_application_id"}
	fundingPolls = pollTable{"funding_polls", "lender_application_id"}
)

// claimDue claims the due polls read as cands one by one: a conditional
// update of each row from the next_poll_at it was read with to until,
// which only one server can win. It answers those this server won, with
// their count of polls and start set through at.
func claimDue[T any](ctx context.Context, db *DB, pt pollTable, cands []T, until time.Time,
	at func(*T) (id string, next int64, polls *int, since *time.Time)) ([]*T, error) {
	var out []*T
	for i := range cands {
		c := &cands[i]
		id, next, polls, since := at(c)
		var s int64
		err := db.writeRow(ctx, `UPDATE `+pt.table+` SET next_poll_at = ?, polls = polls + 1
			WHERE `+pt.column+` = ? AND next_poll_at = ? RETURNING polls, since`,
			millis(until), id, next).Scan(polls, &s)
		if errors.Is(err, sql.ErrNoRows) {
			continue // another server took it
		} else if err != nil {
			return nil, fmt.Errorf("store: claim %s: %w", pt.table, err)
		}
		*since = fromMillis(s)
		out = append(out, c)
	}
	return out, nil
}

// reschedule sets when the poll of a lender application is next due.
func (db *DB) reschedule(ctx context.Context, pt pollTable, lenderApplicationID string, next time.Time) error {
	if _, err := db.exec(ctx, `UPDATE `+pt.table+` SET next_poll_at = ? WHERE `+pt.column+` = ?`,
		millis(next), lenderApplicationID); err != nil {
		return fmt.Errorf("store: reschedule %s: %w", pt.table, err)
	}
	return nil
}
