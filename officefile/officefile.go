// Package officefile reads the office file an operator writes to set up
// offices (docs/offices.md): a YAML (or JSON) list of offices, each with
// its entity key, name, state, group, brand and lender waterfall. Parse
// checks every entry and reports every problem with its file and line;
// Import writes a checked file to the store in one transaction, so a file
// is taken whole or not at all. The demo offices are such a file.
package officefile

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/chairside/chairside"
)

// Office is one office of a file and the line where its entry starts,
// with its own help content (none: the defaults) and, when it gives it,
// its group's (nil: the group's is left as it is; docs/offices.md, "Help
// content").
type Office struct {
	Location  chairside.Location
	Line      int
	Help      []*chairside.HelpOverride
	GroupHelp []*chairside.HelpOverride
}

// Problem is one thing wrong in a file: where, which office, what.
type Problem struct {
	File   string
	Line   int
	Office string // the office's name, or "" for the file as a whole
	Text   string
}

func (p Problem) String() string {
	where := p.File
	if p.Line > 0 {
		where = fmt.Sprintf("%s:%d", p.File, p.Line)
	}
	if p.Office == "" {
		return where + ": " + p.Text
	}
	return fmt.Sprintf("%s: office %q: %s", where, p.Office, p.Text)
}

// Error is every problem found in a file; nothing of the file was stored.
type Error struct {
	Problems []Problem
}

func (e *Error) Error() string {
	lines := make([]string, len(e.Problems))
	for i, p := range e.Problems {
		lines[i] = p.String()
	}
	return strings.Join(lines, "\n")
}

// Parse reads an office file named file (the name is only for messages)
// and checks every office in it: a syntax error, an unknown or repeated
// field, and each rule of docs/offices.md is a Problem. It answers the
// offices, or an *Error listing all the problems.
func Parse(file string, data []byte) ([]Office, error) {
	p := &parser{file: file, keys: map[string]keyUse{}, groups: map[string]keyUse{}}
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		return nil, &Error{Problems: []Problem{{File: file, Text: "not YAML or JSON: " + strings.TrimPrefix(err.Error(), "yaml: ")}}}
	}
	if root.Kind == 0 || len(root.Content) == 0 {
		return nil, &Error{Problems: []Problem{{File: file, Text: "the file holds no offices"}}}
	}
	list := root.Content[0]
	if list.Kind != yaml.SequenceNode {
		p.problem(list.Line, "", `the file must be a list of offices, each starting with "- entityKey: …"`)
	} else if len(list.Content) == 0 {
		p.problem(list.Line, "", "the file holds no offices")
	}
	if list.Kind == yaml.SequenceNode {
		for i, n := range list.Content {
			p.office(i, n)
		}
	}
	if len(p.problems) > 0 {
		slices.SortStableFunc(p.problems, func(a, b Problem) int { return a.Line - b.Line })
		return nil, &Error{Problems: p.problems}
	}
	return p.offices, nil
}

// Store is what an import writes: an office, by its entity key (its id and
// creation time kept), and the help of an office or a group, replaced.
type Store interface {
	UpsertLocation(ctx context.Context, l *chairside.Location) error
	ReplaceHelpOverrides(ctx context.Context, scope, scopeID string, overrides []*chairside.HelpOverride) error
}

// Batcher is a Store that runs fn over a view of itself (T) whose writes
// are all kept or none (package store's DB).
type Batcher[T Store] interface {
	Store
	Batch(ctx context.Context, fn func(tx T) error) error
}

// Import creates or updates every office in one store transaction: when
// any write fails, none is kept. Each office's Location gets its stored
// id. An office's help content replaces what it had (none given removes
// it); a group's is replaced only by the office that gives it.
func Import[T Store](ctx context.Context, st Batcher[T], offices []Office) error {
	return st.Batch(ctx, func(s T) error {
		for i := range offices {
			o := &offices[i]
			l := &o.Location
			err := s.UpsertLocation(ctx, l)
			if err == nil {
				err = s.ReplaceHelpOverrides(ctx, chairside.HelpScopeLocation, l.ID, o.Help)
			}
			if err == nil && o.GroupHelp != nil {
				err = s.ReplaceHelpOverrides(ctx, chairside.HelpScopeGroup, l.GroupID, o.GroupHelp)
			}
			if err != nil {
				return fmt.Errorf("office %q (%s): %w", l.Name, l.EntityKey, err)
			}
		}
		return nil
	})
}

// Describe writes a waterfall compactly, e.g.
// "synchrony_standard(primary) → fortiva_standard(secondary,auto)": each
// lender with its role, its apply mode when it is not prequalify, and
// "auto" when it is submitted by itself.
func Describe(steps []chairside.WaterfallStep) string {
	parts := make([]string, len(steps))
	for i, st := range steps {
		attrs := []string{st.Role}
		if st.ApplyMode != chairside.ModePrequalify {
			attrs = append(attrs, st.ApplyMode)
		}
		if st.AutoSubmit {
			attrs = append(attrs, "auto")
		}
		parts[i] = fmt.Sprintf("%s(%s)", st.LenderKey, strings.Join(attrs, ","))
	}
	return strings.Join(parts, " → ")
}
