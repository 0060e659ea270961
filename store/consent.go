package store

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/chairside/chairside"
)

// CreateConsent appends a consent record. An empty c.ID gets a random id and
// a zero ConsentedAt gets db.Now (ShownAt defaults to ConsentedAt). The
// signature PNG is personal data and is sealed like an applicant, bound to
// its consent id. A duplicate id answers ECONFLICT.
func (db *DB) CreateConsent(ctx context.Context, c *chairside.Consent) error {
	if c.ID == "" {
		c.ID = newID()
	}
	c.ConsentedAt = db.stamp(c.ConsentedAt)
	if c.ShownAt.IsZero() {
		c.ShownAt = c.ConsentedAt
	}
	c.ShownAt = c.ShownAt.Truncate(time.Millisecond)
	if c.SignedAt != nil {
		t := c.SignedAt.Truncate(time.Millisecond)
		c.SignedAt = &t
	}
	var sig string
	if len(c.SignaturePNG) > 0 {
		var err error
		if sig, err = db.keys.Seal(c.SignaturePNG, signatureAAD(c.ID)); err != nil {
			return fmt.Errorf("store: create consent: seal signature: %w", err)
		}
	}
	return db.laterInsert(ctx, "create consent", "This consent already exists.", "",
		`INSERT INTO consents (id, session_id, application_id, provider_key, kind, document_id, document_version,
			document_sha256, consent_text, provider_plan_code, shown_at, consented_at, signed_at, ip, user_agent, signature_png, signature_method, document_language, seq)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		c.ID, c.SessionID, c.ApplicationID, c.LenderKey, c.Kind, c.DocumentID, c.DocumentVersion,
		c.DocumentSHA256, c.ConsentText, c.LenderPlanCode, millis(c.ShownAt), millis(c.ConsentedAt), nullMillis(c.SignedAt),
		c.IP, c.UserAgent, sig, c.SignatureMethod, docLanguage(c.DocumentLanguage), db.nextSeq())
}

// docLanguage is the language a consent's document was shown in; a caller
// that does not say showed the English one (the only one before 0008).
func docLanguage(lang string) string {
	if lang == "" {
		return "en"
	}
	return lang
}

// ListConsents returns the consents recorded for an application, oldest
// first; none (not an error) when there are none.
func (db *DB) ListConsents(ctx context.Context, applicationID string) ([]*chairside.Consent, error) {
	return queryAll(ctx, db, "list consents", db.scanConsent, `SELECT id, session_id, application_id, provider_key, kind, document_id, document_version,
			document_sha256, consent_text, provider_plan_code, shown_at, consented_at, signed_at, ip, user_agent, signature_png, signature_method, document_language
		FROM consents WHERE application_id = ? ORDER BY consented_at, seq`, applicationID)
}

// scanConsent reads one consent row, opening its sealed signature.
func (db *DB) scanConsent(s scanner) (*chairside.Consent, error) {
	var c chairside.Consent
	var shown, consented int64
	var signed sql.NullInt64
	var sig string
	if err := s.Scan(&c.ID, &c.SessionID, &c.ApplicationID, &c.LenderKey, &c.Kind, &c.DocumentID, &c.DocumentVersion,
		&c.DocumentSHA256, &c.ConsentText, &c.LenderPlanCode, &shown, &consented, &signed, &c.IP, &c.UserAgent, &sig, &c.SignatureMethod, &c.DocumentLanguage); err != nil {
		return nil, err
	}
	c.ShownAt, c.ConsentedAt, c.SignedAt = fromMillis(shown), fromMillis(consented), fromNullMillis(signed)
	if sig != "" {
		var err error
		if c.SignaturePNG, err = db.keys.Open(sig, signatureAAD(c.ID)); err != nil {
			return nil, fmt.Errorf("consent %s: signature: %w", c.ID, err)
		}
	}
	return &c, nil
}

// signatureAAD binds a sealed signature to its consent, so it cannot be
// moved to another record.
func signatureAAD(consentID string) string { return "consent:" + consentID + ":signature" }
