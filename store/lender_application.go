package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/chairside/chairside"
)

// selectWithDecision reads a lender application's columns, then its
// decision's (decisionColumns) from d, which the query joins.
const selectWithDecision = `SELECT pa.id, pa.application_id, pa.provider_key, pa.role, pa.apply_mode, pa.status,
	pa.lender_application_id, pa.selected_plan_code, pa.in_flight_step, pa.offer_round, pa.version, pa.created_at, pa.updated_at, ` + decisionColumns + `
	FROM provider_applications pa`

const lenderApplicationColumns = `id, application_id, provider_key, role, apply_mode, status,
	lender_application_id, selected_plan_code, in_flight_step, offer_round, version, created_at, updated_at`

// CreateLenderApplication stores a lender's part of an application with
// Version 1 (pa.Version is set). An empty pa.ID gets a random id; zero
// CreatedAt and UpdatedAt get db.Now. A second one for the same application
// and lender answers ECONFLICT; an unknown application ENOTFOUND.
func (db *DB) CreateLenderApplication(ctx context.Context, pa *chairside.LenderApplication) error {
	if pa.ID == "" {
		pa.ID = newID()
	}
	pa.CreatedAt = db.stamp(pa.CreatedAt)
	if pa.UpdatedAt.IsZero() {
		pa.UpdatedAt = pa.CreatedAt
	}
	pa.UpdatedAt = pa.UpdatedAt.Truncate(time.Millisecond)
	// ON CONFLICT DO NOTHING rather than a unique violation: inside a
	// Batch's PostgreSQL transaction a failed statement would abort the
	// transaction, and a lost race to create is an answer, not a failure.
	res, err := db.exec(ctx, `INSERT INTO provider_applications (`+lenderApplicationColumns+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT DO NOTHING`,
		pa.ID, pa.ApplicationID, pa.LenderKey, pa.Role, pa.ApplyMode, pa.Status,
		pa.LenderRef, pa.SelectedPlanCode, pa.InFlight, pa.OfferRound, 1, millis(pa.CreatedAt), millis(pa.UpdatedAt))
	if err == nil {
		if n, rerr := rowsAffected(res); rerr != nil {
			err = rerr
		} else if n == 0 {
			return conflict("This provider application already exists.")
		}
	}
	if err := insertError(err, "create provider application", "This provider application already exists.", "Application not found."); err != nil {
		return err
	}
	pa.Version = 1
	return nil
}

// latestOfLender is the query of one lender's application with its latest
// decision: FindLenderApplication's, and each part of
// FindLenderApplications'.
const latestOfLender = selectWithDecision + `
	LEFT JOIN decisions d ON d.provider_application_id = pa.id
	WHERE pa.application_id = ? AND pa.provider_key = ?
	ORDER BY d.created_at DESC, d.seq DESC LIMIT 1`

// FindLenderApplication returns the lender application of an
// application for providerKey, with its latest decision, or ENOTFOUND. One
// query: the hot path of every step after a decision.
func (db *DB) FindLenderApplication(ctx context.Context, applicationID, lenderKey string) (*chairside.LenderApplication, error) {
	pa, err := scanWithDecision(db.queryRow(ctx, latestOfLender, applicationID, lenderKey))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, notFound("Provider application not found.")
	} else if err != nil {
		return nil, fmt.Errorf("store: find provider application: %w", err)
	}
	return pa, nil
}

// FindLenderApplications returns the lender applications of an
// application for those of lenderKeys that have one, each with its latest
// decision, in any order: one statement where a step needs its own
// lender's and another's (a decision that sends the patient on, flow's
// recordDecision), one round trip on PostgreSQL instead of two. Each
// lender's part is FindLenderApplication's query, inside a subquery (where
// SQLite takes its own ORDER BY and LIMIT), joined by UNION ALL: a
// correlated subquery picking each latest decision, tried first, made the
// record of a decision slower on PostgreSQL than the two reads were.
func (db *DB) FindLenderApplications(ctx context.Context, applicationID string, lenderKeys ...string) ([]*chairside.LenderApplication, error) {
	if len(lenderKeys) == 0 {
		return nil, nil
	}
	args := make([]any, 0, 2*len(lenderKeys))
	for _, k := range lenderKeys {
		args = append(args, applicationID, k)
	}
	return queryAll(ctx, db, "find provider applications", scanWithDecision, latestOfLenders(len(lenderKeys)), args...)
}

// latestOfLendersText holds FindLenderApplications' query for the counts
// of lenders a step asks for (its own, and the next one's), written once:
// it is on the record of every decision. One lender's is latestOfLender
// itself.
var latestOfLendersText = [...]string{1: latestOfLender, 2: unionOfLatest(2)}

// latestOfLenders answers FindLenderApplications' query for n lenders.
func latestOfLenders(n int) string {
	if n < len(latestOfLendersText) {
		return latestOfLendersText[n]
	}
	return unionOfLatest(n)
}

// unionOfLatest joins n of latestOfLender, each in a subquery, by UNION ALL.
func unionOfLatest(n int) string {
	parts := make([]string, n)
	for i := range parts {
		parts[i] = `SELECT * FROM (` + latestOfLender + `) AS one`
	}
	return strings.Join(parts, "\nUNION ALL\n")
}

// scanWithDecision reads a row of selectWithDecision: the lender
// application with its decision, none when the join found none.
func scanWithDecision(s scanner) (*chairside.LenderApplication, error) {
	var d decisionRow
	pa, err := scanLenderApplication(s, d.dest()...)
	if err != nil {
		return nil, err
	}
	if pa.Decision, err = d.decision(); err != nil {
		return nil, err
	}
	return pa, nil
}

// ListLenderApplications returns every lender application of an
// application in the order they were created, each with its latest
// decision. An unknown application has none (an empty list, not an error).
func (db *DB) ListLenderApplications(ctx context.Context, applicationID string) ([]*chairside.LenderApplication, error) {
	out, err := queryAll(ctx, db, "list provider applications", func(s scanner) (*chairside.LenderApplication, error) {
		return scanLenderApplication(s)
	}, `SELECT `+lenderApplicationColumns+`
		FROM provider_applications WHERE application_id = ? ORDER BY created_at, id`, applicationID)
	if err != nil {
		return nil, err
	}
	if err := db.attachDecisions(ctx, applicationID, out); err != nil {
		return nil, err
	}
	return out, nil
}

// scanLenderApplication reads the columns of lenderApplicationColumns,
// then into more, when given, the columns that follow them.
func scanLenderApplication(s scanner, more ...any) (*chairside.LenderApplication, error) {
	var pa chairside.LenderApplication
	var created, updated int64
	dest := append([]any{&pa.ID, &pa.ApplicationID, &pa.LenderKey, &pa.Role, &pa.ApplyMode, &pa.Status,
		&pa.LenderRef, &pa.SelectedPlanCode, &pa.InFlight, &pa.OfferRound, &pa.Version, &created, &updated}, more...)
	if err := s.Scan(dest...); err != nil {
		return nil, err
	}
	pa.CreatedAt, pa.UpdatedAt = fromMillis(created), fromMillis(updated)
	return &pa, nil
}

// UpdateLenderApplication saves pa's role, apply mode, status, lender
// application id, selected plan, in-flight step and offer round if pa.Version is still
// the stored version, then increments pa.Version and sets UpdatedAt to
// db.Now. A stale version answers ECONFLICT, in the words the patient
// reads (a parallel request did the step first), so of many parallel
// updates from the same read exactly one wins. It is sent with later
// (sql.go): inside a Batch on PostgreSQL the Batch ends with that answer. A missing record answers ENOTFOUND.
// pa.Decision is not saved here (see CreateDecision).
func (db *DB) UpdateLenderApplication(ctx context.Context, pa *chairside.LenderApplication) error {
	now := db.now()
	if err := db.laterOne(ctx, "update provider application", "provider_applications", pa.ID,
		"Provider application not found.", "This step was already done.",
		`UPDATE provider_applications SET role = ?, apply_mode = ?, status = ?,
			lender_application_id = ?, selected_plan_code = ?, in_flight_step = ?, offer_round = ?, version = version + 1, updated_at = ?
		WHERE id = ? AND version = ?`,
		pa.Role, pa.ApplyMode, pa.Status, pa.LenderRef, pa.SelectedPlanCode, pa.InFlight, pa.OfferRound, millis(now), pa.ID, pa.Version); err != nil {
		return err
	}
	pa.Version++
	pa.UpdatedAt = now
	return nil
}
