package flow

import (
	"context"
	"strings"
	"time"

	"golang.org/x/sync/singleflight"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/locale"
)

// Document kinds a browser asks for with GET /lenders/{k}/disclosures.
const (
	DocPrequalification = "prequalification" // soft-pull authorisation
	DocApplication      = "application"      // hard-pull authorisation and disclosures
	DocESign            = "esign"            // E-SIGN disclosure and consent
	// DocAgreement is the lender's credit agreement (POST agreement); the
	// patient's consent to it is recorded as chairside.ConsentTerms.
	DocAgreement = "agreement"
)

// Disclosures answers a document to show before a consent: kind is
// prequalification, application (default), esign, or one of the lender
// steps' own documents (california_notice, cardholder_agreement).
func (s *Service) Disclosures(ctx context.Context, c *Caller, lenderKey, kind string) (*chairside.Document, error) {
	if kind == "" {
		kind = DocApplication
	}
	switch kind {
	case DocPrequalification, DocApplication, DocESign, DocCaliforniaNotice, DocCardholder:
	default:
		return nil, errorf(chairside.EBADREQUEST, "kind must be prequalification, application, esign, california_notice or cardholder_agreement.")
	}
	if _, _, err := s.step(ctx, c, lenderKey); err != nil {
		return nil, err
	}
	return s.document(ctx, c.Language, lenderKey, kind)
}

// Agreement answers the agreement of an approved offer.
func (s *Service) Agreement(ctx context.Context, c *Caller, lenderKey string) (*chairside.Document, error) {
	pa, err := s.ownLenderApplication(ctx, c, lenderKey)
	if err != nil {
		return nil, err
	}
	if pa.Decision == nil || !chairside.Positive(pa.Decision.ResponseCode) {
		return nil, errorf(chairside.ECONFLICT, "There is no approved offer from this lender.")
	}
	return s.document(ctx, c.Language, lenderKey, DocAgreement)
}

// Terms answers the lender's terms document (with its URL).
func (s *Service) Terms(ctx context.Context, c *Caller, lenderKey string) (*chairside.Document, error) {
	if _, _, err := s.step(ctx, c, lenderKey); err != nil {
		return nil, err
	}
	return s.document(ctx, c.Language, lenderKey, "terms")
}

// document fetches a lender document; kind is one of ours and is mapped to
// the lender's (application → disclosures). A fresh copy held from an
// earlier call is answered without asking the lender (documents_held.go).
// Otherwise callers asking at the same time for the same document of the
// same lender in the same language share one lender call (many patients at
// one step, a submit retried). The shared call is not tied to any one
// caller's request: a caller that gives up leaves, and the others still
// get their answer.
func (s *Service) document(ctx context.Context, lang locale.Language, lenderKey, kind string) (*chairside.Document, error) {
	lender, err := s.lenders.Lender(lenderKey)
	if err != nil {
		return nil, err
	}
	lenderKind := kind
	if kind == DocApplication {
		lenderKind = "disclosures"
	}
	key := lenderKey + "\x00" + lenderKind + "\x00" + string(lang)
	doc, refresh := s.heldDocument(key)
	if doc != nil && !refresh {
		return doc, nil
	}
	fetch := s.fetchDocument(ctx, key, lender, &chairside.DocumentRequest{LenderKey: lenderKey, Language: string(lang), Kind: lenderKind})
	if doc != nil {
		s.docCalls.DoChan(key, fetch) // in the background: its answer refreshes the held copy
		return doc, nil
	}
	var res singleflight.Result
	select {
	case res = <-s.docCalls.DoChan(key, fetch):
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	if res.Err != nil {
		if isCode(res.Err, chairside.ENOTFOUND) {
			return nil, res.Err
		}
		s.log.Warn("lender document failed", "lender", lenderKey, "kind", kind, "err", chairside.ErrorCode(res.Err))
		return nil, errorf(chairside.ELENDER, "We could not load this document. Please try again.")
	}
	fetched := *res.Val.(*chairside.Document) // a copy each: callers may change theirs
	return &fetched, nil
}

// checkConsent requires an affirmative consent naming exactly doc.
func checkConsent(in *ConsentInput, doc *chairside.Document) error {
	if in == nil || !in.Agreed {
		return errorf(chairside.ECONSENT, "Please read and agree to the authorisation before continuing.")
	}
	if in.DocumentID != doc.ID || in.DocumentVersion != doc.Version || !strings.EqualFold(in.DocumentSHA256, doc.SHA256) {
		return errorf(chairside.ECONSENT, "The authorisation you agreed to has changed. Please read it again and agree to the current one.")
	}
	return nil
}

// consentRecord is the record of a consent the caller gave to doc now:
// what was shown (id, version, SHA-256), when, from where, and the
// signature image when there is one.
func (s *Service) consentRecord(c *Caller, lenderKey, kind string, doc *chairside.Document, planCode string, signature []byte, now time.Time) *chairside.Consent {
	rec := &chairside.Consent{
		ID:               newID(),
		SessionID:        c.Session.ID,
		ApplicationID:    c.Session.ApplicationID,
		LenderKey:        lenderKey,
		Kind:             kind,
		DocumentID:       doc.ID,
		DocumentVersion:  doc.Version,
		DocumentSHA256:   doc.SHA256,
		DocumentLanguage: doc.Language,
		ConsentText:      doc.Title,
		LenderPlanCode:   planCode,
		ShownAt:          now,
		ConsentedAt:      now,
		IP:               c.IP,
		UserAgent:        c.UserAgent,
		SignaturePNG:     signature,
	}
	if signature != nil {
		rec.SignedAt = &now
	}
	return rec
}
