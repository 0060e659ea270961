package store

import (
	"context"
	"fmt"
)

// auditChecks are the invariants between a lender application's status
// and the records that prove it (docs/exactly-once.md). Each query answers
// the ids of the rows that break its rule. The statuses are written out
// because they are data of the schema, not input.
// roundStep is, in SQL over a lender application pa, the name of a
// step's lender call in pa's offer round (chairside.RoundStep).
func roundStep(step string) string {
	return "(CASE WHEN pa.offer_round = 0 THEN '" + step + "' ELSE '" + step + "@' || CAST(pa.offer_round AS TEXT) END)"
}

var auditChecks = []struct {
	rule, query string
}{
	{"a status past started has no decision",
		`SELECT pa.id FROM provider_applications pa WHERE pa.status <> 'started'
			AND NOT EXISTS (SELECT 1 FROM decisions d WHERE d.provider_application_id = pa.id)`},
	{"a status past started has no answered credit request",
		`SELECT pa.id FROM provider_applications pa WHERE pa.status <> 'started'
			AND NOT EXISTS (SELECT 1 FROM lender_calls c WHERE c.provider_application_id = pa.id
				AND c.step IN ('prequalify', 'prescreen', 'apply') AND c.state = 'done')`},
	{"an accepted offer has no answered accept",
		`SELECT pa.id FROM provider_applications pa WHERE pa.status IN ('offer_accepted', 'signed', 'completed')
			AND NOT EXISTS (SELECT 1 FROM lender_calls c WHERE c.provider_application_id = pa.id AND c.step = ` + roundStep("accept") + ` AND c.state = 'done')`},
	{"a signed offer has no answered e-sign",
		`SELECT pa.id FROM provider_applications pa WHERE pa.status IN ('signed', 'completed')
			AND NOT EXISTS (SELECT 1 FROM lender_calls c WHERE c.provider_application_id = pa.id AND c.step = ` + roundStep("esign") + ` AND c.state = 'done')`},
	{"a signed offer has no e-sign consent with a signature",
		`SELECT pa.id FROM provider_applications pa WHERE pa.status IN ('signed', 'completed')
			AND NOT EXISTS (SELECT 1 FROM consents k WHERE k.application_id = pa.application_id AND k.provider_key = pa.provider_key
				AND k.kind = 'esign' AND k.signature_png <> '' AND k.signed_at IS NOT NULL AND k.signature_method IN ('drawn', 'typed'))`},
	{"a signed offer has no consent to the agreement",
		`SELECT pa.id FROM provider_applications pa WHERE pa.status IN ('signed', 'completed')
			AND NOT EXISTS (SELECT 1 FROM consents k WHERE k.application_id = pa.application_id AND k.provider_key = pa.provider_key
				AND k.kind = 'terms')`},
	// An offer first decided by a soft pull becomes an account only with a
	// hard-pull authorisation: given at signing, or with a full application
	// to the same lender afterwards. An account the patient already has
	// (its latest decision says so) opens nothing and needs none.
	{"a signed offer after a soft pull has no hard-pull authorisation",
		`SELECT pa.id FROM provider_applications pa WHERE pa.status IN ('signed', 'completed')
			AND (SELECT d.operation FROM decisions d WHERE d.provider_application_id = pa.id
				ORDER BY d.created_at, d.seq LIMIT 1) IN ('prequalify', 'prescreen')
			AND (SELECT d.existing_account FROM decisions d WHERE d.provider_application_id = pa.id
				ORDER BY d.created_at DESC, d.seq DESC LIMIT 1) = 0
			AND NOT EXISTS (SELECT 1 FROM consents k WHERE k.application_id = pa.application_id AND k.provider_key = pa.provider_key
				AND k.kind = 'hard_pull')`},
	// Snap draws its lease payments from a checking account it must have
	// before the agreement is signed (docs/behaviour.md, "Signing").
	{"a signed Snap application has no answered bank-account step",
		`SELECT pa.id FROM provider_applications pa WHERE pa.status IN ('signed', 'completed') AND pa.provider_key = 'snap_standard'
			AND NOT EXISTS (SELECT 1 FROM lender_calls c WHERE c.provider_application_id = pa.id AND c.step = ` + roundStep("bank_account") + ` AND c.state = 'done')`},
	// HFD signs only once its down payment is settled and its payment
	// method given; Fortiva completes only once its cardholder agreement
	// is agreed (docs/behaviour.md, "Signing").
	{"a signed HFD application whose decision requires a down payment has no answered down-payment step",
		`SELECT pa.id FROM provider_applications pa WHERE pa.status IN ('signed', 'completed') AND pa.provider_key = 'hfd_standard'
			AND EXISTS (SELECT 1 FROM decisions d WHERE d.provider_application_id = pa.id AND d.down_payment_required <> 0)
			AND NOT EXISTS (SELECT 1 FROM lender_calls c WHERE c.provider_application_id = pa.id AND c.step = ` + roundStep("down_payment") + ` AND c.state = 'done')`},
	{"a completed Fortiva application has no answered cardholder agreement",
		`SELECT pa.id FROM provider_applications pa WHERE pa.status = 'completed' AND pa.provider_key = 'fortiva_standard'
			AND (SELECT d.existing_account FROM decisions d WHERE d.provider_application_id = pa.id
				ORDER BY d.created_at DESC, d.seq DESC LIMIT 1) = 0
			AND NOT EXISTS (SELECT 1 FROM lender_calls c WHERE c.provider_application_id = pa.id AND c.step = ` + roundStep("cardholder_agreement") + ` AND c.state = 'done')`},
	// A lender that asked for the identity quiz signs only after it was
	// passed (flow/quiz.go records quiz.passed with the graded attempt).
	{"a signed application whose lender asked for a quiz has no passed quiz",
		`SELECT pa.id FROM provider_applications pa WHERE pa.status IN ('signed', 'completed')
			AND EXISTS (SELECT 1 FROM decisions d WHERE d.provider_application_id = pa.id AND d.stipulations LIKE '%"identity_quiz"%')
			AND NOT EXISTS (SELECT 1 FROM events e WHERE e.application_id = pa.application_id AND e.provider_key = pa.provider_key
				AND e.type = 'quiz.passed')`},
	{"a completed application has no answered complete",
		`SELECT pa.id FROM provider_applications pa WHERE pa.status = 'completed'
			AND NOT EXISTS (SELECT 1 FROM lender_calls c WHERE c.provider_application_id = pa.id AND c.step = ` + roundStep("complete") + ` AND c.state = 'done')`},
	{"a step marked in flight has no running call",
		`SELECT pa.id FROM provider_applications pa WHERE pa.in_flight_step <> ''
			AND NOT EXISTS (SELECT 1 FROM lender_calls c WHERE c.provider_application_id = pa.id AND c.step = pa.in_flight_step AND c.state = 'running')`},
	{"a running call is not marked in flight",
		`SELECT c.provider_application_id FROM lender_calls c JOIN provider_applications pa ON pa.id = c.provider_application_id
			WHERE c.state = 'running' AND pa.in_flight_step <> c.step`},
	{"a credit request reached the lender without its authorisation",
		`SELECT c.provider_application_id FROM lender_calls c JOIN provider_applications pa ON pa.id = c.provider_application_id
			WHERE c.step IN ('prequalify', 'prescreen', 'apply')
			AND NOT EXISTS (SELECT 1 FROM consents k WHERE k.application_id = pa.application_id AND k.provider_key = pa.provider_key
				AND k.kind = CASE WHEN c.step = 'apply' THEN 'hard_pull' ELSE 'soft_pull' END)`},
	// A hard-pull authorisation given at signing names the plan signed; the
	// authorisations given with a credit request name none.
	{"more credit authorisations than credit requests",
		`SELECT pa.id FROM provider_applications pa WHERE
			(SELECT COUNT(*) FROM consents k WHERE k.application_id = pa.application_id AND k.provider_key = pa.provider_key
				AND k.kind IN ('soft_pull', 'hard_pull') AND k.provider_plan_code = '')
			> (SELECT COUNT(*) FROM lender_calls c WHERE c.provider_application_id = pa.id AND c.step IN ('prequalify', 'prescreen', 'apply'))`},
	{"more credit decisions than credit requests",
		`SELECT pa.id FROM provider_applications pa WHERE
			(SELECT COUNT(*) FROM decisions d WHERE d.provider_application_id = pa.id AND d.operation IN ('prequalify', 'prescreen', 'apply'))
			> (SELECT COUNT(*) FROM lender_calls c WHERE c.provider_application_id = pa.id AND c.step IN ('prequalify', 'prescreen', 'apply'))
				+ (SELECT COUNT(*) FROM events e WHERE e.application_id = pa.application_id AND e.provider_key = pa.provider_key
					AND e.type IN ('decision.updated', 'application.completed', 'application.patched', 'credit_limit.approved'))`},
	// A patch's new decision (flow/patch.go) comes with its answered step.
	{"a patched application has no answered patch",
		`SELECT pa.id FROM provider_applications pa WHERE EXISTS (SELECT 1 FROM events e
				WHERE e.application_id = pa.application_id AND e.provider_key = pa.provider_key AND e.type = 'application.patched')
			AND NOT EXISTS (SELECT 1 FROM lender_calls c WHERE c.provider_application_id = pa.id
				AND c.step IN ('patch_income') AND c.state = 'done')`},
	// A credit limit change's new decision (flow/creditlimit.go) comes with
	// its answered step.
	{"a credit limit approval has no answered credit limit step",
		`SELECT pa.id FROM provider_applications pa WHERE EXISTS (SELECT 1 FROM events e
				WHERE e.application_id = pa.application_id AND e.provider_key = pa.provider_key AND e.type = 'credit_limit.approved')
			AND NOT EXISTS (SELECT 1 FROM lender_calls c WHERE c.provider_application_id = pa.id
				AND c.step = 'credit_limit' AND c.state = 'done')`},
	// The money line (docs/behaviour.md, "After the signature"): a
	// completed case has its completed entry; a void or refund on it has
	// its answered change step; refunds never pass what was funded; a
	// funding's fee and net add up to its gross.
	{"a completed application has no completed money entry",
		`SELECT pa.id FROM provider_applications pa WHERE pa.status = 'completed'
			AND NOT EXISTS (SELECT 1 FROM money_entries m WHERE m.lender_application_id = pa.id AND m.kind = 'completed')`},
	{"a void or refund on the money line has no answered change",
		`SELECT m.lender_application_id FROM money_entries m WHERE m.kind IN ('voided', 'refunded', 'refund_refused')
			AND NOT EXISTS (SELECT 1 FROM lender_calls c WHERE c.provider_application_id = m.lender_application_id
				AND (c.step = 'void' OR c.step LIKE 'refund:%') AND c.state = 'done')`},
	{"more refunded than funded",
		`SELECT f.lender_application_id FROM money_entries f WHERE f.kind = 'funded'
			AND (SELECT COALESCE(SUM(r.amount_cents), 0) FROM money_entries r
				WHERE r.lender_application_id = f.lender_application_id AND r.kind = 'refunded') > f.amount_cents`},
	{"a funding whose fee and net do not add up to its gross",
		`SELECT m.lender_application_id FROM money_entries m WHERE m.kind IN ('funded', 'deposited')
			AND m.fee_cents + m.net_cents <> m.amount_cents`},
	{"a session finished as completed without a completed application",
		`SELECT s.id FROM sessions s WHERE s.outcome = 'completed'
			AND NOT EXISTS (SELECT 1 FROM provider_applications pa WHERE pa.application_id = s.application_id AND pa.status = 'completed')`},
}

// Audit checks every lender application's status against the records that
// prove it — the decision and the answered lender call behind each step,
// the authorisation behind each credit request, the signature behind
// "signed" — and answers one line per broken rule and row; none when all is
// well. The tests run it after every journey; an operator can run it on a
// live database (it only reads).
func (db *DB) Audit(ctx context.Context) ([]string, error) {
	var problems []string
	for _, c := range auditChecks {
		ids, err := queryAll(ctx, db, fmt.Sprintf("audit %q", c.rule), func(s scanner) (id string, err error) {
			return id, s.Scan(&id)
		}, c.query)
		if err != nil {
			return nil, err
		}
		for _, id := range ids {
			problems = append(problems, c.rule+": "+id)
		}
	}
	return problems, nil
}
