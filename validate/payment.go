package validate

import (
	"strings"
	"time"

	"github.com/chairside/chairside"
)

// Payment method checks (docs/behaviour.md, "What each lender asks for"):
// the checking account or card an accepted offer's payments come from. The
// browser applies the same rules in web/src/lib/payment.ts.

// The routing number's messages: the browser shows the same words
// (web/src/lib/payment.ts).
const (
	MsgRoutingLength  = "Please enter the 9-digit routing number printed on your checks."
	MsgRoutingUnknown = "This isn’t a routing number we recognize. Please check each digit against your checks."
)

// RoutingNumber reports whether s is a 9-digit ABA routing number whose
// weighted digit sum (3, 7, 1 repeating) is a multiple of ten.
func RoutingNumber(s string) bool {
	if len(s) != 9 || !allDigits(s) {
		return false
	}
	weights := [3]int{3, 7, 1}
	sum := 0
	for i := range 9 {
		sum += int(s[i]-'0') * weights[i%3]
	}
	return sum%10 == 0
}

// AccountNumber reports whether s is a bank account number of 4 to 17
// digits.
func AccountNumber(s string) bool {
	return len(s) >= 4 && len(s) <= 17 && allDigits(s)
}

// Amex reports whether a card number is an American Express one (it starts
// with 3): 15 digits and a 4-digit CVV.
func Amex(number string) bool { return strings.HasPrefix(number, "3") }

// CardNumber reports whether number has the length of its kind (15 digits
// for Amex, 16 otherwise) and passes the Luhn check.
func CardNumber(number string) bool {
	want := 16
	if Amex(number) {
		want = 15
	}
	return len(number) == want && allDigits(number) && luhn(number)
}

// luhn reports whether the digits of s pass the Luhn check: doubling every
// second digit from the right, the digit sum is a multiple of ten.
func luhn(s string) bool {
	sum := 0
	for i := range len(s) {
		d := int(s[len(s)-1-i] - '0')
		if i%2 == 1 {
			d *= 2
			if d > 9 {
				d -= 9
			}
		}
		sum += d
	}
	return sum%10 == 0
}

// CVV reports whether cvv has 4 digits for an Amex card, 3 otherwise.
func CVV(cvv, number string) bool {
	want := 3
	if Amex(number) {
		want = 4
	}
	return len(cvv) == want && allDigits(cvv)
}

// Expiry reports whether month/year (a four-digit year) is a real month not
// before now's month: a card is good through the end of its expiry month.
func Expiry(month, year int, now time.Time) bool {
	if month < 1 || month > 12 || year < 2000 || year > 2100 {
		return false
	}
	y, m := now.Year(), int(now.Month())
	return year > y || (year == y && month >= m)
}

// CardBrand names the card's network by its first digits, for display.
func CardBrand(number string) string {
	switch {
	case Amex(number):
		return "amex"
	case strings.HasPrefix(number, "4"):
		return "visa"
	case strings.HasPrefix(number, "5"), strings.HasPrefix(number, "2"):
		return "mastercard"
	case strings.HasPrefix(number, "6"):
		return "discover"
	}
	return "card"
}

// BankAccountInput is a checking account as the patient typed it.
type BankAccountInput struct {
	RoutingNumber string `json:"routingNumber"`
	AccountNumber string `json:"accountNumber"`
	BankName      string `json:"bankName"`
	AccountType   string `json:"accountType"`
}

// BankAccount checks a checking account; field errors are prefixed with
// "bankAccount.". Messages never repeat what was typed.
func BankAccount(in *BankAccountInput) []chairside.FieldError {
	var fe []chairside.FieldError
	add := func(field, msg string) {
		fe = append(fe, chairside.FieldError{Field: "bankAccount." + field, Message: msg})
	}
	switch {
	case in.RoutingNumber == "":
		add("routingNumber", "Required Field")
	case len(in.RoutingNumber) != 9 || !allDigits(in.RoutingNumber):
		add("routingNumber", MsgRoutingLength)
	case !RoutingNumber(in.RoutingNumber):
		// Nine digits that are no bank's: most often one digit typed wrong.
		add("routingNumber", MsgRoutingUnknown)
	}
	switch {
	case in.AccountNumber == "":
		add("accountNumber", "Required Field")
	case !AccountNumber(in.AccountNumber):
		add("accountNumber", "Your account number has 4 to 17 digits.")
	}
	name := strings.TrimSpace(in.BankName)
	switch {
	case name == "":
		add("bankName", "Required Field")
	case len([]rune(name)) > 100:
		add("bankName", "Please keep the bank name under 100 characters.")
	}
	if in.AccountType != "checking" {
		add("accountType", "Payments can only come from a checking account.")
	}
	return fe
}

// BankCardInput is a card as the patient typed it.
type BankCardInput struct {
	CardholderName string `json:"cardholderName"`
	CardNumber     string `json:"cardNumber"`
	ExpiryMonth    int    `json:"expiryMonth"`
	ExpiryYear     int    `json:"expiryYear"`
	CVV            string `json:"cvv"`
	ZIP            string `json:"zip"`
}

// BankCard checks a card; field errors are prefixed with "bankCard.".
// Messages never repeat what was typed.
func BankCard(in *BankCardInput, now time.Time) []chairside.FieldError {
	var fe []chairside.FieldError
	add := func(field, msg string) {
		fe = append(fe, chairside.FieldError{Field: "bankCard." + field, Message: msg})
	}
	name := strings.TrimSpace(in.CardholderName)
	switch {
	case name == "":
		add("cardholderName", "Required Field")
	case len([]rune(name)) > 100:
		add("cardholderName", "Please keep the name under 100 characters.")
	}
	switch {
	case in.CardNumber == "":
		add("cardNumber", "Required Field")
	case !CardNumber(in.CardNumber):
		add("cardNumber", "Please check your card number: 16 digits, or 15 for American Express.")
	}
	if !Expiry(in.ExpiryMonth, in.ExpiryYear, now) {
		add("expiry", "Please enter an expiry date that has not passed (MM/YY).")
	}
	switch {
	case in.CVV == "":
		add("cvv", "Required Field")
	case !CVV(in.CVV, in.CardNumber):
		add("cvv", "The security code is 3 digits, or 4 on the front of an American Express card.")
	}
	switch {
	case in.ZIP == "":
		add("zip", "Required Field")
	case len(in.ZIP) != 5 || !allDigits(in.ZIP):
		add("zip", "Please enter the 5-digit ZIP code of your billing address.")
	}
	return fe
}
