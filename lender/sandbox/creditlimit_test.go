package sandbox

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/catalogue"
)

// TestCreditLimitRule: approved with the limit asked for when it is above
// the current one, at most the maximum, and the income at least four times
// it; declined with the limit unchanged otherwise.
func TestCreditLimitRule(t *testing.T) {
	for _, tc := range []struct {
		current, requested, income, max int64
		status                          string
		limit                           int64
	}{
		{100_000, 500_000, 2_000_000, 2_500_000, chairside.CreditLimitApproved, 500_000},
		{100_000, 500_000, 1_999_999, 2_500_000, chairside.CreditLimitDeclined, 100_000},
		{100_000, 2_500_000, 10_000_000, 2_500_000, chairside.CreditLimitApproved, 2_500_000},
		{100_000, 2_500_100, 99_000_000, 2_500_000, chairside.CreditLimitDeclined, 100_000},
		{100_000, 100_000, 99_000_000, 2_500_000, chairside.CreditLimitDeclined, 100_000},
	} {
		status, limit := CreditLimitRule(tc.current, tc.requested, tc.income, tc.max)
		if status != tc.status || limit != tc.limit {
			t.Errorf("%+v: %s %d", tc, status, limit)
		}
	}
	// The catalogue's maximum is the product's largest line: one figure.
	for _, p := range catalogue.All() {
		if p.MaxCreditLimitCents > 0 && products[p.Key].maxCents != p.MaxCreditLimitCents {
			t.Errorf("%s: catalogue maximum %d, product %d", p.Key, p.MaxCreditLimitCents, products[p.Key].maxCents)
		}
		if (p.CreditType == catalogue.CreditRevolving) != (p.MaxCreditLimitCents > 0) {
			t.Errorf("%s: creditType %s with a maximum limit of %d", p.Key, p.CreditType, p.MaxCreditLimitCents)
		}
	}
}

// TestCreditLimitChange: the credit-limit-change test case finds an
// existing account of $1,000.00; an approved change answers a new id whose
// plans and status carry the new limit, a retry with the same reference
// the same id; a decline keeps the id; the error income fails as a lender
// out of reach.
func TestCreditLimitChange(t *testing.T) {
	ctx := context.Background()
	l := mustLender(t, New(Options{}), catalogue.Synchrony)
	req := request(catalogue.Synchrony, "prequalify", "ref-clc", "Anyname")
	req.TestCase = "credit-limit-change"
	d, err := l.Decide(ctx, req)
	if err != nil || d.ResponseCode != chairside.ResponseApproved || !d.ExistingAccount || d.ApprovedAmountCents != LowLimitCents {
		t.Fatalf("decide: %+v %v", d, err)
	}
	limits := mustStep[chairside.CreditLimits](t, l)
	change := func(ref string, limit, income int64) (*chairside.CreditLimitAnswer, error) {
		return limits.ChangeCreditLimit(ctx, &chairside.CreditLimitRequest{LenderKey: catalogue.Synchrony, LenderRef: d.LenderRef,
			RequestedLimitCents: limit, AnnualGrossIncomeCents: income, Reference: ref, Now: now})
	}
	a, err := change("ref-1", 500_000, 2_000_000)
	if err != nil || a.Status != chairside.CreditLimitApproved || a.CreditLimitCents != 500_000 || a.LenderRef == d.LenderRef {
		t.Fatalf("approved: %+v %v", a, err)
	}
	if again, _ := change("ref-1", 500_000, 2_000_000); again.LenderRef != a.LenderRef {
		t.Error("a retry with the same reference got another id")
	}
	st, err := l.Status(ctx, &chairside.StatusRequest{LenderKey: catalogue.Synchrony, LenderRef: a.LenderRef})
	if err != nil || st.ApprovedAmountCents != 500_000 || !st.ExistingAccount || st.ResponseCode != chairside.ResponseApproved {
		t.Fatalf("status after: %+v %v", st, err)
	}
	plans, err := l.Plans(ctx, &chairside.PlansRequest{LenderKey: catalogue.Synchrony, LenderRef: a.LenderRef, AmountCents: 450_000, Now: now})
	if err != nil || len(plans) == 0 || plans[0].MaxAmountCents != 500_000 || plans[0].AmountFinancedCents != 450_000 {
		t.Fatalf("plans after: %+v %v", plans, err)
	}
	if a, err := change("ref-2", 500_000, 1_000_000); err != nil || a.Status != chairside.CreditLimitDeclined ||
		a.CreditLimitCents != LowLimitCents || a.LenderRef != d.LenderRef {
		t.Fatalf("declined: %+v %v", a, err)
	}
	if _, err := change("ref-3", 500_000, CreditLimitErrorIncomeCents); chairside.ErrorCode(err) != chairside.ELENDER {
		t.Fatalf("the error income: %v", err)
	}
	if _, err := change("", 500_000, 2_000_000); chairside.ErrorCode(err) != chairside.EBADREQUEST {
		t.Fatalf("no reference: %v", err)
	}
	declined := request(catalogue.Synchrony, "prequalify", "ref-dec", "Decline")
	dd, _ := l.Decide(ctx, declined)
	if _, err := limits.ChangeCreditLimit(ctx, &chairside.CreditLimitRequest{LenderRef: dd.LenderRef,
		RequestedLimitCents: 500_000, AnnualGrossIncomeCents: 9_000_000, Reference: "r"}); chairside.ErrorCode(err) != chairside.ECONFLICT {
		t.Fatalf("no account: %v", err)
	}
}

