package store_test

import (
	"sync"
	"testing"
	"time"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/store"
	"github.com/chairside/chairside/store/storetest"
)

// TestInvites: an invitation is stored with its outbox messages, listed
// while no patient opened it, canceled once (spending its token), and
// scoped to its office.
func TestInvites(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		loc := newLocation(t, db)
		other := &chairside.Location{EntityKey: "9999888877776666", Name: "Other", State: "CA", GroupID: "g", Waterfall: loc.Waterfall}
		must(t, db.CreateLocation(ctx, other))
		inv := func(hash string, at time.Time, msgs ...*chairside.OutboxMessage) *chairside.FlowToken {
			tok := &chairside.FlowToken{Hash: hash, LocationID: loc.ID, PurchaseAmountCents: 320000, FirstName: "Maria", LastName: "O'Hara",
				MobilePhone: "4155550134", Email: "maria@example.com", ExperienceType: chairside.ExperienceAtHome,
				ExpiresAt: at.Add(24 * time.Hour), CreatedAt: at}
			must(t, db.CreateInvite(ctx, tok, msgs))
			return tok
		}
		a := inv("h-a", t0, &chairside.OutboxMessage{LocationID: loc.ID, Channel: chairside.ChannelSMS, Recipient: "4155550134",
			RecipientMasked: "(•••) •••-0134", Body: "the link"})
		b := inv("h-b", t0.Add(time.Minute))
		c := inv("h-c", t0.Add(2*time.Minute))
		inv("h-yesterday", t0.Add(-24*time.Hour))

		list, err := db.ListInvites(ctx, loc.ID, t0, t0.Add(24*time.Hour))
		must(t, err)
		if len(list) != 3 || list[0].ID != c.ID || list[2].ID != a.ID || list[2].Email != "maria@example.com" || list[2].LastName != "O'Hara" {
			t.Fatalf("list: %+v", list)
		}
		// A used invitation leaves the list (its session takes its place);
		// a canceled one stays, marked.
		_, err = db.ConsumeFlowToken(ctx, "h-b", t0.Add(time.Hour))
		must(t, err)
		wantCode(t, db.CancelInvite(ctx, loc.ID, b.ID, t0.Add(time.Hour)), chairside.ECONFLICT)
		wantCode(t, db.CancelInvite(ctx, other.ID, c.ID, t0.Add(time.Hour)), chairside.ENOTFOUND)
		wantCode(t, db.CancelInvite(ctx, loc.ID, "nope", t0.Add(time.Hour)), chairside.ENOTFOUND)
		must(t, db.CancelInvite(ctx, loc.ID, c.ID, t0.Add(time.Hour)))
		wantCode(t, db.CancelInvite(ctx, loc.ID, c.ID, t0.Add(time.Hour)), chairside.ECONFLICT)
		_, err = db.ConsumeFlowToken(ctx, "h-c", t0.Add(time.Hour))
		wantCode(t, err, chairside.ENOTFOUND)
		wantCode(t, db.CancelInvite(ctx, loc.ID, a.ID, t0.Add(25*time.Hour)), chairside.ECONFLICT) // expired

		list, err = db.ListInvites(ctx, loc.ID, t0, t0.Add(24*time.Hour))
		must(t, err)
		if len(list) != 2 || list[0].ID != c.ID || list[0].CanceledAt == nil || list[1].ID != a.ID || list[1].CanceledAt != nil {
			t.Fatalf("after use and cancel: %+v", list)
		}
		if other, _ := db.ListInvites(ctx, other.ID, t0, t0.Add(24*time.Hour)); len(other) != 0 {
			t.Fatalf("another office lists %d", len(other))
		}
		// A failing message rolls the invitation back with it.
		dup := &chairside.OutboxMessage{ID: "dup", LocationID: loc.ID, Channel: chairside.ChannelSMS, Recipient: "1", RecipientMasked: "1", Body: "x"}
		wantCode(t, db.CreateInvite(ctx, &chairside.FlowToken{Hash: "h-d", LocationID: loc.ID, ExpiresAt: t0.Add(time.Hour), CreatedAt: t0},
			[]*chairside.OutboxMessage{dup, {ID: "dup", LocationID: loc.ID, Channel: chairside.ChannelSMS, Recipient: "1", RecipientMasked: "1", Body: "x"}}),
			chairside.ECONFLICT)
		if _, err := db.ConsumeFlowToken(ctx, "h-d", t0); chairside.ErrorCode(err) != chairside.ENOTFOUND {
			t.Fatalf("an invitation survived its failed message: %v", err)
		}
	})
}

