// Package validate is the server's authority on application data: it checks
// an applicant against exactly the field definitions and field-group rules
// that package catalogue sends to the browser, with the product's own words
// (docs/behaviour.md, "Validation"). The browser's checks are for speed;
// these decide. Both run the cases of testdata/conformance.json, so the two
// cannot drift apart (conformance_test.go and
// web/src/lib/validation.conformance.test.ts).
package validate

import (
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/catalogue"
)

// The fixed messages. Rules with a Message of their own use that instead.
// The browser reads the same strings from a module generated from these
// (browser_tables.go).
const (
	MsgRequired         = "Required Field"
	MsgInvalid          = "Invalid Field"
	MsgNoPoBox          = "P.O. Box Not Allowed"
	MsgEmail            = "Email is invalid"
	MsgEmailUnsupported = "This email is not supported"
	MsgZipState         = "Zip Code not valid for state"
	MsgNotInFuture      = "Must not be in the future"
	MsgNotInPast        = "Must not be in the past"
	MsgRequireOne       = "Must fill in at least one"
	MsgWholeNumber      = "Please enter a whole number."
)

// Applicant checks one applicant against field definitions and field-group
// rules and returns the broken rules, one message per field at most, in the
// order of defs followed by the group rules; nil when all is well. Field
// names carry prefix ("primary" or "joint") as "primary.ssn"; an empty prefix
// gives bare field ids. Values are read by the Applicant's JSON names, the
// field ids. now is the moment ages and "today" are counted from, in its own
// location. A nil a counts as an empty applicant.
//
// Only fields named in defs are checked; group rules skip fields that
// already have an error and rule ids they do not know.
func Applicant(defs []chairside.FieldDefinition, groups []chairside.FieldGroupRule, a *chairside.Applicant, prefix string, now time.Time) []chairside.FieldError {
	if a == nil {
		a = &chairside.Applicant{}
	}
	var errs []chairside.FieldError
	bad := map[string]bool{}
	add := func(id, msg string) {
		bad[id] = true
		name := id
		if prefix != "" {
			name = prefix + "." + id
		}
		errs = append(errs, chairside.FieldError{Field: name, Message: msg})
	}
	for _, d := range defs {
		if msg := Field(d, value(a, d.ID), now); msg != "" {
			add(d.ID, msg)
		}
	}
	for _, g := range groups {
		if id, msg := group(g, a, bad); msg != "" {
			add(id, msg)
		}
	}
	return errs
}

// Field checks one value, in the API's form (digits, cents, YYYY-MM-DD),
// against one field definition and returns the first broken rule's message,
// or "" when the value passes. It is what Applicant does for each field,
// without the field-group rules.
func Field(d chairside.FieldDefinition, raw string, now time.Time) string {
	rules := d.Rules
	msg := ruleMessage(func(rule, fallback string) string {
		if r, ok := rules[rule]; ok && r.Message != "" {
			return r.Message
		}
		return fallback
	})
	if strings.TrimSpace(raw) == "" {
		if _, ok := rules[chairside.RuleRequired]; ok {
			return msg(chairside.RuleRequired, MsgRequired)
		}
		return ""
	}
	// Nothing a person types contains control characters or broken UTF-8;
	// refusing them here keeps them out of the store and the lenders' files.
	if !utf8.ValidString(raw) || strings.IndexFunc(raw, unicode.IsControl) >= 0 {
		return MsgInvalid
	}

	if m, done := checkType(d, raw, now, msg); m != "" || done {
		return m
	}
	return checkText(rules, raw, msg)
}

// ruleMessage answers a rule's own message, or the fallback.
type ruleMessage func(rule, fallback string) string

