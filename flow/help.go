package flow

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/content"
	"github.com/chairside/chairside/locale"
)

// Help (docs/content.md, "Help"): the help page's questions and glossary,
// the defaults in the program per language, replaced list by list by an
// office's own content or, failing that, its group's. The overrides are
// read on every call (one small query), so an import reaches every server
// at once; what is built from them is cached by what it was built from.

// HelpFAQs answers GET /help/faqs.
type HelpFAQs struct {
	Language string          `json:"language"`
	FAQs     []chairside.FAQ `json:"faqs"`
}

// HelpGlossary answers GET /help/glossary and its search.
type HelpGlossary struct {
	Language string                    `json:"language"`
	Entries  []chairside.GlossaryEntry `json:"entries"`
}

// HelpAnswer is a help call's answer ready to send, with its strong ETag.
type HelpAnswer struct {
	Body []byte
	ETag string
}

// maxHelpCache bounds the cached answers; the cache starts over when full.
const maxHelpCache = 1024

type helpCache struct {
	mu      sync.Mutex
	answers map[string]*HelpAnswer
}

// HelpLanguage chooses the language of a help call: lang when given (its
// first part, en for en-US; any language an office may have written help
// in), else the request's language (locale.From, read from
// Accept-Language). A lang that is not a language code is a bad request.
func HelpLanguage(lang string, request locale.Language) (string, error) {
	primary := func(tag string) string {
		tag, _, _ = strings.Cut(strings.TrimSpace(tag), ";")
		tag, _, _ = strings.Cut(tag, "-")
		return strings.ToLower(strings.TrimSpace(tag))
	}
	if lang != "" {
		if l := primary(lang); content.ValidLanguage(l) && len(lang) <= 35 {
			return l, nil
		}
		return "", errorf(chairside.EBADREQUEST, "lang must be a language code such as en or es.")
	}
	return string(request), nil
}

// HelpFAQs answers the questions in lang for the session's office (sess
// may be nil: the defaults).
func (s *Service) HelpFAQs(ctx context.Context, sess *chairside.Session, lang string) (*HelpAnswer, error) {
	return s.helpAnswer(ctx, sess, "faqs", lang, "", func(ovs []*chairside.HelpOverride) any {
		served, faqs := pickHelp(ovs, lang, func(c chairside.HelpContent) []chairside.FAQ { return c.FAQs })
		return HelpFAQs{Language: served, FAQs: faqs}
	})
}

// HelpGlossary answers the glossary in lang for the session's office.
func (s *Service) HelpGlossary(ctx context.Context, sess *chairside.Session, lang string) (*HelpAnswer, error) {
	return s.helpAnswer(ctx, sess, "glossary", lang, "", func(ovs []*chairside.HelpOverride) any {
		served, entries := pickHelp(ovs, lang, glossaryOf)
		return HelpGlossary{Language: served, Entries: entries}
	})
}

// SearchGlossary answers the glossary entries matching q (1 to 64
// characters, any case, with or without accents): those whose term holds
// it first, then those whose definitions do, each in glossary order.
func (s *Service) SearchGlossary(ctx context.Context, sess *chairside.Session, lang, q string) (*HelpAnswer, error) {
	if n := utf8.RuneCountInString(q); n < 1 || n > 64 || !utf8.ValidString(q) {
		return nil, errorf(chairside.EBADREQUEST, "q must have 1 to 64 characters.")
	}
	needle := fold(q)
	return s.helpAnswer(ctx, sess, "search", lang, needle, func(ovs []*chairside.HelpOverride) any {
		served, entries := pickHelp(ovs, lang, glossaryOf)
		var byTerm, byDefinition []chairside.GlossaryEntry
		for _, e := range entries {
			switch {
			case strings.Contains(fold(e.Term), needle):
				byTerm = append(byTerm, e)
			case strings.Contains(fold(e.Definition), needle), strings.Contains(fold(e.Definition1), needle):
				byDefinition = append(byDefinition, e)
			}
		}
		return HelpGlossary{Language: served, Entries: append(append([]chairside.GlossaryEntry{}, byTerm...), byDefinition...)}
	})
}

func glossaryOf(c chairside.HelpContent) []chairside.GlossaryEntry { return c.Glossary }

// unaccented drops the accents, the diaeresis and the tilde of Spanish
// letters: a patient typing on a keyboard without them ("credito",
// "interes", "ano") still finds "crédito", "interés" and "año".
var unaccented = strings.NewReplacer("á", "a", "é", "e", "í", "i", "ó", "o", "ú", "u", "ü", "u", "ñ", "n")

// fold is text as the glossary search compares it: lower case, unaccented.
func fold(s string) string { return unaccented.Replace(strings.ToLower(s)) }

// pickHelp chooses a list in lang: the office's, else its group's, else
// the defaults; when lang has none of them, the same in the default
// language. It answers the language served.
func pickHelp[T any](ovs []*chairside.HelpOverride, lang string, get func(chairside.HelpContent) []T) (string, []T) {
	for _, l := range []string{lang, content.DefaultLanguage} {
		for _, scope := range []string{chairside.HelpScopeLocation, chairside.HelpScopeGroup} {
			for _, o := range ovs {
				if o.Scope == scope && o.Language == l && get(o.Content) != nil {
					return l, get(o.Content)
				}
			}
		}
		if d, ok := content.Help(l); ok && get(d) != nil {
			return l, get(d)
		}
	}
	return content.DefaultLanguage, []T{}
}

// helpAnswer builds (or finds in the cache) one help answer: build makes
// it from the office's and group's overrides, which with the kind, the
// language and the search are all it depends on.
func (s *Service) helpAnswer(ctx context.Context, sess *chairside.Session, kind, lang, q string, build func([]*chairside.HelpOverride) any) (*HelpAnswer, error) {
	var ovs []*chairside.HelpOverride
	if sess != nil {
		loc, err := s.location(ctx, sess.LocationID)
		if err != nil {
			return nil, err
		}
		if ovs, err = s.store.ListHelpOverrides(ctx, loc.ID, loc.GroupID); err != nil {
			return nil, err
		}
	}
	key := []string{kind, lang, q}
	for _, o := range ovs {
		key = append(key, o.Scope, o.ScopeID, o.Language, strconv.FormatInt(o.UpdatedAt.UnixMilli(), 10))
	}
	cacheKey := strings.Join(key, "\x00")
	s.help.mu.Lock()
	a := s.help.answers[cacheKey]
	s.help.mu.Unlock()
	if a != nil {
		return a, nil
	}
	body, err := json.Marshal(build(ovs))
	if err != nil {
		return nil, err
	}
	a = &HelpAnswer{Body: body, ETag: `"` + sha256Hex(string(body))[:32] + `"`}
	s.help.mu.Lock()
	if s.help.answers == nil || len(s.help.answers) >= maxHelpCache {
		s.help.answers = map[string]*HelpAnswer{}
	}
	s.help.answers[cacheKey] = a
	s.help.mu.Unlock()
	return a, nil
}
