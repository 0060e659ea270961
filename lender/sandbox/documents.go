package sandbox

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"sync"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/catalogue"
	"github.com/chairside/chairside/locale"
)

// documentVersion changes whenever a template below changes, so a consent
// recorded against an older text stays provable by its version and hash.
// One version covers both languages: the English and the Spanish of a
// document differ by their hash, which is what a consent records.
const documentVersion = "sandbox-2026-03"

// docText is a document's title and its text.
type docText struct{ title, text string }

// documentTexts are short, original sample texts with {{name}} and
// {{financing}} standing for the lender's names. They read like a
// lender's documents but are marked as samples. Their Spanish is
// documentTextsES, with the same keys.
var documentTexts = map[string]docText{
	"disclosures": {"Important disclosures", `SAMPLE - {{financing}} disclosures

Checking your options with {{name}} does not affect your credit score. If you accept an offer and apply, {{name}} will request your full credit report, which may affect your credit score.

Rates and terms depend on your credit history and income. The plans shown are offers for the amount shown and expire on the date shown.

You may cancel within 5 days of accepting an offer by calling {{name}}.`},
	// The agreement of a card (promotional or revolving): its promotions
	// may defer interest, and the clause says what that costs.
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
	// The agreement of an installment loan: fixed payments at a fixed rate,
	// no promotional balance and so no deferred interest.
	"loan_agreement": {"Loan agreement", `SAMPLE - {{financing}} loan agreement

You agree to repay {{name}} the amount financed, with interest at the fixed annual percentage rate (APR) of the plan you chose (0% on a plan without interest), in equal monthly payments on the due dates in your payment schedule. The rate and the payment do not change for the life of the loan.

A down payment, if your plan has one, is paid before the loan starts and is not part of the amount financed.

Late payments may cost a fee and may be reported to credit bureaus. You may pay early at any time without penalty, and paying early lowers the interest you pay.`},
	// The agreement of a lease-to-own product: a lease, not credit — no
	// interest, no promotional balance.
	"lease_agreement": {"Lease agreement", `SAMPLE - {{financing}} lease agreement

{{name}} buys the treatment from your dental office and leases it to you. This is a lease, not a loan or credit: there is no interest rate.

You make the lease payments of the plan you chose from your checking account on your paydays. If you make every payment you own it; the payments add up to more than the cash price, and what they cost beyond it is the cost of ownership.

Early purchase option: pay the cash price within 101 days and you own it with nothing more to pay. You may end the lease at any time by contacting {{name}}; payments already made are not refunded.`},
	"california_notice": {"Notice for patients in California", `SAMPLE - Paying for dental treatment with {{financing}}

{{financing}} is credit from {{name}} that you use to pay for your dental treatment. It is a loan you repay to {{name}}, not a payment plan with your dental office.

Your dental office may not charge {{name}} for treatment you have not received yet.

If treatment paid for with {{financing}} is cancelled or not given, your dental office refunds {{name}} within 15 business days, and your balance goes down by that amount.`},
	"cardholder_agreement": {"Cardholder agreement", `SAMPLE - {{financing}} cardholder agreement

This agreement covers your {{financing}} account once it is opened: your credit limit, the interest rate on purchases, your minimum monthly payment and the fees that may apply.

You agree to pay at least the minimum payment shown on each monthly statement by its due date. Interest is charged on balances not paid in full, except during a promotional period.

You may close your account at any time by contacting {{name}}. {{name}} will tell you in advance of any change to these terms.`},
	// What a lease-to-own lender shows where a credit lender shows its
	// disclosures and its prequalification terms: no credit needed means
	// no credit report, so it never asks to pull one (docs/money.md).
	"lease_disclosures": {"Important lease disclosures", `SAMPLE - {{financing}} disclosures

{{financing}} is a lease, not credit. No credit needed: {{name}} does not get your credit report from the credit bureaus, now or when you sign, and checking your options does not affect your credit score.

To decide, {{name}} verifies your identity, your income and your checking account. The leases shown are offers for the cash price shown and expire on the date shown.`},
	"lease_prequalification": {"Lease options terms", `SAMPLE - Seeing your lease options with {{name}}

To see your options, {{name}} verifies your identity, your income and your checking account. It does not get your credit report, and your credit score is not affected.

Seeing your options is not a promise of a lease; {{name}} may ask for more information before you sign.`},
	"prequalification": {"Prequalification terms", `SAMPLE - Prequalifying with {{name}}

To see if you prequalify, {{name}} makes a soft credit inquiry, which does not affect your credit score.

Prequalification is not a guarantee of credit. If you apply, {{name}} will check your full credit report and may decline or offer different terms.`},
}

