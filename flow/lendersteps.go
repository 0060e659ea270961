package flow

import (
	"context"
	"slices"
	"strconv"
	"strings"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/catalogue"
	"github.com/chairside/chairside/validate"
)

// A lender's own steps between accepting an offer and signing, and between
// signing and completing (docs/behaviour.md, "Signing"). The catalogue
// lists them in order (chairside.LenderConfig.StepsBeforeSigning and
// StepsAfterSigning); this file decides which of them apply to a lender
// application and which are still open, and refuses to sign or complete
// while one is. The browser is told the open ones in every answer about
// the lender application and goes to the first.

// where is what the conditional steps depend on: the office's state and
// the applicant's.
type where struct {
	officeState, applicantState string
}

// whereOf reads, through st, the office's state and the primary
// applicant's (only when a step of names depends on it).
func (s *Service) whereOf(ctx context.Context, st Store, c *Caller, pa *chairside.LenderApplication, names []string) (where, error) {
	var w where
	loc, err := s.location(ctx, c.Session.LocationID)
	if err != nil {
		return w, err
	}
	w.officeState = loc.State
	if slices.Contains(names, chairside.JourneyWisconsin) {
		app, err := st.FindApplication(ctx, pa.ApplicationID)
		if err != nil {
			return w, err
		}
		w.applicantState = app.Primary.AddressState
	}
	return w, nil
}

// stepApplies reports whether a conditional step applies to pa at all: the
// quiz when the decision asks for it, the down payment when the decision
// requires one, the Wisconsin spouse question for an applicant living in
// Wisconsin, the California notice in an office in California, the
// cardholder agreement for a card being opened (not one the patient
// already has).
func stepApplies(pa *chairside.LenderApplication, w where, name string) bool {
	switch name {
	case chairside.JourneyCompleteAgreement:
		return pa.Decision == nil || !pa.Decision.ExistingAccount
	case chairside.JourneyQuiz:
		return quizRequired(pa)
	case chairside.JourneyDownPayment:
		return pa.Decision != nil && pa.Decision.DownPaymentRequired && pa.Decision.DownPaymentCents > 0
	case chairside.JourneyWisconsin:
		return w.applicantState == "WI"
	case chairside.JourneyCalifornia:
		return w.officeState == "CA"
	}
	return true
}

// journeyCalls are the journey's steps that one answered lender call
// settles, with that call's step.
var journeyCalls = map[string]string{
	chairside.JourneyBankAccount:       chairside.StepBankAccount,
	chairside.JourneyDownPayment:       chairside.StepDownPayment,
	chairside.JourneyAdditionalContact: chairside.StepAdditionalContact,
	chairside.JourneyAgreement:         chairside.StepAgreement,
	chairside.JourneyWisconsin:         chairside.StepWisconsinSpouse,
	chairside.JourneyCalifornia:        chairside.StepCaliforniaNotice,
	chairside.JourneyCompleteAgreement: chairside.StepCardholderAgreement,
}

// stepDone reports, reading through st, whether the step named name has
// its answer on record.
func stepDone(ctx context.Context, st Store, pa *chairside.LenderApplication, name string) (bool, error) {
	switch name {
	case chairside.JourneyQuiz:
		q, err := quizStateIn(ctx, st, pa)
		return q.passed, err
	case chairside.JourneyLoanPayment:
		if ok, err := callDone(ctx, st, pa, chairside.StepBankAccount); ok || err != nil {
			return ok, err
		}
		return callDone(ctx, st, pa, chairside.StepBankCard)
	}
	if step, ok := journeyCalls[name]; ok {
		return callDone(ctx, st, pa, step)
	}
	// A step the server does not know cannot be done: refuse to sign
	// rather than skip it.
	return false, nil
}

