package validate

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/chairside/chairside"
)

// The checks of a lender's own steps between accepting and signing
// (docs/behaviour.md, "What each lender asks for"). The browser applies the
// same rules in web/src/features/lender-steps/rules.ts.

// ContactInput is the additional contact a lender asks for: someone who
// does not live with the patient, through whom the lender may reach them.
type ContactInput struct {
	Name         string `json:"name"`
	Relationship string `json:"relationship"`
	Phone        string `json:"phone"`
}

// Relationships are the answers the relationship question offers.
var Relationships = []string{"parent", "child", "sibling", "other_relative", "friend", "coworker"}

// contactNamePattern: letters of any script, spaces, ' ’ . and -.
var contactNamePattern = regexp.MustCompile(`^[\p{L}\p{M} '’.\-]+$`)

// Contact checks an additional contact; field errors are prefixed with
// "contact.". The phone is 10 digits by the North American plan (see Phone).
// Messages never repeat what was typed.
func Contact(in *ContactInput) []chairside.FieldError {
	var fe []chairside.FieldError
	add := func(field, msg string) {
		fe = append(fe, chairside.FieldError{Field: "contact." + field, Message: msg})
	}
	name := strings.TrimSpace(in.Name)
	switch {
	case name == "":
		add("name", "Required Field")
	case utf8.RuneCountInString(name) < 2 || utf8.RuneCountInString(name) > 60:
		add("name", "Please enter their full name (2 to 60 characters).")
	case !contactNamePattern.MatchString(name):
		add("name", "A name may use letters, spaces, apostrophes, periods and hyphens.")
	}
	switch {
	case in.Relationship == "":
		add("relationship", "Required Field")
	case !slices.Contains(Relationships, in.Relationship):
		add("relationship", "Please choose how you know them.")
	}
	switch {
	case in.Phone == "":
		add("phone", "Required Field")
	case !Phone(in.Phone):
		add("phone", "Please enter their 10-digit phone number.")
	}
	return fe
}

// SpouseInput is the spouse of a married Wisconsin applicant: the name and
// the address where the lender may write to them.
type SpouseInput struct {
	FirstName    string `json:"firstName"`
	LastName     string `json:"lastName"`
	AddressLine1 string `json:"addressLine1"`
	AddressLine2 string `json:"addressLine2,omitempty"`
	City         string `json:"city"`
	State        string `json:"state"`
	ZipCode      string `json:"zipCode"`
}

// addressPattern: letters and digits of any script, spaces and ' ’ . , # / -.
var addressPattern = regexp.MustCompile(`^[\p{L}\p{M}\p{N} '’.,#/\-]+$`)

// Spouse checks a spouse's name and address; field errors are prefixed
// with "spouse.". The ZIP code must fit the state (ZipForState).
func Spouse(in *SpouseInput) []chairside.FieldError {
	var fe []chairside.FieldError
	add := func(field, msg string) {
		fe = append(fe, chairside.FieldError{Field: "spouse." + field, Message: msg})
	}
	text := func(field, v string, max int, pattern *regexp.Regexp, charsMsg string, optional bool) {
		v = strings.TrimSpace(v)
		switch {
		case v == "" && optional:
		case v == "":
			add(field, "Required Field")
		case utf8.RuneCountInString(v) > max:
			add(field, fmt.Sprintf("Please keep this under %d characters.", max+1))
		case !pattern.MatchString(v):
			add(field, charsMsg)
		}
	}
	const nameChars = "A name may use letters, spaces, apostrophes, periods and hyphens."
	const addressChars = "An address may use letters, numbers, spaces and ' . , # / -."
	text("firstName", in.FirstName, 40, contactNamePattern, nameChars, false)
	text("lastName", in.LastName, 40, contactNamePattern, nameChars, false)
	text("addressLine1", in.AddressLine1, 60, addressPattern, addressChars, false)
	text("addressLine2", in.AddressLine2, 60, addressPattern, addressChars, true)
	text("city", in.City, 40, contactNamePattern, "A city may use letters, spaces, apostrophes, periods and hyphens.", false)
	if strings.TrimSpace(in.AddressLine1) != "" && IsPoBox(in.AddressLine1) {
		add("addressLine1", "P.O. Box Not Allowed")
	}
	stateOK := State(in.State)
	if in.State == "" {
		add("state", "Required Field")
	} else if !stateOK {
		add("state", "Please choose a state.")
	}
	switch {
	case in.ZipCode == "":
		add("zipCode", "Required Field")
	case !ZipCode(in.ZipCode):
		add("zipCode", "Please enter a 5-digit ZIP code.")
	case stateOK && !ZipForState(in.ZipCode, in.State):
		add("zipCode", "Zip Code not valid for state")
	}
	return fe
}