// TestOutbox: due messages are claimed once, even by two dispatchers at
// the same moment; a retry waits; sent and failed messages lose their
// content.
func TestOutbox(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		loc := newLocation(t, db)
		for i, to := range []string{"4155550134", "maria@example.com", "4155550199"} {
			must(t, db.CreateInvite(ctx, &chairside.FlowToken{Hash: "h" + to, LocationID: loc.ID, ExpiresAt: t0.Add(time.Hour), CreatedAt: t0},
				[]*chairside.OutboxMessage{{LocationID: loc.ID, Channel: chairside.ChannelSMS, Recipient: to, RecipientMasked: "•" + to[len(to)-2:],
					Body: "link", CreatedAt: t0.Add(time.Duration(i) * time.Second)}}))
		}
		// Two dispatchers at once take three messages between them, none twice.
		var mu sync.Mutex
		seen := map[string]int{}
		var wg sync.WaitGroup
		for range 2 {
			wg.Go(func() {
				got, err := db.ClaimOutbox(ctx, t0.Add(time.Minute), time.Minute, 10)
				if err != nil {
					t.Error(err)
				}
				mu.Lock()
				for _, m := range got {
					seen[m.ID]++
					if m.Body != "link" || m.Recipient == "" || m.Attempts != 1 || m.State != chairside.OutboxSending {
						t.Errorf("claimed %+v", m)
					}
				}
				mu.Unlock()
			})
		}
		wg.Wait()
		if len(seen) != 3 {
			t.Fatalf("claimed %v", seen)
		}
		for id, n := range seen {
			if n != 1 {
				t.Fatalf("%s claimed %d times", id, n)
			}
		}
		if again, _ := db.ClaimOutbox(ctx, t0.Add(time.Minute), time.Minute, 10); len(again) != 0 {
			t.Fatalf("claimed while leased: %d", len(again))
		}
		msgs, err := db.ListOutbox(ctx, loc.ID)
		must(t, err)
		sent, retried, failed := msgs[0].ID, msgs[1].ID, msgs[2].ID
		must(t, db.MarkOutboxSent(ctx, msgs[0].ID, t0.Add(time.Minute)))
		wantCode(t, db.MarkOutboxSent(ctx, msgs[0].ID, t0.Add(time.Minute)), chairside.ECONFLICT)
		must(t, db.MarkOutboxRetry(ctx, msgs[1].ID, t0.Add(10*time.Minute), "gateway 503"))
		must(t, db.MarkOutboxFailed(ctx, msgs[2].ID, "refused"))

		// The retry is due only at its time; a lease that ended is due again.
		if got, _ := db.ClaimOutbox(ctx, t0.Add(5*time.Minute), time.Minute, 10); len(got) != 0 {
			t.Fatalf("claimed early: %d", len(got))
		}
		got, err := db.ClaimOutbox(ctx, t0.Add(10*time.Minute), time.Minute, 10)
		must(t, err)
		if len(got) != 1 || got[0].ID != msgs[1].ID || got[0].Attempts != 2 || got[0].Body != "link" {
			t.Fatalf("retry claim: %+v", got)
		}
		got, err = db.ClaimOutbox(ctx, t0.Add(12*time.Minute), time.Minute, 10)
		must(t, err)
		if len(got) != 1 || got[0].Attempts != 3 {
			t.Fatalf("lease ended, claimed again: %+v", got)
		}

		// What is kept: a sent or given-up message has lost its sealed
		// content (read from the table itself; the store never opens it
		// for a list), the one still being tried keeps it.
		raw := store.RawDB(db)
		for id, want := range map[string]struct {
			state   string
			content bool
		}{sent: {chairside.OutboxSent, false}, retried: {chairside.OutboxSending, true}, failed: {chairside.OutboxFailed, false}} {
			var state, body, masked string
			must(t, raw.QueryRowContext(ctx, store.Rebind(db, `SELECT state, body_sealed, recipient_masked FROM outbox WHERE id = ?`), id).Scan(&state, &body, &masked))
			if state != want.state || (body != "") != want.content || masked == "" {
				t.Errorf("%s: state %s, content kept %v, masked %q; want %s, %v", id, state, body != "", masked, want.state, want.content)
			}
		}
		msgs, err = db.ListOutbox(ctx, loc.ID)
		must(t, err)
		for _, m := range msgs {
			if m.Body != "" || m.Recipient != "" {
				t.Fatalf("ListOutbox opened %s", m.ID)
			}
		}
	})
}

