package store_test

import (
	"sync"
	"testing"
	"time"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/store"
	"github.com/chairside/chairside/store/storetest"
)

// A money line keeps each fact once: the same kind and reference again,
// from any number of writers at once, adds nothing. A positive decision
// adds its approval, once per new amount, and none after the signature.
func TestMoneyLineKeepsEachFactOnce(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := newSession(t, db, t0)
		a := newApplication(t, db, s, applicant("Ann", "Lee", "078051120"), nil)
		pa := newLenderApplication(t, db, a, "synchrony_standard")
		decide := func(amount int64, at time.Time) {
			must(t, db.CreateDecision(ctx, &chairside.Decision{LenderApplicationID: pa.ID, LenderKey: pa.LenderKey, Operation: "apply",
				ResponseCode: chairside.ResponseApproved, ApprovedAmountCents: amount, CreatedAt: at}))
		}
		decide(500_000, t0)
		decide(500_000, t0.Add(time.Minute)) // the same approval again: no new fact
		decide(400_000, t0.Add(2*time.Minute))

		var wg sync.WaitGroup
		added := make(chan bool, 10)
		for range 10 {
			wg.Go(func() {
				ok, err := db.AppendMoney(ctx, &chairside.MoneyEntry{LenderApplicationID: pa.ID, Kind: chairside.MoneySigned,
					AmountCents: 400_000, Reference: "esign-ref", On: t0.Add(3 * time.Minute), RecordedAt: t0.Add(3 * time.Minute)}, false)
				if err != nil {
					t.Error(err)
				}
				added <- ok
			})
		}
		wg.Wait()
		close(added)
		n := 0
		for ok := range added {
			if ok {
				n++
			}
		}
		if n != 1 {
			t.Errorf("%d of 10 writers added the same signature", n)
		}
		decide(600_000, t0.Add(4*time.Minute)) // after the signature: no new approval

		line, err := db.MoneyLine(ctx, a.ID)
		must(t, err)
		var got []int64
		for _, e := range line {
			got = append(got, e.AmountCents)
			if e.LenderKey != "synchrony_standard" {
				t.Errorf("entry of %q", e.LenderKey)
			}
		}
		if len(line) != 3 || line[0].Kind != chairside.MoneyApproved || line[1].Kind != chairside.MoneyApproved || line[2].Kind != chairside.MoneySigned ||
			got[0] != 500_000 || got[1] != 400_000 || got[2] != 400_000 {
			t.Fatalf("money line %+v (amounts %v)", line, got)
		}
		if _, err := db.AppendMoney(ctx, &chairside.MoneyEntry{LenderApplicationID: "nope", Kind: chairside.MoneySigned, Reference: "x"}, false); chairside.ErrorCode(err) != chairside.ENOTFOUND {
			t.Errorf("an entry of no lender application: %v", err)
		}
	})
}

// A completed entry of a lender that funds starts its funding poll, due
// FundingFirstPoll later, with what the lender is asked about; servers
// claim a due poll once between them; the deposit ends it, and the same
// completion again does not start it anew. Through AppendMoney and through
// RecordMoney, whose funding watch asks the database whether its entry
// was new.
func TestFundingPollsFollowTheMoneyLine(t *testing.T) {
	writers := map[string]func(db *store.DB, e *chairside.MoneyEntry, watch bool) error{
		"AppendMoney": func(db *store.DB, e *chairside.MoneyEntry, watch bool) error {
			_, err := db.AppendMoney(ctx, e, watch)
			return err
		},
		"RecordMoney": func(db *store.DB, e *chairside.MoneyEntry, watch bool) error { return db.RecordMoney(ctx, e, watch) },
	}
	for name, write := range writers {
		t.Run(name, func(t *testing.T) { fundingPollsFollow(t, write) })
	}
}

