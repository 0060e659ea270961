package content

import (
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/chairside/chairside"
)

// Bounds of help content (docs/content.md, "Help"): what the help page can
// show well, and what keeps an office file's mistake from filling it.
const (
	MaxFAQs          = 100
	MaxFacts         = 20
	MaxSubFacts      = 20
	MaxGlossary      = 300
	MaxTitleChars    = 200
	MaxTextChars     = 2000
	MaxLanguageCount = 10
)

// language is a language code as the help content is keyed by: two
// letters, lower case (en, es).
var language = regexp.MustCompile(`^[a-z]{2}$`)

// ValidLanguage reports whether code is a language code help content may
// be given in.
func ValidLanguage(code string) bool { return language.MatchString(code) }

// CheckHelp lists what is wrong with help content: each list given holds
// at least one entry and at most its bound, every title, fact, term and
// definition is given (one line for titles and terms) within its length,
// and no glossary term is given twice. Content is plain text: the help page
// never reads it as HTML.
func CheckHelp(c chairside.HelpContent) []string {
	var out []string
	add := func(format string, a ...any) { out = append(out, fmt.Sprintf(format, a...)) }
	if c.FAQs != nil && (len(c.FAQs) == 0 || len(c.FAQs) > MaxFAQs) {
		add("faqs must list 1 to %d questions", MaxFAQs)
	}
	for i, f := range c.FAQs {
		at := fmt.Sprintf("faq %d", i+1)
		out = append(out, text(at+": title", f.Title, MaxTitleChars, true)...)
		if len(f.Facts) == 0 || len(f.Facts) > MaxFacts {
			add("%s: facts must list 1 to %d answers", at, MaxFacts)
		}
		for j, fact := range f.Facts {
			out = append(out, text(fmt.Sprintf("%s: fact %d", at, j+1), fact, MaxTextChars, false)...)
		}
		if len(f.SubFacts) > MaxSubFacts {
			add("%s: at most %d subFacts", at, MaxSubFacts)
		}
		for j, sf := range f.SubFacts {
			out = append(out, text(fmt.Sprintf("%s: subFact %d: title", at, j+1), sf.Title, MaxTitleChars, true)...)
			out = append(out, text(fmt.Sprintf("%s: subFact %d: description", at, j+1), sf.Description, MaxTextChars, false)...)
		}
	}
	if c.Glossary != nil && (len(c.Glossary) == 0 || len(c.Glossary) > MaxGlossary) {
		add("glossary must list 1 to %d terms", MaxGlossary)
	}
	seen := map[string]int{}
	for i, g := range c.Glossary {
		at := fmt.Sprintf("glossary entry %d", i+1)
		out = append(out, text(at+": term", g.Term, MaxTitleChars, true)...)
		out = append(out, text(at+": definition", g.Definition, MaxTextChars, false)...)
		if g.Definition1 != "" {
			out = append(out, text(at+": definition1", g.Definition1, MaxTextChars, false)...)
		}
		key := strings.ToLower(strings.TrimSpace(g.Term))
		if first, dup := seen[key]; dup && key != "" {
			add("%s: the term %q is already entry %d", at, g.Term, first)
		} else {
			seen[key] = i + 1
		}
	}
	return out
}

// text checks one piece of text: given, at most max characters, valid
// UTF-8, and on one line when oneLine.
func text(what, s string, max int, oneLine bool) []string {
	switch {
	case strings.TrimSpace(s) == "":
		return []string{what + " is missing"}
	case !utf8.ValidString(s):
		return []string{what + " is not valid UTF-8"}
	case utf8.RuneCountInString(s) > max:
		return []string{fmt.Sprintf("%s is longer than %d characters", what, max)}
	case oneLine && strings.ContainsAny(s, "\r\n"):
		return []string{what + " must be on one line"}
	}
	return nil
}
