package flow

import (
	"context"
	"html"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/catalogue"
	"github.com/chairside/chairside/content"
	"github.com/chairside/chairside/locale"
)

// The documents pages (docs/content.md, "Documents"): the platform's own
// (privacy, privacyNotice) naming the office's practice, and the lender's,
// asked of the lender by kind.
var lenderPages = map[string]string{
	"arbitration":                        chairside.DocKindArbitration,
	"arbitrationProvision":               chairside.DocKindArbitrationProvision,
	"prequalificationtandc":              chairside.DocKindPrequalificationTerms,
	"creditReport":                       chairside.DocKindCreditReport,
	"participatingCreditors":             chairside.DocKindParticipatingCreditors,
	"electronicDisclosuresAndSignatures": chairside.DocKindElectronicDisclosures,
}

// Document answers a documents page in lang: ours from
// package content, a lender's as the lender writes it for that language
// (Document.Language says which was served). sess may be nil (a page
// opened without a session): the platform's pages then name "the dental
// practice", and a lender's page needs providerKey. With a session, the
// lender is providerKey (one of the office's lenders), else the one the
// patient dealt with last, else the office's first.
func (s *Service) Document(ctx context.Context, lang locale.Language, sess *chairside.Session, doc, lenderKey string) (*chairside.Document, error) {
	kind, isLender := lenderPages[doc]
	if !isLender {
		practice := ""
		if sess != nil {
			loc, err := s.location(ctx, sess.LocationID)
			if err != nil {
				return nil, err
			}
			practice = loc.BrandName
		}
		if d, ok := content.Platform(doc, practice, string(lang)); ok {
			return d, nil
		}
		return nil, errorf(chairside.ENOTFOUND, "There is no such document.")
	}
	key, err := s.pageLender(ctx, sess, lenderKey)
	if err != nil {
		return nil, err
	}
	return s.document(ctx, lang, key, kind)
}

// pageLender chooses the lender of a documents page (Document).
func (s *Service) pageLender(ctx context.Context, sess *chairside.Session, lenderKey string) (string, error) {
	if sess == nil {
		if lenderKey == "" {
			return "", errorf(chairside.ENOTFOUND, "Please open this document from your application.")
		}
		if _, err := catalogue.Get(lenderKey); err != nil {
			return "", err
		}
		return lenderKey, nil
	}
	loc, err := s.location(ctx, sess.LocationID)
	if err != nil {
		return "", err
	}
	if lenderKey != "" {
		if loc.Step(lenderKey) == nil {
			return "", errorf(chairside.ENOTFOUND, "This lender is not offered here.")
		}
		return lenderKey, nil
	}
	pas, err := s.store.ListLenderApplications(ctx, sess.ApplicationID)
	if err != nil {
		return "", err
	}
	var last *chairside.LenderApplication
	for _, pa := range pas {
		if last == nil || pa.UpdatedAt.After(last.UpdatedAt) {
			last = pa
		}
	}
	switch {
	case last != nil:
		return last.LenderKey, nil
	case len(loc.Waterfall) > 0:
		return loc.Waterfall[0].LenderKey, nil
	}
	return "", errorf(chairside.ENOTFOUND, "This office offers no lender.")
}

// DisclosuresHTML answers the lender's disclosures (kind application) as
// one HTML fragment: HTML as the lender wrote it, plain text escaped with a
// paragraph for each blank-line-separated block.
func (s *Service) DisclosuresHTML(ctx context.Context, c *Caller, lenderKey string) (*DisclosuresHTML, error) {
	doc, err := s.Disclosures(ctx, c, lenderKey, DocApplication)
	if err != nil {
		return nil, err
	}
	return &DisclosuresHTML{LenderKey: lenderKey, HTML: asHTML(doc), Document: doc}, nil
}

// DisclosuresHTML answers GET …/disclosures-html.
type DisclosuresHTML struct {
	LenderKey string              `json:"providerKey"`
	HTML      string              `json:"html"`
	Document  *chairside.Document `json:"document"`
}

// asHTML is a document's content as HTML.
func asHTML(doc *chairside.Document) string {
	if doc.ContentType == "text/html" {
		return doc.Content
	}
	var b strings.Builder
	for _, para := range strings.Split(strings.ReplaceAll(doc.Content, "\r\n", "\n"), "\n\n") {
		if para = strings.TrimSpace(para); para != "" {
			b.WriteString("<p>" + strings.ReplaceAll(html.EscapeString(para), "\n", "<br>") + "</p>\n")
		}
	}
	return b.String()
}

// pdfName is the name of a printable sheet: {providerKey}-rates.pdf, the
// lender's rates sheet.
var pdfName = regexp.MustCompile(`^[a-z0-9_-]{1,64}\.pdf$`)

// pdfTTL is how long a printed sheet is kept before the lender's text is
// read again; a sheet whose text has not changed is not printed again.
const pdfTTL = 10 * time.Minute

type cachedPDF struct {
	sha     string
	pdf     []byte
	fetched time.Time
}

// pdfCache keeps the printed sheets by name and language; there is one
// per lender and language.
type pdfCache struct {
	mu   sync.Mutex
	byID map[string]cachedPDF
}

// DocumentPDF answers a printable sheet by its name (pdfName):
// {providerKey}-rates.pdf, the lender's rates sheet printed by
// content.PDF, in lang. Any other name is not found.
func (s *Service) DocumentPDF(ctx context.Context, lang locale.Language, name string) ([]byte, error) {
	key, ok := strings.CutSuffix(name, "-rates.pdf")
	if !pdfName.MatchString(name) || !ok {
		return nil, errorf(chairside.ENOTFOUND, "There is no such document.")
	}
	if _, err := catalogue.Get(key); err != nil {
		return nil, errorf(chairside.ENOTFOUND, "There is no such document.")
	}
	now := time.Now() // cache age is wall-clock, like the location cache
	cacheKey := name + "|" + string(lang)
	s.pdfs.mu.Lock()
	c, hit := s.pdfs.byID[cacheKey]
	s.pdfs.mu.Unlock()
	if hit && now.Sub(c.fetched) < pdfTTL {
		return c.pdf, nil
	}
	doc, err := s.document(ctx, lang, key, chairside.DocKindRates)
	if err != nil {
		return nil, err
	}
	if !hit || c.sha != doc.SHA256 {
		c = cachedPDF{sha: doc.SHA256, pdf: content.PDF(doc.Title, doc.Content)}
	}
	c.fetched = now
	s.pdfs.mu.Lock()
	if s.pdfs.byID == nil {
		s.pdfs.byID = map[string]cachedPDF{}
	}
	s.pdfs.byID[cacheKey] = c
	s.pdfs.mu.Unlock()
	return c.pdf, nil
}