// TestInviteFallbackAndResend: an invitation's email held behind its text
// is queued only when that text fails; the invitation is sent again at
// most maxSends times by a channel and only while no patient opened it;
// its language, the desk's record of consent and its link come back
// sealed; and the outbox's counts say where every message stands.
func TestInviteFallbackAndResend(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		loc := newLocation(t, db)
		loc.TextSender = "MG0123456789abcdef0123456789abcdef"
		must(t, db.UpsertLocation(ctx, loc))
		if got, err := db.FindLocationByID(ctx, loc.ID); err != nil || got.TextSender != loc.TextSender {
			t.Fatalf("the office's sender: %+v %v", got, err)
		}
		msgs := func() []*chairside.OutboxMessage {
			return []*chairside.OutboxMessage{
				{LocationID: loc.ID, InviteID: "inv-1", Channel: chairside.ChannelSMS, Recipient: "4155550134", RecipientMasked: "(•••) •••-0134", Body: "text", CreatedAt: t0},
				{LocationID: loc.ID, InviteID: "inv-1", Channel: chairside.ChannelEmail, Recipient: "m@example.com", RecipientMasked: "m•••@example.com",
					Body: "email", State: chairside.OutboxHeld, CreatedAt: t0},
			}
		}
		tok := &chairside.FlowToken{Hash: "h-1", ID: "inv-1", LocationID: loc.ID, PurchaseAmountCents: 320000, MobilePhone: "4155550134",
			Email: "m@example.com", Language: "es", TextConsent: true, Link: "https://chairside.example/start/tokens/secret",
			ExperienceType: chairside.ExperienceAtHome, ExpiresAt: t0.Add(24 * time.Hour), CreatedAt: t0}
		first := msgs()
		must(t, db.CreateInvite(ctx, tok, first))
		got, err := db.FindInvite(ctx, loc.ID, "inv-1")
		must(t, err)
		if got.Language != "es" || !got.TextConsent || got.Link != tok.Link || got.MobilePhone != "4155550134" {
			t.Fatalf("the invitation read back: %+v", got)
		}
		_, err = db.FindInvite(ctx, "another office", "inv-1")
		wantCode(t, err, chairside.ENOTFOUND)

		// Only the text is due; the email waits.
		due, err := db.ClaimOutbox(ctx, t0, time.Minute, 10)
		must(t, err)
		if len(due) != 1 || due[0].Channel != chairside.ChannelSMS {
			t.Fatalf("due: %+v", due)
		}
		must(t, db.SetOutboxRef(ctx, due[0].ID, "SM1", "queued", 2, t0, "MG-office", "+14155550134"))
		must(t, db.MarkOutboxSent(ctx, due[0].ID, t0))
		if id, err := db.MessageByRef(ctx, "SM1"); err != nil || id != due[0].ID {
			t.Fatalf("by ref: %q %v", id, err)
		}
		if id, err := db.MessageByRef(ctx, "SM-unknown"); err != nil || id != "" {
			t.Fatalf("an unknown ref: %q %v", id, err)
		}
		counts, waiting, retrying, oldest, err := db.OutboxStats(ctx, t0.Add(-time.Hour))
		must(t, err)
		if waiting != 0 || retrying != 0 || !oldest.IsZero() || len(counts) != 2 {
			t.Fatalf("stats: %+v %d %d %v", counts, waiting, retrying, oldest)
		}
		// The text failed: its email is released, once.
		n, err := db.ReleaseHeld(ctx, due[0].ID, t0.Add(time.Minute))
		must(t, err)
		if n != 1 {
			t.Fatalf("released %d", n)
		}
		if n, _ := db.ReleaseHeld(ctx, due[0].ID, t0.Add(time.Minute)); n != 0 {
			t.Fatalf("released again: %d", n)
		}
		if _, waiting, _, oldest, err = db.OutboxStats(ctx, t0.Add(-time.Hour)); err != nil || waiting != 1 || !oldest.Equal(t0) {
			t.Fatalf("waiting after the release: %d since %v (%v)", waiting, oldest, err)
		}
		due, err = db.ClaimOutbox(ctx, t0.Add(time.Minute), time.Minute, 10)
		must(t, err)
		if len(due) != 1 || due[0].Channel != chairside.ChannelEmail || due[0].Body != "email" {
			t.Fatalf("due after the release: %+v", due)
		}

		// Sent again twice more, then no more; nor once opened.
		must(t, db.ResendInvite(ctx, loc.ID, "inv-1", t0.Add(time.Hour), 3, msgs()))
		must(t, db.ResendInvite(ctx, loc.ID, "inv-1", t0.Add(time.Hour), 3, msgs()))
		wantCode(t, db.ResendInvite(ctx, loc.ID, "inv-1", t0.Add(time.Hour), 3, msgs()), chairside.ECONFLICT)
		wantCode(t, db.ResendInvite(ctx, "another office", "inv-1", t0.Add(time.Hour), 9, msgs()), chairside.ECONFLICT)
		_, err = db.ConsumeFlowToken(ctx, "h-1", t0.Add(2*time.Hour))
		must(t, err)
		wantCode(t, db.ResendInvite(ctx, loc.ID, "inv-1", t0.Add(2*time.Hour), 9, msgs()), chairside.ECONFLICT)
		byInvite, err := db.ListInviteMessages(ctx, loc.ID, t0, t0.Add(24*time.Hour))
		must(t, err)
		if len(byInvite["inv-1"]) != 6 {
			t.Fatalf("the invitation's messages: %d", len(byInvite["inv-1"]))
		}

		// A STOP from the number after the text went shows on the text, only
		// for the sender it went from, and START takes it back.
		textOptedOut := func() bool {
			t.Helper()
			byInvite, err := db.ListInviteMessages(ctx, loc.ID, t0, t0.Add(24*time.Hour))
			must(t, err)
			for _, m := range byInvite["inv-1"] {
				if m.ProviderRef == "SM1" {
					return m.NumberOptedOut
				}
			}
			t.Fatal("the sent text is not listed")
			return false
		}
		if textOptedOut() {
			t.Fatal("opted out before any STOP")
		}
		must(t, db.OptOut(ctx, "MG-another", "+14155550134", "reply", t0))
		must(t, db.OptOut(ctx, "MG-office", "+14155550199", "reply", t0))
		if textOptedOut() {
			t.Fatal("a STOP to another sender, or from another number, shows on the text")
		}
		must(t, db.OptOut(ctx, "MG-office", "+14155550134", "reply", t0))
		if !textOptedOut() {
			t.Fatal("the number's STOP does not show on the text it was sent")
		}
		must(t, db.OptIn(ctx, "MG-office", "+14155550134"))
		if textOptedOut() {
			t.Fatal("still opted out after START")
		}
	})
}

