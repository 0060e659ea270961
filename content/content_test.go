package content_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/content"
)

// TestDefaultHelp: English content exists, passes its own checks and has
// the glossary terms the credit products need.
func TestDefaultHelp(t *testing.T) {
	en, ok := content.Help("en")
	if !ok || len(en.FAQs) < 5 || len(en.Glossary) < 10 {
		t.Fatalf("en: %d faqs, %d terms", len(en.FAQs), len(en.Glossary))
	}
	if p := content.CheckHelp(en); len(p) > 0 {
		t.Fatal(p)
	}
	terms := map[string]bool{}
	for _, g := range en.Glossary {
		terms[g.Term] = true
	}
	for _, want := range []string{"Credit limit", "Revolving credit", "Installment loan", "Lease-to-own", "Promotional period", "Down payment"} {
		if !terms[want] {
			t.Errorf("no glossary term %q", want)
		}
	}
	if _, ok := content.Help("xx"); ok {
		t.Error("content for a language that has none")
	}
}

// TestCheckHelp: each rule of the help content's shape answers its own
// problem.
func TestCheckHelp(t *testing.T) {
	for _, tc := range []struct {
		c    chairside.HelpContent
		want string
	}{
		{chairside.HelpContent{FAQs: []chairside.FAQ{}}, "faqs must list"},
		{chairside.HelpContent{FAQs: []chairside.FAQ{{Title: "", Facts: []string{"x"}}}}, "faq 1: title is missing"},
		{chairside.HelpContent{FAQs: []chairside.FAQ{{Title: "a\nb", Facts: []string{"x"}}}}, "one line"},
		{chairside.HelpContent{FAQs: []chairside.FAQ{{Title: "a"}}}, "facts must list"},
		{chairside.HelpContent{FAQs: []chairside.FAQ{{Title: "a", Facts: []string{strings.Repeat("x", 2001)}}}}, "longer than 2000"},
		{chairside.HelpContent{FAQs: []chairside.FAQ{{Title: "a", Facts: []string{"x"}, SubFacts: []chairside.SubFact{{Title: "t"}}}}}, "subFact 1: description is missing"},
		{chairside.HelpContent{Glossary: []chairside.GlossaryEntry{{Term: "APR"}}}, "definition is missing"},
		{chairside.HelpContent{Glossary: []chairside.GlossaryEntry{{Term: "APR", Definition: "x"}, {Term: "apr ", Definition: "y"}}}, "already entry 1"},
	} {
		got := strings.Join(content.CheckHelp(tc.c), "; ")
		if !strings.Contains(got, tc.want) {
			t.Errorf("%+v: %q, want %q", tc.c, got, tc.want)
		}
	}
}

// TestPlatformDocuments: the privacy pages name the office's practice,
// escaped, or "the dental practice" without a brand, and hash exactly what
// they hold.
func TestPlatformDocuments(t *testing.T) {
	d, ok := content.Platform(content.DocPrivacyNotice, `Smiles <b>& Co</b>`, "en")
	if !ok || d.ContentType != "text/html" || !strings.Contains(d.Content, "Smiles &lt;b&gt;&amp; Co&lt;/b&gt;") || strings.Contains(d.Content, "<b>") {
		t.Fatalf("privacyNotice: %+v", d)
	}
	n, _ := content.Platform(content.DocPrivacy, "", "en")
	if !strings.Contains(n.Content, "the dental practice") || !strings.Contains(n.Content, `href="/#/docs/privacyNotice"`) {
		t.Errorf("privacy without a brand: %s", n.Content)
	}
	if _, ok := content.Platform("arbitration", "x", "en"); ok {
		t.Error("a lender's document answered as ours")
	}
}

// TestPDF: the PDF is well formed — header, objects where the
// cross-reference table says they start, the trailer's startxref pointing
// at the table — with the text escaped, and long text on more than one page.
func TestPDF(t *testing.T) {
	text := "Rates (sample) \\ “quoted” — 12.99% APR.\n" + strings.Repeat("A long line of words that wraps. ", 300)
	pdf := content.PDF("Synchrony rates", text)
	if !bytes.HasPrefix(pdf, []byte("%PDF-1.4\n")) || !bytes.HasSuffix(pdf, []byte("%%EOF\n")) {
		t.Fatal("no header or end")
	}
	m := regexp.MustCompile(`startxref\n(\d+)\n`).FindSubmatch(pdf)
	if m == nil {
		t.Fatal("no startxref")
	}
	xref, _ := strconv.Atoi(string(m[1]))
	if !bytes.HasPrefix(pdf[xref:], []byte("xref\n0 ")) {
		t.Fatalf("startxref %d does not point at the table", xref)
	}
	entries := regexp.MustCompile(`(\d{10}) 00000 n `).FindAllSubmatch(pdf[xref:], -1)
	for i, e := range entries {
		off, _ := strconv.Atoi(string(e[1]))
		if want := strconv.Itoa(i+1) + " 0 obj\n"; !bytes.HasPrefix(pdf[off:], []byte(want)) {
			t.Errorf("object %d is not at %d", i+1, off)
		}
	}
	if !bytes.Contains(pdf, []byte(`(Rates \(sample\) \\ "quoted" - 12.99% APR.)`)) {
		t.Error("text not escaped as a PDF string")
	}
	if !bytes.Contains(pdf, []byte("/Count 2")) && !bytes.Contains(pdf, []byte("/Count 3")) {
		t.Error("long text on one page")
	}
	for _, l := range regexp.MustCompile(`/Length (\d+) >>\nstream\n`).FindAllSubmatchIndex(pdf, -1) {
		n, _ := strconv.Atoi(string(pdf[l[2]:l[3]]))
		if !bytes.HasPrefix(pdf[l[1]+n:], []byte("\nendstream")) {
			t.Error("a stream's /Length is not its length")
		}
	}
}

