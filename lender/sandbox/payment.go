package sandbox

import (
	"context"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/validate"
)

// AddBankAccount checks the checking account of an offer the lender can act
// on and answers; the sandbox keeps nothing of it. A request the lender
// would refuse is ELENDER with a message that names no number.
func (l bankAccounts) AddBankAccount(ctx context.Context, req *chairside.BankAccountRequest) error {
	if err := l.begin(ctx, OpBankAccount, req.Reference); err != nil {
		return err
	}
	if _, _, err := l.offerable(req.LenderRef); err != nil {
		return err
	}
	if len(validate.BankAccount(&validate.BankAccountInput{
		RoutingNumber: req.RoutingNumber, AccountNumber: req.AccountNumber,
		BankName: req.BankName, AccountType: req.AccountType,
	})) > 0 {
		return chairside.Errorf(chairside.ELENDER, "The lender could not use this bank account.")
	}
	return nil
}

// AddCard checks the card of an offer the lender can act on and answers;
// the sandbox keeps nothing of it, and its errors never carry the number or
// the CVV.
func (l cards) AddCard(ctx context.Context, req *chairside.BankCardRequest) error {
	if err := l.begin(ctx, OpBankCard, req.Reference); err != nil {
		return err
	}
	if _, _, err := l.offerable(req.LenderRef); err != nil {
		return err
	}
	if len(validate.BankCard(&validate.BankCardInput{
		CardholderName: req.CardholderName, CardNumber: req.Number,
		ExpiryMonth: req.ExpiryMonth, ExpiryYear: req.ExpiryYear, CVV: req.CVV, ZIP: req.ZIP,
	}, req.Now)) > 0 {
		return chairside.Errorf(chairside.ELENDER, "The lender could not use this card.")
	}
	if req.Number == RefusedCard {
		// A refusal, not an outage: the patient may try another card.
		return &chairside.Error{Code: chairside.EINVALID, Message: "The lender could not accept this card.",
			FieldErrors: []chairside.FieldError{{Field: "bankCard.cardNumber", Message: "The card issuer did not accept this card."}}}
	}
	return nil
}