// checkType checks what a field's type demands (SSN, phone, email, ZIP,
// state, date, whole numbers and their bounds). done reports that the type
// settles the field on its own: numbers have no text rules.
func checkType(d chairside.FieldDefinition, raw string, now time.Time, msg ruleMessage) (m string, done bool) {
	switch d.Type {
	case chairside.FieldSSN:
		if !SSN(raw) {
			return MsgInvalid, true
		}
	case chairside.FieldPhone, chairside.FieldDynamicPhone:
		if !Phone(raw) {
			label := d.Label
			if label == "" {
				label = "Phone"
			}
			return label + " is not a valid phone number", true
		}
	case chairside.FieldEmail:
		return emailProblem(raw), false
	case chairside.FieldZipCode:
		if !ZipCode(raw) {
			return MsgInvalid, true
		}
	case chairside.FieldState:
		if !State(raw) {
			return MsgInvalid, true
		}
	case chairside.FieldDate, "date":
		return checkDate(d.Rules, raw, now, msg), false
	case chairside.FieldCurrency, chairside.FieldNumber:
		return checkNumber(d, raw, msg), true
	}
	return "", false
}

// checkNumber checks a whole number (cents for currency) and its bounds.
func checkNumber(d chairside.FieldDefinition, raw string, msg ruleMessage) string {
	v, err := strconv.ParseInt(raw, 10, 64)
	if err != nil {
		// A decimal ("2.5" months, cents with a fraction) gets the words
		// the API answers for a decimal JSON number in an integer field;
		// anything else ("1e3", "two") is invalid.
		if decimalPattern.MatchString(raw) {
			return MsgWholeNumber
		}
		return MsgInvalid
	}
	show := func(x int64) string { return strconv.FormatInt(x, 10) }
	if d.Type == chairside.FieldCurrency {
		show = chairside.Dollars
	}
	if r, ok := d.Rules[chairside.RuleMin]; ok && r.Min != nil && v < *r.Min {
		return msg(chairside.RuleMin, "Must be at least "+show(*r.Min))
	}
	if r, ok := d.Rules[chairside.RuleMax]; ok && r.Max != nil && v > *r.Max {
		return msg(chairside.RuleMax, "Must be at most "+show(*r.Max))
	}
	return ""
}

// checkText checks the rules on a value's text: options (for whatever type
// carries them: select, radio, state), lengths in characters, no P.O. box,
// allowed characters.
func checkText(rules map[string]chairside.Rule, raw string, msg ruleMessage) string {
	if r, ok := rules[chairside.RuleValidOptions]; ok && len(r.Options) > 0 {
		if !slices.ContainsFunc(r.Options, func(o chairside.Option) bool { return o.Value == raw }) {
			return msg(chairside.RuleValidOptions, MsgInvalid)
		}
	}
	length := int64(utf8.RuneCountInString(raw))
	if r, ok := rules[chairside.RuleMinLength]; ok && r.Min != nil && length < *r.Min {
		return msg(chairside.RuleMinLength, fmt.Sprintf("Must be at least %d characters", *r.Min))
	}
	if r, ok := rules[chairside.RuleMaxLength]; ok && r.Max != nil && length > *r.Max {
		return msg(chairside.RuleMaxLength, fmt.Sprintf("Must be at most %d characters", *r.Max))
	}
	if _, ok := rules[chairside.RuleNoPoBox]; ok && IsPoBox(raw) {
		return msg(chairside.RuleNoPoBox, MsgNoPoBox)
	}
	if r, ok := rules[chairside.RuleValidChars]; ok && r.Chars != "" {
		if bad := invalidChars(raw, r.Chars); len(bad) > 0 {
			return msg(chairside.RuleValidChars, "These characters are not allowed: "+strings.Join(bad, " ")+
				". Use only "+describeChars(r.Chars)+".")
		}
	}
	return ""
}

// decimalPattern is a number written with a decimal point: "2.5", "2.0",
// "24." or ".5", with an optional sign.
var decimalPattern = regexp.MustCompile(`^[+-]?([0-9]+\.[0-9]*|\.[0-9]+)$`)

