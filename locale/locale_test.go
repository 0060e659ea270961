package locale_test

import (
	"testing"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/catalogue"
	"github.com/chairside/chairside/locale"
)

func TestFromAcceptLanguage(t *testing.T) {
	for header, want := range map[string]locale.Language{
		"":                        locale.English,
		"es":                      locale.Spanish,
		"es-MX,es;q=0.9,en;q=0.8": locale.Spanish,
		"en-US,en;q=0.9,es;q=0.8": locale.English,
		"fr-FR, es;q=0.5":         locale.Spanish,
		"fr, de":                  locale.English,
		"en;q=0.2, es;q=0.7":      locale.Spanish,
		"es;q=0, en":              locale.English,
		"es;q=abc":                locale.English,
		"ES-us":                   locale.Spanish,
		";;;,,,q=1":               locale.English,
	} {
		if got := locale.FromAcceptLanguage(header); got != want {
			t.Errorf("FromAcceptLanguage(%q) = %s, want %s", header, got, want)
		}
	}
}

// TestForNewSession: an office's own language wins only over a browser's
// language the patient did not choose; a start that does not say keeps the
// request's, and an office with no language (or one we do not speak) too.
func TestForNewSession(t *testing.T) {
	yes, no := true, false
	for _, c := range []struct {
		requested locale.Language
		office    string
		chosen    *bool
		want      locale.Language
	}{
		{locale.English, "es", &no, locale.Spanish},
		{locale.English, "es-MX", &no, locale.Spanish},
		{locale.English, "es", &yes, locale.English},
		{locale.English, "es", nil, locale.English},
		{locale.Spanish, "", &no, locale.Spanish},
		{locale.Spanish, "fr", &no, locale.Spanish},
		{locale.Spanish, "en", &no, locale.English},
	} {
		if got := locale.ForNewSession(c.requested, c.office, c.chosen); got != c.want {
			t.Errorf("ForNewSession(%s, %q, %v) = %s, want %s", c.requested, c.office, c.chosen != nil && *c.chosen, got, c.want)
		}
	}
}

func TestTranslate(t *testing.T) {
	for _, c := range []struct {
		lang     locale.Language
		en, want string
	}{
		{locale.English, "Required Field", "Required Field"},
		{locale.Spanish, "Required Field", "Campo obligatorio"},
		// A value in a message; the longer pattern wins over the shorter one it contains.
		{locale.Spanish, "Must be at least 18 years old", "Debe tener al menos 18 años"},
		{locale.Spanish, "Must be at least 01/02/2006", "Debe ser al menos 01/02/2006"},
		// A value that is itself a message: a field's label.
		{locale.Spanish, "Mobile phone is not a valid phone number", "Teléfono celular: el número de teléfono no es válido"},
		{locale.Spanish, "Please ask for more than your current limit of $1,000.00.", "Pida más que su límite actual de $1,000.00."},
		// A gap is said in English rather than not at all.
		{locale.Spanish, "A message nobody wrote down", "A message nobody wrote down"},
		{locale.Spanish, "", ""},
	} {
		if got := locale.T(c.lang, c.en); got != c.want {
			t.Errorf("T(%s, %q) = %q, want %q", c.lang, c.en, got, c.want)
		}
	}
}

// TestFieldsLeaveSharedOptions translates the state list of a field and
// checks the list other callers share is untouched.
func TestFieldsLeaveSharedOptions(t *testing.T) {
	defs, groups, err := catalogue.Fields("snap_standard", chairside.ModeFull)
	if err != nil {
		t.Fatal(err)
	}
	before := catalogue.PayFrequencies[0].Label
	locale.Fields(locale.Spanish, defs, groups)
	if catalogue.PayFrequencies[0].Label != before {
		t.Fatalf("the shared pay frequencies changed to %q", catalogue.PayFrequencies[0].Label)
	}
	var pay, first *chairside.FieldDefinition
	for i := range defs {
		switch defs[i].ID {
		case "payFrequency":
			pay = &defs[i]
		case "firstName":
			first = &defs[i]
		}
	}
	if first == nil || first.Label != "Nombre" {
		t.Errorf("firstName label = %+v", first)
	}
	if pay == nil || pay.Rules[chairside.RuleValidOptions].Options[0].Label != "Semanal" {
		t.Errorf("payFrequency options = %+v", pay)
	}
	if groups[0].Message != "Escriba un teléfono celular o de casa" {
		t.Errorf("group message = %q", groups[0].Message)
	}
}

func TestErrorTranslation(t *testing.T) {
	fe := []chairside.FieldError{{Field: "primary.ssn", Message: "Required Field"}}
	es := locale.FieldErrors(locale.Spanish, fe)
	if es[0].Message != "Campo obligatorio" || es[0].Field != "primary.ssn" {
		t.Errorf("translated = %+v", es)
	}
	if fe[0].Message != "Required Field" {
		t.Errorf("the list given changed: %+v", fe)
	}
}