// callDone reports whether pa's lender call of step was answered, in pa's
// offer round.
func callDone(ctx context.Context, st Store, pa *chairside.LenderApplication, step string) (bool, error) {
	call, err := st.FindLenderCall(ctx, pa.ID, chairside.RoundStep(step, pa.OfferRound))
	if isCode(err, chairside.ENOTFOUND) {
		return false, nil
	}
	return err == nil && call.State == chairside.CallDone, err
}

// openSteps answers, in order, the steps of names that apply to pa and are
// not done.
func openSteps(ctx context.Context, st Store, pa *chairside.LenderApplication, w where, names []string) ([]string, error) {
	open := []string{}
	for _, name := range names {
		if !stepApplies(pa, w, name) {
			continue
		}
		done, err := stepDone(ctx, st, pa, name)
		if err != nil {
			return nil, err
		}
		if !done {
			open = append(open, name)
		}
	}
	return open, nil
}

// stepsAround answers the lender's steps that come before pa's next lender
// step: those before signing until it is signed, then those before
// completing.
func stepsAround(pa *chairside.LenderApplication) []string {
	p, err := catalogue.Get(pa.LenderKey)
	if err != nil {
		return nil
	}
	if pa.Status == chairside.StatusSigned || pa.Status == chairside.StatusCompleted {
		return p.StepsAfterSigning
	}
	return p.StepsBeforeSigning
}

// openStepMessages are the answers to a signature (or completion) asked
// while a step is open: what the patient still has to do.
var openStepMessages = map[string]string{
	chairside.JourneyQuiz:              "Please answer the lender's identity questions before signing.",
	chairside.JourneyBankAccount:       "Please add the checking account your payments will come from before signing.",
	chairside.JourneyDownPayment:       "Please settle the down payment with the office team before signing.",
	chairside.JourneyAdditionalContact: "Please give us one more way to reach you before signing.",
	chairside.JourneyLoanPayment:       "Please choose how your monthly payments will be made before signing.",
	chairside.JourneyAgreement:         "Please read the agreement and tick its box before signing.",
	chairside.JourneyWisconsin:         "Please answer the question for Wisconsin residents before signing.",
	chairside.JourneyCalifornia:        "Please read the notice for patients in California before signing.",
	chairside.JourneyCompleteAgreement: "Please read the cardholder agreement and tap Open my account.",
}

// stepsOpen refuses, inside the claim transaction tx of e-sign (names: the
// steps before signing) or complete (the steps after), while one of names
// is open. It records nothing.
func (s *Service) stepsOpen(ctx context.Context, tx Store, c *Caller, pa *chairside.LenderApplication, names []string) error {
	w, err := s.whereOf(ctx, tx, c, pa, names)
	if err != nil {
		return err
	}
	open, err := openSteps(ctx, tx, pa, w, names)
	if err != nil || len(open) == 0 {
		return err
	}
	msg, ok := openStepMessages[open[0]]
	if !ok {
		msg = "Please finish the lender's steps before signing."
	}
	return errorf(chairside.ECONFLICT, "%s", msg)
}

// withOpenSteps gives a lender step's answer the lender's steps still open
// (once the offer is accepted; before that nothing is open yet): a
// recorded answer holds none. The first request takes them from the
// lender application it has just recorded, the state its answer shows;
// a repeat, whose record may be older, from the application as it stands
// now. An answer with none is the record itself; one with some is the
// record's value with them added.
func (s *Service) withOpenSteps(ctx context.Context, c *Caller, lenderKey string, a *StepAnswer[chairside.LenderApplication], err error) (*StepAnswer[chairside.LenderApplication], error) {
	if err != nil {
		return nil, err
	}
	cur := a.written
	if cur == nil {
		// A repeat: its record is what the step answered then, and the
		// steps still open are those of the application as it is now.
		if cur, err = s.ownLenderApplication(ctx, c, lenderKey); err != nil {
			return nil, err
		}
	}
	open, err := s.openStepsOf(ctx, c, cur)
	if err != nil || len(open) == 0 {
		return a, err
	}
	pa, err := a.Value()
	if err != nil {
		return nil, err
	}
	with := *pa
	with.OpenSteps = open
	a.change(&with)
	return a, nil
}

