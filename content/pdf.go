package content

import (
	"bytes"
	"fmt"
	"strings"
)

// Page layout of PDF: US Letter, one-inch margins, 11-point Helvetica.
const (
	pdfWidth, pdfHeight = 612, 792
	pdfMargin           = 72
	pdfFontSize         = 11
	pdfLeading          = 15
	pdfLineChars        = 90 // what fits between the margins at this size
	pdfLinesPerPage     = (pdfHeight - 2*pdfMargin) / pdfLeading
)

// PDF prints a title and plain text as a small, valid PDF document: the
// built-in Helvetica font (nothing embedded), lines wrapped between the
// margins, as many pages as needed, and a cross-reference table giving
// each object's byte offset, as readers expect. Latin letters with accents
// (á, é, ñ, ü, and ¿ ¡ of Spanish) are written in the font's WinAnsi
// encoding; other characters as their nearest ASCII (curly quotes, dashes)
// or "?".
func PDF(title, text string) []byte {
	lines := append([]string{title, ""}, wrap(text, pdfLineChars)...)
	var pages [][]string
	for len(lines) > 0 {
		n := min(len(lines), pdfLinesPerPage)
		pages = append(pages, lines[:n])
		lines = lines[n:]
	}
	// Objects: 1 catalog, 2 page tree, 3 font, 4 info, then a page and its
	// content stream for each page.
	objs := []string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"", // the page tree, once the pages are numbered
		"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
		"<< /Title " + pdfString(title) + " /Producer (Chairside) >>",
	}
	var kids []string
	for _, page := range pages {
		n := len(objs) + 1
		kids = append(kids, fmt.Sprintf("%d 0 R", n))
		stream := pageStream(page)
		objs = append(objs,
			fmt.Sprintf("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %d %d] /Resources << /Font << /F1 3 0 R >> >> /Contents %d 0 R >>",
				pdfWidth, pdfHeight, n+1),
			fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", len(stream), stream))
	}
	objs[1] = fmt.Sprintf("<< /Type /Pages /Kids [%s] /Count %d >>", strings.Join(kids, " "), len(pages))
	return assemble(objs)
}

// pageStream draws one page's lines from the top margin down.
func pageStream(lines []string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "BT /F1 %d Tf %d TL %d %d Td", pdfFontSize, pdfLeading, pdfMargin, pdfHeight-pdfMargin)
	for _, l := range lines {
		fmt.Fprintf(&b, " %s Tj T*", pdfString(l))
	}
	b.WriteString(" ET")
	return b.String()
}

// assemble writes the objects (numbered from 1) with the header, the
// cross-reference table and the trailer; object 1 is the catalog and
// object 4 the document information.
func assemble(objs []string) []byte {
	var b bytes.Buffer
	b.WriteString("%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
	offsets := make([]int, len(objs))
	for i, o := range objs {
		offsets[i] = b.Len()
		fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", i+1, o)
	}
	xref := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n", len(objs)+1)
	for _, off := range offsets {
		fmt.Fprintf(&b, "%010d 00000 n \n", off)
	}
	fmt.Fprintf(&b, "trailer\n<< /Size %d /Root 1 0 R /Info 4 0 R >>\nstartxref\n%d\n%%%%EOF\n", len(objs)+1, xref)
	return b.Bytes()
}

// asciiFor maps the typographic characters of our texts to plain ASCII.
var asciiFor = strings.NewReplacer("‘", "'", "’", "'", "“", `"`, "”", `"`, "–", "-", "—", "-", "…", "...", "•", "-", "\u00a0", " ")

// pdfString writes s as a PDF literal string: ASCII, with the backslash
// and parentheses escaped, and the Latin-1 letters and signs as octal
// escapes, which WinAnsiEncoding reads as the same characters (a Spanish
// rates sheet must keep its accents).
func pdfString(s string) string {
	s = asciiFor.Replace(s)
	var b strings.Builder
	b.WriteByte('(')
	for _, r := range s {
		switch {
		case r == '\\' || r == '(' || r == ')':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r >= 0x20 && r < 0x7f:
			b.WriteRune(r)
		case r > 0xa0 && r <= 0xff && r != 0xad: // not the soft hyphen, which prints nothing
			fmt.Fprintf(&b, "\\%03o", r)
		default:
			b.WriteByte('?')
		}
	}
	b.WriteByte(')')
	return b.String()
}

// wrap breaks text into lines of at most width characters at spaces,
// keeping its own line breaks.
func wrap(text string, width int) []string {
	var out []string
	for _, para := range strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n") {
		line := ""
		for _, w := range strings.Fields(para) {
			for len([]rune(w)) > width { // a word longer than a line
				if line != "" {
					out, line = append(out, line), ""
				}
				r := []rune(w)
				out, w = append(out, string(r[:width])), string(r[width:])
			}
			switch {
			case line == "":
				line = w
			case len([]rune(line))+1+len([]rune(w)) <= width:
				line += " " + w
			default:
				out, line = append(out, line), w
			}
		}
		out = append(out, line)
	}
	return out
}
