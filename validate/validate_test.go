package validate

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/catalogue"
)

var now = time.Date(2026, 3, 20, 15, 4, 5, 0, time.UTC)

func i64(v int64) *int64 { return &v }
func iptr(v int) *int    { return &v }

// good returns an applicant that passes every field of every lender's full
// application on now.
func good() *chairside.Applicant {
	return &chairside.Applicant{
		FirstName: "Maria", LastName: "O'Hara", DateOfBirth: "1980-01-31", SSN: "123456789",
		AddressLine1: "1200 W Main St", AddressLine2: "Apt 4B", AddressCity: "Chicago",
		AddressState: "IL", AddressZipCode: "60601", Email: "maria@example.com", MobilePhone: "3125550100",
		AnnualGrossIncome: i64(5_500_000), HousingStatus: "rent", HousingPaymentAmount: i64(120_000),
		EmployerName: "Lakeside Dental & Co.", MonthsEmployed: iptr(30),
		IDType: "drivers_license", IDNumber: "D123-4567-8901", IDState: "IL",
		PayFrequency: "bi_weekly", PreviousPayDate: "2026-03-13", NextPayDate: "2026-03-27",
	}
}

func TestApplicantGoodForEveryLenderAndMode(t *testing.T) {
	for _, p := range catalogue.All() {
		for _, mode := range []string{chairside.ModeFull, chairside.ModePrequalify, chairside.ModePrescreen} {
			defs, groups, err := catalogue.Fields(p.Key, mode)
			if err != nil {
				t.Fatal(err)
			}
			if errs := Applicant(defs, groups, good(), "primary", now); errs != nil {
				t.Errorf("%s %s: %v", p.Key, mode, errs)
			}
		}
	}
}

// TestCatalogueUsesKnownNames keeps lender's definitions and this package
// in step: every field id is an Applicant field, every group rule is one we
// check, and every validChars set compiles and can be described in words.
func TestCatalogueUsesKnownNames(t *testing.T) {
	for _, p := range catalogue.All() {
		for _, mode := range []string{chairside.ModeFull, chairside.ModePrequalify} {
			defs, groups, _ := catalogue.Fields(p.Key, mode)
			for _, d := range defs {
				if _, ok := accessors()[d.ID]; !ok {
					t.Errorf("%s: field %q is not an Applicant field", p.Key, d.ID)
				}
				if r, ok := d.Rules[chairside.RuleValidChars]; ok {
					if bad := invalidChars("a", r.Chars); len(bad) > 0 {
						t.Errorf("%s: validChars %q does not compile or refuses letters", d.ID, r.Chars)
					}
					if describeChars(r.Chars) == r.Chars {
						t.Errorf("%s: validChars %q has no words", d.ID, r.Chars)
					}
				}
			}
			for _, g := range groups {
				if !slices.Contains([]string{chairside.RuleRequireOne, catalogue.GroupRulePayDates, catalogue.GroupRuleZipState}, g.Rule) {
					t.Errorf("%s: unknown group rule %q", p.Key, g.Rule)
				}
				for _, f := range g.Fields {
					if _, ok := accessors()[f]; !ok {
						t.Errorf("%s: group field %q is not an Applicant field", p.Key, f)
					}
				}
			}
		}
	}
}

