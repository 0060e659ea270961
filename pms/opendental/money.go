package opendental

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// Open Dental gives amounts sometimes as a JSON number (339.5) and
// sometimes as a string ("339.00"), and ids likewise; these read either,
// exactly: an amount becomes cents without passing through a float.

// cents is an amount in cents read from either form.
type cents int64

func (c *cents) UnmarshalJSON(b []byte) error {
	s := string(bytes.Trim(b, `"`))
	if s == "" || s == "null" {
		*c = 0
		return nil
	}
	v, err := parseCents(s)
	if err != nil {
		return err
	}
	*c = cents(v)
	return nil
}

// parseCents reads "339", "339.5", "339.00", "-12.345" (rounded half away
// from zero to the cent) or "1,234.56".
func parseCents(s string) (int64, error) {
	s = strings.ReplaceAll(strings.TrimSpace(s), ",", "")
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	if s == "" || s == "." {
		return 0, fmt.Errorf("opendental: %q is not an amount", s)
	}
	whole, frac, _ := strings.Cut(s, ".")
	if whole == "" {
		whole = "0"
	}
	if !digits(whole) || (frac != "" && !digits(frac)) || len(whole) > 13 {
		return 0, fmt.Errorf("opendental: %q is not an amount", s)
	}
	frac += "000"
	n, _ := strconv.ParseInt(whole+frac[:2], 10, 64)
	if frac[2] >= '5' {
		n++
	}
	if neg {
		n = -n
	}
	return n, nil
}

func digits(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return s != ""
}

// formatCents writes an amount as Open Dental takes it: "2480.00".
func formatCents(v int64) string {
	sign := ""
	if v < 0 {
		sign, v = "-", -v
	}
	return fmt.Sprintf("%s%d.%02d", sign, v/100, v%100)
}

// num is an id read from a number or a string.
type num string

func (n *num) UnmarshalJSON(b []byte) error {
	if bytes.HasPrefix(b, []byte(`"`)) {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		*n = num(s)
		return nil
	}
	var v json.Number
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*n = num(v.String())
	return nil
}

// flag reads Open Dental's yes/no fields: true, "true", "Yes", "1".
type flag bool

func (f *flag) UnmarshalJSON(b []byte) error {
	switch strings.ToLower(string(bytes.Trim(b, `"`))) {
	case "true", "yes", "1", "y":
		*f = true
	default:
		*f = false
	}
	return nil
}
