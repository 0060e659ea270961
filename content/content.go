// Package content holds what Chairside says in its own words and ships in
// the binary: the help page's default questions and glossary per language,
// the platform's own documents pages (privacy), and the small PDF writer
// that prints a lender's rates sheet (docs/content.md). An office may
// replace the help content with its own (package officefile); lenders
// supply their own documents.
package content

import (
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"html"
	"io/fs"
	"path"
	"slices"
	"strings"

	"github.com/chairside/chairside"
)

//go:embed help/*.json docs/*.html
var files embed.FS

// DefaultLanguage is the language served when the one asked for has no
// content.
const DefaultLanguage = "en"

// help holds the default help content by language, read once at start;
// a file that does not pass CheckHelp stops the program (a test keeps
// that from shipping).
var help = mustLoadHelp()

func mustLoadHelp() map[string]chairside.HelpContent {
	out := map[string]chairside.HelpContent{}
	names, _ := fs.Glob(files, "help/*.json")
	for _, name := range names {
		buf, _ := files.ReadFile(name)
		var c chairside.HelpContent
		if err := json.Unmarshal(buf, &c); err != nil {
			panic(fmt.Sprintf("content: %s: %v", name, err))
		}
		if problems := CheckHelp(c); len(problems) > 0 {
			panic(fmt.Sprintf("content: %s: %s", name, strings.Join(problems, "; ")))
		}
		out[strings.TrimSuffix(path.Base(name), ".json")] = c
	}
	return out
}

// Help answers the default help content of a language, and false when
// there is none in that language.
func Help(lang string) (chairside.HelpContent, bool) {
	c, ok := help[lang]
	return c, ok
}

// Languages lists the languages with default help content, sorted.
func Languages() []string {
	out := make([]string, 0, len(help))
	for l := range help {
		out = append(out, l)
	}
	slices.Sort(out)
	return out
}

// Platform documents (docs/content.md, "Documents"): ours, not a lender's.
const (
	DocPrivacy       = "privacy"
	DocPrivacyNotice = "privacyNotice"
)

// platformTitles are the titles of the platform's documents by language;
// a language here has its own file of each document, docs/{doc}.{lang}.html
// (English, the source, is docs/{doc}.html).
var platformTitles = map[string]map[string]string{
	"en": {DocPrivacy: "Privacy", DocPrivacyNotice: "Privacy notice"},
	"es": {DocPrivacy: "Privacidad", DocPrivacyNotice: "Aviso de privacidad"},
}

// noPractice names the office in a language when it has no brand name.
var noPractice = map[string]string{"en": "the dental practice", "es": "el consultorio dental"}

// platformVersion changes whenever a platform document changes, in any
// language: the languages of a document differ by their hash.
const platformVersion = "chairside-2026-01"

// Platform renders one of the platform's documents for an office's
// patients in lang, or in English when lang has no translation; Language
// says which was served. practice names the office (its brand name), or is
// "" for "the dental practice" in the language served. false for a
// document that is not ours.
func Platform(doc, practice, lang string) (*chairside.Document, bool) {
	if _, ok := platformTitles[lang]; !ok {
		lang = DefaultLanguage
	}
	title, ok := platformTitles[lang][doc]
	if !ok {
		return nil, false
	}
	name := "docs/" + doc + ".html"
	if lang != DefaultLanguage {
		name = "docs/" + doc + "." + lang + ".html"
	}
	tmpl, err := files.ReadFile(name)
	if err != nil {
		return nil, false
	}
	if strings.TrimSpace(practice) == "" {
		practice = noPractice[lang]
	}
	body := strings.ReplaceAll(string(tmpl), "{{practice}}", html.EscapeString(practice))
	sum := sha256.Sum256([]byte(body))
	return &chairside.Document{
		ID: "chairside/" + doc, Version: platformVersion, Title: title,
		ContentType: "text/html", Content: body, SHA256: hex.EncodeToString(sum[:]), Language: lang,
	}, true
}