func TestApplicantErrors(t *testing.T) {
	defs, groups, err := catalogue.Fields(catalogue.Snap, chairside.ModeFull)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		change func(a *chairside.Applicant)
		field  string
		want   string
	}{
		{"missing first name", func(a *chairside.Applicant) { a.FirstName = "" }, "firstName", "Required Field"},
		{"blank last name", func(a *chairside.Applicant) { a.LastName = "   " }, "lastName", "Required Field"},
		{"digits in name", func(a *chairside.Applicant) { a.FirstName = "M4ria!" }, "firstName",
			"These characters are not allowed: 4 !. Use only letters, spaces, apostrophes, periods and hyphens."},
		{"long name", func(a *chairside.Applicant) { a.LastName = strings.Repeat("a", 41) }, "lastName", "Must be at most 40 characters"},
		{"control character", func(a *chairside.Applicant) { a.LastName = "Smith\x00" }, "lastName", "Invalid Field"},
		{"broken utf-8", func(a *chairside.Applicant) { a.LastName = "Sm\xffith" }, "lastName", "Invalid Field"},
		{"17 years old", func(a *chairside.Applicant) { a.DateOfBirth = "2008-03-21" }, "dateOfBirth", "Must be at least 18 years old"},
		{"121 years old", func(a *chairside.Applicant) { a.DateOfBirth = "1905-01-01" }, "dateOfBirth", "Must be at most 120 years old"},
		{"US date format", func(a *chairside.Applicant) { a.DateOfBirth = "01/31/1980" }, "dateOfBirth", "Invalid Field"},
		{"not a day", func(a *chairside.Applicant) { a.DateOfBirth = "1980-02-30" }, "dateOfBirth", "Invalid Field"},
		{"short ssn", func(a *chairside.Applicant) { a.SSN = "12345678" }, "ssn", "Invalid Field"},
		{"dashed ssn", func(a *chairside.Applicant) { a.SSN = "123-45-6789" }, "ssn", "Invalid Field"},
		{"ssn area 666", func(a *chairside.Applicant) { a.SSN = "666456789" }, "ssn", "Invalid Field"},
		{"po box", func(a *chairside.Applicant) { a.AddressLine1 = "P.O. Box 12" }, "addressLine1", "P.O. Box Not Allowed"},
		{"short street", func(a *chairside.Applicant) { a.AddressLine1 = "1A" }, "addressLine1", "Must be at least 3 characters"},
		{"bad email", func(a *chairside.Applicant) { a.Email = "maria@" }, "email", "Email is invalid"},
		{"disposable email", func(a *chairside.Applicant) { a.Email = "maria@Mailinator.com" }, "email", "This email is not supported"},
		{"bad phone", func(a *chairside.Applicant) { a.MobilePhone = "1235550100" }, "mobilePhone", "Mobile phone is not a valid phone number"},
		{"no phone", func(a *chairside.Applicant) { a.MobilePhone = "" }, "mobilePhone", "Enter a mobile or a home phone number"},
		{"bad zip", func(a *chairside.Applicant) { a.AddressZipCode = "6060" }, "addressZipCode", "Invalid Field"},
		{"zip of another state", func(a *chairside.Applicant) { a.AddressZipCode = "90210" }, "addressZipCode", "Zip Code not valid for state"},
		{"unknown state", func(a *chairside.Applicant) { a.AddressState = "PR" }, "addressState", "Invalid Field"},
		{"lower-case state", func(a *chairside.Applicant) { a.AddressState = "il" }, "addressState", "Invalid Field"},
		{"negative income", func(a *chairside.Applicant) { a.AnnualGrossIncome = i64(-1) }, "annualGrossIncome", "Must be at least $0.00"},
		{"huge income", func(a *chairside.Applicant) { a.AnnualGrossIncome = i64(1_000_000_000) }, "annualGrossIncome", "Must be at most $9,999,999.00"},
		{"no income", func(a *chairside.Applicant) { a.AnnualGrossIncome = nil }, "annualGrossIncome", "Required Field"},
		{"months", func(a *chairside.Applicant) { a.MonthsEmployed = iptr(721) }, "monthsEmployed", "Must be at most 720"},
		{"housing option", func(a *chairside.Applicant) { a.HousingStatus = "boat" }, "housingStatus", "Invalid Field"},
		{"pay frequency option", func(a *chairside.Applicant) { a.PayFrequency = "daily" }, "payFrequency", "Invalid Field"},
		{"future last payday", func(a *chairside.Applicant) { a.PreviousPayDate = "2026-03-21" }, "previousPayDate", "Must not be in the future"},
		{"past next payday", func(a *chairside.Applicant) { a.NextPayDate = "2026-03-19" }, "nextPayDate", "Must not be in the past"},
		{"pay dates 13 days apart", func(a *chairside.Applicant) { a.NextPayDate = "2026-03-26" }, "nextPayDate",
			"The dates of your last and next payday do not match how often you are paid"},
		{"id chars", func(a *chairside.Applicant) { a.IDNumber = "D12*456" }, "idNumber",
			"These characters are not allowed: *. Use only letters, digits, spaces and hyphens."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := good()
			tt.change(a)
			errs := Applicant(defs, groups, a, "joint", now)
			want := []chairside.FieldError{{Field: "joint." + tt.field, Message: tt.want}}
			if !slices.Equal(errs, want) {
				t.Errorf("got %v, want %v", errs, want)
			}
		})
	}
}

