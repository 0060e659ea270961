package flow_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/flow"
	"github.com/chairside/chairside/lender/sandbox"
	"github.com/chairside/chairside/store/storetest"
	"github.com/chairside/chairside/testkit"
)

// cascadeEntityKey is an office whose second and third lenders are both
// asked by themselves: synchrony → fortiva → snap, all quick checks.
const cascadeEntityKey = "1000200030004077"

// cascadeCaller seeds that office once and starts a session there for a
// $4,500 treatment, with the sandbox test case tc.
func (f *fixture) cascadeCaller(t *testing.T, tc string) *flow.Caller {
	t.Helper()
	ctx := context.Background()
	if _, err := f.db.FindLocationByEntityKey(ctx, cascadeEntityKey); err != nil {
		loc := &chairside.Location{EntityKey: cascadeEntityKey, Name: "Cascade Dental", State: "CA", GroupID: "group-cascade",
			Waterfall: []chairside.WaterfallStep{
				{LenderKey: "synchrony_standard", Role: chairside.RolePrimary, ApplyMode: chairside.ModePrequalify},
				{LenderKey: "fortiva_standard", Role: chairside.RoleSecondary, ApplyMode: chairside.ModePrequalify, AutoSubmit: true},
				{LenderKey: "snap_standard", Role: chairside.RoleTertiary, ApplyMode: chairside.ModePrequalify, AutoSubmit: true},
			}}
		if err := f.db.CreateLocation(ctx, loc); err != nil {
			t.Fatal(err)
		}
	}
	c := f.callerAt(t, cascadeEntityKey, flow.StartOptions{PurchaseAmountCents: testkit.Ptr(int64(450_000))})
	if _, err := f.svc.ApplyTestCase(ctx, c, tc); err != nil {
		t.Fatal(err)
	}
	return c
}

// cascadeRequest is synchrony's quick check carrying, for each of later,
// the patient's consent to that lender's document and its own submit.
func (f *fixture) cascadeRequest(t *testing.T, c *flow.Caller, ssn string, later ...string) *flow.SubmitRequest {
	t.Helper()
	req := f.request(t, c, "synchrony_standard", flow.OpPrequalify, "Smith", ssn)
	for _, key := range later {
		req.Cascade = append(req.Cascade, flow.CascadeStep{Lender: key, ApplyMode: chairside.ModePrequalify,
			Request: *f.request(t, c, key, flow.OpPrequalify, "Smith", ssn)})
	}
	return req
}

// decidedBy answers how many decisions each lender was asked for.
func (l *lenderLog) decidedBy() map[string]int {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := map[string]int{}
	for _, c := range l.calls {
		if c.Op == sandbox.OpDecide {
			out[c.LenderKey]++
		}
	}
	return out
}

// codes lists a cascade answer's lenders and response codes, first lender
// first.
func codes(d *flow.DecisionResponse) string {
	out := []string{d.LenderKey + " " + d.ResponseCode}
	for _, n := range d.Cascaded {
		out = append(out, n.LenderKey+" "+n.ResponseCode)
	}
	return strings.Join(out, ", ")
}