// TestSpanishHelp: the Spanish help content passes the checks and has the
// English's shape: the same questions, each with as many answers and
// details, and the same glossary entries, each with a second paragraph
// where the English has one; no term is left in English but APR.
func TestSpanishHelp(t *testing.T) {
	en, _ := content.Help("en")
	es, ok := content.Help("es")
	if !ok {
		t.Fatal("no Spanish help")
	}
	if p := content.CheckHelp(es); len(p) > 0 {
		t.Fatal(p)
	}
	if len(es.FAQs) != len(en.FAQs) || len(es.Glossary) != len(en.Glossary) {
		t.Fatalf("es: %d faqs, %d terms; en: %d, %d", len(es.FAQs), len(es.Glossary), len(en.FAQs), len(en.Glossary))
	}
	for i, f := range es.FAQs {
		e := en.FAQs[i]
		if len(f.Facts) != len(e.Facts) || len(f.SubFacts) != len(e.SubFacts) || f.Title == e.Title || !strings.HasPrefix(f.Title, "¿") {
			t.Errorf("faq %d: %+v\nEnglish %+v", i+1, f, e)
		}
	}
	for i, g := range es.Glossary {
		e := en.Glossary[i]
		if (g.Definition1 == "") != (e.Definition1 == "") || g.Definition == e.Definition || (g.Term == e.Term) != (e.Term == "APR") {
			t.Errorf("glossary %d: %+v\nEnglish %+v", i+1, g, e)
		}
	}
	if got := content.Languages(); !slices.Equal(got, []string{"en", "es"}) {
		t.Errorf("languages: %v", got)
	}
}

// TestPlatformDocumentsInSpanish: the privacy pages in Spanish have the
// English's id, version and links, their own hash, the Spanish name of an
// office without a brand, and say they are Spanish; a language we do not
// have is served in English and says so.
func TestPlatformDocumentsInSpanish(t *testing.T) {
	for _, doc := range []string{content.DocPrivacy, content.DocPrivacyNotice} {
		en, _ := content.Platform(doc, "", "en")
		es, ok := content.Platform(doc, "", "es")
		if !ok || es.Language != "es" || en.Language != "en" || es.ID != en.ID || es.Version != en.Version || es.Title == en.Title {
			t.Fatalf("%s: %+v / %+v", doc, es, en)
		}
		sum := sha256.Sum256([]byte(es.Content))
		if es.SHA256 != hex.EncodeToString(sum[:]) || es.SHA256 == en.SHA256 {
			t.Errorf("%s: hash %s", doc, es.SHA256)
		}
		if !strings.Contains(es.Content, "en el consultorio dental") || strings.Contains(es.Content, "{{") {
			t.Errorf("%s without a brand: %s", doc, es.Content)
		}
		href := regexp.MustCompile(`href="[^"]*"`)
		if got, want := href.FindAllString(es.Content, -1), href.FindAllString(en.Content, -1); !slices.Equal(got, want) {
			t.Errorf("%s: links %v, English %v", doc, got, want)
		}
		if fr, _ := content.Platform(doc, "", "fr"); fr.Language != "en" || fr.Content != en.Content {
			t.Errorf("%s in French: %+v", doc, fr)
		}
	}
	branded, _ := content.Platform(content.DocPrivacyNotice, "Sonrisas & Co", "es")
	if !strings.Contains(branded.Content, "en Sonrisas &amp; Co.") {
		t.Errorf("with a brand: %s", branded.Content)
	}
}

// TestPDFKeepsAccents: Spanish letters and signs reach the PDF in the
// font's encoding, not as "?".
func TestPDFKeepsAccents(t *testing.T) {
	pdf := content.PDF("Tasas", "¿Qué año? Interés — ¡sí!")
	if !bytes.Contains(pdf, []byte(`(\277Qu\351 a\361o? Inter\351s - \241s\355!)`)) {
		t.Errorf("accents: %s", pdf)
	}
}
