package catalogue

import (
	"fmt"
	"slices"
	"strings"

	"github.com/chairside/chairside"
)

// Roles are the roles a waterfall step may have (docs/behaviour.md, "The
// waterfall").
var Roles = []string{chairside.RolePrimary, chairside.RoleSecondary, chairside.RoleTertiary,
	chairside.RoleHighline, chairside.RoleHighlineSecondary, chairside.RoleQuaternary}

// ValidState reports whether s is one of the 50 states or DC (States), by
// upper-case abbreviation.
func ValidState(s string) bool {
	return slices.ContainsFunc(States, func(o chairside.Option) bool { return o.Value == s })
}

// allStatesExcept is every state of States but those given.
func allStatesExcept(excluded ...string) []string {
	var out []string
	for _, o := range States {
		if !slices.Contains(excluded, o.Value) {
			out = append(out, o.Value)
		}
	}
	return out
}

// Serves reports whether a lender serves offices in a state
// (chairside.LenderConfig.States; nil for every state).
func Serves(p chairside.LenderConfig, state string) bool {
	return p.States == nil || slices.Contains(p.States, state)
}

// CheckStep checks the step at index i of the waterfall of an office in
// state, and answers what is wrong with it in plain words, or "". It is the
// one set of waterfall rules (docs/offices.md): the office file's import
// and the demo offices' test both use it.
//
//   - the lender is in the catalogue, with no modifier but role=, and
//     serves the office's state (not checked when state is "": an office
//     whose state is wrong has that problem already);
//   - the role (and a role= modifier) is one of Roles; the first step, and
//     only the first, is primary;
//   - the apply mode is known, and full only for a lender that takes a full
//     application;
//   - the first step is not submitted by itself (nothing was entered yet).
func CheckStep(i int, st chairside.WaterfallStep, state string) string {
	base, mods := ParseKey(st.LenderKey)
	p, err := Get(base)
	if err != nil {
		return fmt.Sprintf("lender %q is not a lender Chairside knows (known: %s)", base, strings.Join(keys(), ", "))
	}
	for name, value := range mods {
		if name != "role" {
			return fmt.Sprintf("lender %q: %q is not a modifier Chairside knows (only role=…)", st.LenderKey, name)
		}
		if !slices.Contains(Roles, value) {
			return fmt.Sprintf("lender %q: role=%q is not a role (one of %s)", st.LenderKey, value, strings.Join(Roles, ", "))
		}
	}
	switch {
	case state != "" && !Serves(p, state):
		return fmt.Sprintf("lender %q does not serve offices in %s", base, state)
	case !slices.Contains(Roles, st.Role):
		return fmt.Sprintf("lender %q: role %q is not a role (one of %s)", base, st.Role, strings.Join(Roles, ", "))
	case i == 0 && st.Role != chairside.RolePrimary:
		return fmt.Sprintf("lender %q comes first, so its role must be primary, not %s", base, st.Role)
	case i > 0 && st.Role == chairside.RolePrimary:
		return fmt.Sprintf("lender %q: only the first lender is primary", base)
	case !chairside.ValidMode(st.ApplyMode):
		return fmt.Sprintf("lender %q: apply mode %q is not one of full, prequalify, prescreen", base, st.ApplyMode)
	case st.ApplyMode == chairside.ModeFull && !p.SupportsFullAppMode:
		return fmt.Sprintf("lender %q does not take a full application (apply mode full)", base)
	case i == 0 && st.AutoSubmit:
		return fmt.Sprintf("lender %q comes first, so it cannot be submitted by itself (autoSubmit)", base)
	}
	return ""
}

// keys are the catalogue's lender keys.
func keys() []string {
	out := make([]string, len(catalogue))
	for i, p := range catalogue {
		out[i] = p.Key
	}
	return out
}
