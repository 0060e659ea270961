package chairside

import (
	"fmt"
	"strconv"
	"strings"
)

// Dollars shows cents as the browser does: 450000 → "$4,500.00".
func Dollars(cents int64) string {
	sign := ""
	u := uint64(cents)
	if cents < 0 {
		sign, u = "-", uint64(-cents) // also right for math.MinInt64, by two's complement
	}
	whole := strconv.FormatUint(u/100, 10)
	var b strings.Builder
	for i, c := range whole {
		if i > 0 && (len(whole)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return fmt.Sprintf("%s$%s.%02d", sign, b.String(), u%100)
}
