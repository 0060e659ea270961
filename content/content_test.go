package content_test

import (
	"bytes"
	"regexp"
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
	d, ok := content.Platform(content.DocPrivacyNotice, `Smiles <b>& Co</b>`)
	if !ok || d.ContentType != "text/html" || !strings.Contains(d.Content, "Smiles &lt;b&gt;&amp; Co&lt;/b&gt;") || strings.Contains(d.Content, "<b>") {
		t.Fatalf("privacyNotice: %+v", d)
	}
	n, _ := content.Platform(content.DocPrivacy, "")
	if !strings.Contains(n.Content, "the dental practice") || !strings.Contains(n.Content, `href="/#/docs/privacyNotice"`) {
		t.Errorf("privacy without a brand: %s", n.Content)
	}
	if _, ok := content.Platform("arbitration", "x"); ok {
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
