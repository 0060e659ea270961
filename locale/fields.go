package locale

import "github.com/chairside/chairside"

// Fields translates what a patient reads of an application's fields: labels,
// hints, the choices of a select and the messages of rules and field groups.
// It changes defs and groups in place but never the option lists they may
// share with other callers (catalogue.States): those are copied.
func Fields(lang Language, defs []chairside.FieldDefinition, groups []chairside.FieldGroupRule) {
	if lang == English {
		return
	}
	for i := range defs {
		d := &defs[i]
		d.Label, d.Hint = T(lang, d.Label), T(lang, d.Hint)
		rules := make(map[string]chairside.Rule, len(d.Rules))
		for id, r := range d.Rules {
			r.Message = T(lang, r.Message)
			if r.Options != nil {
				opts := make([]chairside.Option, len(r.Options))
				for j, o := range r.Options {
					opts[j] = chairside.Option{Value: o.Value, Label: T(lang, o.Label)}
				}
				r.Options = opts
			}
			rules[id] = r
		}
		d.Rules = rules
	}
	for i := range groups {
		groups[i].Message = T(lang, groups[i].Message)
	}
}

// FieldErrors answers field errors in lang: a new list, since the one given
// may belong to an error shared by many answers.
func FieldErrors(lang Language, fe []chairside.FieldError) []chairside.FieldError {
	if lang == English || len(fe) == 0 {
		return fe
	}
	out := make([]chairside.FieldError, len(fe))
	for i, e := range fe {
		out[i] = chairside.FieldError{Field: e.Field, Message: T(lang, e.Message)}
	}
	return out
}
