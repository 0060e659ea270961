package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/chairside/chairside"
)

const providerApplicationColumns = `id, application_id, provider_key, role, apply_mode, status,
	lender_application_id, selected_plan_code, in_flight_step, version, created_at, updated_at`

// CreateProviderApplication stores a lender's part of an application with
// Version 1 (pa.Version is set). An empty pa.ID gets a random id; zero
// CreatedAt and UpdatedAt get db.Now. A second one for the same application
// and provider answers ECONFLICT; an unknown application ENOTFOUND.
func (db *DB) CreateProviderApplication(ctx context.Context, pa *chairside.ProviderApplication) error {
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
	res, err := db.exec(ctx, `INSERT INTO provider_applications (`+providerApplicationColumns+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT DO NOTHING`,
		pa.ID, pa.ApplicationID, pa.ProviderKey, pa.Role, pa.ApplyMode, pa.Status,
		pa.LenderApplicationID, pa.SelectedPlanCode, pa.InFlight, 1, millis(pa.CreatedAt), millis(pa.UpdatedAt))
	if err == nil {
		if n, rerr := rowsAffected(res); rerr != nil {
			err = rerr
		} else if n == 0 {
			return conflict("This provider application already exists.")
		}
	}
	switch {
	case isUniqueViolation(err):
		return conflict("This provider application already exists.")
	case isForeignKeyViolation(err):
		return notFound("Application not found.")
	case err != nil:
		return fmt.Errorf("store: create provider application: %w", err)
	}
	pa.Version = 1
	return nil
}

// FindProviderApplication returns the provider application of an
// application for providerKey, with its latest decision, or ENOTFOUND. One
// query: the hot path of every step after a decision.
func (db *DB) FindProviderApplication(ctx context.Context, applicationID, providerKey string) (*chairside.ProviderApplication, error) {
	var pa chairside.ProviderApplication
	var created, updated int64
	var (
		dID, dPA, dProvider, dOp, dCode, dStips, dReasons, dLenderApp, dOffered sql.NullString
		dApproved, dDownReq, dDownCents, dExisting, dExpires, dCreated          sql.NullInt64
	)
	err := db.queryRow(ctx, `SELECT pa.id, pa.application_id, pa.provider_key, pa.role, pa.apply_mode, pa.status,
			pa.lender_application_id, pa.selected_plan_code, pa.in_flight_step, pa.version, pa.created_at, pa.updated_at, `+decisionColumns+`
		FROM provider_applications pa
		LEFT JOIN decisions d ON d.provider_application_id = pa.id
		WHERE pa.application_id = ? AND pa.provider_key = ?
		ORDER BY d.created_at DESC, d.seq DESC LIMIT 1`, applicationID, providerKey).Scan(
		&pa.ID, &pa.ApplicationID, &pa.ProviderKey, &pa.Role, &pa.ApplyMode, &pa.Status,
		&pa.LenderApplicationID, &pa.SelectedPlanCode, &pa.InFlight, &pa.Version, &created, &updated,
		&dID, &dPA, &dProvider, &dOp, &dCode, &dApproved,
		&dStips, &dReasons, &dDownReq, &dDownCents, &dExisting,
		&dLenderApp, &dOffered, &dExpires, &dCreated)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, notFound("Provider application not found.")
	} else if err != nil {
		return nil, fmt.Errorf("store: find provider application: %w", err)
	}
	pa.CreatedAt, pa.UpdatedAt = fromMillis(created), fromMillis(updated)
	if dID.Valid {
		d := &chairside.Decision{
			ID: dID.String, ProviderApplicationID: dPA.String, ProviderKey: dProvider.String,
			Operation: dOp.String, ResponseCode: dCode.String, ApprovedAmountCents: dApproved.Int64,
			DownPaymentRequired: dDownReq.Int64 != 0, DownPaymentCents: dDownCents.Int64, ExistingAccount: dExisting.Int64 != 0,
			LenderApplicationID: dLenderApp.String, OfferedProviderID: dOffered.String,
			ExpiresAt: fromNullMillis(dExpires), CreatedAt: fromMillis(dCreated.Int64),
		}
		if err := json.Unmarshal([]byte(dStips.String), &d.Stipulations); err != nil {
			return nil, fmt.Errorf("store: find provider application: decision %s: stipulations: %w", d.ID, err)
		}
		if err := json.Unmarshal([]byte(dReasons.String), &d.PendingReasons); err != nil {
			return nil, fmt.Errorf("store: find provider application: decision %s: pending reasons: %w", d.ID, err)
		}
		pa.Decision = d
	}
	return &pa, nil
}

// ListProviderApplications returns every provider application of an
// application in the order they were created, each with its latest
// decision. An unknown application has none (an empty list, not an error).
func (db *DB) ListProviderApplications(ctx context.Context, applicationID string) ([]*chairside.ProviderApplication, error) {
	rows, err := db.query(ctx, `SELECT `+providerApplicationColumns+`
		FROM provider_applications WHERE application_id = ? ORDER BY created_at, id`, applicationID)
	if err != nil {
		return nil, fmt.Errorf("store: list provider applications: %w", err)
	}
	var out []*chairside.ProviderApplication
	for rows.Next() {
		pa, err := scanProviderApplication(rows)
		if err != nil {
			rows.Close()
			return nil, fmt.Errorf("store: list provider applications: %w", err)
		}
		out = append(out, pa)
	}
	// Close before the next query: SQLite has a single connection.
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: list provider applications: %w", err)
	}
	if err := db.attachDecisions(ctx, applicationID, out); err != nil {
		return nil, err
	}
	return out, nil
}

func scanProviderApplication(s scanner) (*chairside.ProviderApplication, error) {
	var pa chairside.ProviderApplication
	var created, updated int64
	if err := s.Scan(&pa.ID, &pa.ApplicationID, &pa.ProviderKey, &pa.Role, &pa.ApplyMode, &pa.Status,
		&pa.LenderApplicationID, &pa.SelectedPlanCode, &pa.InFlight, &pa.Version, &created, &updated); err != nil {
		return nil, err
	}
	pa.CreatedAt, pa.UpdatedAt = fromMillis(created), fromMillis(updated)
	return &pa, nil
}

// UpdateProviderApplication saves pa's role, apply mode, status, lender
// application id, selected plan and in-flight step if pa.Version is still the stored
// version, then increments pa.Version and sets UpdatedAt to db.Now. A stale
// version answers ECONFLICT, so of many parallel updates from the same read
// exactly one wins. A missing record answers ENOTFOUND. pa.Decision is not
// saved here (see CreateDecision).
func (db *DB) UpdateProviderApplication(ctx context.Context, pa *chairside.ProviderApplication) error {
	now := db.now()
	res, err := db.exec(ctx, `UPDATE provider_applications SET role = ?, apply_mode = ?, status = ?,
			lender_application_id = ?, selected_plan_code = ?, in_flight_step = ?, version = version + 1, updated_at = ?
		WHERE id = ? AND version = ?`,
		pa.Role, pa.ApplyMode, pa.Status, pa.LenderApplicationID, pa.SelectedPlanCode, pa.InFlight, millis(now), pa.ID, pa.Version)
	if err != nil {
		return fmt.Errorf("store: update provider application: %w", err)
	}
	n, err := rowsAffected(res)
	if err != nil {
		return err
	}
	if n == 0 {
		if ok, err := db.exists(ctx, "provider_applications", "id", pa.ID); err != nil {
			return err
		} else if !ok {
			return notFound("Provider application not found.")
		}
		return conflict("This step was already taken; reload and try again.")
	}
	pa.Version++
	pa.UpdatedAt = now
	return nil
}

const decisionColumns = `d.id, d.provider_application_id, d.provider_key, d.operation, d.response_code, d.approved_amount_cents,
	d.stipulations, d.pending_reasons, d.down_payment_required, d.down_payment_cents, d.existing_account,
	d.lender_application_id, d.offered_provider_id, d.expires_at, d.created_at`

// CreateDecision appends a decision to a provider application. An empty
// d.ID gets a random id and a zero CreatedAt gets db.Now. An unknown
// provider application answers ENOTFOUND.
func (db *DB) CreateDecision(ctx context.Context, d *chairside.Decision) error {
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
	_, err = db.exec(ctx, `INSERT INTO decisions (id, provider_application_id, provider_key, operation, response_code, approved_amount_cents,
			stipulations, pending_reasons, down_payment_required, down_payment_cents, existing_account,
			lender_application_id, offered_provider_id, expires_at, created_at, seq)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		d.ID, d.ProviderApplicationID, d.ProviderKey, d.Operation, d.ResponseCode, d.ApprovedAmountCents,
		string(stips), string(reasons), boolInt(d.DownPaymentRequired), d.DownPaymentCents, boolInt(d.ExistingAccount),
		d.LenderApplicationID, d.OfferedProviderID, nullMillis(d.ExpiresAt), millis(d.CreatedAt), db.nextSeq())
	switch {
	case isUniqueViolation(err):
		return conflict("This decision already exists.")
	case isForeignKeyViolation(err):
		return notFound("Provider application not found.")
	case err != nil:
		return fmt.Errorf("store: create decision: %w", err)
	}
	return nil
}

