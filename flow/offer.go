package flow

import (
	"bytes"
	"context"
	"encoding/base64"
	"image/png"
	"strings"

	"github.com/chairside/chairside"
)

// Signature limits: the spec's signature pad is valid only above 3000 bytes
// of image data; 512 KiB is far more than a black-and-white pad needs.
const (
	minSignatureBytes = 3000
	maxSignatureBytes = 512 << 10
)

// ownProviderApplication loads the caller's provider application for a
// provider key. The lookup goes through the session's own application, so
// another session's objects are simply not found (BOLA).
func (s *Service) ownProviderApplication(ctx context.Context, c *Caller, providerKey string) (*chairside.ProviderApplication, error) {
	pa, err := s.store.FindProviderApplication(ctx, c.Session.ApplicationID, providerKey)
	if err != nil {
		if isCode(err, chairside.ENOTFOUND) {
			return nil, errorf(chairside.ENOTFOUND, "There is no application with this lender yet.")
		}
		return nil, err
	}
	return pa, nil
}

// positive requires a positive decision in one of the given statuses.
func positive(pa *chairside.ProviderApplication, statuses ...string) error {
	if pa.Decision == nil || !chairside.Positive(pa.Decision.ResponseCode) {
		return errorf(chairside.ECONFLICT, "There is no approved offer from this lender.")
	}
	for _, st := range statuses {
		if pa.Status == st {
			return nil
		}
	}
	return errorf(chairside.ECONFLICT, "This step is not possible now.")
}

