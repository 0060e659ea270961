package flow_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/flow"
	"github.com/chairside/chairside/lender/sandbox"
	"github.com/chairside/chairside/store/storetest"
)

// TestCascade: a decline, no offer or error sends the patient on to the
// next lender of the waterfall (docs/behaviour.md, "The waterfall"), as a
// start with that lender's mode and autoSubmit, or as a resume when the
// application already has its decision; the last lender's answer sends
// nowhere; a lender that does not answer in time is an error decision that
// cascades like one; a declined lender offers no plans; a named test case
// decides instead of the last names.
func TestCascade(t *testing.T) {
	storetest.EachEngine(t, func(t *testing.T, e storetest.Engine) {
		// Long enough that the sandbox's own answers arrive in time on a
		// busy machine; the Timeout case waits for all of it.
		f := newFixture(t, e, flow.Options{LenderTimeout: 2 * time.Second})
		ctx := context.Background()
		c := f.caller(t)
		d, err := f.submit(t, c, "synchrony_standard", "Decline", "123456781")
		if err != nil || d.ResponseCode != chairside.ResponseDeclined {
			t.Fatalf("Decline: %+v %v", d, err)
		}
		want := flow.Next{ResultType: "start", AutoSubmit: true, Lender: "fortiva_standard", ApplyMode: chairside.ModePrequalify}
		if d.Next == nil || *d.Next != want {
			t.Fatalf("after a decline: next %+v, want %+v", d.Next, want)
		}
		d, err = f.submit(t, c, "fortiva_standard", "Error", "123456781")
		if err != nil || d.ResponseCode != chairside.ResponseError || d.Next == nil || d.Next.Lender != "snap_standard" || d.Next.AutoSubmit {
			t.Fatalf("Error: %+v %v", d, err)
		}
		began := time.Now()
		d, err = f.submit(t, c, "snap_standard", "Timeout", "123456781")
		if took := time.Since(began); took > 20*time.Second {
			t.Errorf("a lender time-out of 2s took %s", took)
		}
		if err != nil || d.ResponseCode != chairside.ResponseError || d.Next != nil {
			t.Fatalf("Timeout at the last lender: %+v %v", d, err)
		}
		if _, err := f.svc.Plans(ctx, c, "synchrony_standard", 100000); chairside.ErrorCode(err) != chairside.ECONFLICT {
			t.Fatalf("plans after a decline: %v", err)
		}

		// A lender already decided is resumed, not started again.
		r := f.caller(t)
		if _, err := f.submit(t, r, "fortiva_standard", "Approve", "123456782"); err != nil {
			t.Fatal(err)
		}
		d, err = f.submit(t, r, "synchrony_standard", "Nooffer", "123456782")
		if err != nil || d.ResponseCode != chairside.ResponseNoOffer || d.Next == nil || d.Next.ResultType != "resume" || !d.Next.Resume {
			t.Fatalf("no offer before a decided lender: %+v %v", d, err)
		}

		// A named test case decides instead of the last names.
		tc := f.caller(t)
		if _, err := f.svc.ApplyTestCase(ctx, tc, "primary-declines-secondary-approves"); err != nil {
			t.Fatal(err)
		}
		if d, err := f.submit(t, tc, "synchrony_standard", "Smith", "123456786"); err != nil || d.ResponseCode != chairside.ResponseDeclined {
			t.Fatalf("test case, primary: %+v %v", d, err)
		}
		if d, err := f.submit(t, tc, "fortiva_standard", "Smith", "123456786"); err != nil || !chairside.Positive(d.ResponseCode) || d.Next != nil {
			t.Fatalf("test case, secondary: %+v %v", d, err)
		}
		if n, _ := f.log.count(sandbox.OpDecide); n != 7 {
			t.Errorf("%d lender decisions, want 7", n)
		}
	})
}

// TestDecisionTimeouts: a quick check waits for the lender only as long as
// the lender's quick-check time-out, not the time-out of every lender
// call, so a cascade over three lenders that never answer keeps the
// patient three short waits: each is an error decision that cascades.
func TestDecisionTimeouts(t *testing.T) {
	storetest.EachEngine(t, func(t *testing.T, e storetest.Engine) {
		var asked []string
		f := newFixture(t, e, flow.Options{LenderTimeout: 20 * time.Second, DecisionTimeout: func(key string, apply bool) time.Duration {
			asked = append(asked, fmt.Sprintf("%s %v", key, apply))
			if apply {
				return 20 * time.Second
			}
			return 300 * time.Millisecond
		}})
		c := f.caller(t)
		began := time.Now()
		key := "synchrony_standard"
		for _, want := range []string{"fortiva_standard", "snap_standard", ""} {
			d, err := f.submit(t, c, key, "Timeout", "123456781")
			if err != nil || d.ResponseCode != chairside.ResponseError {
				t.Fatalf("%s, never answering: %+v %v", key, d, err)
			}
			if want != "" && (d.Next == nil || d.Next.Lender != want) || want == "" && d.Next != nil {
				t.Fatalf("after %s: next %+v, want %q", key, d.Next, want)
			}
			key = want
		}
		// Three waits of the 20 s call time-out would be a minute.
		if took := time.Since(began); took > 15*time.Second {
			t.Errorf("three lenders that never answer kept the patient %s", took)
		}
		if len(asked) != 3 || asked[0] != "synchrony_standard false" {
			t.Errorf("the time-outs asked for: %v", asked)
		}
	})
}
