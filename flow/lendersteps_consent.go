package flow

import (
	"context"
	"strings"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/validate"
)

// The lender's own steps that are a document agreed to (or acknowledged)
// on a screen of its own, and the Wisconsin spouse question
// (docs/behaviour.md, "Signing"). Each is a lender step claimed and
// recorded exactly once like the others; a consent step also records the
// consent, in its claim transaction, before the lender hears of it.

// Document kinds of the lender steps' own documents (GET disclosures).
const (
	DocCaliforniaNotice = "california_notice"
	DocCardholder       = "cardholder_agreement"
)

// ConsentStepRequest is the body of application/agreement,
// application/california-notice and application/cardholder-agreement: the
// patient's consent to the document shown.
type ConsentStepRequest struct {
	Consent *ConsentInput `json:"consent"`
}

// consentStep is one document step: its lender step, the document it
// shows, the consent it records, the status it runs in, and its event.
type consentStep struct {
	step, doc, kind, status, event string
}

var consentSteps = map[string]consentStep{
	chairside.JourneyAgreement: {chairside.StepAgreement, DocAgreement, chairside.ConsentTerms,
		chairside.StatusOfferAccepted, "agreement.agreed"},
	chairside.JourneyCalifornia: {chairside.StepCaliforniaNotice, DocCaliforniaNotice, chairside.ConsentCaliforniaNotice,
		chairside.StatusOfferAccepted, "california_notice.acknowledged"},
	chairside.JourneyCompleteAgreement: {chairside.StepCardholderAgreement, DocCardholder, chairside.ConsentCardholder,
		chairside.StatusSigned, "cardholder_agreement.agreed"},
}

// AgreeAgreement records the patient's agreement to the lender's
// agreement, read on its own screen: the signing screen then does not ask
// for it again.
func (s *Service) AgreeAgreement(ctx context.Context, c *Caller, lenderKey string, req *ConsentStepRequest) (*StepAnswer[chairside.LenderApplication], error) {
	return s.consentStep(ctx, c, lenderKey, chairside.JourneyAgreement, req)
}

// AcknowledgeCaliforniaNotice records the patient's acknowledgement of the
// notice for patients in California.
func (s *Service) AcknowledgeCaliforniaNotice(ctx context.Context, c *Caller, lenderKey string, req *ConsentStepRequest) (*StepAnswer[chairside.LenderApplication], error) {
	return s.consentStep(ctx, c, lenderKey, chairside.JourneyCalifornia, req)
}

// AgreeCardholderAgreement records, after signing, the patient's agreement
// to the card's cardholder agreement; completing is allowed then.
func (s *Service) AgreeCardholderAgreement(ctx context.Context, c *Caller, lenderKey string, req *ConsentStepRequest) (*StepAnswer[chairside.LenderApplication], error) {
	return s.consentStep(ctx, c, lenderKey, chairside.JourneyCompleteAgreement, req)
}

// consentStep checks the consent against the lender's current document,
// then runs the step: the consent recorded in the claim, the lender told.
func (s *Service) consentStep(ctx context.Context, c *Caller, lenderKey, journey string, req *ConsentStepRequest) (*StepAnswer[chairside.LenderApplication], error) {
	cs := consentSteps[journey]
	consents, err := stepOf[chairside.Consents](s, lenderKey)
	if err != nil {
		return nil, err
	}
	pa, err := s.requireStep(ctx, c, lenderKey, journey)
	if err != nil {
		return nil, err
	}
	doc, err := s.document(ctx, c.Language, lenderKey, cs.doc)
	if err != nil {
		return nil, err
	}
	if err := checkConsent(req.Consent, doc); err != nil {
		return nil, err
	}
	a, err := s.runOfferStep(ctx, c, lenderKey, offerStep{
		step: cs.step, from: cs.status, to: cs.status, event: cs.event, replayAny: true, read: pa,
		hash: sha256Hex(strings.Join([]string{cs.step, doc.ID, doc.Version, doc.SHA256}, "\x00")),
		prepare: func(ctx context.Context, tx Store, pa *chairside.LenderApplication) error {
			return tx.CreateConsent(ctx, s.consentRecord(c, lenderKey, cs.kind, doc, pa.SelectedPlanCode, nil, s.now().UTC()))
		},
		call: func(ctx context.Context, _ chairside.Lender, pa *chairside.LenderApplication, ref string) (*chairside.Decision, error) {
			return nil, consents.RecordConsent(ctx, &chairside.ConsentNotice{
				Language:  c.language(),
				LenderKey: lenderKey, LenderRef: pa.LenderRef, Kind: cs.kind,
				DocumentID: doc.ID, DocumentVersion: doc.Version, Reference: ref, Now: s.now().UTC(),
			})
		},
	})
	return s.withOpenSteps(ctx, c, lenderKey, a, err)
}

