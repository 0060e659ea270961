package validate

import (
	"regexp"
	"slices"
	"strings"
)

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// SSN reports whether s is exactly 9 digits that the Social Security
// Administration could have issued: area 000, 666 and 900–999, group 00 and
// serial 0000 never are.
func SSN(s string) bool {
	if len(s) != 9 || !allDigits(s) {
		return false
	}
	area, group, serial := s[:3], s[3:5], s[5:]
	return area != "000" && area != "666" && area[0] != '9' && group != "00" && serial != "0000"
}

// Phone reports whether digits is a plausible North American number: exactly
// 10 ASCII digits (no formatting; see Digits), an area code and an exchange
// that do not start with 0 or 1, and an area code that is not an N11 service
// code (211, 311 … 911).
func Phone(digits string) bool {
	if len(digits) != 10 || !allDigits(digits) {
		return false
	}
	if digits[0] < '2' || digits[3] < '2' {
		return false
	}
	return digits[1:3] != "11"
}

var zipPattern = regexp.MustCompile(`^[0-9]{5}(-[0-9]{4})?$`)

// ZipCode reports whether s is a ZIP code: 5 digits, optionally a hyphen and
// 4 more.
func ZipCode(s string) bool { return zipPattern.MatchString(s) }

// State reports whether s is one of the 50 states or DC, by upper-case
// abbreviation.
func State(s string) bool {
	_, ok := zipRanges[s]
	return ok
}

// ZipForState reports whether a ZIP code (5 or 5+4 digits) lies in a state
// (upper-case abbreviation): by the ZIP list (ZipPlace) when it has the ZIP,
// the one that fills in the city and state, else by the first three digits
// and the USPS sectional-centre prefixes of that state. It is false for a
// malformed ZIP, an unknown state, or a prefix of another state or of no
// state (military and territory prefixes included: the state list has only
// the 50 states and DC).
func ZipForState(zip, state string) bool {
	if !ZipCode(zip) {
		return false
	}
	if p, ok := ZipPlace(zip); ok {
		return p.State == state
	}
	prefix := int(zip[0]-'0')*100 + int(zip[1]-'0')*10 + int(zip[2]-'0')
	for _, r := range zipRanges[state] {
		if prefix >= r[0] && prefix <= r[1] {
			return true
		}
	}
	return false
}

// emailPattern is deliberately simple: a local part without spaces or @, and
// a domain of dot-separated labels of letters, digits and hyphens ending in a
// top-level domain of at least two letters. Quoted local parts and IP-literal domains are refused;
// no patient needs them and lenders refuse them too. The browser compiles
// the same source (browser_tables.go).
var emailPattern = regexp.MustCompile(`^[A-Za-z0-9.!#$%&'*+/=?^_` + "`" + `{|}~-]+@([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}$`)

// disposableDomains are throw-away mailbox services: an offer, an agreement
// or an adverse-action notice sent there is lost. The reserved example
// domains (example.com …) are allowed on purpose, for demos and tests. The
// browser reads this list from a module generated from it
// (browser_tables.go).
var disposableDomains = []string{
	"10minutemail.com", "dispostable.com", "getnada.com", "guerrillamail.com",
	"mailinator.com", "maildrop.cc", "sharklasers.com", "temp-mail.org",
	"tempmail.com", "throwawaymail.com", "trashmail.com", "yopmail.com",
}

// emailProblem returns "" for a good address, MsgEmail for a malformed one
// and MsgEmailUnsupported for a disposable mailbox.
func emailProblem(addr string) string {
	if len(addr) > 254 || !emailPattern.MatchString(addr) {
		return MsgEmail
	}
	local, domain, _ := strings.Cut(addr, "@")
	if len(local) > 64 || strings.HasPrefix(local, ".") || strings.HasSuffix(local, ".") || strings.Contains(local, "..") {
		return MsgEmail
	}
	if slices.Contains(disposableDomains, strings.ToLower(domain)) {
		return MsgEmailUnsupported
	}
	return ""
}

// Email reports whether addr is a well-formed email address (see
// emailPattern) that is not at a known disposable-mailbox domain such as
// mailinator.com. Addresses at the reserved example.com, example.org and
// example.net are allowed, so demos and tests can use them.
func Email(addr string) bool { return emailProblem(addr) == "" }

// poBoxSource matches a value that starts with a post-office-box variant:
// "PO Box", "P.O. Box", "P O Box", "Post Office Box", "POB 12", "PO 12",
// "Box 12", in any case and spacing. "Pobox" and "PO Drawer" count too.
// Street names that merely start with the letters, such as "Poplar St",
// "Pobjoy Rd" or "Boxwood Ln", do not match. The browser compiles the same
// source (browser_tables.go), so it avoids \b, which a JavaScript
// RegExp with the flags "iu" reads differently: wordEnd says "no letter,
// digit or underscore follows" instead.
const poBoxSource = `^\s*(p\.?\s*o\.?\s*(b\.?|box|drawer)?\s*#?\s*\d|p\.?\s*o\.?\s*(box|drawer)` + wordEnd +
	`|post\s*office(\s*box)?` + wordEnd + `|pob` + wordEnd + `|box\s*#?\s*\d)`

const wordEnd = `([^0-9a-z_]|$)`

var poBoxPattern = regexp.MustCompile(`(?i)` + poBoxSource)

// IsPoBox reports whether an address line starts with a PO Box variant.
func IsPoBox(line string) bool { return poBoxPattern.MatchString(line) }