func TestApplicantEmptyAndNil(t *testing.T) {
	defs, groups, _ := catalogue.Fields(catalogue.Synchrony, chairside.ModePrequalify)
	errs := Applicant(defs, groups, nil, "", now)
	var fields []string
	for _, e := range errs {
		fields = append(fields, e.Field)
	}
	want := []string{"firstName", "lastName", "dateOfBirth", "ssn", "addressLine1", "addressZipCode", "addressCity",
		"addressState", "email", "annualGrossIncome", "mobilePhone"}
	if !slices.Equal(fields, want) {
		t.Errorf("fields %v, want %v", fields, want)
	}
}

func TestNamesBeyondASCII(t *testing.T) {
	defs, _, _ := catalogue.Fields(catalogue.ADS, chairside.ModePrequalify)
	a := good()
	for _, name := range []string{"O'Hara", "O’Hara", "ねこ", "Zoë", "José-María", "Nguyễn", "St. John", "Müller", "Ólafsdóttir"} {
		a.LastName = name
		if errs := Applicant(defs, nil, a, "primary", now); errs != nil {
			t.Errorf("%q: %v", name, errs)
		}
	}
}

func TestRuleMessageOverrides(t *testing.T) {
	d := chairside.FieldDefinition{ID: "x", Type: chairside.FieldText, Rules: map[string]chairside.Rule{
		chairside.RuleRequired: {Message: "Tell us your name"},
	}}
	if got := Field(d, "", now); got != "Tell us your name" {
		t.Errorf("got %q", got)
	}
}

func TestAgeBoundaries(t *testing.T) {
	d := chairside.FieldDefinition{ID: "dateOfBirth", Type: chairside.FieldDate, Rules: map[string]chairside.Rule{
		chairside.RuleMinAge: {Age: 18},
	}}
	// 18 today: allowed; 18 tomorrow: not yet.
	if got := Field(d, "2008-03-20", now); got != "" {
		t.Errorf("18 today: %q", got)
	}
	if got := Field(d, "2008-03-21", now); got == "" {
		t.Error("18 tomorrow: allowed")
	}
	// Late in the evening in Los Angeles it is still the 19th there.
	la, _ := time.LoadLocation("America/Los_Angeles")
	if la != nil {
		if got := Field(d, "2008-03-20", time.Date(2026, 3, 19, 23, 0, 0, 0, la)); got == "" {
			t.Error("day counted in UTC, not in now's location")
		}
	}
	// Leap-day birthday: 18 on 1 March in a common year.
	if got := Field(d, "2008-02-29", time.Date(2026, 2, 28, 12, 0, 0, 0, time.UTC)); got == "" {
		t.Error("leap-day birthday: 18 on 28 February")
	}
	if got := Field(d, "2008-02-29", time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)); got != "" {
		t.Errorf("leap-day birthday on 1 March: %q", got)
	}
}

func TestPayDates(t *testing.T) {
	day := func(s string) time.Time { d, _ := parseDate(s); return d }
	tests := []struct {
		freq, prev, next string
		want             bool
	}{
		{"weekly", "2026-03-13", "2026-03-20", true},
		{"weekly", "2026-03-13", "2026-03-21", false},
		{"bi_weekly", "2026-03-06", "2026-03-20", true},
		{"bi_weekly", "2026-03-07", "2026-03-20", false},
		{"semi_monthly", "2026-03-01", "2026-03-15", true},
		{"semi_monthly", "2026-02-15", "2026-03-01", true}, // 14 days across February
		{"semi_monthly", "2026-03-01", "2026-03-14", false},
		{"semi_monthly", "2026-03-01", "2026-03-19", false},
		{"monthly", "2026-02-01", "2026-03-01", true},
		{"monthly", "2026-01-31", "2026-03-04", false}, // 32 days,
		{"monthly", "2026-03-01", "2026-03-28", false}, // 27 days,
		{"weekly", "2026-03-20", "2026-03-13", false},
		{"yearly", "2026-03-20", "2026-03-13", true},
	}
	for _, tt := range tests {
		if got := PayDates(tt.freq, day(tt.prev), day(tt.next)); got != tt.want {
			t.Errorf("PayDates(%s, %s, %s) = %v", tt.freq, tt.prev, tt.next, got)
		}
	}
}

