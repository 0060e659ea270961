package sandbox

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"sync"

	"github.com/chairside/chairside"
)

// documentVersion changes whenever a template below changes, so a consent
// recorded against an older text stays provable by its version and hash.
const documentVersion = "sandbox-2026-01"

// documentTexts are short, original sample texts with {{name}} and
// {{financing}} standing for the provider's names. They read like a
// lender's documents but are marked as samples.
var documentTexts = map[string]struct{ title, text string }{
	"disclosures": {"Important disclosures", `SAMPLE - {{financing}} disclosures

Checking your options with {{name}} does not affect your credit score. If you accept an offer and apply, {{name}} will request your full credit report, which may affect your credit score.

Rates and terms depend on your credit history and income. The plans shown are offers for the amount shown and expire on the date shown.

You may cancel within 5 days of accepting an offer by calling {{name}}.`},
	"agreement": {"Credit agreement", `SAMPLE - {{financing}} agreement

You agree to repay {{name}} the amount financed and any interest under the plan you chose, in monthly payments on the due dates in your statement.

Deferred-interest plans: if the promotional balance is not paid in full by the end of the promotional period, interest is charged from the purchase date on the whole promotional balance.

Late payments may cost a fee and may be reported to credit bureaus. You may pay early at any time without penalty.`},
	"terms": {"Terms and conditions", `SAMPLE - {{financing}} terms

By continuing you confirm that the information you gave is true and complete, and you allow {{name}} to check it and to obtain your credit report.

{{name}} may contact you by email, text or phone about this application. Message and data rates may apply.`},
	"esign": {"Consent to electronic signatures and records", `SAMPLE - Electronic records for {{financing}}

You agree to receive your agreement, disclosures and notices electronically and to sign them electronically. An electronic signature has the same effect as one on paper.

You may ask {{name}} for a paper copy at no cost, and you may withdraw this consent at any time by contacting {{name}}. To view and keep these records you need a device with a web browser and a way to save or print.`},
	"prequalification": {"Prequalification terms", `SAMPLE - Prequalifying with {{name}}

To see if you prequalify, {{name}} makes a soft credit inquiry, which does not affect your credit score.

Prequalification is not a guarantee of credit. If you apply, {{name}} will check your full credit report and may decline or offer different terms.`},
}

// Document returns a sample document of a kind: disclosures, agreement,
// terms, esign or prequalification (ENOTFOUND for others). SHA256 is the
// hex SHA-256 of exactly Content.
func (l *lender) Document(ctx context.Context, providerKey, kind string) (*chairside.Document, error) {
	if err := l.begin(ctx, OpDocument, ""); err != nil {
		return nil, err
	}
	t, ok := documentTexts[kind]
	if !ok {
		return nil, chairside.Errorf(chairside.ENOTFOUND, "Unknown document.")
	}
	key := docKey{l.p.Key, l.p.Name, l.p.FinancingName, kind}
	if d, ok := docCache.Load(key); ok {
		doc := *d.(*chairside.Document) // a copy: callers may change theirs
		return &doc, nil
	}
	content := strings.NewReplacer("{{name}}", l.p.Name, "{{financing}}", l.p.FinancingName).Replace(t.text)
	sum := sha256.Sum256([]byte(content))
	doc := &chairside.Document{
		ID:          l.p.Key + "/" + kind,
		Version:     documentVersion,
		Title:       t.title,
		ContentType: "text/plain",
		Content:     content,
		SHA256:      hex.EncodeToString(sum[:]),
	}
	docCache.Store(key, doc)
	out := *doc
	return &out, nil
}

// docKey names a rendered document; the texts are constants, so a rendered
// document and its hash never change and are computed once.
type docKey struct{ provider, name, financing, kind string }

var docCache sync.Map // docKey → *chairside.Document