// openStepsOf answers the lender's steps still open for cur, as it stands
// now: none before the offer is accepted or once it is signed and
// completed.
func (s *Service) openStepsOf(ctx context.Context, c *Caller, cur *chairside.LenderApplication) ([]string, error) {
	if cur.Status != chairside.StatusOfferAccepted && cur.Status != chairside.StatusSigned {
		return nil, nil
	}
	names := stepsAround(cur)
	w, err := s.whereOf(ctx, s.store, c, cur, names)
	if err != nil {
		return nil, err
	}
	return openSteps(ctx, s.store, cur, w, names)
}

// LenderApplication answers the caller's lender application with the
// lender's steps still open.
func (s *Service) LenderApplication(ctx context.Context, c *Caller, lenderKey string) (*chairside.LenderApplication, error) {
	pa, err := s.ownLenderApplication(ctx, c, lenderKey)
	if err != nil {
		return nil, err
	}
	if pa.OpenSteps, err = s.openStepsOf(ctx, c, pa); err != nil {
		return nil, err
	}
	return pa, nil
}

// requireStep refuses a lender step that is not among pa's open steps:
// a lender that does not have it, or a condition that does not apply.
func (s *Service) requireStep(ctx context.Context, c *Caller, lenderKey, name string) (*chairside.LenderApplication, error) {
	pa, err := s.ownLenderApplication(ctx, c, lenderKey)
	if err != nil {
		return nil, err
	}
	p, err := catalogue.Get(lenderKey)
	if err != nil {
		return nil, err
	}
	names := append(p.StepsBeforeSigning, p.StepsAfterSigning...)
	w, err := s.whereOf(ctx, s.store, c, pa, names)
	if err != nil {
		return nil, err
	}
	for _, n := range names {
		if n == name && stepApplies(pa, w, name) {
			return pa, nil
		}
	}
	return nil, errorf(chairside.ENOTFOUND, "This lender does not ask for this step.")
}

// DownPaymentRequest is the body of application/down-payment: the amount
// due today (it must be the plan's), how it is settled, and — for a lender
// whose role asks it — the patient's acknowledgement.
type DownPaymentRequest struct {
	AmountCents  int64  `json:"amountCents"`
	Method       string `json:"method"`
	Acknowledged bool   `json:"acknowledged"`
}

// DownPayment records the down payment of an accepted offer with the
// lender: in the office the staff confirm they collected it; at home the
// patient acknowledges it is paid at the office before treatment.
func (s *Service) DownPayment(ctx context.Context, c *Caller, lenderKey string, req *DownPaymentRequest) (*StepAnswer[chairside.LenderApplication], error) {
	downPayments, err := stepOf[chairside.DownPayments](s, lenderKey)
	if err != nil {
		return nil, err
	}
	pa, err := s.requireStep(ctx, c, lenderKey, chairside.JourneyDownPayment)
	if err != nil {
		return nil, err
	}
	if pa.SelectedPlanCode == "" {
		return nil, noPlanYet(pa)
	}
	plan, err := s.offeredPlan(ctx, pa, pa.SelectedPlanCode)
	if err != nil {
		return nil, err
	}
	if fe := s.downPaymentErrors(c, pa, plan, req); len(fe) > 0 {
		return nil, invalidPayment(fe)
	}
	in := *req
	a, err := s.runOfferStep(ctx, c, lenderKey, offerStep{
		step: chairside.StepDownPayment, from: chairside.StatusOfferAccepted, to: chairside.StatusOfferAccepted, event: "payment.down_payment", read: pa,
		hash: sha256Hex(strings.Join([]string{chairside.StepDownPayment, pa.SelectedPlanCode, in.Method, strconv.FormatInt(in.AmountCents, 10)}, "\x00")),
		call: func(ctx context.Context, _ chairside.Lender, pa *chairside.LenderApplication, ref string) (*chairside.Decision, error) {
			return nil, downPayments.DownPayment(ctx, &chairside.DownPaymentRequest{
				Language:  c.language(),
				LenderKey: lenderKey, LenderRef: pa.LenderRef,
				AmountCents: in.AmountCents, Method: in.Method, Reference: ref, Now: s.now().UTC(),
			})
		},
	})
	return s.withOpenSteps(ctx, c, lenderKey, a, err)
}