func TestPhone(t *testing.T) {
	for s, want := range map[string]bool{
		"3125550100": true, "2025550123": true, "9995550100": true,
		"1125550100": false, "0125550100": false, "3121550100": false, "3120550100": false,
		"9115550100": false, "312555010": false, "31255501000": false, "(312)555-0100": false, "": false,
	} {
		if got := Phone(s); got != want {
			t.Errorf("Phone(%q) = %v", s, got)
		}
	}
}

func TestSSN(t *testing.T) {
	for s, want := range map[string]bool{
		"123456789": true, "001010001": true, "899999999": true,
		"000123456": false, "666123456": false, "900123456": false, "123006789": false, "123450000": false,
		"12345678": false, "1234567890": false, "12345678a": false,
	} {
		if got := SSN(s); got != want {
			t.Errorf("SSN(%q) = %v", s, got)
		}
	}
}

func TestZipForState(t *testing.T) {
	tests := []struct {
		zip, state string
		want       bool
	}{
		{"60601", "IL", true}, {"62999", "IL", true}, {"90210", "CA", true}, {"96150", "CA", true},
		{"10001", "NY", true}, {"00501", "NY", true}, {"20001", "DC", true}, {"20850", "MD", true},
		{"22201", "VA", true}, {"75201", "TX", true}, {"88510", "TX", true}, {"73301", "TX", true},
		{"99501", "AK", true}, {"96813", "HI", true}, {"02108", "MA", true}, {"05501", "MA", true},
		{"03101", "NH", true}, {"04101", "ME", true}, {"06103", "CT", true}, {"07102", "NJ", true},
		{"19801", "DE", true}, {"84101", "UT", true}, {"89101", "NV", true}, {"83702", "ID", true},
		{"60601-1234", "IL", true},
		{"60601", "CA", false}, {"90210", "NV", false}, {"00901", "NY", false}, {"34002", "FL", false},
		{"96201", "CA", false}, {"6060", "IL", false}, {"60601-12", "IL", false}, {"60601", "XX", false},
		{"60601", "il", false},
	}
	for _, tt := range tests {
		if got := ZipForState(tt.zip, tt.state); got != tt.want {
			t.Errorf("ZipForState(%q, %q) = %v", tt.zip, tt.state, got)
		}
	}
	// Every state of the list has ranges, and no prefix belongs to two states.
	owner := map[int]string{}
	for _, o := range catalogue.States {
		if len(zipRanges[o.Value]) == 0 {
			t.Errorf("%s has no ZIP prefixes", o.Value)
		}
		for _, r := range zipRanges[o.Value] {
			for p := r[0]; p <= r[1]; p++ {
				if other, ok := owner[p]; ok {
					t.Errorf("prefix %03d in %s and %s", p, other, o.Value)
				}
				owner[p] = o.Value
			}
		}
	}
	if len(zipRanges) != len(catalogue.States) {
		t.Errorf("%d states with ZIP ranges, %d in the list", len(zipRanges), len(catalogue.States))
	}
}

func TestEmail(t *testing.T) {
	for s, want := range map[string]bool{
		"maria@example.com": true, "maria.o'hara+dental@mail.co.uk": true, "a@b.io": true,
		"maria@": false, "@example.com": false, "maria@example": false, "maria example@x.com": false,
		"maria@@example.com": false, "maria@-example.com": false, ".maria@example.com": false,
		"ma..ria@example.com": false, "maria@example.c": false, "maria@mailinator.com": false,
		"maria@YOPMAIL.COM": false, strings.Repeat("a", 65) + "@example.com": false,
	} {
		if got := Email(s); got != want {
			t.Errorf("Email(%q) = %v", s, got)
		}
	}
}