// attachDecisions sets the latest decision of each of pas, all of one
// application, with a single query.
func (db *DB) attachDecisions(ctx context.Context, applicationID string, pas []*chairside.ProviderApplication) error {
	if len(pas) == 0 {
		return nil
	}
	byID := make(map[string]*chairside.ProviderApplication, len(pas))
	for _, pa := range pas {
		byID[pa.ID] = pa
	}
	// Oldest first, so the last one seen for each provider application is
	// its latest.
	rows, err := db.query(ctx, `SELECT `+decisionColumns+` FROM decisions d
		JOIN provider_applications pa ON pa.id = d.provider_application_id
		WHERE pa.application_id = ? ORDER BY d.created_at, d.seq`, applicationID)
	if err != nil {
		return fmt.Errorf("store: load decisions: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		d, err := scanDecision(rows)
		if err != nil {
			return fmt.Errorf("store: load decisions: %w", err)
		}
		if pa := byID[d.ProviderApplicationID]; pa != nil {
			pa.Decision = d
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("store: load decisions: %w", err)
	}
	return nil
}

func scanDecision(s scanner) (*chairside.Decision, error) {
	var d chairside.Decision
	var stips, reasons string
	var downRequired, existing, created int64
	var expires sql.NullInt64
	if err := s.Scan(&d.ID, &d.ProviderApplicationID, &d.ProviderKey, &d.Operation, &d.ResponseCode, &d.ApprovedAmountCents,
		&stips, &reasons, &downRequired, &d.DownPaymentCents, &existing,
		&d.LenderApplicationID, &d.OfferedProviderID, &expires, &created); err != nil {
		return nil, err
	}
	if err := json.Unmarshal([]byte(stips), &d.Stipulations); err != nil {
		return nil, fmt.Errorf("decision %s: stipulations: %w", d.ID, err)
	}
	if err := json.Unmarshal([]byte(reasons), &d.PendingReasons); err != nil {
		return nil, fmt.Errorf("decision %s: pending reasons: %w", d.ID, err)
	}
	d.DownPaymentRequired, d.ExistingAccount = downRequired != 0, existing != 0
	d.ExpiresAt, d.CreatedAt = fromNullMillis(expires), fromMillis(created)
	return &d, nil
}

const paymentPlanColumns = `provider_key, type_id, provider_plan_code, duration_months, monthly_amount_cents, total_cost_cents,
	apr, promo_apr, description, expire_at, min_amount_cents, max_amount_cents, amount_financed_cents, down_payment_cents,
	product_type, sub_lender_id`

// SavePaymentPlans replaces the plans offered to a provider application
// with plans, in their order, in one transaction. An empty or nil plans
// clears them. An unknown provider application answers ENOTFOUND.
//
// The plans go in with one multi-row INSERT: a lender offers a handful, and
// one statement instead of one per plan keeps the writer's turn short.
func (db *DB) SavePaymentPlans(ctx context.Context, providerApplicationID string, plans []chairside.PaymentPlan) error {
	return db.withTx(ctx, func(tx *sql.Tx) error {
		if len(plans) == 0 {
			// With rows to insert, the foreign key answers for a missing
			// provider application; without, ask.
			var n int
			if err := tx.QueryRowContext(ctx, db.rebind(`SELECT COUNT(*) FROM provider_applications WHERE id = ?`), providerApplicationID).Scan(&n); err != nil {
				return fmt.Errorf("store: save payment plans: %w", err)
			} else if n == 0 {
				return notFound("Provider application not found.")
			}
		}
		if _, err := tx.ExecContext(ctx, db.rebind(`DELETE FROM payment_plans WHERE provider_application_id = ?`), providerApplicationID); err != nil {
			return fmt.Errorf("store: save payment plans: %w", err)
		}
		for offset := 0; len(plans) > 0; {
			// 18 parameters a row; 40 rows stay far below every engine's
			// parameter limit.
			chunk := plans[:min(len(plans), 40)]
			var q strings.Builder
			q.WriteString(`INSERT INTO payment_plans (provider_application_id, plan_order, ` + paymentPlanColumns + `) VALUES `)
			args := make([]any, 0, 18*len(chunk))
			for i, p := range chunk {
				if i > 0 {
					q.WriteString(", ")
				}
				q.WriteString("(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
				args = append(args, providerApplicationID, offset+i,
					p.ProviderKey, p.TypeID, p.ProviderPlanCode, p.DurationMonths, p.MonthlyAmountCents, p.TotalCostCents,
					p.APR, p.PromoAPR, p.Description, millis(p.ExpireDateTime), p.MinAmountCents, p.MaxAmountCents,
					p.AmountFinancedCents, p.DownPaymentCents, p.ProductType, p.SubLenderID)
			}
			if _, err := tx.ExecContext(ctx, db.rebind(q.String()), args...); err != nil {
				if isForeignKeyViolation(err) {
					return notFound("Provider application not found.")
				}
				return fmt.Errorf("store: save payment plans: %w", err)
			}
			plans = plans[len(chunk):]
			offset += len(chunk)
		}
		return nil
	})
}

// ListPaymentPlans returns the plans offered to a provider application in
// the order they were saved; none (not an error) when there are none.
// ExpireDateTime comes back in UTC, to the millisecond.
func (db *DB) ListPaymentPlans(ctx context.Context, providerApplicationID string) ([]chairside.PaymentPlan, error) {
	rows, err := db.query(ctx, `SELECT `+paymentPlanColumns+` FROM payment_plans
		WHERE provider_application_id = ? ORDER BY plan_order`, providerApplicationID)
	if err != nil {
		return nil, fmt.Errorf("store: list payment plans: %w", err)
	}
	defer rows.Close()
	var out []chairside.PaymentPlan
	for rows.Next() {
		var p chairside.PaymentPlan
		var expire int64
		if err := rows.Scan(&p.ProviderKey, &p.TypeID, &p.ProviderPlanCode, &p.DurationMonths, &p.MonthlyAmountCents, &p.TotalCostCents,
			&p.APR, &p.PromoAPR, &p.Description, &expire, &p.MinAmountCents, &p.MaxAmountCents,
			&p.AmountFinancedCents, &p.DownPaymentCents, &p.ProductType, &p.SubLenderID); err != nil {
			return nil, fmt.Errorf("store: list payment plans: %w", err)
		}
		p.ExpireDateTime = fromMillis(expire)
		out = append(out, p)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: list payment plans: %w", err)
	}
	return out, nil
}