// downPaymentErrors checks a down payment against the plan and the
// session: the plan's amount, the method the place allows (collected by
// the staff in the office, paid at the office from home) and the
// acknowledgement when the lender's role asks for it.
func (s *Service) downPaymentErrors(c *Caller, pa *chairside.LenderApplication, plan *chairside.PaymentPlan, req *DownPaymentRequest) []chairside.FieldError {
	var fe []chairside.FieldError
	add := func(field, msg string) {
		fe = append(fe, chairside.FieldError{Field: "downPayment." + field, Message: msg})
	}
	if plan.DownPaymentCents <= 0 || req.AmountCents != plan.DownPaymentCents {
		add("amountCents", "The down payment is not the one of your plan. Please go back to your plan.")
	}
	want := chairside.DownPaymentAtOffice
	if c.Session.ExperienceType == chairside.ExperienceInStore {
		want = chairside.DownPaymentCollected
	}
	if req.Method != want {
		if want == chairside.DownPaymentCollected {
			add("method", "The office team needs to confirm they collected the down payment.")
		} else {
			add("method", "Please confirm you will pay the down payment at the office before treatment.")
		}
	}
	if p, err := catalogue.Get(pa.LenderKey); err == nil && catalogue.AcknowledgesDownPayment(p, pa.Role) && !req.Acknowledged {
		add("acknowledged", "Please tick the box to acknowledge the down payment.")
	}
	return fe
}

// ContactRequest is the body of application/additional-contact.
type ContactRequest = validate.ContactInput

// AddContact gives the lender one more person through whom it may reach the
// patient. Nothing of it is stored: the step's request hash is keyed (the
// blind-index key) and its recorded answer is the lender application.
func (s *Service) AddContact(ctx context.Context, c *Caller, lenderKey string, req *ContactRequest) (*StepAnswer[chairside.LenderApplication], error) {
	contacts, err := stepOf[chairside.Contacts](s, lenderKey)
	if err != nil {
		return nil, err
	}
	req.Name = strings.Join(strings.Fields(req.Name), " ")
	req.Phone = strings.Map(func(r rune) rune {
		if r >= '0' && r <= '9' {
			return r
		}
		return -1
	}, req.Phone)
	pa, err := s.requireStep(ctx, c, lenderKey, chairside.JourneyAdditionalContact)
	if err != nil {
		return nil, err
	}
	if fe := validate.Contact(req); len(fe) > 0 {
		return nil, invalidPayment(fe)
	}
	in := *req
	a, err := s.runOfferStep(ctx, c, lenderKey, offerStep{
		step: chairside.StepAdditionalContact, from: chairside.StatusOfferAccepted, to: chairside.StatusOfferAccepted, event: "contact.added", replayAny: true, read: pa,
		hash: s.keys.BlindIndex(strings.Join([]string{chairside.StepAdditionalContact, in.Name, in.Relationship, in.Phone}, "\x00")),
		call: func(ctx context.Context, _ chairside.Lender, pa *chairside.LenderApplication, ref string) (*chairside.Decision, error) {
			return nil, contacts.AddContact(ctx, &chairside.ContactRequest{
				Language:  c.language(),
				LenderKey: lenderKey, LenderRef: pa.LenderRef,
				Name: in.Name, Relationship: in.Relationship, Phone: in.Phone, Reference: ref, Now: s.now().UTC(),
			})
		},
	})
	return s.withOpenSteps(ctx, c, lenderKey, a, err)
}