// TestDocumentsPages: every lender answers each documents page as HTML,
// with its name escaped, links in the browser's /#/docs shapes, among them
// the privacy notice and its rates sheet, and a rates text to print.
func TestDocumentsPages(t *testing.T) {
	ctx := context.Background()
	href := regexp.MustCompile(`href="([^"]*)"`)
	for _, p := range catalogue.All() {
		l := mustLender(t, New(Options{}), p.Key)
		links := map[string]bool{}
		for _, kind := range []string{chairside.DocKindArbitration, chairside.DocKindArbitrationProvision, chairside.DocKindPrequalificationTerms,
			chairside.DocKindCreditReport, chairside.DocKindParticipatingCreditors, chairside.DocKindElectronicDisclosures, chairside.DocKindAccountTerms} {
			d, err := l.Document(ctx, &chairside.DocumentRequest{LenderKey: p.Key, Kind: kind})
			if err != nil || d.ContentType != "text/html" || d.SHA256 != sha(d.Content) || !strings.Contains(d.Content, p.Name) {
				t.Fatalf("%s %s: %+v %v", p.Key, kind, d, err)
			}
			for _, m := range href.FindAllStringSubmatch(d.Content, -1) {
				if !strings.HasPrefix(m[1], "/#/docs/") {
					t.Errorf("%s %s: link %s", p.Key, kind, m[1])
				}
				links[m[1]] = true
			}
		}
		if !links["/#/docs/privacyNotice"] || !links["/#/docs/pdf/"+url.PathEscape(p.Key)+"-rates.pdf"] {
			t.Errorf("%s: links %v", p.Key, links)
		}
		r, err := l.Document(ctx, &chairside.DocumentRequest{LenderKey: p.Key, Kind: chairside.DocKindRates})
		if err != nil || r.ContentType != "text/plain" || !strings.Contains(r.Content, "APR") && p.Key != catalogue.Snap {
			t.Errorf("%s rates: %+v %v", p.Key, r, err)
		}
	}
	// A value put in is escaped.
	l := &lender{p: chairside.LenderConfig{Key: "x", Name: `A <b>"B"</b>`, FinancingName: "F & G"}, prod: products[catalogue.ADS]}
	if _, content, _ := l.page(chairside.DocKindCreditReport); strings.Contains(content, "<b>") || !strings.Contains(content, "A &lt;b&gt;&#34;B&#34;&lt;/b&gt;") {
		t.Errorf("not escaped: %s", content)
	}
}

func sha(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}
