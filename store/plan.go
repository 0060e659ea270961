package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"github.com/chairside/chairside"
)

const paymentPlanColumns = `provider_key, type_id, provider_plan_code, duration_months, monthly_amount_cents, total_cost_cents,
	apr, promo_apr, description, expire_at, min_amount_cents, max_amount_cents, amount_financed_cents, down_payment_cents,
	product_type, sub_lender_id, payment_count, final_payment_cents`

// SavePaymentPlans replaces the plans offered to a lender application
// with plans, in their order, in one transaction. An empty or nil plans
// clears them. An unknown lender application answers ENOTFOUND.
//
// The plans go in with one multi-row INSERT: a lender offers a handful, and
// one statement instead of one per plan keeps the writer's turn short.
func (db *DB) SavePaymentPlans(ctx context.Context, lenderApplicationID string, plans []chairside.PaymentPlan) error {
	return db.Batch(ctx, func(w *DB) error {
		if len(plans) == 0 {
			// With rows to insert, the foreign key answers for a missing
			// lender application; without, ask.
			var n int
			if err := w.queryRow(ctx, `SELECT COUNT(*) FROM provider_applications WHERE id = ?`, lenderApplicationID).Scan(&n); err != nil {
				return fmt.Errorf("store: save payment plans: %w", err)
			} else if n == 0 {
				return notFound("Provider application not found.")
			}
		}
		// Both sent with later (sql.go): on PostgreSQL they leave with
		// the step's other writes.
		check := func(_ int64, err error) error {
			if isForeignKeyViolation(err) {
				return notFound("Provider application not found.")
			}
			return wrapErr("save payment plans", err)
		}
		w.later(ctx, `DELETE FROM payment_plans WHERE provider_application_id = ?`, []any{lenderApplicationID}, check)
		for offset := 0; len(plans) > 0; {
			// 20 parameters a row; 40 rows stay far below every engine's
			// parameter limit.
			chunk := plans[:min(len(plans), 40)]
			var q strings.Builder
			q.WriteString(`INSERT INTO payment_plans (provider_application_id, plan_order, ` + paymentPlanColumns + `) VALUES `)
			args := make([]any, 0, 20*len(chunk))
			for i, p := range chunk {
				if i > 0 {
					q.WriteString(", ")
				}
				q.WriteString("(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
				args = append(args, lenderApplicationID, offset+i,
					p.LenderKey, p.TypeID, p.LenderPlanCode, p.DurationMonths, p.MonthlyAmountCents, p.TotalCostCents,
					p.APR, p.PromoAPR, p.Description, millis(p.ExpireDateTime), p.MinAmountCents, p.MaxAmountCents,
					p.AmountFinancedCents, p.DownPaymentCents, p.ProductType, p.SubLenderID, p.PaymentCount, p.FinalPaymentCents)
			}
			w.later(ctx, q.String(), args, check)
			plans = plans[len(chunk):]
			offset += len(chunk)
		}
		return nil
	})
}

// ListPaymentPlans returns the plans offered to a lender application in
// the order they were saved; none (not an error) when there are none.
// ExpireDateTime comes back in UTC, to the millisecond.
func (db *DB) ListPaymentPlans(ctx context.Context, lenderApplicationID string) ([]chairside.PaymentPlan, error) {
	return queryAll(ctx, db, "list payment plans", scanPaymentPlan, `SELECT `+paymentPlanColumns+` FROM payment_plans
		WHERE provider_application_id = ? ORDER BY plan_order`, lenderApplicationID)
}

// FindPaymentPlan returns the plan offered to a lender application under
// a lender's plan code (the first in the lender's order, should a code come
// twice); ENOTFOUND when none is. A step on one plan (select, confirm,
// accept) reads that row rather than the whole set: a lender offers a
// handful, and each row read is a score of columns turned into Go values.
func (db *DB) FindPaymentPlan(ctx context.Context, lenderApplicationID, code string) (*chairside.PaymentPlan, error) {
	p, err := scanPaymentPlan(db.queryRow(ctx, `SELECT `+paymentPlanColumns+` FROM payment_plans
		WHERE provider_application_id = ? AND provider_plan_code = ? ORDER BY plan_order LIMIT 1`, lenderApplicationID, code))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, notFound("Payment plan not found.")
	} else if err != nil {
		return nil, fmt.Errorf("store: find payment plan: %w", err)
	}
	return &p, nil
}

// scanPaymentPlan reads one row of paymentPlanColumns.
func scanPaymentPlan(s scanner) (chairside.PaymentPlan, error) {
	var p chairside.PaymentPlan
	var expire int64
	err := s.Scan(&p.LenderKey, &p.TypeID, &p.LenderPlanCode, &p.DurationMonths, &p.MonthlyAmountCents, &p.TotalCostCents,
		&p.APR, &p.PromoAPR, &p.Description, &expire, &p.MinAmountCents, &p.MaxAmountCents,
		&p.AmountFinancedCents, &p.DownPaymentCents, &p.ProductType, &p.SubLenderID, &p.PaymentCount, &p.FinalPaymentCents)
	p.ExpireDateTime = fromMillis(expire)
	if p.PaymentCount > 0 { // a plan saved before schedules were kept has its total cost only
		p.Tally()
	}
	return p, err
}