// Plans asks the lender for payment plans for an amount, saves them as the
// only plans that can be selected, and answers them.
func (s *Service) Plans(ctx context.Context, c *Caller, providerKey string, amountCents int64) (*PlansResponse, error) {
	if amountCents < 1 || amountCents > maxPurchaseCents {
		return nil, errorf(chairside.EBADREQUEST, "amountCents must be between 1 and %d.", maxPurchaseCents)
	}
	pa, err := s.ownProviderApplication(ctx, c, providerKey)
	if err != nil {
		return nil, err
	}
	if err := positive(pa, chairside.StatusDecided, chairside.StatusPlanSelected, chairside.StatusPlanConfirmed); err != nil {
		return nil, err
	}
	lender, err := s.lenders.Lender(providerKey)
	if err != nil {
		return nil, err
	}
	lctx, cancel := context.WithTimeout(ctx, s.opts.LenderTimeout)
	plans, err := lender.Plans(lctx, &chairside.PlansRequest{
		ProviderKey:         providerKey,
		LenderApplicationID: pa.LenderApplicationID,
		AmountCents:         amountCents,
		ApprovedAmountCents: pa.Decision.ApprovedAmountCents,
		Now:                 s.now().UTC(),
	})
	cancel()
	if err != nil {
		s.log.Warn("lender plans failed", "session", SessionHash(c.Session.ID), "provider", providerKey, "err", chairside.ErrorCode(err))
		return nil, errorf(chairside.ELENDER, "We could not get payment plans from the lender. Please try again.")
	}
	// Lender answers are untrusted: our provider key, a code, bounded count.
	kept := make([]chairside.PaymentPlan, 0, len(plans))
	seen := map[string]bool{}
	for _, p := range plans {
		if p.ProviderPlanCode == "" || seen[p.ProviderPlanCode] || len(kept) == maxPlans {
			continue
		}
		seen[p.ProviderPlanCode] = true
		p.ProviderKey = providerKey
		kept = append(kept, p)
	}
	err = s.batch(ctx, func(st chairside.Store) error {
		if err := st.SavePaymentPlans(ctx, pa.ID, kept); err != nil {
			return err
		}
		s.eventIn(ctx, st, c.Session, providerKey, "plans.offered", map[string]any{"count": len(kept)})
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &PlansResponse{PaymentPlans: kept}, nil
}

// offeredPlan finds a plan code among the plans saved for pa.
func (s *Service) offeredPlan(ctx context.Context, pa *chairside.ProviderApplication, code string) (*chairside.PaymentPlan, error) {
	plans, err := s.store.ListPaymentPlans(ctx, pa.ID)
	if err != nil {
		return nil, err
	}
	for i := range plans {
		if plans[i].ProviderPlanCode == code {
			return &plans[i], nil
		}
	}
	return nil, errorf(chairside.ENOTFOUND, "This payment plan is not offered.")
}

// update stores pa from the version it was read at; a stale version (a
// parallel request moved it first) answers conflict.
func (s *Service) update(ctx context.Context, pa *chairside.ProviderApplication) error {
	return s.updateIn(ctx, s.store, pa)
}

// updateIn is update on st, the store or a batch of it.
func (s *Service) updateIn(ctx context.Context, st chairside.Store, pa *chairside.ProviderApplication) error {
	pa.UpdatedAt = s.now().UTC()
	if err := st.UpdateProviderApplication(ctx, pa); err != nil {
		if isCode(err, chairside.ECONFLICT) {
			return errorf(chairside.ECONFLICT, "This step was already done.")
		}
		return err
	}
	return nil
}

// SelectPlan selects one of the offered plans (again, if the patient
// changes their mind before accepting).
func (s *Service) SelectPlan(ctx context.Context, c *Caller, providerKey, code string) (*chairside.PaymentPlan, error) {
	pa, err := s.ownProviderApplication(ctx, c, providerKey)
	if err != nil {
		return nil, err
	}
	plan, err := s.offeredPlan(ctx, pa, code)
	if err != nil {
		return nil, err
	}
	if err := positive(pa, chairside.StatusDecided, chairside.StatusPlanSelected, chairside.StatusPlanConfirmed); err != nil {
		return nil, err
	}
	pa.Status = chairside.StatusPlanSelected
	pa.SelectedPlanCode = code
	if err := s.recordPlanStep(ctx, c, pa, "plan.selected"); err != nil {
		return nil, err
	}
	return plan, nil
}

// ConfirmPlan confirms the selected plan; the code must be the selected one.
func (s *Service) ConfirmPlan(ctx context.Context, c *Caller, providerKey, code string) (*chairside.PaymentPlan, error) {
	pa, err := s.ownProviderApplication(ctx, c, providerKey)
	if err != nil {
		return nil, err
	}
	plan, err := s.offeredPlan(ctx, pa, code)
	if err != nil {
		return nil, err
	}
	if err := positive(pa, chairside.StatusPlanSelected); err != nil {
		return nil, err
	}
	if pa.SelectedPlanCode != code {
		return nil, errorf(chairside.ECONFLICT, "This is not the selected payment plan.")
	}
	pa.Status = chairside.StatusPlanConfirmed
	if err := s.recordPlanStep(ctx, c, pa, "plan.confirmed"); err != nil {
		return nil, err
	}
	return plan, nil
}

// recordPlanStep saves a plan selection or confirmation (version-checked)
// with its event, in one transaction.
func (s *Service) recordPlanStep(ctx context.Context, c *Caller, pa *chairside.ProviderApplication, event string) error {
	return s.batch(ctx, func(st chairside.Store) error {
		if err := s.updateIn(ctx, st, pa); err != nil {
			return err
		}
		s.eventIn(ctx, st, c.Session, pa.ProviderKey, event, map[string]any{"providerPlanCode": pa.SelectedPlanCode})
		return nil
	})
}

// AcceptOffer accepts the confirmed plan with the lender. The step is
// claimed first (status moved with a version check) and the lender called
// only by the winner, so of many parallel accepts exactly one succeeds and
// the lender hears of it once. A lender failure hands the step back.
func (s *Service) AcceptOffer(ctx context.Context, c *Caller, providerKey string, req *AcceptOfferRequest) (*chairside.ProviderApplication, error) {
	pa, err := s.ownProviderApplication(ctx, c, providerKey)
	if err != nil {
		return nil, err
	}
	if err := positive(pa, chairside.StatusPlanConfirmed); err != nil {
		return nil, err
	}
	if req != nil && req.ProviderPlanCode != "" && req.ProviderPlanCode != pa.SelectedPlanCode {
		return nil, errorf(chairside.ECONFLICT, "This is not the confirmed payment plan.")
	}
	plan, err := s.offeredPlan(ctx, pa, pa.SelectedPlanCode)
	if err != nil {
		return nil, err
	}
	return s.lenderStep(ctx, c, pa, chairside.StatusPlanConfirmed, chairside.StatusOfferAccepted, "offer.accepted",
		func(ctx context.Context, l chairside.Lender) error {
			return l.AcceptOffer(ctx, &chairside.OfferRequest{
				ProviderKey:         providerKey,
				LenderApplicationID: pa.LenderApplicationID,
				ProviderPlanCode:    plan.ProviderPlanCode,
				AmountCents:         plan.AmountFinancedCents,
				Reference:           "acc_" + pa.ID,
				Now:                 s.now().UTC(),
			})
		}, nil)
}

// lenderStep claims the move from→to, runs the lender call, and on failure
// moves the application back so the patient can retry.
//
// after, if not nil, runs on success with the step's event in one batch of
// the store (the e-sign consent, the final decision), so the writer is
// taken once for them.
func (s *Service) lenderStep(ctx context.Context, c *Caller, pa *chairside.ProviderApplication, from, to, event string, call func(context.Context, chairside.Lender) error, after func(context.Context, chairside.Store) error) (*chairside.ProviderApplication, error) {
	if pa.Status != from {
		return nil, errorf(chairside.ECONFLICT, "This step is not possible now.")
	}
	lender, err := s.lenders.Lender(pa.ProviderKey)
	if err != nil {
		return nil, err
	}
	pa.Status = to
	if err := s.update(ctx, pa); err != nil {
		return nil, err
	}
	ctx = context.WithoutCancel(ctx) // the claim is ours: finish it
	lctx, cancel := context.WithTimeout(ctx, s.opts.LenderTimeout)
	err = call(lctx, lender)
	cancel()
	if err != nil {
		s.log.Warn("lender step failed", "session", SessionHash(c.Session.ID), "provider", pa.ProviderKey, "step", event, "err", chairside.ErrorCode(err))
		pa.Status = from
		if uerr := s.update(ctx, pa); uerr != nil {
			s.log.Error("hand back step", "session", SessionHash(c.Session.ID), "provider", pa.ProviderKey, "err", uerr)
		}
		return nil, errorf(chairside.ELENDER, "We did not get an answer from the lender. Please try again.")
	}
	err = s.batch(ctx, func(st chairside.Store) error {
		s.eventIn(ctx, st, c.Session, pa.ProviderKey, event, nil)
		if after != nil {
			return after(ctx, st)
		}
		return nil
	})
	s.log.Info(event, "session", SessionHash(c.Session.ID), "provider", pa.ProviderKey)
	if err != nil {
		return nil, err
	}
	return pa, nil
}

// ESign records the patient's e-sign consent with the signature image and
// signs with the lender. The consent must name the lender's current e-sign
// document; the signature must be a PNG of more than 3000 bytes.
func (s *Service) ESign(ctx context.Context, c *Caller, providerKey string, req *ESignRequest) (*chairside.ProviderApplication, error) {
	sig, err := decodeSignature(req.SignaturePNG)
	if err != nil {
		return nil, err
	}
	pa, err := s.ownProviderApplication(ctx, c, providerKey)
	if err != nil {
		return nil, err
	}
	if err := positive(pa, chairside.StatusOfferAccepted); err != nil {
		return nil, err
	}
	lender, err := s.lenders.Lender(providerKey)
	if err != nil {
		return nil, err
	}
	doc, err := s.document(ctx, lender, providerKey, DocESign)
	if err != nil {
		return nil, err
	}
	if err := checkConsent(req.Consent, doc); err != nil {
		return nil, err
	}
	return s.lenderStep(ctx, c, pa, chairside.StatusOfferAccepted, chairside.StatusSigned, "esign.signed",
		func(ctx context.Context, l chairside.Lender) error {
			return l.ESign(ctx, &chairside.OfferRequest{
				ProviderKey:         providerKey,
				LenderApplicationID: pa.LenderApplicationID,
				ProviderPlanCode:    pa.SelectedPlanCode,
				Reference:           "esg_" + pa.ID,
				Now:                 s.now().UTC(),
			})
		},
		func(ctx context.Context, st chairside.Store) error {
			now := s.now().UTC()
			return st.CreateConsent(ctx, &chairside.Consent{
				ID:               newID(),
				SessionID:        c.Session.ID,
				ApplicationID:    c.Session.ApplicationID,
				ProviderKey:      providerKey,
				Kind:             chairside.ConsentESign,
				DocumentID:       doc.ID,
				DocumentVersion:  doc.Version,
				DocumentSHA256:   doc.SHA256,
				ConsentText:      doc.Title,
				ProviderPlanCode: pa.SelectedPlanCode,
				ShownAt:          now,
				ConsentedAt:      now,
				SignedAt:         &now,
				IP:               c.IP,
				UserAgent:        c.UserAgent,
				SignaturePNG:     sig,
			})
		})
}

// decodeSignature decodes a data:image/png;base64 URL and checks that it is
// a real PNG of a plausible size.
func decodeSignature(dataURL string) ([]byte, error) {
	const prefix = "data:image/png;base64,"
	bad := func(msg string) error { return errorf(chairside.EBADREQUEST, "%s", msg) }
	if !strings.HasPrefix(dataURL, prefix) {
		return nil, bad("signaturePng must be a data:image/png;base64 URL.")
	}
	b64 := dataURL[len(prefix):]
	if base64.StdEncoding.DecodedLen(len(b64)) > maxSignatureBytes+3 {
		return nil, errorf(chairside.ETOOLARGE, "The signature image is too large.")
	}
	img, err := base64.StdEncoding.DecodeString(b64)
	if err != nil {
		return nil, bad("signaturePng is not valid base64.")
	}
	if len(img) > maxSignatureBytes {
		return nil, errorf(chairside.ETOOLARGE, "The signature image is too large.")
	}
	if len(img) <= minSignatureBytes {
		return nil, bad("Please sign in the box before continuing.")
	}
	if _, err := png.DecodeConfig(bytes.NewReader(img)); err != nil {
		return nil, bad("signaturePng is not a PNG image.")
	}
	return img, nil
}

// Complete finishes the lender's account opening after signing and records
// the lender's final decision.
func (s *Service) Complete(ctx context.Context, c *Caller, providerKey string) (*chairside.ProviderApplication, error) {
	pa, err := s.ownProviderApplication(ctx, c, providerKey)
	if err != nil {
		return nil, err
	}
	if err := positive(pa, chairside.StatusSigned); err != nil {
		return nil, err
	}
	var final *chairside.Decision
	return s.lenderStep(ctx, c, pa, chairside.StatusSigned, chairside.StatusCompleted, "application.completed",
		func(ctx context.Context, l chairside.Lender) error {
			d, err := l.Complete(ctx, &chairside.OfferRequest{
				ProviderKey:         providerKey,
				LenderApplicationID: pa.LenderApplicationID,
				ProviderPlanCode:    pa.SelectedPlanCode,
				Reference:           "cmp_" + pa.ID,
				Now:                 s.now().UTC(),
			})
			final = d
			return err
		},
		// The lender's final decision, recorded with the step's event.
		func(ctx context.Context, st chairside.Store) error {
			if final == nil {
				return nil
			}
			d := sanitizeDecision(final, providerKey, pa.Decision.Operation)
			d.ID = newID()
			d.ProviderApplicationID = pa.ID
			d.CreatedAt = s.now().UTC()
			if err := st.CreateDecision(ctx, d); err != nil {
				return err
			}
			pa.Decision = d
			return s.updateIn(ctx, st, pa)
		})
}

// ApplicationStatus asks the lender where its application stands and, when
// a decided application's answer changed (a pending one was approved),
// records the new decision.
func (s *Service) ApplicationStatus(ctx context.Context, c *Caller, providerKey string) (*chairside.ProviderApplication, error) {
	pa, err := s.ownProviderApplication(ctx, c, providerKey)
	if err != nil {
		return nil, err
	}
	if pa.LenderApplicationID == "" || pa.Decision == nil {
		return nil, errorf(chairside.ECONFLICT, "This lender has no application to check yet.")
	}
	lender, err := s.lenders.Lender(providerKey)
	if err != nil {
		return nil, err
	}
	lctx, cancel := context.WithTimeout(ctx, s.opts.LenderTimeout)
	d, err := lender.Status(lctx, providerKey, pa.LenderApplicationID)
	cancel()
	if err != nil || d == nil {
		s.log.Warn("lender status failed", "session", SessionHash(c.Session.ID), "provider", providerKey, "err", chairside.ErrorCode(err))
		return nil, errorf(chairside.ELENDER, "We did not get an answer from the lender. Please try again.")
	}
	d = sanitizeDecision(d, providerKey, pa.Decision.Operation)
	if pa.Status == chairside.StatusDecided && d.ResponseCode != pa.Decision.ResponseCode {
		d.ID = newID()
		d.ProviderApplicationID = pa.ID
		d.CreatedAt = s.now().UTC()
		if d.LenderApplicationID == "" {
			d.LenderApplicationID = pa.LenderApplicationID
		}
		if err := s.store.CreateDecision(ctx, d); err != nil {
			return nil, err
		}
		pa.Decision = d
		if err := s.update(ctx, pa); err != nil {
			return nil, err
		}
		s.event(ctx, c.Session, providerKey, "decision.updated", map[string]any{"responseCode": d.ResponseCode})
	}
	return pa, nil
}

// Disclosures answers a document to show before a consent: kind is
// prequalification, application (default) or esign.
func (s *Service) Disclosures(ctx context.Context, c *Caller, providerKey, kind string) (*chairside.Document, error) {
	if kind == "" {
		kind = DocApplication
	}
	if kind != DocPrequalification && kind != DocApplication && kind != DocESign {
		return nil, errorf(chairside.EBADREQUEST, "kind must be prequalification, application or esign.")
	}
	if _, _, err := s.step(ctx, c, providerKey); err != nil {
		return nil, err
	}
	lender, err := s.lenders.Lender(providerKey)
	if err != nil {
		return nil, err
	}
	return s.document(ctx, lender, providerKey, kind)
}

// Agreement answers the agreement of an approved offer.
func (s *Service) Agreement(ctx context.Context, c *Caller, providerKey string) (*chairside.Document, error) {
	pa, err := s.ownProviderApplication(ctx, c, providerKey)
	if err != nil {
		return nil, err
	}
	if pa.Decision == nil || !chairside.Positive(pa.Decision.ResponseCode) {
		return nil, errorf(chairside.ECONFLICT, "There is no approved offer from this lender.")
	}
	lender, err := s.lenders.Lender(providerKey)
	if err != nil {
		return nil, err
	}
	return s.document(ctx, lender, providerKey, "agreement")
}

// Terms answers the provider's terms document (with its URL).
func (s *Service) Terms(ctx context.Context, c *Caller, providerKey string) (*chairside.Document, error) {
	if _, _, err := s.step(ctx, c, providerKey); err != nil {
		return nil, err
	}
	lender, err := s.lenders.Lender(providerKey)
	if err != nil {
		return nil, err
	}
	return s.document(ctx, lender, providerKey, "terms")
}

// document fetches a lender document; kind is one of ours and is mapped to
// the lender's (application → disclosures).
func (s *Service) document(ctx context.Context, lender chairside.Lender, providerKey, kind string) (*chairside.Document, error) {
	lenderKind := kind
	if kind == DocApplication {
		lenderKind = "disclosures"
	}
	lctx, cancel := context.WithTimeout(ctx, s.opts.LenderTimeout)
	defer cancel()
	doc, err := lender.Document(lctx, providerKey, lenderKind)
	if err != nil {
		if isCode(err, chairside.ENOTFOUND) {
			return nil, err
		}
		s.log.Warn("lender document failed", "provider", providerKey, "kind", kind, "err", chairside.ErrorCode(err))
		return nil, errorf(chairside.ELENDER, "We could not load this document. Please try again.")
	}
	return doc, nil
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
