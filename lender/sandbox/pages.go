package sandbox

import (
	"fmt"
	"html"
	"strings"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/locale"
)

// The documents pages' lender documents (docs/content.md, "Documents"):
// short, original sample texts in HTML. {{name}}, {{financing}} and
// {{rates}} stand for the lender's name, its product's name and its rates
// sheet's address; each is HTML-escaped when it is put in. Links between
// documents take the browser's shapes /#/docs/{doc} and /#/docs/pdf/{name}.
// The Spanish (pageTextsES) has the same pages and links.
var pageTexts = map[string]pageText{
	chairside.DocKindArbitration: {"Arbitration", `<p><strong>SAMPLE</strong> — Resolving a dispute with {{name}}</p>
<p>If you and {{name}} disagree about your {{financing}} account and cannot settle it by talking, either of you may ask that it be decided by a neutral arbitrator instead of a court. The full rules are in the <a href="/#/docs/arbitrationProvision">arbitration provision</a>.</p>
<p>You may reject arbitration by writing to {{name}} within 60 days of opening your account.</p>`},
	chairside.DocKindArbitrationProvision: {"Arbitration provision", `<p><strong>SAMPLE</strong> — Arbitration provision of {{financing}}</p>
<p>A claim about your account is decided by one arbitrator, not a judge or jury, under the rules of a national arbitration organisation. Claims are brought one person at a time, not as a class.</p>
<p>{{name}} pays the arbitration fees beyond the first $250 of your own. Small claims may still go to small-claims court.</p>
<p>You may reject this provision within 60 days of opening your account by writing to {{name}}; rejecting it does not change anything else about your account.</p>`},
	chairside.DocKindPrequalificationTerms: {"Prequalification terms and conditions", `<p><strong>SAMPLE</strong> — Checking your options with {{name}}</p>
<p>By asking to prequalify you let {{name}} make a soft credit inquiry, which does not affect your credit score. How {{name}} uses what you give is in its <a href="/#/docs/privacyNotice">privacy notice</a>; what a credit report is and how to see yours is in <a href="/#/docs/creditReport">your credit report</a>.</p>
<p>Prequalifying is not an offer of credit. The rates {{name}} offers today are on its <a href="{{rates}}">rates sheet (PDF)</a>.</p>`},
	chairside.DocKindCreditReport: {"Your credit report", `<p><strong>SAMPLE</strong> — Credit reports and {{name}}</p>
<p>A credit report is the record a credit bureau keeps of your loans, cards and payments. {{name}} reads it to decide on your application: a soft inquiry to prequalify, a hard inquiry when you apply.</p>
<p>You may get a free copy of your report from each of the three national bureaus once a week, and you may dispute anything in it that is wrong with the bureau that reported it.</p>`},
	chairside.DocKindParticipatingCreditors: {"Participating creditors", `<p><strong>SAMPLE</strong> — Who may lend to you through {{financing}}</p>
<p>{{creditors}}</p>
<p>Each creditor decides for itself and sends its own notice if it cannot offer you credit. See the <a href="/#/docs/privacyNotice">privacy notice</a> for what is shared with them.</p>`},
	chairside.DocKindElectronicDisclosures: {"Electronic disclosures and signatures", `<p><strong>SAMPLE</strong> — Receiving {{financing}} documents electronically</p>
<p>You agree that {{name}} may give you disclosures, agreements and notices on screen and by email, and that you may sign them electronically; a signature made this way counts as one on paper.</p>
<p>You may ask {{name}} for paper copies at no cost and withdraw this agreement at any time. You need a device with a current web browser and a way to save or print. See also the <a href="/#/docs/privacyNotice">privacy notice</a>.</p>`},
	chairside.DocKindAccountTerms: {"Account terms", `<p><strong>SAMPLE</strong> — Terms of your {{financing}} account</p>
<p>Your credit limit is the most you may owe on the account at one time; what you have not used of it is your available credit. Purchases are charged at the rates on {{name}}'s <a href="{{rates}}">rates sheet (PDF)</a>, except during a promotional period.</p>
<p>When you ask for a higher limit, {{name}} looks at your yearly income and may check your credit report. A higher limit does not change your rates or your payment due date.</p>`},
}

// pageText is a documents page's title and its HTML.
type pageText struct{ title, body string }

// ratesSheetName is the PDF name of a lender's rates sheet, as the
// documents page asks for it (GET /api/v1/documents/pdf/{name}).
func ratesSheetName(lenderKey string) string { return lenderKey + "-rates.pdf" }

// page renders a documents page of the lender in English, or false for a
// kind that is not one.
func (l *lender) page(kind string) (title, content string, ok bool) {
	return l.pageIn(kind, locale.English)
}

// pageIn renders a documents page of the lender in a language, or false
// for a kind that is not one.
func (l *lender) pageIn(kind string, lang locale.Language) (title, content string, ok bool) {
	texts := pageTexts
	if lang == locale.Spanish {
		texts = pageTextsES
	}
	t, ok := texts[kind]
	if !ok {
		return "", "", false
	}
	creditors := html.EscapeString(l.p.Name)
	if len(l.p.SubLenders) > 0 {
		names := []string{html.EscapeString(l.p.Name)}
		for _, s := range l.p.SubLenders {
			names = append(names, html.EscapeString(s.Name))
		}
		creditors = strings.Join(names, ", ")
	}
	return t.title, strings.NewReplacer(
		"{{name}}", html.EscapeString(l.p.Name),
		"{{financing}}", html.EscapeString(l.p.FinancingName),
		"{{rates}}", html.EscapeString("/#/docs/pdf/"+ratesSheetName(l.p.Key)),
		"{{creditors}}", creditors,
	).Replace(t.body), true
}

// rates is the lender's rates sheet as plain text in a language: each plan
// the product offers a patient with a good credit history, in the plan's
// own words. The server prints it as the PDF the documents pages link to.
func (l *lender) rates(lang locale.Language) string {
	head, line, foot := "SAMPLE - %s rates\n\n", "%d months at %.2f%% APR.",
		"\nWhat you are offered depends on your credit history and income; the plans you are offered show your own terms.\n"
	if lang == locale.Spanish {
		head, line, foot = "MUESTRA - Tasas de %s\n\n", "%d meses con una APR de %.2f%%.",
			"\nLo que se le ofrezca depende de su historial de crédito y de sus ingresos; los planes que reciba muestran sus propias condiciones.\n"
	}
	var b strings.Builder
	fmt.Fprintf(&b, head, l.p.FinancingName)
	for _, t := range l.prod.terms(720) {
		text := t.description.in(lang)
		if text == "" {
			text = fmt.Sprintf(line, t.months, t.apr)
		}
		fmt.Fprintf(&b, "- %s\n", text)
	}
	b.WriteString(foot)
	return b.String()
}
