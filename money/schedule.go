// Package money works out and checks the figures of a payment plan: the
// payment schedule in integer cents, the disclosure figures that follow from
// it, and the annual percentage rate recomputed from the schedule by the
// actuarial method. The sandbox lenders build their plans with it, and every
// plan any lender sends is checked with it before a patient sees it
// (docs/money.md).
package money

import "math"

// Schedule is Count monthly payments, the first one a month after the
// advance: Count−1 payments of Payment, then Final, which carries the
// rounding so the schedule sums exactly to what is owed.
type Schedule struct {
	Count   int
	Payment int64
	Final   int64
}

// Total is the sum of the schedule: the total of payments.
func (s Schedule) Total() int64 {
	if s.Count <= 0 {
		return 0
	}
	return s.Payment*int64(s.Count-1) + s.Final
}

// maxPayments bounds a pay-down: 50 years of months, which only a payment
// at or below the interest could need.
const maxPayments = 600

// Interest accrues on the exact balance, the way the actuarial method of
// docs/money.md reads a schedule: payments are whole cents, the balance
// between them is not rounded, and the final payment is what is then owed,
// rounded to the cent. Rounding each month's interest instead would make
// the rate of a small plan drift from the rate it states.

// Level is the schedule of equal monthly payments that repays amount over
// months at apr percent: the level payment rounded to the cent, and the
// final payment whatever is then owed. When rounding up would overpay a
// tiny amount before the end, the payment is a cent lower, so no payment
// is ever zero or negative.
func Level(amount int64, apr float64, months int) Schedule {
	if amount <= 0 || months <= 0 {
		return Schedule{}
	}
	payment := max(int64(math.Round(levelPayment(float64(amount), apr, months))), 1)
	for {
		final := owedAtEnd(amount, apr, payment, months)
		if final > 0 || payment == 1 {
			return Schedule{Count: months, Payment: payment, Final: max(final, 1)}
		}
		payment--
	}
}

// levelPayment is the unrounded level payment of amount over months at apr
// percent (the annuity formula; a plain division at 0 %).
func levelPayment(amount, apr float64, months int) float64 {
	r := apr / 1200
	if r == 0 {
		return amount / float64(months)
	}
	return amount * r / (1 - math.Pow(1+r, -float64(months)))
}

// owedAtEnd is the final payment after months−1 payments of payment on
// amount at apr percent: the balance grown by a month's interest each
// month, less the payments, in closed form, rounded to the cent.
func owedAtEnd(amount int64, apr float64, payment int64, months int) int64 {
	r := apr / 1200
	if r == 0 {
		return amount - payment*int64(months-1)
	}
	g := math.Pow(1+r, float64(months))
	paid := float64(payment) * (g - (1 + r)) / r // the payments, grown to the end
	return int64(math.Round(float64(amount)*g - paid))
}

// PayDown pays amount down at apr percent with a fixed monthly payment, the
// last payment being what is left: the schedule of a promotion's suggested
// payment or a revolving account's fixed payment. It gives up after 50
// years (Count 0), which only a payment no larger than the interest needs.
func PayDown(amount int64, apr float64, payment int64) Schedule {
	if amount <= 0 || payment <= 0 {
		return Schedule{}
	}
	r := apr / 1200
	balance := float64(amount)
	for k := 1; k <= maxPayments; k++ {
		balance *= 1 + r
		if owed := int64(math.Round(balance)); owed <= payment {
			return Schedule{Count: k, Payment: payment, Final: max(owed, 1)}
		}
		balance -= float64(payment)
	}
	return Schedule{}
}

// Spread is count payments that add up to exactly total, the same but for
// the last, which takes the difference: a lease's payments of its total,
// which accrue no interest.
func Spread(total int64, count int) Schedule {
	if total <= 0 || count <= 0 {
		return Schedule{}
	}
	payment := (total + int64(count) - 1) / int64(count) // rounded up, the last payment smaller…
	for payment > 1 && payment*int64(count-1) >= total {
		payment-- // …unless that would leave nothing for it
	}
	return Schedule{Count: count, Payment: payment, Final: total - payment*int64(count-1)}
}