// checkDate checks a YYYY-MM-DD date and its age and date bounds. Ages count
// whole years at the start of now's day; dates compare by day.
func checkDate(rules map[string]chairside.Rule, raw string, now time.Time, msg func(string, string) string) string {
	d, ok := parseDate(raw)
	if !ok {
		return MsgInvalid
	}
	today := dayOf(now)
	if r, ok := rules[chairside.RuleMinAge]; ok && r.Age > 0 && age(d, today) < r.Age {
		return msg(chairside.RuleMinAge, fmt.Sprintf("Must be at least %d years old", r.Age))
	}
	if r, ok := rules[chairside.RuleMaxAge]; ok && r.Age > 0 && age(d, today) > r.Age {
		return msg(chairside.RuleMaxAge, fmt.Sprintf("Must be at most %d years old", r.Age))
	}
	if r, ok := rules[chairside.RuleMinDate]; ok {
		if min, ok := ruleDate(r.Date, today); ok && d.Before(min) {
			if r.Date == "today" {
				return msg(chairside.RuleMinDate, MsgNotInPast)
			}
			return msg(chairside.RuleMinDate, "Must be at least "+min.Format("01/02/2006"))
		}
	}
	if r, ok := rules[chairside.RuleMaxDate]; ok {
		if max, ok := ruleDate(r.Date, today); ok && d.After(max) {
			if r.Date == "today" {
				return msg(chairside.RuleMaxDate, MsgNotInFuture)
			}
			return msg(chairside.RuleMaxDate, "Must be at most "+max.Format("01/02/2006"))
		}
	}
	return ""
}

// parseDate reads exactly YYYY-MM-DD as a real calendar day, at UTC midnight.
func parseDate(s string) (time.Time, bool) {
	if len(s) != 10 {
		return time.Time{}, false
	}
	t, err := time.Parse(time.DateOnly, s)
	return t, err == nil
}

// dayOf returns the calendar day of t in t's location, at UTC midnight, so
// it compares with parseDate's days.
func dayOf(t time.Time) time.Time {
	y, m, d := t.Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}

func ruleDate(s string, today time.Time) (time.Time, bool) {
	if s == "today" {
		return today, true
	}
	return parseDate(s)
}

// age is the number of whole years from birth to today; a 29 February
// birthday comes round on 1 March in other years.
func age(birth, today time.Time) int {
	years := today.Year() - birth.Year()
	if today.Month() < birth.Month() || (today.Month() == birth.Month() && today.Day() < birth.Day()) {
		years--
	}
	return years
}

// group checks one field-group rule and returns the field to blame and the
// message, or "" when the rule holds or cannot be judged.
func group(g chairside.FieldGroupRule, a *chairside.Applicant, bad map[string]bool) (string, string) {
	message := func(fallback string) string {
		if g.Message != "" {
			return g.Message
		}
		return fallback
	}
	for _, f := range g.Fields {
		if bad[f] {
			return "", "" // the field's own message says more
		}
	}
	switch g.Rule {
	case chairside.RuleRequireOne:
		// The error goes on the first field, where the browser shows the group.
		for _, f := range g.Fields {
			if strings.TrimSpace(value(a, f)) != "" {
				return "", ""
			}
		}
		if len(g.Fields) > 0 {
			return g.Fields[0], message(MsgRequireOne)
		}
	case catalogue.GroupRulePayDates:
		if len(g.Fields) != 3 {
			return "", ""
		}
		freq := value(a, g.Fields[0])
		prev, ok1 := parseDate(value(a, g.Fields[1]))
		next, ok2 := parseDate(value(a, g.Fields[2]))
		if !ok1 || !ok2 {
			return "", ""
		}
		if !PayDates(freq, prev, next) {
			return g.Fields[2], message(MsgInvalid)
		}
	case catalogue.GroupRuleZipState:
		if len(g.Fields) != 2 {
			return "", ""
		}
		// A blank ZIP or state is one not given, as for requireOne and
		// the fields' own required rules: nothing to compare.
		zip, state := value(a, g.Fields[0]), value(a, g.Fields[1])
		if strings.TrimSpace(zip) != "" && strings.TrimSpace(state) != "" && !ZipForState(zip, state) {
			return g.Fields[0], message(MsgZipState)
		}
	}
	return "", ""
}

// PayDates reports whether the days between a previous and a next payday fit
// a pay frequency: weekly exactly 7 days, bi_weekly 14,
// semi_monthly more than 13 and under 18, monthly more than 27 and under 32.
// An unknown frequency is not judged here (true): the frequency field's own
// options refuse it.
func PayDates(frequency string, previous, next time.Time) bool {
	days := int(dayOf(next).Sub(dayOf(previous)).Hours() / 24)
	switch frequency {
	case "weekly":
		return days == 7
	case "bi_weekly":
		return days == 14
	case "semi_monthly":
		return days > 13 && days < 18
	case "monthly":
		return days > 27 && days < 32
	}
	return true
}