func fundingPollsFollow(t *testing.T, write func(db *store.DB, e *chairside.MoneyEntry, watch bool) error) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := newSession(t, db, t0)
		a := newApplication(t, db, s, applicant("Ann", "Lee", "078051120"), nil)
		pa := newLenderApplication(t, db, a, "synchrony_standard")
		pa.LenderRef, pa.SelectedPlanCode = "SYN-1", "SYN-DI-12"
		must(t, db.UpdateLenderApplication(ctx, pa))
		other := newLenderApplication(t, db, a, "ads_standard")
		completed := func(id string, watch bool) {
			if err := write(db, &chairside.MoneyEntry{LenderApplicationID: id, Kind: chairside.MoneyCompleted,
				AmountCents: 320_000, Reference: "complete-" + id, On: t0, RecordedAt: t0}, watch); err != nil {
				t.Fatal(err)
			}
		}
		completed(pa.ID, true)
		completed(other.ID, false) // a lender that does not fund: no poll

		claimAll := func(at time.Time) []*chairside.FundingPoll {
			var mu sync.Mutex
			var all []*chairside.FundingPoll
			var wg sync.WaitGroup
			for range 4 {
				wg.Go(func() {
					got, err := db.ClaimFundingPolls(ctx, at, time.Minute, 10)
					if err != nil {
						t.Error(err)
					}
					mu.Lock()
					all = append(all, got...)
					mu.Unlock()
				})
			}
			wg.Wait()
			return all
		}
		if got := claimAll(t0.Add(chairside.FundingFirstPoll - time.Millisecond)); len(got) != 0 {
			t.Fatalf("claimed %d before due", len(got))
		}
		got := claimAll(t0.Add(chairside.FundingFirstPoll))
		if len(got) != 1 {
			t.Fatalf("four servers claimed %d polls, want 1", len(got))
		}
		p := got[0]
		if p.LenderApplicationID != pa.ID || p.LenderRef != "SYN-1" || p.LenderPlanCode != "SYN-DI-12" || p.AmountCents != 320_000 ||
			!p.CompletedAt.Equal(t0) || p.Polls != 1 || !p.Since.Equal(t0) {
			t.Fatalf("poll %+v", p)
		}
		must(t, db.RescheduleFundingPoll(ctx, pa.ID, t0.Add(time.Hour), time.Time{}))
		if got := claimAll(t0.Add(time.Hour)); len(got) != 1 || got[0].Polls != 2 {
			t.Fatalf("rescheduled: %+v", got)
		}
		if err := write(db, &chairside.MoneyEntry{LenderApplicationID: pa.ID, Kind: chairside.MoneyDeposited,
			AmountCents: 320_000, NetCents: 300_000, Reference: "DEP-1", On: t0.Add(72 * time.Hour)}, false); err != nil {
			t.Fatal(err)
		}
		if got := claimAll(t0.Add(1000 * time.Hour)); len(got) != 0 {
			t.Fatalf("a deposited case is still polled: %+v", got)
		}
		completed(pa.ID, true) // the same fact again: not new, so no watch
		if got := claimAll(t0.Add(1000 * time.Hour)); len(got) != 0 {
			t.Fatalf("the completion repeated after the deposit started a poll: %+v", got)
		}
		if err := write(db, &chairside.MoneyEntry{LenderApplicationID: "nope", Kind: chairside.MoneySigned, Reference: "x"}, false); chairside.ErrorCode(err) != chairside.ENOTFOUND {
			t.Errorf("an entry of no lender application: %v", err)
		}
	})
}

// The money alerts: a case not funded a day after its lender's expected
// day (or a week after completion when the lender never said), a refund
// refused, a deposit with other figures than its funding; none for a case
// funded on time, and only the office's own.
func TestMoneyAlerts(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := newSession(t, db, t0)
		a := newApplication(t, db, s, applicant("Ann", "Lee", "078051120"), nil)
		add := func(pa *chairside.LenderApplication, kind, ref string, amount, net int64, depositRef string, on time.Time) {
			t.Helper()
			if _, err := db.AppendMoney(ctx, &chairside.MoneyEntry{LenderApplicationID: pa.ID, Kind: kind, AmountCents: amount,
				FeeCents: amount - net, NetCents: net, Reference: ref, DepositRef: depositRef, DepositOn: on, On: on, RecordedAt: on},
				kind == chairside.MoneyCompleted); err != nil {
				t.Fatal(err)
			}
		}
		late := newLenderApplication(t, db, a, "synchrony_standard")
		add(late, chairside.MoneyCompleted, "c1", 300_000, 0, "", t0)
		must(t, db.RescheduleFundingPoll(ctx, late.ID, t0.Add(time.Hour), t0.Add(48*time.Hour)))
		silent := newLenderApplication(t, db, a, "ads_standard")
		add(silent, chairside.MoneyCompleted, "c2", 200_000, 0, "", t0)
		onTime := newLenderApplication(t, db, a, "fortiva_standard")
		add(onTime, chairside.MoneyCompleted, "c3", 100_000, 0, "", t0)
		add(onTime, chairside.MoneyFunded, "f3", 100_000, 97_000, "DEP-1", t0.Add(24*time.Hour))
		add(onTime, chairside.MoneyDeposited, "DEP-2", 100_000, 96_000, "DEP-2", t0.Add(48*time.Hour))
		add(onTime, chairside.MoneyRefundRefused, "r3", 10_000, 0, "", t0.Add(72*time.Hour))

		kinds := func(at time.Time, location string) map[string]int {
			t.Helper()
			got, err := db.ListMoneyAlerts(ctx, location, t0, at)
			must(t, err)
			out := map[string]int{}
			for _, al := range got {
				out[al.Kind]++
				if al.ApplicationID != a.ID {
					t.Errorf("alert of %s", al.ApplicationID)
				}
			}
			return out
		}
		if got := kinds(t0.Add(80*time.Hour), a.LocationID); got[chairside.AlertLateFunding] != 1 || got[chairside.AlertRefundRefused] != 1 || got[chairside.AlertDepositMismatch] != 1 {
			t.Fatalf("three days on: %v", got)
		}
		if got := kinds(t0.Add(8*24*time.Hour), ""); got[chairside.AlertLateFunding] != 2 {
			t.Fatalf("eight days on, every office: %v", got)
		}
		if got := kinds(t0.Add(8*24*time.Hour), "another-office"); len(got) != 0 {
			t.Fatalf("another office's alerts: %v", got)
		}
	})
}