// Document returns a sample document of a kind: disclosures, agreement,
// california_notice, cardholder_agreement, terms, esign, prequalification,
// a documents page (chairside.DocKind…) or the rates sheet (ENOTFOUND for
// others), in the request's language (English or Spanish, as a real lender
// would answer Accept-Language). The ID is the same in both languages;
// SHA256 is the hex SHA-256 of exactly Content, so it differs.
func (l *lender) Document(ctx context.Context, req *chairside.DocumentRequest) (*chairside.Document, error) {
	kind := req.Kind
	if err := l.begin(ctx, OpDocument, ""); err != nil {
		return nil, err
	}
	lang := language(req.Language)
	key := docKey{l.p.Key, l.p.Name, l.p.FinancingName, kind, lang}
	if d, ok := docCache.Load(key); ok {
		doc := *d.(*chairside.Document) // a copy: callers may change theirs
		return &doc, nil
	}
	title, content, contentType, ok := l.render(kind, lang)
	if !ok {
		return nil, chairside.Errorf(chairside.ENOTFOUND, "Unknown document.")
	}
	sum := sha256.Sum256([]byte(content))
	doc := &chairside.Document{
		ID:          l.p.Key + "/" + kind,
		Version:     documentVersion,
		Title:       title,
		ContentType: contentType,
		Content:     content,
		SHA256:      hex.EncodeToString(sum[:]),
		Language:    string(lang),
	}
	docCache.Store(key, doc)
	out := *doc
	return &out, nil
}

// render writes a document of a kind in a language: a consent's or a
// step's text, a documents page (HTML) or the rates sheet; false for an
// unknown kind.
func (l *lender) render(kind string, lang locale.Language) (title, content, contentType string, ok bool) {
	if title, content, ok := l.pageIn(kind, lang); ok {
		return title, content, "text/html", true
	}
	if kind == chairside.DocKindRates {
		title := l.p.FinancingName + " rates"
		if lang == locale.Spanish {
			title = "Tasas de " + l.p.FinancingName
		}
		return title, l.rates(lang), "text/plain", true
	}
	texts := documentTexts
	if lang == locale.Spanish {
		texts = documentTextsES
	}
	t, ok := texts[l.textOf(kind)]
	if !ok || productTexts[kind] {
		return "", "", "", false
	}
	content = strings.NewReplacer("{{name}}", l.p.Name, "{{financing}}", l.p.FinancingName).Replace(t.text)
	return t.title, content, "text/plain", true
}

// productTexts are the templates textOf chooses by product, never asked
// for by their own names.
var productTexts = map[string]bool{
	"lease_agreement": true, "loan_agreement": true, "lease_disclosures": true, "lease_prequalification": true,
}

// textOf is the template of a document kind for this lender's product: the
// agreement of a lease-to-own product is a lease agreement, of an
// installment loan a loan agreement, of a card the credit agreement with
// its promotion clause; a lease-to-own product's disclosures and
// prequalification terms ask for no credit report.
func (l *lender) textOf(kind string) string {
	lease := l.p.Kind == catalogue.KindLeaseToOwn
	switch {
	case kind == "agreement" && lease:
		return "lease_agreement"
	case kind == "agreement" && l.p.Kind == catalogue.KindInstallmentLoan:
		return "loan_agreement"
	case (kind == "disclosures" || kind == "prequalification") && lease:
		return "lease_" + kind
	}
	return kind
}

// docKey names a rendered document in one language; the texts are
// constants, so a rendered document and its hash never change and are
// computed once per language.
type docKey struct {
	lender, name, financing, kind string
	lang                          locale.Language
}

var docCache sync.Map // docKey → *chairside.Document