// accessors maps each Applicant JSON name to a function reading that field
// as a string (integers in decimal, nil pointers as ""). Built once by
// reflection so that a new Applicant field is checkable without code here.
var accessors = sync.OnceValue(func() map[string]func(*chairside.Applicant) string {
	m := map[string]func(*chairside.Applicant) string{}
	t := reflect.TypeFor[chairside.Applicant]()
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "" || name == "-" {
			continue
		}
		index := f.Index
		m[name] = func(a *chairside.Applicant) string {
			v := reflect.ValueOf(a).Elem().FieldByIndex(index)
			if v.Kind() == reflect.Pointer {
				if v.IsNil() {
					return ""
				}
				v = v.Elem()
			}
			switch v.Kind() {
			case reflect.String:
				return v.String()
			case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
				return strconv.FormatInt(v.Int(), 10)
			case reflect.Bool:
				return strconv.FormatBool(v.Bool())
			}
			return ""
		}
	}
	return m
})

// value reads a field of a by its JSON name; "" for unknown names.
func value(a *chairside.Applicant, id string) string {
	if f, ok := accessors()[id]; ok {
		return f(a)
	}
	return ""
}

// classCache holds the compiled "anything but these" pattern of each
// validChars set; nil marks a set that does not compile.
var classCache sync.Map // string → *regexp.Regexp

// invalidChars returns the distinct characters of s outside the validChars
// set chars, in order of first appearance. A set that is not a valid
// character class refuses every character, so a broken definition fails
// closed and a test catches it.
func invalidChars(s, chars string) []string {
	re, ok := classCache.Load(chars)
	if !ok {
		compiled, err := regexp.Compile("[^" + chars + "]")
		if err != nil {
			compiled = nil
		}
		re, _ = classCache.LoadOrStore(chars, compiled)
	}
	var bad []string
	seen := map[string]bool{}
	for _, r := range s {
		c := string(r)
		if seen[c] {
			continue
		}
		if rx := re.(*regexp.Regexp); rx == nil || rx.MatchString(c) {
			seen[c] = true
			bad = append(bad, c)
		}
	}
	return bad
}

// describeChars turns a validChars set into words for the message, e.g.
// `\p{L}\p{M} '’.-` → "letters, spaces, apostrophes, periods and hyphens".
// A set with something it cannot name is shown as it is.
func describeChars(chars string) string {
	var words []string
	addWord := func(w string) {
		for _, x := range words {
			if x == w {
				return
			}
		}
		words = append(words, w)
	}
	single := map[rune]string{
		' ': "spaces", '\'': "apostrophes", '’': "apostrophes", '.': "periods", ',': "commas",
		'-': "hyphens", '#': "#", '/': "/", '&': "&", '(': "brackets", ')': "brackets",
	}
	rs := []rune(chars)
	for i := 0; i < len(rs); i++ {
		switch {
		case rs[i] == '\\' && i+4 < len(rs) && rs[i+1] == 'p' && rs[i+2] == '{' && rs[i+4] == '}':
			switch rs[i+3] {
			case 'L':
				addWord("letters")
			case 'N':
				addWord("digits")
			case 'M': // combining marks belong to letters
			default:
				return chars
			}
			i += 4
		case i+2 < len(rs) && rs[i+1] == '-':
			lo, hi := rs[i], rs[i+2]
			switch {
			case lo >= 'A' && hi <= 'Z', lo >= 'a' && hi <= 'z':
				addWord("letters")
			case lo >= '0' && hi <= '9':
				addWord("digits")
			default:
				return chars
			}
			i += 2
		default:
			w, ok := single[rs[i]]
			if !ok {
				return chars
			}
			addWord(w)
		}
	}
	switch len(words) {
	case 0:
		return chars
	case 1:
		return words[0]
	}
	return strings.Join(words[:len(words)-1], ", ") + " and " + words[len(words)-1]
}