func TestPoBox(t *testing.T) {
	for s, want := range map[string]bool{
		"PO Box 12": true, "P.O. Box 12": true, "p o box 12": true, "Post Office Box 9": true,
		"POB 44": true, "P.O.B. 44": true, "PO 44": true, "pobox 7": true, "Box 12": true, " po box": true,
		"PO Drawer 5": true,
		"1 Poplar St": false, "Poplar St": false, "Boxwood Ln": false, "12 Box Elder Rd": false,
		"Pobjoy Road": false, "100 Post Rd": false, "Postal Way": false,
	} {
		if got := IsPoBox(s); got != want {
			t.Errorf("IsPoBox(%q) = %v", s, got)
		}
	}
}

func TestDollars(t *testing.T) {
	for c, want := range map[int64]string{0: "$0.00", 5: "$0.05", 450000: "$4,500.00", 999_999_900: "$9,999,999.00", -12345: "-$123.45"} {
		if got := chairside.Dollars(c); got != want {
			t.Errorf("chairside.Dollars(%d) = %q", c, got)
		}
	}
}

// FuzzApplicant proves Applicant never panics, whatever strings arrive, and
// always names fields with the prefix. The seed corpus runs with go test.
func FuzzApplicant(f *testing.F) {
	f.Add("Maria", "O'Hara", "1980-01-31", "123456789", "PO Box 1", "60601", "IL", "a@b.co", "3125550100", "bi_weekly", "2026-03-13", "2026-03-27")
	f.Add("", "", "", "", "", "", "", "", "", "", "", "")
	f.Add("\xff\x00", "ねこ", "0000-00-00", "000000000", "P.O.B.", "99999-9999", "ZZ", "@@", "0000000000", "monthly", "9999-12-31", "0001-01-01")
	f.Add("a-z]", "[^", "1980-1-1", "12345678901234567890", "\\p{L}", "6060", "il", "x@y", "(312)", "weekly", "2026-02-29", "-1")
	defsFull, groupsFull, _ := catalogue.Fields(catalogue.HFD, chairside.ModeFull)
	f.Fuzz(func(t *testing.T, first, last, dob, ssn, line1, zip, state, email, phone, freq, prev, next string) {
		a := &chairside.Applicant{
			FirstName: first, LastName: last, DateOfBirth: dob, SSN: ssn, AddressLine1: line1, AddressZipCode: zip,
			AddressState: state, Email: email, MobilePhone: phone, HomePhone: phone, PayFrequency: freq,
			PreviousPayDate: prev, NextPayDate: next, IDNumber: line1, EmployerName: last, AddressCity: first,
		}
		// Arbitrary definitions too: every type with every rule on one value.
		var defs []chairside.FieldDefinition
		for _, typ := range []string{"text", "ssn", "local_date", "date", "email", "phone", "dynamicPhone", "state", "zipCode", "currency", "number", "select", "radio", "checkbox", "bogus"} {
			defs = append(defs, chairside.FieldDefinition{ID: "lastName", Type: typ, Rules: map[string]chairside.Rule{
				chairside.RuleRequired: {}, chairside.RuleMinLength: {Min: i64(2)}, chairside.RuleMaxLength: {Max: i64(3)},
				chairside.RuleMin: {Min: i64(0)}, chairside.RuleMax: {Max: i64(10)}, chairside.RuleMinAge: {Age: 18},
				chairside.RuleMaxAge: {Age: 120}, chairside.RuleMinDate: {Date: prev}, chairside.RuleMaxDate: {Date: "today"},
				chairside.RuleValidOptions: {Options: []chairside.Option{{Value: freq}}}, chairside.RuleNoPoBox: {},
				chairside.RuleValidChars: {Chars: first},
			}})
		}
		groups := append(groupsFull, chairside.FieldGroupRule{Rule: catalogue.GroupRulePayDates, Fields: []string{"payFrequency", "previousPayDate"}},
			chairside.FieldGroupRule{Rule: chairside.RuleRequireOne}, chairside.FieldGroupRule{Rule: catalogue.GroupRuleZipState, Fields: []string{"email"}})
		for _, e := range Applicant(append(defsFull, defs...), groups, a, "primary", now) {
			if !strings.HasPrefix(e.Field, "primary.") || e.Message == "" {
				t.Fatalf("bad field error %+v", e)
			}
		}
		_ = Email(email)
		_ = ZipForState(zip, state)
		_ = Phone(phone)
	})
}
