package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/chairside/chairside"
)

const lenderCallColumns = `provider_application_id, step, session_id, reference, request_hash, client_key,
	state, attempt, claimed_at, lease_until, settled_at, response`

// ClaimLenderCall inserts c as the running first attempt of its step and
// answers claimed=true, or, when the step already has a call, changes
// nothing and answers the stored one. The primary key (lender
// application, step) makes the claim unique by construction: of parallel
// claims on either engine exactly one inserts (on PostgreSQL the others
// wait for its transaction, then find its row). An unknown lender
// application answers ENOTFOUND.
func (db *DB) ClaimLenderCall(ctx context.Context, c *chairside.LenderCall) (*chairside.LenderCall, bool, error) {
	if c.Step == "" || c.Reference == "" || c.LenderApplicationID == "" {
		return nil, false, chairside.Errorf(chairside.EINVALID, "A lender call needs a provider application, a step and a reference.")
	}
	c.ClaimedAt = db.stamp(c.ClaimedAt)
	c.LeaseUntil = c.LeaseUntil.Truncate(time.Millisecond)
	c.State, c.Attempt, c.SettledAt, c.Response = chairside.CallRunning, 1, nil, nil
	res, err := db.exec(ctx, `INSERT INTO lender_calls (`+lenderCallColumns+`)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, '')
		ON CONFLICT (provider_application_id, step) DO NOTHING`,
		c.LenderApplicationID, c.Step, c.SessionID, c.Reference, c.RequestHash, c.ClientKey,
		c.State, c.Attempt, millis(c.ClaimedAt), millis(c.LeaseUntil))
	if isForeignKeyViolation(err) {
		return nil, false, notFound("Provider application not found.")
	} else if err != nil {
		return nil, false, fmt.Errorf("store: claim lender call: %w", err)
	}
	if n, err := rowsAffected(res); err != nil {
		return nil, false, err
	} else if n == 1 {
		return nil, true, nil
	}
	existing, err := db.FindLenderCall(ctx, c.LenderApplicationID, c.Step)
	if err != nil {
		return nil, false, err
	}
	return existing, false, nil
}

// FindLenderCall returns the call of a lender application's step, or
// ENOTFOUND.
func (db *DB) FindLenderCall(ctx context.Context, lenderApplicationID, step string) (*chairside.LenderCall, error) {
	var c chairside.LenderCall
	var claimed, lease int64
	var settled sql.NullInt64
	var response string
	err := db.queryRow(ctx, `SELECT `+lenderCallColumns+` FROM lender_calls
		WHERE provider_application_id = ? AND step = ?`, lenderApplicationID, step).Scan(
		&c.LenderApplicationID, &c.Step, &c.SessionID, &c.Reference, &c.RequestHash, &c.ClientKey,
		&c.State, &c.Attempt, &claimed, &lease, &settled, &response)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, notFound("Lender call not found.")
	} else if err != nil {
		return nil, fmt.Errorf("store: find lender call: %w", err)
	}
	c.ClaimedAt, c.LeaseUntil, c.SettledAt = fromMillis(claimed), fromMillis(lease), fromNullMillis(settled)
	if response != "" {
		c.Response = []byte(response)
	}
	return &c, nil
}

// RetakeLenderCall claims a failed call, or a running one whose lease ran
// out by c.ClaimedAt, for its next attempt: from the attempt c holds it
// becomes running again with c's session, reference, hashes and lease, and
// c.Attempt moves on. Any other state of the row (settled meanwhile, taken
// over by someone else, lease still running) answers ECONFLICT.
func (db *DB) RetakeLenderCall(ctx context.Context, c *chairside.LenderCall) error {
	c.ClaimedAt = db.stamp(c.ClaimedAt)
	c.LeaseUntil = c.LeaseUntil.Truncate(time.Millisecond)
	res, err := db.exec(ctx, `UPDATE lender_calls SET state = ?, attempt = attempt + 1, session_id = ?, reference = ?,
			request_hash = ?, client_key = ?, claimed_at = ?, lease_until = ?, settled_at = NULL, response = ''
		WHERE provider_application_id = ? AND step = ? AND attempt = ?
			AND (state = ? OR (state = ? AND lease_until <= ?))`,
		chairside.CallRunning, c.SessionID, c.Reference, c.RequestHash, c.ClientKey, millis(c.ClaimedAt), millis(c.LeaseUntil),
		c.LenderApplicationID, c.Step, c.Attempt, chairside.CallFailed, chairside.CallRunning, millis(c.ClaimedAt))
	if isUniqueViolation(err) {
		return conflict("This lender reference is already in use.")
	} else if err != nil {
		return fmt.Errorf("store: retake lender call: %w", err)
	}
	if err := changed(res, chairside.ECONFLICT, "This lender step was taken by another request."); err != nil {
		return err
	}
	c.Attempt++
	c.State, c.SettledAt, c.Response = chairside.CallRunning, nil, nil
	return nil
}

// SettleLenderCall records how the running attempt c.Attempt ended:
// c.State (done or failed), c.Response and c.SettledAt (db.Now when nil).
// If the attempt is no longer the running one — its lease ran out and
// another request took the step over — nothing changes and it answers
// chairside.ErrCallTakenOver (ECONFLICT): only the current attempt may
// write the answer.
func (db *DB) SettleLenderCall(ctx context.Context, c *chairside.LenderCall) error {
	if c.State != chairside.CallDone && c.State != chairside.CallFailed {
		return chairside.Errorf(chairside.EINVALID, "A lender call settles as done or failed.")
	}
	if c.SettledAt == nil {
		t := db.now()
		c.SettledAt = &t
	}
	// Sent with later (sql.go): inside a Batch the Batch ends with
	// ErrCallTakenOver, and on PostgreSQL the write leaves with the step's
	// other writes.
	return db.later(ctx, `UPDATE lender_calls SET state = ?, response = ?, settled_at = ?
		WHERE provider_application_id = ? AND step = ? AND attempt = ? AND state = ?`,
		[]any{c.State, string(c.Response), millis(*c.SettledAt), c.LenderApplicationID, c.Step, c.Attempt, chairside.CallRunning},
		func(n int64, err error) error {
			switch {
			case err != nil:
				return fmt.Errorf("store: settle lender call: %w", err)
			case n == 0:
				return chairside.ErrCallTakenOver
			}
			return nil
		})
}