// WisconsinRequest is the body of application/wisconsin: whether the
// applicant is married and, if so, the spouse.
type WisconsinRequest struct {
	Married *bool                 `json:"married"`
	Spouse  *validate.SpouseInput `json:"spouse,omitempty"`
}

// AnswerWisconsin gives the lender the answer Wisconsin's marital property
// law needs from an applicant living in Wisconsin: married or not, and the
// spouse's name and address when married. Nothing of it is stored (the
// step's request hash is keyed).
func (s *Service) AnswerWisconsin(ctx context.Context, c *Caller, lenderKey string, req *WisconsinRequest) (*StepAnswer[chairside.LenderApplication], error) {
	spouses, err := stepOf[chairside.Spouses](s, lenderKey)
	if err != nil {
		return nil, err
	}
	pa, err := s.requireStep(ctx, c, lenderKey, chairside.JourneyWisconsin)
	if err != nil {
		return nil, err
	}
	if req.Married == nil {
		return nil, invalidPayment([]chairside.FieldError{{Field: "wisconsin.married", Message: "Required Field"}})
	}
	var sp validate.SpouseInput
	if *req.Married {
		if req.Spouse == nil {
			req.Spouse = &validate.SpouseInput{}
		}
		sp = trimSpouse(*req.Spouse)
		if fe := validate.Spouse(&sp); len(fe) > 0 {
			return nil, invalidPayment(fe)
		}
	} else if req.Spouse != nil {
		return nil, errorf(chairside.EBADREQUEST, "spouse: only for a married applicant.")
	}
	married := *req.Married
	a, err := s.runOfferStep(ctx, c, lenderKey, offerStep{
		step: chairside.StepWisconsinSpouse, from: chairside.StatusOfferAccepted, to: chairside.StatusOfferAccepted,
		event: "wisconsin.answered", replayAny: true, read: pa,
		hash: s.keys.BlindIndex(strings.Join([]string{chairside.StepWisconsinSpouse, boolWord(married), sp.FirstName, sp.LastName,
			sp.AddressLine1, sp.AddressLine2, sp.City, sp.State, sp.ZipCode}, "\x00")),
		call: func(ctx context.Context, _ chairside.Lender, pa *chairside.LenderApplication, ref string) (*chairside.Decision, error) {
			return nil, spouses.AddSpouse(ctx, &chairside.SpouseRequest{
				Language:  c.language(),
				LenderKey: lenderKey, LenderRef: pa.LenderRef, Married: married,
				FirstName: sp.FirstName, LastName: sp.LastName, AddressLine1: sp.AddressLine1, AddressLine2: sp.AddressLine2,
				City: sp.City, State: sp.State, ZipCode: sp.ZipCode, Reference: ref, Now: s.now().UTC(),
			})
		},
	})
	return s.withOpenSteps(ctx, c, lenderKey, a, err)
}

func trimSpouse(in validate.SpouseInput) validate.SpouseInput {
	for _, f := range []*string{&in.FirstName, &in.LastName, &in.AddressLine1, &in.AddressLine2, &in.City, &in.State, &in.ZipCode} {
		*f = strings.Join(strings.Fields(*f), " ")
	}
	in.State = strings.ToUpper(in.State)
	return in
}

func boolWord(b bool) string {
	if b {
		return "married"
	}
	return "unmarried"
}

// agreementAgreed reports whether pa's agreement was agreed on its own
// screen (the agreement step answered): the e-sign then neither asks for
// nor records it again.
func agreementAgreed(ctx context.Context, st Store, pa *chairside.LenderApplication) (bool, error) {
	return callDone(ctx, st, pa, chairside.StepAgreement)
}
