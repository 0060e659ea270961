package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"time"

	"github.com/chairside/chairside"
)

const decisionColumns = `d.id, d.provider_application_id, d.provider_key, d.operation, d.response_code, d.approved_amount_cents,
	d.stipulations, d.pending_reasons, d.down_payment_required, d.down_payment_cents, d.existing_account,
	d.lender_application_id, d.offered_provider_id, d.expires_at, d.created_at`

// CreateDecision appends a decision to a lender application. An empty
// d.ID gets a random id and a zero CreatedAt gets db.Now. An unknown
// lender application answers ENOTFOUND.
func (db *DB) CreateDecision(ctx context.Context, d *chairside.Decision) error {
	if db.tx == nil {
		// The decision and its pending poll are written together.
		return db.Batch(ctx, func(st *DB) error { return st.CreateDecision(ctx, d) })
	}
	if d.ID == "" {
		d.ID = newID()
	}
	d.CreatedAt = db.stamp(d.CreatedAt)
	if d.ExpiresAt != nil {
		t := d.ExpiresAt.Truncate(time.Millisecond)
		d.ExpiresAt = &t
	}
	stips, err := json.Marshal(d.Stipulations)
	if err != nil {
		return fmt.Errorf("store: create decision: %w", err)
	}
	reasons, err := json.Marshal(d.PendingReasons)
	if err != nil {
		return fmt.Errorf("store: create decision: %w", err)
	}
	err = db.laterInsert(ctx, "create decision", "This decision already exists.", "Provider application not found.",
		`INSERT INTO decisions (id, provider_application_id, provider_key, operation, response_code, approved_amount_cents,
			stipulations, pending_reasons, down_payment_required, down_payment_cents, existing_account,
			lender_application_id, offered_provider_id, expires_at, created_at, seq)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		d.ID, d.LenderApplicationID, d.LenderKey, d.Operation, d.ResponseCode, d.ApprovedAmountCents,
		string(stips), string(reasons), boolInt(d.DownPaymentRequired), d.DownPaymentCents, boolInt(d.ExistingAccount),
		d.LenderRef, d.OfferedLenderID, nullMillis(d.ExpiresAt), millis(d.CreatedAt), db.nextSeq())
	if err != nil {
		return err
	}
	if err := db.trackPending(ctx, d); err != nil {
		return err
	}
	return db.moneyApproved(ctx, d)
}

// moneyApproved puts a positive decision's approval on the money line of
// its lender application: a new approved amount before the patient signs
// (a repeat of the same amount, such as the completion's decision, is no
// new fact).
func (db *DB) moneyApproved(ctx context.Context, d *chairside.Decision) error {
	if !chairside.Positive(d.ResponseCode) || d.ApprovedAmountCents <= 0 {
		return nil
	}
	at := millis(d.CreatedAt)
	return db.later(ctx, `INSERT INTO money_entries (id, lender_application_id, kind, amount_cents, reference, on_at, recorded_at, seq)
		SELECT ?, ?, ?, CAST(? AS BIGINT), ?, CAST(? AS BIGINT), CAST(? AS BIGINT), CAST(? AS BIGINT) WHERE NOT EXISTS (SELECT 1 FROM money_entries
			WHERE lender_application_id = ? AND (kind = ? OR kind = ? AND amount_cents = CAST(? AS BIGINT)))`,
		[]any{newID(), d.LenderApplicationID, chairside.MoneyApproved, d.ApprovedAmountCents, d.ID, at, at, db.nextSeq(),
			d.LenderApplicationID, chairside.MoneySigned, chairside.MoneyApproved, d.ApprovedAmountCents},
		func(_ int64, err error) error { return wrapErr("money approved", err) })
}

// attachDecisions sets the latest decision of each of pas, all of one
// application, with a single query.
func (db *DB) attachDecisions(ctx context.Context, applicationID string, pas []*chairside.LenderApplication) error {
	if len(pas) == 0 {
		return nil
	}
	// Oldest first, so the last one seen for each lender application is
	// its latest.
	decisions, err := queryAll(ctx, db, "load decisions", scanDecision, `SELECT `+decisionColumns+` FROM decisions d
		JOIN provider_applications pa ON pa.id = d.provider_application_id
		WHERE pa.application_id = ? ORDER BY d.created_at, d.seq`, applicationID)
	if err != nil {
		return err
	}
	byID := make(map[string]*chairside.LenderApplication, len(pas))
	for _, pa := range pas {
		byID[pa.ID] = pa
	}
	for _, d := range decisions {
		if pa := byID[d.LenderApplicationID]; pa != nil {
			pa.Decision = d
		}
	}
	return nil
}

// scanDecision reads one row of decisionColumns.
func scanDecision(s scanner) (*chairside.Decision, error) {
	var r decisionRow
	if err := s.Scan(r.dest()...); err != nil {
		return nil, err
	}
	return r.decision()
}

// decisionRow receives the columns of decisionColumns: the one decoder of
// a stored decision, for a read of decisions and for a lender
// application read with its latest decision. The columns are nullable
// because a lender application without a decision reads them as NULL
// through its LEFT JOIN.
type decisionRow struct {
	id, lenderApplicationID, lenderKey, operation, responseCode sql.NullString
	stipulations, pendingReasons, lenderRef, offeredBy          sql.NullString
	approvedCents, downRequired, downCents, existing            sql.NullInt64
	expiresAt, createdAt                                        sql.NullInt64
}

// dest answers the scan destinations, in the order of decisionColumns.
func (r *decisionRow) dest() []any {
	return []any{&r.id, &r.lenderApplicationID, &r.lenderKey, &r.operation, &r.responseCode, &r.approvedCents,
		&r.stipulations, &r.pendingReasons, &r.downRequired, &r.downCents, &r.existing,
		&r.lenderRef, &r.offeredBy, &r.expiresAt, &r.createdAt}
}

// decision decodes the row; nil when it holds no decision.
func (r *decisionRow) decision() (*chairside.Decision, error) {
	if !r.id.Valid {
		return nil, nil
	}
	d := &chairside.Decision{
		ID: r.id.String, LenderApplicationID: r.lenderApplicationID.String, LenderKey: r.lenderKey.String,
		Operation: r.operation.String, ResponseCode: r.responseCode.String, ApprovedAmountCents: r.approvedCents.Int64,
		DownPaymentRequired: r.downRequired.Int64 != 0, DownPaymentCents: r.downCents.Int64, ExistingAccount: r.existing.Int64 != 0,
		LenderRef: r.lenderRef.String, OfferedLenderID: r.offeredBy.String,
		ExpiresAt: fromNullMillis(r.expiresAt), CreatedAt: fromMillis(r.createdAt.Int64),
	}
	if err := json.Unmarshal([]byte(r.stipulations.String), &d.Stipulations); err != nil {
		return nil, fmt.Errorf("decision %s: stipulations: %w", d.ID, err)
	}
	if err := json.Unmarshal([]byte(r.pendingReasons.String), &d.PendingReasons); err != nil {
		return nil, fmt.Errorf("decision %s: pending reasons: %w", d.ID, err)
	}
	return d, nil
}
