package sandbox

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/url"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/catalogue"
	"github.com/chairside/chairside/money"
)

var now = time.Date(2026, 3, 20, 15, 0, 0, 0, time.UTC)

func income(v int64) *int64 { return &v }

// wantExpiry is when an offer decided at now expires: the end of the UTC
// day days later (ids record the decision's date, not its time).
func wantExpiry(days int) time.Time {
	return time.Date(now.Year(), now.Month(), now.Day()+days, 23, 59, 59, 0, time.UTC)
}

func request(key, op, ref, lastName string) *chairside.DecisionRequest {
	return &chairside.DecisionRequest{
		LenderKey: key, Operation: op, Reference: ref, Role: "primary", PurchaseAmountCents: 450_000,
		Primary: chairside.Applicant{FirstName: "Maria", LastName: lastName, SSN: "123456789",
			DateOfBirth: "1980-01-31", AnnualGrossIncome: income(6_000_000)},
		Now: now,
	}
}

func mustLender(t *testing.T, s *Sandbox, key string) chairside.Lender {
	t.Helper()
	l, err := s.Lender(key)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func TestLenderKeys(t *testing.T) {
	s := New(Options{})
	for _, p := range catalogue.All() {
		mustLender(t, s, p.Key)
		mustLender(t, s, p.Key+":role=secondary")
		if products[p.Key] == nil {
			t.Errorf("%s has no product", p.Key)
		}
	}
	if _, err := s.Lender("nope"); chairside.ErrorCode(err) != chairside.ENOTFOUND {
		t.Errorf("unknown key: %v", err)
	}
}

func TestMagicNamesForEveryLender(t *testing.T) {
	ctx := context.Background()
	for _, p := range catalogue.All() {
		s := New(Options{})
		l := mustLender(t, s, p.Key)
		for _, tt := range []struct {
			last, op, code string
		}{
			{"Approve", "apply", "approved"}, {"APPROVE", "prequalify", "prequalified"}, {"approve", "prescreen", "prequalified"},
			{"Decline", "apply", "declined"}, {"Pending", "apply", "pending"}, {"Nooffer", "prequalify", "nooffer"},
			{"Error", "apply", "error"}, {"Existing", "prequalify", "approved"},
		} {
			d, err := l.Decide(ctx, request(p.Key, tt.op, tt.last+tt.op, tt.last))
			if err != nil {
				t.Fatalf("%s %s: %v", p.Key, tt.last, err)
			}
			if d.ResponseCode != tt.code {
				t.Errorf("%s %s %s: %s, want %s", p.Key, tt.last, tt.op, d.ResponseCode, tt.code)
			}
			if d.LenderKey != p.Key || d.Operation != tt.op || d.LenderRef == "" || d.Stipulations == nil || d.PendingReasons == nil {
				t.Errorf("%s %s: incomplete decision %+v", p.Key, tt.last, d)
			}
			if chairside.Positive(d.ResponseCode) {
				if d.ApprovedAmountCents < products[p.Key].minCents || d.ApprovedAmountCents%10_000 != 0 {
					t.Errorf("%s %s: amount %d", p.Key, tt.last, d.ApprovedAmountCents)
				}
				if d.ExpiresAt == nil || !d.ExpiresAt.Equal(wantExpiry(p.PreauthExpireDays)) {
					t.Errorf("%s: expiry %v", p.Key, d.ExpiresAt)
				}
			} else if d.ExpiresAt != nil || (d.ResponseCode != "pending" && d.ApprovedAmountCents != 0) {
				t.Errorf("%s %s: negative decision with an offer %+v", p.Key, tt.last, d)
			}
			if d.ExistingAccount != (tt.last == "Existing") {
				t.Errorf("%s %s: existingAccount %v", p.Key, tt.last, d.ExistingAccount)
			}
			if tt.code == "pending" && len(d.PendingReasons) == 0 {
				t.Errorf("%s: pending without reasons", p.Key)
			}
		}
		// Timeout: the caller's deadline fires.
		tctx, cancel := context.WithTimeout(ctx, 20*time.Millisecond)
		start := time.Now()
		_, err := l.Decide(tctx, request(p.Key, "apply", "timeout", "Timeout"))
		cancel()
		if !errors.Is(err, context.DeadlineExceeded) || time.Since(start) > 2*time.Second {
			t.Errorf("%s Timeout: %v after %s", p.Key, err, time.Since(start))
		}
	}
}

func TestPendingReasons(t *testing.T) {
	ctx := context.Background()
	for key, want := range map[string]string{catalogue.LendingClub: "verify_email", catalogue.Proceed: "esign"} {
		d, err := mustLender(t, New(Options{}), key).Decide(ctx, request(key, "apply", "r", "pending"))
		if err != nil || !slices.Equal(d.PendingReasons, []string{want}) {
			t.Errorf("%s: %v %v", key, d.PendingReasons, err)
		}
	}
}

func TestDeterministicAndIdempotent(t *testing.T) {
	ctx := context.Background()
	for _, p := range catalogue.All() {
		for i := range 20 {
			req := request(p.Key, "apply", fmt.Sprintf("ref-%d", i), "Smith")
			req.Primary.SSN = fmt.Sprintf("%03d45%04d", 100+i*37, 1000+i*7)
			a, err := mustLender(t, New(Options{}), p.Key).Decide(ctx, req)
			if err != nil {
				t.Fatal(err)
			}
			b, err := mustLender(t, New(Options{}), p.Key).Decide(ctx, req)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(a, b) {
				t.Errorf("%s: same input, different answers:\n%+v\n%+v", p.Key, a, b)
			}
		}
	}
	// A retry with the same reference and request gets the first answer and
	// id again, later the same day too (only CreatedAt follows the clock);
	// another reference is another application.
	s := New(Options{})
	l := mustLender(t, s, catalogue.Synchrony)
	first, _ := l.Decide(ctx, request(catalogue.Synchrony, "apply", "attempt-1", "Decline"))
	retry := request(catalogue.Synchrony, "apply", "attempt-1", "Decline")
	retry.Now = now.Add(8 * time.Hour)
	again, _ := mustLender(t, New(Options{}), catalogue.Synchrony).Decide(ctx, retry)
	again.CreatedAt = first.CreatedAt
	if !reflect.DeepEqual(first, again) || !strings.HasPrefix(first.LenderRef, "SBX-SYN-") {
		t.Errorf("retry: %+v vs %+v", first, again)
	}
	other, _ := l.Decide(ctx, request(catalogue.Synchrony, "apply", "attempt-2", "Approve"))
	if other.LenderRef == first.LenderRef || other.ResponseCode != "approved" {
		t.Errorf("new reference: %+v", other)
	}
	sameOutcome, _ := l.Decide(ctx, request(catalogue.Synchrony, "apply", "attempt-3", "Decline"))
	if sameOutcome.LenderRef == first.LenderRef {
		t.Errorf("two references share an id: %s", first.LenderRef)
	}
	if _, err := l.Decide(ctx, request(catalogue.Synchrony, "apply", "", "Approve")); chairside.ErrorCode(err) != chairside.EBADREQUEST {
		t.Errorf("no reference: %v", err)
	}
	if _, err := l.Decide(ctx, request(catalogue.Synchrony, "bogus", "x", "Approve")); chairside.ErrorCode(err) != chairside.EBADREQUEST {
		t.Errorf("bad operation: %v", err)
	}
}

// TestCreditProfile checks the simulated decisions are plausible: both
// outcomes occur, prime cards need a higher score than second-look cards,
// and amounts respect each product's bounds.
func TestCreditProfile(t *testing.T) {
	ctx := context.Background()
	approvals := map[string]int{}
	for _, p := range catalogue.All() {
		l := mustLender(t, New(Options{}), p.Key)
		prod := products[p.Key]
		for i := range 300 {
			req := request(p.Key, "apply", fmt.Sprint(i), "Smith")
			req.Primary.SSN = fmt.Sprintf("%09d", 100_000_000+i*7919)
			req.PurchaseAmountCents = int64(50_000 + i*10_000)
			prof := profileOf(req.Primary)
			d, err := l.Decide(ctx, req)
			if err != nil {
				t.Fatal(err)
			}
			if prof.score < 500 || prof.score > 850 {
				t.Fatalf("score %d", prof.score)
			}
			if chairside.Positive(d.ResponseCode) {
				approvals[p.Key]++
				if prof.score < prod.minScore {
					t.Errorf("%s approved score %d", p.Key, prof.score)
				}
				if d.ApprovedAmountCents < prod.minCents || d.ApprovedAmountCents > prod.maxCents || d.ApprovedAmountCents%10_000 != 0 {
					t.Errorf("%s: amount %d", p.Key, d.ApprovedAmountCents)
				}
				if p.Key == catalogue.AFF && d.DownPaymentCents > p.MaxDownPaymentCents {
					t.Errorf("aff down payment %d", d.DownPaymentCents)
				}
			}
		}
		if approvals[p.Key] == 0 || approvals[p.Key] == 300 {
			t.Errorf("%s approved %d of 300", p.Key, approvals[p.Key])
		}
	}
	if approvals[catalogue.Synchrony] >= approvals[catalogue.Fortiva] {
		t.Errorf("prime card approves as often as a second-look card: %v", approvals)
	}
}

func TestTestCases(t *testing.T) {
	ctx := context.Background()
	ids := map[string]bool{}
	for _, tc := range TestCases() {
		if ids[tc.ID] || tc.Name == "" || tc.Description == "" || len(tc.Outcomes) == 0 {
			t.Errorf("bad test case %+v", tc)
		}
		ids[tc.ID] = true
	}
	for _, id := range []string{"primary-declines-secondary-approves", "all-decline", "pending-then-approved", "primary-error-secondary-approves"} {
		if !ids[id] {
			t.Errorf("missing test case %s", id)
		}
	}

	s := New(Options{})
	decide := func(key, role, tc, ref string) *chairside.Decision {
		req := request(key, "apply", ref, "Smith")
		req.Role, req.TestCase = role, tc
		d, err := mustLender(t, s, key).Decide(ctx, req)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	if d := decide(catalogue.Synchrony, "primary", "primary-declines-secondary-approves", "a"); d.ResponseCode != "declined" {
		t.Errorf("primary: %s", d.ResponseCode)
	}
	if d := decide(catalogue.Fortiva, "secondary", "primary-declines-secondary-approves", "a"); d.ResponseCode != "approved" {
		t.Errorf("secondary: %s", d.ResponseCode)
	}
	// The role may come as a lender key modifier.
	if d := decide(catalogue.Fortiva+":role=secondary", "", "primary-declines-secondary-approves", "b"); d.ResponseCode != "approved" {
		t.Errorf("secondary by modifier: %s", d.ResponseCode)
	}
	if d := decide(catalogue.Vive, "tertiary", "primary-declines-secondary-approves", "a"); d.ResponseCode != "declined" {
		t.Errorf("tertiary: %s", d.ResponseCode)
	}
	if d := decide(catalogue.ADS, "primary", "primary-error-secondary-approves", "a"); d.ResponseCode != "error" {
		t.Errorf("error: %s", d.ResponseCode)
	}

	// Pending, then approved on the status check.
	l := mustLender(t, s, catalogue.LendingClub)
	d := decide(catalogue.LendingClub, "primary", "pending-then-approved", "p")
	if d.ResponseCode != "pending" || !slices.Equal(d.PendingReasons, []string{"verify_email"}) {
		t.Fatalf("pending: %+v", d)
	}
	st, err := l.Status(ctx, &chairside.StatusRequest{LenderKey: catalogue.LendingClub, LenderRef: d.LenderRef})
	if err != nil || st.ResponseCode != "approved" || st.ApprovedAmountCents == 0 || len(st.PendingReasons) != 0 {
		t.Errorf("status: %+v %v", st, err)
	}
	// A plain pending stays pending.
	pd, _ := l.Decide(ctx, request(catalogue.LendingClub, "apply", "q", "Pending"))
	if st, _ := l.Status(ctx, &chairside.StatusRequest{LenderKey: catalogue.LendingClub, LenderRef: pd.LenderRef}); st.ResponseCode != "pending" {
		t.Errorf("pending status: %s", st.ResponseCode)
	}
	if _, err := l.Status(ctx, &chairside.StatusRequest{LenderKey: catalogue.LendingClub, LenderRef: "SBX-LC-nope"}); chairside.ErrorCode(err) != chairside.ENOTFOUND {
		t.Errorf("unknown status: %v", err)
	}
	// Another lender's application is not found through this lender.
	if _, err := mustLender(t, s, catalogue.Snap).Status(ctx, &chairside.StatusRequest{LenderKey: catalogue.Snap, LenderRef: d.LenderRef}); chairside.ErrorCode(err) != chairside.ENOTFOUND {
		t.Errorf("cross-provider status: %v", err)
	}

	req := request(catalogue.Snap, "apply", "z", "Smith")
	req.TestCase = "no-such-case"
	if _, err := mustLender(t, s, catalogue.Snap).Decide(ctx, req); chairside.ErrorCode(err) != chairside.ENOTFOUND {
		t.Errorf("unknown test case: %v", err)
	}
	if _, err := FindTestCase("all-decline"); err != nil {
		t.Error(err)
	}
	// TestCases returns copies.
	TestCases()[0].Outcomes["*"] = "changed"
	if TestCases()[0].Outcomes["*"] == "changed" {
		t.Error("TestCases shares its maps")
	}
}

func TestPlansForEveryLender(t *testing.T) {
	ctx := context.Background()
	for _, p := range catalogue.All() {
		s := New(Options{})
		l := mustLender(t, s, p.Key)
		for _, op := range []string{"apply", "prequalify"} {
			req := request(p.Key, op, "plans-"+op, "Approve")
			req.PurchaseAmountCents = 800_000
			d, err := l.Decide(ctx, req)
			if err != nil || !chairside.Positive(d.ResponseCode) {
				t.Fatalf("%s: %+v %v", p.Key, d, err)
			}
			for _, amount := range []int64{0, 20_000, 50_000, 123_456, 300_000, 500_000, 777_777, d.ApprovedAmountCents + 100_000} {
				plans, err := l.Plans(ctx, &chairside.PlansRequest{LenderKey: p.Key, LenderRef: d.LenderRef,
					AmountCents: amount, ApprovedAmountCents: d.ApprovedAmountCents, Now: now})
				if err != nil {
					t.Fatal(err)
				}
				if len(plans) == 0 {
					t.Fatalf("%s: no plans", p.Key)
				}
				financed := d.ApprovedAmountCents
				if amount > 0 {
					financed = min(amount, d.ApprovedAmountCents)
				}
				codes := map[string]bool{}
				for _, pl := range plans {
					checkPlan(t, p, d, pl, financed)
					if codes[pl.LenderPlanCode] {
						t.Errorf("%s: code %s twice", p.Key, pl.LenderPlanCode)
					}
					codes[pl.LenderPlanCode] = true
				}
			}
		}
	}
}

func checkPlan(t *testing.T, p chairside.LenderConfig, d *chairside.Decision, pl chairside.PaymentPlan, financed int64) {
	t.Helper()
	name := p.Key + " " + pl.LenderPlanCode + fmt.Sprintf(" $%d", financed/100)
	if pl.LenderKey != p.Key || pl.TypeID == "" || pl.LenderPlanCode == "" || pl.DurationMonths <= 0 ||
		(pl.MonthlyAmountCents <= 0 && pl.AmountFinancedCents > 0) || pl.TotalCostCents <= 0 || pl.Description == "" || pl.MinAmountCents <= 0 {
		t.Errorf("%s: incomplete plan %+v", name, pl)
	}
	// Every plan has a product type; Snap's are leases, and a lease states
	// no APR.
	if pl.ProductType == "" || (pl.ProductType == chairside.ProductLease) != (p.Key == catalogue.Snap) {
		t.Errorf("%s: product type %q", name, pl.ProductType)
	}
	if pl.ProductType == chairside.ProductLease && (pl.APR != 0 || pl.TypeID == chairside.PlanDeferredInterest) {
		t.Errorf("%s: a lease shown as credit: apr %v, type %s", name, pl.APR, pl.TypeID)
	}
	if (pl.SubLenderID != "") != (pl.TypeID == chairside.PlanSubLenderNoInterest || pl.TypeID == chairside.PlanSubLenderPromotionalRate) {
		t.Errorf("%s: sub-lender %q for type %s", name, pl.SubLenderID, pl.TypeID)
	}
	if pl.SubLenderID != "" && !slices.ContainsFunc(p.SubLenders, func(s chairside.SubLender) bool { return s.LenderID == pl.SubLenderID }) {
		t.Errorf("%s: unknown sub-lender %q", name, pl.SubLenderID)
	}
	if !pl.ExpireDateTime.Equal(now.AddDate(0, 0, p.PreauthExpireDays)) {
		t.Errorf("%s: expiry %v", name, pl.ExpireDateTime)
	}
	// The down payment comes off the treatment; the plan finances the rest.
	down := min(d.DownPaymentCents, financed)
	if pl.MaxAmountCents != d.ApprovedAmountCents || pl.DownPaymentCents != down || pl.AmountFinancedCents != financed-down {
		t.Errorf("%s: amounts %+v", name, pl)
	}
	financed -= down
	if pl.APR < 0 || pl.APR > 300 || pl.PromoAPR != 0 {
		t.Errorf("%s: apr %v promo %v", name, pl.APR, pl.PromoAPR)
	}
	if p.Key == catalogue.AFF && pl.DownPaymentCents > p.MaxDownPaymentCents {
		t.Errorf("%s: down payment over the maximum", name)
	}
	if financed < pl.MinAmountCents {
		return // not eligible; the browser shows it as such
	}
	paid := pl.TotalOfPaymentsCents
	// Every plan passes the check every lender's plan must pass.
	if r := money.Check(&pl, money.Bounds{ApprovedCents: d.ApprovedAmountCents}); r != nil {
		t.Errorf("%s: %v", name, r)
	}
	switch {
	case pl.ProductType == chairside.ProductLease:
		// The early purchase option costs the cash price; the lease itself
		// costs more.
		if pl.LenderPlanCode == "SNP-SAC-101" && paid != financed || pl.LenderPlanCode != "SNP-SAC-101" && paid <= financed {
			t.Errorf("%s: lease cost %d for %d", name, paid, financed)
		}
	case pl.TypeID == chairside.PlanDeferredInterest:
		// No interest when paid in time; the suggested payment clears it
		// within the promotion.
		if paid != financed || pl.PaymentCount > pl.DurationMonths {
			t.Errorf("%s: deferred-interest payments %+v", name, pl)
		}
	case pl.APR == 0 && paid != financed:
		t.Errorf("%s: interest at 0%% APR", name)
	case pl.APR > 0 && paid == financed:
		t.Errorf("%s: no interest at %.2f%% APR", name, pl.APR)
	}
}

func TestPlanNumbers(t *testing.T) {
	// $5,000 at 17.90 % over 24 months: 24 payments of $249.38, the last
	// one a few cents either way, as the learn-how multiplier (4.9876 %)
	// estimates it.
	fr := fixedRate("SYN", 24, 100_000).compute(500_000)
	if fr.MonthlyAmountCents != 24_938 || fr.PaymentCount != 24 || fr.APR != 17.90 || fr.TotalOfPaymentsCents != 24_938*23+fr.FinalPaymentCents {
		t.Errorf("fixed rate 24: %+v", fr)
	}
	// The learn-how drawer's multipliers (web/src/features/offers/plans.ts)
	// are the level-payment factors of the fixed-rate plans' rates.
	for months, percent := range map[int]float64{24: 4.9876, 36: 3.6605, 48: 3.0377, 60: 2.6997} {
		got := money.Level(1_000_000, fixedRateAPRs[months], months).Payment
		if d := float64(got) - percent*10_000; d > 1 || d < -1 {
			t.Errorf("%d months: multiplier %.4f %% vs payment %d on $10,000", months, percent, got)
		}
	}
	// Deferred interest: the greater of amount/months and $30, until paid.
	if di := deferred("SYN", 12, 29.99, 0).compute(20_000); di.MonthlyAmountCents != 3000 || di.PaymentCount != 7 || di.FinalPaymentCents != 2000 {
		t.Errorf("deferred $30 floor: %+v", di)
	}
	if di := deferred("SYN", 12, 29.99, 0).compute(100_001); di.MonthlyAmountCents != 8334 || di.PaymentCount != 12 || di.TotalOfPaymentsCents != 100_001 {
		t.Errorf("deferred rounding: %+v", di)
	}
	// Vive: 4% of the balance or $25.
	var rev term
	for _, tm := range products[catalogue.Vive].terms(700) {
		if tm.code == "VIV-REV" {
			rev = tm
		}
	}
	if p := rev.compute(50_000); p.MonthlyAmountCents != 2500 || p.DurationMonths != p.PaymentCount {
		t.Errorf("vive floor: %+v", p)
	}
	if p := rev.compute(200_000); p.MonthlyAmountCents != 8000 {
		t.Errorf("vive 4%%: %+v", p)
	}
	// A standard amortised loan: $10,000 over 36 months at 11.99% is $332.10.
	if got := money.Level(1_000_000, 11.99, 36).Payment; got != 33210 {
		t.Errorf("level payment = %d", got)
	}
}

func TestOfferFlow(t *testing.T) {
	ctx := context.Background()
	s := New(Options{})
	l := mustLender(t, s, catalogue.Synchrony)
	d, _ := l.Decide(ctx, request(catalogue.Synchrony, "apply", "flow", "Approve"))
	offer := &chairside.OfferRequest{LenderKey: catalogue.Synchrony, LenderRef: d.LenderRef,
		LenderPlanCode: "SYN-DI-12", AmountCents: 400_000, Reference: "flow", Now: now}

	// Step order is the caller's (the sandbox keeps no state); a step
	// without a plan is refused.
	noPlan := *offer
	noPlan.LenderPlanCode = ""
	if err := l.ESign(ctx, &noPlan); chairside.ErrorCode(err) != chairside.ECONFLICT {
		t.Errorf("sign without a plan: %v", err)
	}
	if _, err := l.Complete(ctx, &noPlan); chairside.ErrorCode(err) != chairside.ECONFLICT {
		t.Errorf("complete without a plan: %v", err)
	}
	if err := l.AcceptOffer(ctx, &noPlan); chairside.ErrorCode(err) != chairside.ENOTFOUND {
		t.Errorf("accept without a plan: %v", err)
	}
	bad := *offer
	bad.LenderPlanCode = "ADS-DI-12"
	if err := l.AcceptOffer(ctx, &bad); chairside.ErrorCode(err) != chairside.ENOTFOUND {
		t.Errorf("another provider's plan: %v", err)
	}
	if err := l.AcceptOffer(ctx, offer); err != nil {
		t.Fatal(err)
	}
	if err := l.AcceptOffer(ctx, offer); err != nil {
		t.Errorf("accept twice: %v", err)
	}
	if err := l.ESign(ctx, offer); err != nil {
		t.Fatal(err)
	}
	if err := l.ESign(ctx, &bad); chairside.ErrorCode(err) != chairside.ENOTFOUND {
		t.Errorf("sign another provider's plan: %v", err)
	}
	done, err := l.Complete(ctx, offer)
	if err != nil || done.ResponseCode != "approved" || done.LenderRef != d.LenderRef {
		t.Errorf("complete: %+v %v", done, err)
	}

	// Prequalified offers can be accepted too; Complete answers approved.
	pq, _ := l.Decide(ctx, request(catalogue.Synchrony, "prequalify", "pq", "Approve"))
	offer.LenderRef = pq.LenderRef
	if err := l.AcceptOffer(ctx, offer); err != nil {
		t.Fatal(err)
	}
	if done, err := l.Complete(ctx, offer); err != nil || done.ResponseCode != "approved" {
		t.Errorf("complete prequalified: %+v %v", done, err)
	}

	// No offer, no plans; the Error name keeps failing; unknown ids are not found.
	dec, _ := l.Decide(ctx, request(catalogue.Synchrony, "apply", "declined", "Decline"))
	if _, err := l.Plans(ctx, &chairside.PlansRequest{LenderRef: dec.LenderRef, Now: now}); chairside.ErrorCode(err) != chairside.ECONFLICT {
		t.Errorf("plans of a decline: %v", err)
	}
	offer.LenderRef = dec.LenderRef
	if err := l.AcceptOffer(ctx, offer); chairside.ErrorCode(err) != chairside.ECONFLICT {
		t.Errorf("accept a decline: %v", err)
	}
	e, _ := l.Decide(ctx, request(catalogue.Synchrony, "apply", "error", "Error"))
	offer.LenderRef = e.LenderRef
	if err := l.AcceptOffer(ctx, offer); chairside.ErrorCode(err) != chairside.ELENDER {
		t.Errorf("accept with Error: %v", err)
	}
	if _, err := l.Complete(ctx, offer); chairside.ErrorCode(err) != chairside.ELENDER {
		t.Errorf("complete with Error: %v", err)
	}
	offer.LenderRef = "SBX-SYN-0000000000"
	if err := l.AcceptOffer(ctx, offer); chairside.ErrorCode(err) != chairside.ENOTFOUND {
		t.Errorf("unknown application: %v", err)
	}
	if _, err := l.Plans(ctx, &chairside.PlansRequest{LenderRef: "nope"}); chairside.ErrorCode(err) != chairside.ENOTFOUND {
		t.Errorf("plans of unknown application: %v", err)
	}
}

func TestDocuments(t *testing.T) {
	ctx := context.Background()
	for _, p := range catalogue.All() {
		l := mustLender(t, New(Options{}), p.Key)
		for _, kind := range []string{"disclosures", "agreement", "terms", "esign", "prequalification"} {
			doc, err := l.Document(ctx, &chairside.DocumentRequest{LenderKey: p.Key, Kind: kind})
			if err != nil {
				t.Fatal(err)
			}
			sum := sha256.Sum256([]byte(doc.Content))
			if doc.SHA256 != hex.EncodeToString(sum[:]) || doc.Version == "" || doc.Title == "" || doc.ID == "" || doc.ContentType != "text/plain" {
				t.Errorf("%s %s: %+v", p.Key, kind, doc)
			}
			if !containsAll(doc.Content, p.Name) || containsAll(doc.Content, "{{") {
				t.Errorf("%s %s: template not filled", p.Key, kind)
			}
		}
		if _, err := l.Document(ctx, &chairside.DocumentRequest{LenderKey: p.Key, Kind: "nope"}); chairside.ErrorCode(err) != chairside.ENOTFOUND {
			t.Errorf("unknown kind: %v", err)
		}
	}
}

func containsAll(s, sub string) bool {
	return len(sub) > 0 && len(s) >= len(sub) && (func() bool {
		for i := 0; i+len(sub) <= len(s); i++ {
			if s[i:i+len(sub)] == sub {
				return true
			}
		}
		return false
	})()
}

func TestLatencyHonoursContext(t *testing.T) {
	l := mustLender(t, New(Options{Latency: time.Hour}), catalogue.Vive)
	ctx, cancel := context.WithCancel(context.Background())
	go func() { time.Sleep(20 * time.Millisecond); cancel() }()
	start := time.Now()
	_, err := l.Decide(ctx, request(catalogue.Vive, "apply", "lat", "Approve"))
	if !errors.Is(err, context.Canceled) || time.Since(start) > 2*time.Second {
		t.Errorf("latency: %v after %s", err, time.Since(start))
	}
	// A short latency is waited out.
	l = mustLender(t, New(Options{Latency: 30 * time.Millisecond}), catalogue.Vive)
	start = time.Now()
	if _, err := l.Decide(context.Background(), request(catalogue.Vive, "apply", "lat", "Approve")); err != nil || time.Since(start) < 30*time.Millisecond {
		t.Errorf("latency not applied: %v %s", err, time.Since(start))
	}
}

func TestTimeoutWithoutDeadlineIsCapped(t *testing.T) {
	l := mustLender(t, New(Options{TimeoutCap: 30 * time.Millisecond}), catalogue.ADS)
	start := time.Now()
	_, err := l.Decide(context.Background(), request(catalogue.ADS, "apply", "t", "timeout"))
	if chairside.ErrorCode(err) != chairside.ELENDER || time.Since(start) > 2*time.Second {
		t.Errorf("capped timeout: %v after %s", err, time.Since(start))
	}
	if New(Options{}).opts.TimeoutCap != DefaultTimeoutCap {
		t.Error("default cap")
	}
}

func TestFaults(t *testing.T) {
	ctx := context.Background()
	for _, f := range []Fault{FaultServerError, FaultMalformed} {
		l := mustLender(t, New(Options{Faults: func(string) Fault { return f }}), catalogue.Snap)
		if _, err := l.Decide(ctx, request(catalogue.Snap, "apply", "f", "Approve")); chairside.ErrorCode(err) != chairside.ELENDER {
			t.Errorf("fault %d: %v", f, err)
		}
	}
	l := mustLender(t, New(Options{Faults: func(op string) Fault {
		if op == OpDecide {
			return FaultTimeout
		}
		return FaultNone
	}}), catalogue.Snap)
	ctx2, cancel := context.WithTimeout(ctx, 20*time.Millisecond)
	defer cancel()
	if _, err := l.Decide(ctx2, request(catalogue.Snap, "apply", "f", "Approve")); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("timeout fault: %v", err)
	}
}

func TestConcurrentRetries(t *testing.T) {
	s := New(Options{})
	l := mustLender(t, s, catalogue.Proceed)
	results := make(chan *chairside.Decision, 8)
	for range 8 {
		go func() {
			d, _ := l.Decide(context.Background(), request(catalogue.Proceed, "apply", "same", "Approve"))
			results <- d
		}()
	}
	first := <-results
	for range 7 {
		if d := <-results; !reflect.DeepEqual(d, first) {
			t.Errorf("concurrent retries differ")
		}
	}
}

// TestPlanArithmeticManyAmounts checks the payment arithmetic of every term
// of every product over many eligible amounts and scores.
func TestPlanArithmeticManyAmounts(t *testing.T) {
	for key, prod := range products {
		for _, score := range []int{520, 610, 650, 700, 740, 800} {
			for _, tm := range prod.terms(score) {
				for amount := tm.minCents; amount <= prod.maxCents; amount = amount*107/100 + 1 {
					pl := tm.compute(amount)
					if r := money.Check(&pl, money.Bounds{ApprovedCents: amount}); r != nil {
						t.Fatalf("%s %s score %d amount %d: %v (%+v)", key, tm.code, score, amount, r, pl)
					}
					if pl.TypeID == chairside.PlanDeferredInterest && pl.TotalOfPaymentsCents != amount {
						t.Fatalf("%s %s: a promotion with interest: %+v", key, tm.code, pl)
					}
				}
			}
		}
	}
}

// TestSecondSandboxAnswers decides with one Sandbox and carries on with a
// fresh one, as another server copy or a restarted process would: Plans,
// Status and the offer steps answer from the lenderApplicationId alone.
func TestSecondSandboxAnswers(t *testing.T) {
	ctx := context.Background()
	for _, p := range catalogue.All() {
		first, second := mustLender(t, New(Options{}), p.Key), mustLender(t, New(Options{}), p.Key)
		req := request(p.Key, "apply", "stateless", "Smith")
		req.PurchaseAmountCents = 600_000
		for i := 0; ; i++ { // a simulated approval, so score-dependent terms show
			req.Primary.SSN = fmt.Sprintf("%09d", 200_000_000+i*7919)
			if prof := profileOf(req.Primary); prof.score >= products[p.Key].minScore+20 {
				break
			}
		}
		d, err := first.Decide(ctx, req)
		if err != nil || d.ResponseCode != "approved" {
			t.Fatalf("%s: %+v %v", p.Key, d, err)
		}
		pr := &chairside.PlansRequest{LenderKey: p.Key, LenderRef: d.LenderRef,
			AmountCents: 400_000, ApprovedAmountCents: d.ApprovedAmountCents, Now: now}
		want, err := first.Plans(ctx, pr)
		if err != nil {
			t.Fatal(err)
		}
		got, err := second.Plans(ctx, pr)
		if err != nil || !reflect.DeepEqual(got, want) || len(got) == 0 {
			t.Fatalf("%s: plans from a fresh sandbox: %v\n%+v\n%+v", p.Key, err, got, want)
		}
		st, err := second.Status(ctx, &chairside.StatusRequest{LenderKey: p.Key, LenderRef: d.LenderRef})
		if err != nil {
			t.Fatal(err)
		}
		st.CreatedAt = d.CreatedAt
		if !reflect.DeepEqual(st, d) {
			t.Errorf("%s: status from a fresh sandbox:\n%+v\n%+v", p.Key, st, d)
		}
		offer := &chairside.OfferRequest{LenderKey: p.Key, LenderRef: d.LenderRef,
			LenderPlanCode: got[len(got)-1].LenderPlanCode, AmountCents: 400_000, Reference: "stateless", Now: now}
		if err := second.AcceptOffer(ctx, offer); err != nil {
			t.Fatalf("%s: accept: %v", p.Key, err)
		}
		if err := New(Options{}).mustESign(t, p.Key, offer); err != nil {
			t.Fatalf("%s: esign: %v", p.Key, err)
		}
		done, err := mustLender(t, New(Options{}), p.Key).Complete(ctx, offer)
		if err != nil || done.ResponseCode != "approved" || done.LenderRef != d.LenderRef ||
			done.ApprovedAmountCents != d.ApprovedAmountCents || done.DownPaymentCents != d.DownPaymentCents {
			t.Errorf("%s: complete: %+v %v", p.Key, done, err)
		}
	}

	// Pending, then approved: pending from Decide, approved at another
	// sandbox's status check, whose plans and offer steps then work.
	l := mustLender(t, New(Options{}), catalogue.Fortiva)
	req := request(catalogue.Fortiva, "prequalify", "pta", "Smith")
	req.TestCase = "pending-then-approved"
	d, err := l.Decide(ctx, req)
	if err != nil || d.ResponseCode != "pending" || d.ExpiresAt != nil {
		t.Fatalf("pending: %+v %v", d, err)
	}
	other := mustLender(t, New(Options{}), catalogue.Fortiva)
	fortiva, _ := catalogue.Get(catalogue.Fortiva)
	for range 2 { // every check answers alike
		st, err := other.Status(ctx, &chairside.StatusRequest{LenderKey: catalogue.Fortiva, LenderRef: d.LenderRef})
		if err != nil || st.ResponseCode != "prequalified" || st.ApprovedAmountCents != d.ApprovedAmountCents ||
			len(st.PendingReasons) != 0 || len(st.Stipulations) != 0 || st.ExpiresAt == nil ||
			!st.ExpiresAt.Equal(wantExpiry(fortiva.PreauthExpireDays)) {
			t.Errorf("status: %+v %v", st, err)
		}
	}
	if plans, err := other.Plans(ctx, &chairside.PlansRequest{LenderRef: d.LenderRef, Now: now}); err != nil || len(plans) == 0 {
		t.Errorf("plans after approval: %v", err)
	}

	// What stays negative stays so; the Error name keeps failing.
	for last, code := range map[string]string{"Pending": chairside.ECONFLICT, "Decline": chairside.ECONFLICT, "Error": chairside.ELENDER} {
		d, _ := mustLender(t, New(Options{}), catalogue.Vive).Decide(ctx, request(catalogue.Vive, "apply", last, last))
		l := mustLender(t, New(Options{}), catalogue.Vive)
		if _, err := l.Plans(ctx, &chairside.PlansRequest{LenderRef: d.LenderRef, Now: now}); chairside.ErrorCode(err) != chairside.ECONFLICT {
			t.Errorf("%s plans: %v", last, err)
		}
		offer := &chairside.OfferRequest{LenderRef: d.LenderRef, LenderPlanCode: "VIV-REV"}
		if err := l.AcceptOffer(ctx, offer); chairside.ErrorCode(err) != code {
			t.Errorf("%s accept: %v", last, err)
		}
		if st, err := l.Status(ctx, &chairside.StatusRequest{LenderKey: catalogue.Vive, LenderRef: d.LenderRef}); err != nil || st.ResponseCode != d.ResponseCode {
			t.Errorf("%s status: %+v %v", last, st, err)
		}
	}
}

func (s *Sandbox) mustESign(t *testing.T, key string, offer *chairside.OfferRequest) error {
	t.Helper()
	return mustLender(t, s, key).ESign(context.Background(), offer)
}

// TestStatusMatchesDecide checks that an id carries the whole answer: for
// every lender and outcome, Status gives what Decide gave.
func TestStatusMatchesDecide(t *testing.T) {
	ctx := context.Background()
	for _, p := range catalogue.All() {
		l := mustLender(t, New(Options{}), p.Key)
		check := func(req *chairside.DecisionRequest) {
			d, err := l.Decide(ctx, req)
			if err != nil {
				t.Fatal(err)
			}
			st, err := mustLender(t, New(Options{}), p.Key).Status(ctx, &chairside.StatusRequest{LenderKey: p.Key, LenderRef: d.LenderRef})
			if err != nil {
				t.Fatalf("%s: %v", p.Key, err)
			}
			if !st.CreatedAt.Equal(time.Date(2026, 3, 20, 0, 0, 0, 0, time.UTC)) {
				t.Errorf("%s: status CreatedAt %v", p.Key, st.CreatedAt)
			}
			st.CreatedAt = d.CreatedAt
			if !reflect.DeepEqual(st, d) {
				t.Errorf("%s %s %s:\n status %+v\n decide %+v", p.Key, req.Operation, req.Primary.LastName, st, d)
			}
		}
		for _, last := range []string{"Approve", "Decline", "Pending", "Nooffer", "Error", "Existing"} {
			for _, op := range []string{"apply", "prequalify", "prescreen"} {
				check(request(p.Key, op, last+op, last))
			}
		}
		for _, tc := range []string{"all-approve", "primary-nooffer-secondary-approves"} {
			req := request(p.Key, "apply", tc, "Smith")
			req.TestCase = tc
			check(req)
		}
		for i := range 40 {
			req := request(p.Key, "apply", fmt.Sprint("sim", i), "Smith")
			req.Primary.SSN = fmt.Sprintf("%09d", 300_000_000+i*7919)
			req.PurchaseAmountCents = int64(40_000 + i*25_000)
			check(req)
		}
	}
}

// TestIDs checks the id format and that a malformed, edited or foreign id
// is not found.
func TestIDs(t *testing.T) {
	ctx := context.Background()
	ids := map[string]bool{}
	for _, p := range catalogue.All() {
		l := mustLender(t, New(Options{}), p.Key)
		for _, last := range []string{"Approve", "Decline", "Pending", "Existing"} {
			req := request(p.Key, "apply", "id-"+last, last)
			req.PurchaseAmountCents = 5_000_000
			d, _ := l.Decide(ctx, req)
			id := d.LenderRef
			if len(id) > 64 || url.PathEscape(id) != id || url.QueryEscape(id) != id || ids[id] ||
				!strings.HasPrefix(id, "SBX-"+products[p.Key].abbr+"-") {
				t.Errorf("%s: id %q", p.Key, id)
			}
			ids[id] = true
		}
	}

	l := mustLender(t, New(Options{}), catalogue.HFD)
	d, _ := l.Decide(ctx, request(catalogue.HFD, "apply", "tamper", "Approve"))
	id := d.LenderRef
	notFound := func(what, id string) {
		t.Helper()
		if _, err := l.Status(ctx, &chairside.StatusRequest{LenderKey: catalogue.HFD, LenderRef: id}); chairside.ErrorCode(err) != chairside.ENOTFOUND {
			t.Errorf("%s %q: status %v", what, id, err)
		}
		if _, err := l.Plans(ctx, &chairside.PlansRequest{LenderRef: id, Now: now}); chairside.ErrorCode(err) != chairside.ENOTFOUND {
			t.Errorf("%s %q: plans %v", what, id, err)
		}
		offer := &chairside.OfferRequest{LenderRef: id, LenderPlanCode: "HFD-IL-12"}
		if err := l.AcceptOffer(ctx, offer); chairside.ErrorCode(err) != chairside.ENOTFOUND {
			t.Errorf("%s %q: accept %v", what, id, err)
		}
		if _, err := l.Complete(ctx, offer); chairside.ErrorCode(err) != chairside.ENOTFOUND {
			t.Errorf("%s %q: complete %v", what, id, err)
		}
	}
	// Every single-character edit after the prefix is refused.
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
	for i := len("SBX-HFD-"); i < len(id); i++ {
		if id[i] == '-' {
			continue
		}
		for _, c := range []byte{alphabet[(strings.IndexByte(alphabet, id[i])+1)%32], alphabet[(strings.IndexByte(alphabet, id[i])+17)%32]} {
			b := []byte(id)
			b[i] = c
			notFound("edit", string(b))
		}
	}
	// A well-signed payload with another amount: re-signed only with the key.
	r, err := l.(*hfdLender).parseID(id)
	if err != nil {
		t.Fatal(err)
	}
	r.approvedCents *= 2
	forged := l.(*hfdLender).encodeID(r)
	mac := id[strings.LastIndexByte(id, '-'):]
	notFound("forged amount", forged[:strings.LastIndexByte(forged, '-')]+mac)

	for what, bad := range map[string]string{
		"empty": "", "lower case": strings.ToLower(id), "old format": "SBX-HFD-0123456789",
		"truncated": id[:len(id)-1], "extended": id + "A", "newline": id[:20] + "\n" + id[20:],
		"no mac": id[:strings.LastIndexByte(id, '-')], "padded": id + "=",
		"other provider": strings.Replace(id, "SBX-HFD-", "SBX-SNP-", 1),
	} {
		notFound(what, bad)
	}
	// Another lender's id is not found through this lender.
	snap := mustLender(t, New(Options{}), catalogue.Snap)
	if _, err := snap.Status(ctx, &chairside.StatusRequest{LenderKey: catalogue.Snap, LenderRef: id}); chairside.ErrorCode(err) != chairside.ENOTFOUND {
		t.Errorf("cross-provider: %v", err)
	}
	// An id holds the date, amounts and score exactly.
	if r.day != 20532 || r.op != "apply" || r.outcome != OutcomeApproved || r.approvedCents != 2*d.ApprovedAmountCents ||
		r.downCents != d.DownPaymentCents || r.score != profileOf(request(catalogue.HFD, "apply", "", "Approve").Primary).score {
		t.Errorf("record %+v", r)
	}
	if _, err := l.Decide(ctx, &chairside.DecisionRequest{LenderKey: catalogue.HFD, Operation: "apply", Reference: "old",
		Now: time.Date(1969, 1, 1, 0, 0, 0, 0, time.UTC)}); chairside.ErrorCode(err) != chairside.EBADREQUEST {
		t.Errorf("time before 1970: %v", err)
	}
}
