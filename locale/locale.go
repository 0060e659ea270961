// Package locale is the server's side of the patient's language
// (docs/languages.md): which language a request speaks, and the Spanish of
// every message the server may say to a patient.
//
// Messages are written in English where they are raised, as they always
// were, and translated once on the way out (the API's error answers, the
// application's field definitions). The catalogue (es.go) is keyed by the
// English text; a message with values in it ("Must be at least 18 years
// old") is keyed by its pattern, with %s where a value goes. The catalogue
// test fails when a message the code can raise has no Spanish.
package locale

import (
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// Language is a language we speak, by its ISO 639-1 code.
type Language string

// The languages of the product. English is the source and the default.
const (
	English Language = "en"
	Spanish Language = "es"
)

// Supported lists the languages, English first.
var Supported = []Language{English, Spanish}

// Parse reads a language tag ("es", "es-MX", "ES") by its primary subtag;
// false for a language we do not speak.
func Parse(tag string) (Language, bool) {
	primary, _, _ := strings.Cut(strings.TrimSpace(tag), "-")
	primary, _, _ = strings.Cut(primary, "_")
	switch Language(strings.ToLower(primary)) {
	case English:
		return English, true
	case Spanish:
		return Spanish, true
	}
	return "", false
}

// ForNewSession answers the language a new session's app will speak, as the
// browser picks it (docs/languages.md, "Choosing the language"): the
// request's own when the patient chose it, an office's default when they
// did not, else the request's. chosen nil means the request did not say,
// and its language is answered as for any other call.
func ForNewSession(requested Language, officeDefault string, chosen *bool) Language {
	if office, ok := Parse(officeDefault); ok && chosen != nil && !*chosen {
		return office
	}
	return requested
}

// FromAcceptLanguage answers the language an Accept-Language header prefers
// among ours, by its q-values (RFC 9110), and English when it names none of
// ours or cannot be read. A header is at most a few entries; anything past
// the first 16 is ignored.
func FromAcceptLanguage(header string) Language {
	best, bestQ := English, -1.0
	for i, part := range strings.SplitN(header, ",", 17) {
		if i == 16 {
			break
		}
		tag, params, _ := strings.Cut(part, ";")
		lang, ok := Parse(tag)
		if !ok {
			continue
		}
		q := 1.0
		if v, found := strings.CutPrefix(strings.TrimSpace(params), "q="); found {
			f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
			if err != nil || f < 0 || f > 1 {
				continue
			}
			q = f
		}
		if q > bestQ && q > 0 {
			best, bestQ = lang, q
		}
	}
	return best
}

// T translates an English message into lang: itself in English, and itself
// too when the catalogue has no translation (a gap the catalogue test
// reports), so a patient is never shown an empty message.
func T(lang Language, english string) string {
	if lang != Spanish || english == "" {
		return english
	}
	if s, ok := spanish[english]; ok {
		return s
	}
	for _, p := range patterns {
		m := p.re.FindStringSubmatch(english)
		if m == nil {
			continue
		}
		out := p.spanish
		for _, v := range m[1:] {
			// A value may itself be a message, such as a field's label.
			out = strings.Replace(out, "%s", T(lang, v), 1)
		}
		return out
	}
	return english
}

// Has says whether the catalogue translates an English message (exactly
// or by a pattern); the catalogue test asks it of every message the code
// can raise.
func Has(english string) bool {
	if _, ok := spanish[english]; ok {
		return true
	}
	for _, p := range patterns {
		if p.re.MatchString(english) || p.english == english {
			return true
		}
	}
	return false
}

type pattern struct {
	english, spanish string
	re               *regexp.Regexp
}

// patterns are the catalogue's messages with values, longest first, so a
// more specific pattern wins over a shorter one it contains.
var patterns = compilePatterns()

func compilePatterns() []pattern {
	var out []pattern
	for en, es := range spanish {
		if !strings.Contains(en, "%s") {
			continue
		}
		if strings.Count(en, "%s") != strings.Count(es, "%s") {
			panic("locale: " + strconv.Quote(en) + " and its Spanish have different numbers of values")
		}
		expr := "^" + strings.ReplaceAll(regexp.QuoteMeta(en), "%s", "(.+?)") + "$"
		out = append(out, pattern{en, es, regexp.MustCompile(expr)})
	}
	sort.Slice(out, func(i, j int) bool {
		if len(out[i].english) != len(out[j].english) {
			return len(out[i].english) > len(out[j].english)
		}
		return out[i].english < out[j].english
	})
	return out
}

// Catalogue answers a copy of the Spanish catalogue, for the browser's copy
// of it (locale/browser.go renders web/src/lib/serverMessages.generated.json).
func Catalogue() map[string]string {
	out := make(map[string]string, len(spanish))
	for en, es := range spanish {
		out[en] = es
	}
	return out
}
