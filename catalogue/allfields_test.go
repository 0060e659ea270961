package catalogue

import (
	"reflect"
	"strings"
	"testing"

	"github.com/chairside/chairside"
)

// TestAllFieldsCoverTheApplicant: every field a submit can carry has
// exactly one definition, and none is required.
func TestAllFieldsCoverTheApplicant(t *testing.T) {
	defs := map[string]int{}
	for _, d := range AllFields() {
		defs[d.ID]++
		if _, ok := d.Rules[chairside.RuleRequired]; ok {
			t.Errorf("%s: required in the catalogue of bounds", d.ID)
		}
	}
	typ := reflect.TypeFor[chairside.Applicant]()
	for i := range typ.NumField() {
		name, _, _ := strings.Cut(typ.Field(i).Tag.Get("json"), ",")
		if defs[name] != 1 {
			t.Errorf("applicant field %s has %d definitions, want 1", name, defs[name])
		}
		delete(defs, name)
	}
	for id := range defs {
		t.Errorf("definition %s names no applicant field", id)
	}
}
