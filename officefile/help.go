package officefile

import (
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/content"
)

// The fields of an office's help content (docs/offices.md, "Help
// content"), per language.
var (
	helpFields     = []string{"faqs", "glossary"}
	faqFields      = []string{"title", "facts", "subFacts"}
	subFactFields  = []string{"title", "description"}
	glossaryFields = []string{"term", "definition", "definition1"}
)

// help reads an office's (or its group's) help content: a set of
// languages, each with its faqs and/or glossary, checked with the rules
// the defaults pass (content.CheckHelp). field names it in messages.
func (p *parser) help(v *yaml.Node, label, field string) []*chairside.HelpOverride {
	if v.Kind != yaml.MappingNode {
		p.problem(v.Line, label, field+" must be a set of languages (such as en:), each with faqs and/or glossary")
		return nil
	}
	if len(v.Content)/2 > content.MaxLanguageCount {
		p.problem(v.Line, label, fmt.Sprintf("%s gives more than %d languages", field, content.MaxLanguageCount))
	}
	out := []*chairside.HelpOverride{}
	seen := map[string]bool{}
	for i := 0; i+1 < len(v.Content); i += 2 {
		k, n := v.Content[i], v.Content[i+1]
		lang := k.Value
		switch {
		case !content.ValidLanguage(lang):
			p.problem(k.Line, label, fmt.Sprintf("%s: %q is not a language code (two lower-case letters, such as en or es)", field, lang))
			continue
		case seen[lang]:
			p.problem(k.Line, label, fmt.Sprintf("%s: %s is given twice", field, lang))
			continue
		}
		seen[lang] = true
		where := field + " " + lang
		f := p.fields(n, label, where, helpFields)
		if f == nil {
			continue
		}
		var c chairside.HelpContent
		if f["faqs"] == nil && f["glossary"] == nil {
			p.problem(n.Line, label, where+" gives neither faqs nor glossary")
			continue
		}
		if f["faqs"] != nil {
			c.FAQs = p.faqs(f["faqs"], label, where)
		}
		if f["glossary"] != nil {
			c.Glossary = p.glossary(f["glossary"], label, where)
		}
		for _, msg := range content.CheckHelp(c) {
			p.problem(n.Line, label, where+": "+msg)
		}
		out = append(out, &chairside.HelpOverride{Language: lang, Content: c})
	}
	return out
}

// list answers the entries of a list field, or nil (and a problem) when
// it is not a list.
func (p *parser) list(v *yaml.Node, label, what string) []*yaml.Node {
	if v.Kind != yaml.SequenceNode {
		p.problem(v.Line, label, what+" must be a list")
		return nil
	}
	return v.Content
}

// faqs reads a list of questions; an entry that cannot be read is kept
// empty so CheckHelp names it too.
func (p *parser) faqs(v *yaml.Node, label, where string) []chairside.FAQ {
	out := []chairside.FAQ{}
	for i, n := range p.list(v, label, where+": faqs") {
		at := fmt.Sprintf("%s: faq %d", where, i+1)
		var q chairside.FAQ
		if f := p.fields(n, label, at, faqFields); f != nil {
			q.Title, _ = p.str(f, "title", label)
			if f["facts"] != nil {
				q.Facts = p.texts(f["facts"], label, at+": facts")
			}
			if f["subFacts"] != nil {
				for j, sn := range p.list(f["subFacts"], label, at+": subFacts") {
					if sf := p.fields(sn, label, fmt.Sprintf("%s: subFact %d", at, j+1), subFactFields); sf != nil {
						var s chairside.SubFact
						s.Title, _ = p.str(sf, "title", label)
						s.Description, _ = p.str(sf, "description", label)
						q.SubFacts = append(q.SubFacts, s)
					}
				}
			}
		}
		out = append(out, q)
	}
	return out
}

// glossary reads a list of terms.
func (p *parser) glossary(v *yaml.Node, label, where string) []chairside.GlossaryEntry {
	out := []chairside.GlossaryEntry{}
	for i, n := range p.list(v, label, where+": glossary") {
		var g chairside.GlossaryEntry
		if f := p.fields(n, label, fmt.Sprintf("%s: glossary entry %d", where, i+1), glossaryFields); f != nil {
			g.Term, _ = p.str(f, "term", label)
			g.Definition, _ = p.str(f, "definition", label)
			g.Definition1, _ = p.str(f, "definition1", label)
		}
		out = append(out, g)
	}
	return out
}

// texts reads a list of single values.
func (p *parser) texts(v *yaml.Node, label, what string) []string {
	out := []string{}
	for _, n := range p.list(v, label, what) {
		if n.Kind != yaml.ScalarNode {
			p.problem(n.Line, label, what+" must be a list of texts")
			continue
		}
		out = append(out, strings.TrimSpace(n.Value))
	}
	return out
}
