package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/chairside/chairside"
)

// Applicants are sealed with an aad naming their row and column, so a
// ciphertext copied to another application or from joint to primary does
// not open.
func applicantAAD(applicationID, which string) string {
	return "applications/" + applicationID + "/" + which
}

// sealApplicants seals a's applicants and computes the SSN blind index.
func (db *DB) sealApplicants(a *chairside.Application) (primary, joint, ssnIndex string, err error) {
	buf, err := json.Marshal(a.Primary)
	if err != nil {
		return "", "", "", errors.New("encode primary applicant")
	}
	if primary, err = db.keys.Seal(buf, applicantAAD(a.ID, "primary")); err != nil {
		return "", "", "", err
	}
	if a.Joint != nil {
		buf, err := json.Marshal(a.Joint)
		if err != nil {
			return "", "", "", errors.New("encode joint applicant")
		}
		if joint, err = db.keys.Seal(buf, applicantAAD(a.ID, "joint")); err != nil {
			return "", "", "", err
		}
	}
	if a.Primary.SSN != "" {
		ssnIndex = db.keys.BlindIndex(a.Primary.SSN)
	}
	return primary, joint, ssnIndex, nil
}

// CreateApplication stores a new application with its applicants sealed and
// sets a.SSNIndex from the primary SSN (any value the caller set is
// replaced). An empty a.ID gets a random id; zero CreatedAt and UpdatedAt
// get db.Now. A duplicate id answers ECONFLICT.
func (db *DB) CreateApplication(ctx context.Context, a *chairside.Application) error {
	if a.ID == "" {
		a.ID = newID()
	}
	a.CreatedAt = db.stamp(a.CreatedAt)
	if a.UpdatedAt.IsZero() {
		a.UpdatedAt = a.CreatedAt
	}
	a.UpdatedAt = a.UpdatedAt.Truncate(time.Millisecond)
	primary, joint, ssnIndex, err := db.sealApplicants(a)
	if err != nil {
		return fmt.Errorf("store: create application: %w", err)
	}
	err = db.laterInsert(ctx, "create application", "This application already exists.", "",
		`INSERT INTO applications (id, session_id, location_id, purchase_amount_cents, insurance_benefits_cents,
			external_customer_id, joint_enabled, test_case, ssn_index, primary_sealed, joint_sealed, created_at, updated_at, purged_at,
			record_patient_id)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, ?)`,
		a.ID, a.SessionID, a.LocationID, a.PurchaseAmountCents, a.InsuranceBenefitsCents,
		a.ExternalCustomerID, boolInt(a.JointEnabled), a.TestCase, ssnIndex, primary, joint,
		millis(a.CreatedAt), millis(a.UpdatedAt), a.RecordPatientID)
	if err != nil {
		return err
	}
	a.SSNIndex, a.PurgedAt = ssnIndex, nil
	return nil
}

// FindApplication returns the application with id and its applicants
// opened, or ENOTFOUND. A purged application comes back with empty
// applicants and PurgedAt set. A sealed value that does not open (tampered,
// moved from another row, or sealed with a key no longer configured) is an
// error, never garbage.
func (db *DB) FindApplication(ctx context.Context, id string) (*chairside.Application, error) {
	var a chairside.Application
	var joint int64
	var primarySealed, jointSealed string
	var created, updated int64
	var purged sql.NullInt64
	err := db.queryRow(ctx, `SELECT id, session_id, location_id, purchase_amount_cents, insurance_benefits_cents,
			external_customer_id, joint_enabled, test_case, ssn_index, primary_sealed, joint_sealed, created_at, updated_at, purged_at,
			record_patient_id
		FROM applications WHERE id = ?`, id).Scan(
		&a.ID, &a.SessionID, &a.LocationID, &a.PurchaseAmountCents, &a.InsuranceBenefitsCents,
		&a.ExternalCustomerID, &joint, &a.TestCase, &a.SSNIndex, &primarySealed, &jointSealed, &created, &updated, &purged,
		&a.RecordPatientID)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, notFound("Application not found.")
	} else if err != nil {
		return nil, fmt.Errorf("store: find application: %w", err)
	}
	a.JointEnabled = joint != 0
	a.CreatedAt, a.UpdatedAt, a.PurgedAt = fromMillis(created), fromMillis(updated), fromNullMillis(purged)
	if primarySealed != "" {
		if err := db.openApplicant(primarySealed, applicantAAD(a.ID, "primary"), &a.Primary); err != nil {
			return nil, fmt.Errorf("store: find application %s: primary applicant: %w", a.ID, err)
		}
	}
	if jointSealed != "" {
		a.Joint = new(chairside.Applicant)
		if err := db.openApplicant(jointSealed, applicantAAD(a.ID, "joint"), a.Joint); err != nil {
			return nil, fmt.Errorf("store: find application %s: joint applicant: %w", a.ID, err)
		}
	}
	return &a, nil
}

// openApplicant opens and decodes one sealed applicant. Its errors never
// carry the plaintext.
func (db *DB) openApplicant(sealed, aad string, into *chairside.Applicant) error {
	buf, err := db.keys.Open(sealed, aad)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(buf, into); err != nil {
		return errors.New("sealed applicant is not valid JSON")
	}
	return nil
}

// ChangePurchaseAmount sets the application's treatment amount to to if it
// is still from: a compare-and-set, so of two changes made from the same
// amount one wins and the other answers ECONFLICT. A missing application
// answers ENOTFOUND.
func (db *DB) ChangePurchaseAmount(ctx context.Context, id string, from, to int64) error {
	res, err := db.exec(ctx, `UPDATE applications SET purchase_amount_cents = ?, updated_at = ?
		WHERE id = ? AND purchase_amount_cents = ?`, to, millis(db.now()), id, from)
	if err != nil {
		return fmt.Errorf("store: change purchase amount: %w", err)
	}
	return db.oneChanged(ctx, res, "applications", id, "Application not found.", "The amount changed meanwhile. Please look at it again.")
}

// UpdateApplication replaces the application's amounts, flags, test case and
// applicants (re-sealed, SSN index recomputed), and sets UpdatedAt to
// db.Now. A missing application answers ENOTFOUND; a purged one ECONFLICT,
// since writing personal data back after the purge would undo it.
func (db *DB) UpdateApplication(ctx context.Context, a *chairside.Application) error {
	primary, joint, ssnIndex, err := db.sealApplicants(a)
	if err != nil {
		return fmt.Errorf("store: update application: %w", err)
	}
	now := db.now()
	if err := db.laterOne(ctx, "update application", "applications", a.ID, "Application not found.", "This application's personal data has been purged.",
		`UPDATE applications SET purchase_amount_cents = ?, insurance_benefits_cents = ?, external_customer_id = ?,
			joint_enabled = ?, test_case = ?, ssn_index = ?, primary_sealed = ?, joint_sealed = ?, updated_at = ?
		WHERE id = ? AND purged_at IS NULL`,
		a.PurchaseAmountCents, a.InsuranceBenefitsCents, a.ExternalCustomerID,
		boolInt(a.JointEnabled), a.TestCase, ssnIndex, primary, joint, millis(now), a.ID); err != nil {
		return err
	}
	a.SSNIndex, a.UpdatedAt = ssnIndex, now
	return nil
}
