package flow

import (
	"context"
	"strconv"
	"strings"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/validate"
)

// The payment method of an accepted offer (docs/behaviour.md, "What each
// lender asks for"): a checking account or a card, each given to the lender
// by a lender step of its own (offer.go's runOfferStep) between accepting
// and signing. Nothing of it is stored: the step's request hash is keyed
// (the blind-index key), its recorded answer is the lender application,
// and logs and error messages name no number.

// BankAccountRequest is the body of application/bank-account.
type BankAccountRequest = validate.BankAccountInput

// BankCardRequest is the body of application/bank-card.
type BankCardRequest = validate.BankCardInput

// invalidPayment is the answer to a payment method with field errors.
func invalidPayment(fe []chairside.FieldError) error {
	return &chairside.Error{Code: chairside.EINVALID, Message: "Please review the fields below and correct any errors.", FieldErrors: fe}
}

// AddBankAccount gives the lender the checking account the payments come
// from. Allowed once the offer is accepted and before it is signed.
func (s *Service) AddBankAccount(ctx context.Context, c *Caller, lenderKey string, req *BankAccountRequest) (*StepAnswer[chairside.LenderApplication], error) {
	bank, err := stepOf[chairside.BankAccounts](s, lenderKey)
	if err != nil {
		return nil, err
	}
	req.BankName = strings.TrimSpace(req.BankName)
	if fe := validate.BankAccount(req); len(fe) > 0 {
		return nil, invalidPayment(fe)
	}
	in := *req
	a, err := s.runOfferStep(ctx, c, lenderKey, offerStep{
		step: chairside.StepBankAccount, from: chairside.StatusOfferAccepted, to: chairside.StatusOfferAccepted, event: "payment.bank_account_added", replayAny: true,
		hash: s.keys.BlindIndex(strings.Join([]string{chairside.StepBankAccount, in.RoutingNumber, in.AccountNumber, in.BankName, in.AccountType}, "\x00")),
		call: func(ctx context.Context, _ chairside.Lender, pa *chairside.LenderApplication, ref string) (*chairside.Decision, error) {
			return nil, bank.AddBankAccount(ctx, &chairside.BankAccountRequest{
				Language:      c.language(),
				LenderKey:     lenderKey,
				LenderRef:     pa.LenderRef,
				RoutingNumber: in.RoutingNumber,
				AccountNumber: in.AccountNumber,
				BankName:      in.BankName,
				AccountType:   in.AccountType,
				Reference:     ref,
				Now:           s.now().UTC(),
			})
		},
	})
	return s.withOpenSteps(ctx, c, lenderKey, a, err)
}

// AddCard gives the lender the card the payments are charged to. The card
// number and CVV reach the lender and nothing else: the request hash is
// keyed, and nothing of the card is recorded.
func (s *Service) AddCard(ctx context.Context, c *Caller, lenderKey string, req *BankCardRequest) (*StepAnswer[chairside.LenderApplication], error) {
	cards, err := stepOf[chairside.Cards](s, lenderKey)
	if err != nil {
		return nil, err
	}
	req.CardholderName = strings.TrimSpace(req.CardholderName)
	if fe := validate.BankCard(req, s.now()); len(fe) > 0 {
		return nil, invalidPayment(fe)
	}
	in := *req
	a, err := s.runOfferStep(ctx, c, lenderKey, offerStep{
		step: chairside.StepBankCard, from: chairside.StatusOfferAccepted, to: chairside.StatusOfferAccepted, event: "payment.card_added", replayAny: true,
		// The CVV is left out of the hash: nothing derived from it may
		// outlive the call that uses it, not even a keyed hash.
		hash: s.keys.BlindIndex(strings.Join([]string{chairside.StepBankCard, in.CardholderName, in.CardNumber,
			strconv.Itoa(in.ExpiryMonth), strconv.Itoa(in.ExpiryYear), in.ZIP}, "\x00")),
		call: func(ctx context.Context, _ chairside.Lender, pa *chairside.LenderApplication, ref string) (*chairside.Decision, error) {
			return nil, cards.AddCard(ctx, &chairside.BankCardRequest{
				Language:       c.language(),
				LenderKey:      lenderKey,
				LenderRef:      pa.LenderRef,
				CardholderName: in.CardholderName,
				Number:         in.CardNumber,
				ExpiryMonth:    in.ExpiryMonth,
				ExpiryYear:     in.ExpiryYear,
				CVV:            in.CVV,
				ZIP:            in.ZIP,
				Reference:      ref,
				Now:            s.now().UTC(),
			})
		},
	})
	return s.withOpenSteps(ctx, c, lenderKey, a, err)
}
