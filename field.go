package chairside

// Field types (docs/behaviour.md, "Validation"). The browser falls back to
// text for unknown ones.
const (
	FieldCheckbox     = "checkbox"
	FieldCurrency     = "currency"
	FieldDate         = "local_date"
	FieldDynamicPhone = "dynamicPhone"
	FieldEmail        = "email"
	FieldNumber       = "number"
	FieldPhone        = "phone"
	FieldRadio        = "radio"
	FieldSelect       = "select"
	FieldState        = "state"
	FieldSSN          = "ssn"
	FieldText         = "text"
	FieldZipCode      = "zipCode"
)

// FieldDefinition describes one input of an application form. The server
// sends these, the browser renders and pre-checks them, and the server
// validates every submit with exactly the same definitions: one source of
// truth for the rules.
type FieldDefinition struct {
	ID           string          `json:"id"`   // field id, the Applicant JSON name: "ssn"
	Path         string          `json:"path"` // path inside an applicant object; equals ID for now
	Name         string          `json:"name"` // form control name
	Label        string          `json:"label"`
	Hint         string          `json:"hint,omitempty"`
	Type         string          `json:"type"`
	Autocomplete string          `json:"autocomplete,omitempty"`
	InputMode    string          `json:"inputMode,omitempty"`
	Group        string          `json:"group,omitempty"` // personal, address, contact, income, employment, housing, id, purchase
	ReadOnly     bool            `json:"readOnly,omitempty"`
	Rules        map[string]Rule `json:"rules"` // keyed by rule id
}

// Rule ids (docs/behaviour.md, "Validation").
const (
	RuleRequired     = "required"
	RuleMin          = "min"
	RuleMax          = "max"
	RuleMinLength    = "minLength"
	RuleMaxLength    = "maxLength"
	RuleMinDate      = "minDate"
	RuleMaxDate      = "maxDate"
	RuleValidOptions = "validOptions"
	RuleRequireOne   = "requireOne"
	RuleMaxAge       = "maxAge"
	RuleMinAge       = "minAge"
	RuleNoPoBox      = "noPoBox"
	RuleValidChars   = "validChars"
)

// Rule is the parameter set of one rule; which members matter depends on
// the rule id.
type Rule struct {
	Min     *int64   `json:"min,omitempty"` // min, max (cents for currency), minLength, maxLength
	Max     *int64   `json:"max,omitempty"`
	Age     int      `json:"age,omitempty"`     // minAge, maxAge
	Date    string   `json:"date,omitempty"`    // minDate, maxDate: YYYY-MM-DD or "today"
	Options []Option `json:"options,omitempty"` // validOptions
	Fields  []string `json:"fields,omitempty"`  // requireOne
	Chars   string   `json:"chars,omitempty"`   // validChars: allowed characters and ranges, e.g. "A-Za-z '.-"
	Message string   `json:"message,omitempty"` // overrides the default message
}

// Option is one choice of a select or radio field.
type Option struct {
	Value string `json:"value"`
	Label string `json:"label"`
}

// FieldGroupRule is a rule over several fields, such as "at least one phone".
type FieldGroupRule struct {
	ID      string   `json:"id"`
	Rule    string   `json:"rule"` // requireOne, payDates, …
	Fields  []string `json:"fields"`
	Message string   `json:"message"`
}