// TestStaleHeldEmail: an invitation's email held behind a text the
// provider took but never reported delivered goes once the text is old
// enough; behind a delivered text it never does.
func TestStaleHeldEmail(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		loc := newLocation(t, db)
		invite := func(id, hash string) string {
			t.Helper()
			tok := &chairside.FlowToken{Hash: hash, ID: id, LocationID: loc.ID, PurchaseAmountCents: 100000, MobilePhone: "4155550134",
				Email: "m@example.com", ExpiresAt: t0.Add(24 * time.Hour), CreatedAt: t0}
			must(t, db.CreateInvite(ctx, tok, []*chairside.OutboxMessage{
				{LocationID: loc.ID, InviteID: id, Channel: chairside.ChannelSMS, Recipient: "4155550134", RecipientMasked: "(•••) •••-0134", Body: "t", CreatedAt: t0},
				{LocationID: loc.ID, InviteID: id, Channel: chairside.ChannelEmail, Recipient: "m@example.com", RecipientMasked: "m•••@example.com", Body: "e",
					State: chairside.OutboxHeld, CreatedAt: t0},
			}))
			due, err := db.ClaimOutbox(ctx, t0, time.Minute, 1)
			must(t, err)
			must(t, db.SetOutboxRef(ctx, due[0].ID, "SM-"+id, "sent", 4, t0, "MG-office", "+14155550134"))
			must(t, db.MarkOutboxSent(ctx, due[0].ID, t0))
			return "SM-" + id
		}
		invite("silent", "h-silent")
		delivered := invite("delivered", "h-delivered")
		if _, err := db.RecordMessageStatus(ctx, delivered, "delivered", 6, 0, t0); err != nil {
			t.Fatal(err)
		}
		if n, err := db.ReleaseStaleHeld(ctx, t0.Add(-time.Minute), t0); err != nil || n != 0 {
			t.Fatalf("a text sent just now: released %d (%v)", n, err)
		}
		if n, err := db.ReleaseStaleHeld(ctx, t0.Add(time.Minute), t0.Add(16*time.Minute)); err != nil || n != 1 {
			t.Fatalf("a silent text: released %d (%v)", n, err)
		}
		due, err := db.ClaimOutbox(ctx, t0.Add(16*time.Minute), time.Minute, 10)
		must(t, err)
		if len(due) != 1 || due[0].InviteID != "silent" || due[0].Channel != chairside.ChannelEmail {
			t.Fatalf("due: %+v", due)
		}
	})
}
