package chairside

import "time"

// Scopes of an office's own help content (HelpOverride.Scope): one
// location, or every location of a group that has none of its own
// (docs/content.md, "Help").
const (
	HelpScopeLocation = "location"
	HelpScopeGroup    = "group"
)

// FAQ is one question of the help page: a title, its answers and, where
// it helps, named details.
type FAQ struct {
	Title    string    `json:"title"`
	Facts    []string  `json:"facts"`
	SubFacts []SubFact `json:"subFacts,omitempty"`
}

// SubFact is a named detail of an FAQ.
type SubFact struct {
	Title       string `json:"title"`
	Description string `json:"description"`
}

// GlossaryEntry is one financing term and what it means; Definition1 is a
// second paragraph where the term needs one.
type GlossaryEntry struct {
	Term        string `json:"term"`
	Definition  string `json:"definition"`
	Definition1 string `json:"definition1,omitempty"`
}

// HelpContent is the help page's content in one language. A nil list is
// not given (an office's content then keeps the defaults for it).
type HelpContent struct {
	FAQs     []FAQ           `json:"faqs,omitempty"`
	Glossary []GlossaryEntry `json:"glossary,omitempty"`
}

// HelpOverride is an office's (or a group's) own help content in one
// language, replacing the defaults where it gives a list.
type HelpOverride struct {
	Scope     string // HelpScopeLocation (ScopeID a location id) or HelpScopeGroup (a group id)
	ScopeID   string
	Language  string
	Content   HelpContent
	UpdatedAt time.Time
}
