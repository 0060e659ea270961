package validate

import "testing"

// TestRoutingNumberMessages: a routing number of the wrong length and nine
// digits that fail the bank's check digit get different words, as in the
// browser (web/src/lib/payment.test.ts).
func TestRoutingNumberMessages(t *testing.T) {
	for routing, want := range map[string]string{
		"":           "Required Field",
		"01100001":   MsgRoutingLength,
		"0110000155": MsgRoutingLength,
		"01100001a":  MsgRoutingLength,
		"011000016":  MsgRoutingUnknown,
		"011000015":  "",
	} {
		got := ""
		for _, fe := range BankAccount(&BankAccountInput{RoutingNumber: routing, AccountNumber: "000123456789", BankName: "First Test Bank", AccountType: "checking"}) {
			if fe.Field == "bankAccount.routingNumber" {
				got = fe.Message
			}
		}
		if got != want {
			t.Errorf("routing %q: %q, want %q", routing, got, want)
		}
	}
}
