package money

import "math"

// APRTolerance is how far, in percentage points, a disclosed APR may be
// from the one recomputed from its schedule: an eighth of a point, the
// tolerance for a regular transaction (docs/money.md).
const APRTolerance = 0.125

// APR is the annual percentage rate, in percent, of lending amount against
// a schedule, by the actuarial method with a month as the unit period: the
// monthly rate i at which the payments, the first a month after the
// advance, are worth exactly amount today, times 12. A schedule that pays
// back no more than amount has a rate of 0; false when there is no rate to
// find (no payments, nothing lent, or less paid back than lent).
func APR(amount int64, s Schedule) (float64, bool) {
	if amount <= 0 || s.Count <= 0 || s.Payment < 0 || s.Final < 0 {
		return 0, false
	}
	switch total := s.Total(); {
	case total < amount:
		return 0, false
	case total == amount:
		return 0, true
	}
	// The present value falls as the rate rises: bisect on the monthly
	// rate between 0 and 100 % a month, far above any lawful rate.
	lo, hi := 0.0, 1.0
	if presentValue(s, hi) > float64(amount) {
		return 0, false
	}
	for range 200 {
		mid := (lo + hi) / 2
		if presentValue(s, mid) > float64(amount) {
			lo = mid
		} else {
			hi = mid
		}
		if hi-lo < 1e-13 {
			break
		}
	}
	return 1200 * (lo + hi) / 2, true
}

// presentValue is the schedule's worth today at monthly rate i: the
// regular payments as an annuity, and the final payment discounted alone.
func presentValue(s Schedule, i float64) float64 {
	n := float64(s.Count)
	if i == 0 {
		return float64(s.Total())
	}
	regular := float64(s.Payment) * (1 - math.Pow(1+i, -(n-1))) / i
	return regular + float64(s.Final)*math.Pow(1+i, -n)
}
