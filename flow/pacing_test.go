// How often the lender is asked again: the funding poll's pacing and how
// long a lender document is held.

package flow

import (
	"testing"
	"time"

	"github.com/chairside/chairside"
)

// TestNextFundingPoll: the reconciler asks at the moment the lender said
// something would happen, backs off from a late lender, and never waits
// more than an hour.
func TestNextFundingPoll(t *testing.T) {
	now := time.Date(2026, 12, 7, 12, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		name string
		st   chairside.FundingStatus
		want time.Duration
	}{
		{"funding expected in 7 s", chairside.FundingStatus{State: chairside.FundingWaiting, ExpectedOn: now.Add(7 * time.Second)}, 7 * time.Second},
		{"deposit expected in 3 s", chairside.FundingStatus{State: chairside.FundingFunded, ExpectedOn: now.Add(-time.Hour), DepositOn: now.Add(3 * time.Second)}, 3 * time.Second},
		{"funding expected in two days", chairside.FundingStatus{State: chairside.FundingWaiting, ExpectedOn: now.Add(48 * time.Hour)}, time.Hour},
		{"funding due just now", chairside.FundingStatus{State: chairside.FundingWaiting, ExpectedOn: now}, chairside.FundingFirstPoll},
		{"funding 20 minutes late", chairside.FundingStatus{State: chairside.FundingWaiting, ExpectedOn: now.Add(-20 * time.Minute)}, 2 * time.Minute},
		{"funding a day late", chairside.FundingStatus{State: chairside.FundingHeld, ExpectedOn: now.Add(-24 * time.Hour)}, time.Hour},
	} {
		if got := nextFundingPoll(now, &c.st).Sub(now); got != c.want {
			t.Errorf("%s: asked again after %v, want %v", c.name, got, c.want)
		}
	}
}

// TestFreshFor: a lender document is held as long as the lender says,
// within an hour; not at all when it asks not to be held; and for the
// server's own window when it says nothing.
func TestFreshFor(t *testing.T) {
	s := &Service{opts: Options{DocumentsFreshFor: 5 * time.Minute}}
	for fresh, want := range map[time.Duration]time.Duration{
		2 * time.Minute: 2 * time.Minute, 48 * time.Hour: maxDocumentFreshFor, -1: 0, 0: 5 * time.Minute,
	} {
		if got := s.freshFor(&chairside.Document{FreshFor: fresh}); got != want {
			t.Errorf("the lender's %v: held %v, want %v", fresh, got, want)
		}
	}
}
