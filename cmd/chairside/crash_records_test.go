package main

import (
	"context"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/demo"
	"github.com/chairside/chairside/pms/opendental/odsim"
	"github.com/chairside/chairside/store"
	"github.com/chairside/chairside/testkit"
)

// TestCrashDuringRecordsPost kills the real server (SIGKILL) while Open
// Dental holds the answer to a payment it has already written, for a case
// made from the office's records and signed. The restarted server takes
// the post over once its claim runs out, finds the payment on the
// patient's ledger by its reference instead of sending it again, and
// records it posted: the ledger holds one payment, sent once.
func TestCrashDuringRecordsPost(t *testing.T) {
	if testing.Short() {
		t.Skip("starts and kills servers")
	}
	t.Parallel()
	ctx := context.Background()
	sim := odsim.New(odsim.StandinDeveloperKey, odsim.StandinCustomerKey)
	od := httptest.NewServer(sim)
	defer od.Close()
	srv := newServer(t, store.SQLite)
	srv.extra = []string{"-opendental-url", od.URL, "-records-timeout", "1s"}
	srv.env = []string{"CHAIRSIDE_OPENDENTAL_DEVELOPER_KEY=" + odsim.StandinDeveloperKey}
	live := srv.start(t, 0, 3*time.Second)

	// The office connected, and an invitation made from Pat Approve's record.
	db := srv.open(t)
	defer db.Close()
	loc, err := db.FindLocationByEntityKey(ctx, demo.EntityKey)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.SaveRecordsConnection(ctx, &chairside.RecordsConnection{LocationID: loc.ID, System: chairside.RecordsOpenDental,
		CustomerKey: odsim.StandinCustomerKey, PostOn: chairside.RecordsPostSigned, State: chairside.RecordsConnected,
		CheckedAt: time.Now(), CreatedAt: time.Now().Add(-time.Minute)}); err != nil {
		t.Fatal(err)
	}
	token := chairside.NewSecret(16)
	if err := db.CreateInvite(ctx, &chairside.FlowToken{Hash: chairside.HashSecret(token), ID: "inv-crash", LocationID: loc.ID,
		PurchaseAmountCents: 252000, FirstName: "Pat", LastName: "Approve", ExperienceType: chairside.ExperienceAtHome,
		Record: &chairside.RecordPrefill{PatientID: "18"}, ExpiresAt: time.Now().Add(time.Hour)}, nil); err != nil {
		t.Fatal(err)
	}

	// Open Dental writes the payment, then holds its answer: the server is
	// killed while it waits.
	sim.HoldAnswers(time.Minute)
	c := live.client()
	if err := c.CompleteFlowFrom(token, "123450991", testkit.SignaturePNG(t)); err != nil {
		t.Fatal(err)
	}
	waitUpTo(t, 30*time.Second, "the payment to be written", func() bool { return len(sim.Payments(18)) == 1 })
	live.kill(t)
	sim.HoldAnswers(0)

	srv.start(t, 0, 3*time.Second)
	waitUpTo(t, 30*time.Second, "the post to be taken over and found", func() bool {
		posts, err := db.ListRecordsPosts(ctx, loc.ID, time.Now().Add(-time.Hour), time.Now().Add(time.Hour))
		if err != nil {
			t.Fatal(err)
		}
		for _, ps := range posts {
			for _, p := range ps {
				if p.State == chairside.RecordsPosted {
					return p.Attempts >= 2
				}
			}
		}
		return false
	})
	if n := len(sim.Payments(18)); n != 1 {
		t.Fatalf("the ledger holds %d payments: %+v", n, sim.Payments(18))
	}
	if n := sim.Calls("POST /payments"); n != 1 {
		t.Errorf("%d payment posts, want 1: the retry looked first", n)
	}
	srv.audit(t)
}