// TestServerCascade: one submit carrying the later lenders' consents asks
// them one after another on the server (docs/behaviour.md, "The
// waterfall"): two declines, then an approval, each lender asked once;
// the same submit again answers the same, asking no one; the progress
// names every answer in the waterfall's order. The cascade stops where
// the browser would have to ask the patient: a lender whose consent it
// does not carry, or whose document changed since the patient agreed.
func TestServerCascade(t *testing.T) {
	storetest.EachEngine(t, func(t *testing.T, e storetest.Engine) {
		f := newFixture(t, e, flow.Options{})
		ctx := context.Background()
		c := f.cascadeCaller(t, "two-declines-then-approval")
		ans, err := f.svc.Submit(ctx, c, "synchrony_standard", flow.OpPrequalify, f.cascadeRequest(t, c, "123456781", "fortiva_standard", "snap_standard"))
		if err != nil {
			t.Fatal(err)
		}
		d, _ := ans.Value()
		want := "synchrony_standard declined, fortiva_standard declined, snap_standard prequalified"
		if got := codes(d); got != want {
			t.Fatalf("the cascade answered %q, want %q", got, want)
		}
		if last := d.Cascaded[1]; last.Next != nil {
			t.Errorf("the approval sends the patient on to %+v", last.Next)
		}
		if got := f.log.decidedBy(); got["synchrony_standard"] != 1 || got["fortiva_standard"] != 1 || got["snap_standard"] != 1 {
			t.Fatalf("lenders asked: %v, want each once", got)
		}
		first, _ := ans.JSON()

		// The same submit again: the same answer, and no lender asked.
		again, err := f.svc.Submit(ctx, c, "synchrony_standard", flow.OpPrequalify, f.cascadeRequest(t, c, "123456781", "fortiva_standard", "snap_standard"))
		if err != nil {
			t.Fatal(err)
		}
		if b, _ := again.JSON(); string(b) != string(first) {
			t.Errorf("the same submit again answered\n%s\nwant\n%s", b, first)
		}
		if got := f.log.decidedBy(); got["synchrony_standard"]+got["fortiva_standard"]+got["snap_standard"] != 3 {
			t.Errorf("the same submit again asked lenders: %v", got)
		}
		p, err := f.svc.Progress(ctx, c)
		if err != nil {
			t.Fatal(err)
		}
		if p.Asking != "" || len(p.Answered) != 3 || p.Answered[0].Lender != "synchrony_standard" || p.Answered[2].ResponseCode != chairside.ResponsePrequalified {
			t.Errorf("progress after the cascade: %+v", p)
		}

		// Without snap's consent the cascade stops after fortiva, whose
		// answer sends the browser on to snap's consent screen.
		c = f.cascadeCaller(t, "two-declines-then-approval")
		d, err = value(f.svc.Submit(ctx, c, "synchrony_standard", flow.OpPrequalify, f.cascadeRequest(t, c, "123456782", "fortiva_standard")))
		if err != nil {
			t.Fatal(err)
		}
		if got := codes(d); got != "synchrony_standard declined, fortiva_standard declined" {
			t.Fatalf("without snap's consent: %q", got)
		}
		if nx := d.Cascaded[0].Next; nx == nil || nx.Lender != "snap_standard" || !nx.AutoSubmit {
			t.Errorf("fortiva's answer sends the patient on to %+v, want snap", nx)
		}

		// A document changed since the patient agreed: that lender is not
		// asked, and the answer is the first lender's.
		c = f.cascadeCaller(t, "two-declines-then-approval")
		req := f.cascadeRequest(t, c, "123456783", "fortiva_standard", "snap_standard")
		req.Cascade[0].Request.Consent.DocumentSHA256 = strings.Repeat("0", 64)
		d, err = value(f.svc.Submit(ctx, c, "synchrony_standard", flow.OpPrequalify, req))
		if err != nil {
			t.Fatal(err)
		}
		if got := codes(d); got != "synchrony_standard declined" || d.Next == nil || d.Next.Lender != "fortiva_standard" {
			t.Fatalf("with fortiva's document changed: %q, next %+v", got, d.Next)
		}
		if got := f.log.decidedBy(); got["synchrony_standard"] != 3 || got["fortiva_standard"] != 2 || got["snap_standard"] != 1 {
			t.Errorf("lenders asked: %v (fortiva by the first two patients only, snap by the first)", got)
		}
	})
}

// TestCascadeWithinTheLenderTimeout: the server asks a later lender only
// when its own time-out still ends within flow.CascadeBudget, so the
// request always ends within its write time-out. A first lender that
// never answers leaves no time for the next: the answer is the first's
// error, whose next the browser then asks itself.
func TestCascadeWithinTheLenderTimeout(t *testing.T) {
	storetest.EachEngine(t, func(t *testing.T, e storetest.Engine) {
		f := newFixture(t, e, flow.Options{LenderTimeout: time.Second,
			DecisionTimeout: func(string, bool) time.Duration { return 1200 * time.Millisecond }})
		c := f.cascadeCaller(t, "primary-timeout-secondary-approves")
		d, err := value(f.svc.Submit(context.Background(), c, "synchrony_standard", flow.OpPrequalify, f.cascadeRequest(t, c, "123456781", "fortiva_standard", "snap_standard")))
		if err != nil {
			t.Fatal(err)
		}
		if got := codes(d); got != "synchrony_standard error" || d.Next == nil || d.Next.Lender != "fortiva_standard" {
			t.Fatalf("after a lender that never answered: %q, next %+v", got, d.Next)
		}
		if got := f.log.decidedBy(); got["fortiva_standard"] != 0 {
			t.Errorf("fortiva asked past the time-out: %v", got)
		}
	})
}
