package store_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/store"
	"github.com/chairside/chairside/store/storetest"
)

// Canary values: if any of these is found in clear at rest, personal data
// leaked past the seal.
const (
	canarySSN   = "078051120"
	canaryFirst = "Zyxwvutsrq"
	canaryLast  = "Qwertyuiopasd"
	canaryDOB   = "1931-03-17"
	canaryID    = "CANARYID998877"
	canaryEmail = "canary.mailbox@example.org"
)

var canaries = []string{canarySSN, "078-05-1120", canaryFirst, canaryLast, canaryDOB, canaryID, canaryEmail}

// writeCanaries runs one whole flow with canary personal data through every
// table.
func writeCanaries(t *testing.T, db *store.DB) *chairside.Application {
	t.Helper()
	s := newSession(t, db, t0)
	must(t, db.CreateFlowToken(ctx, &chairside.FlowToken{Hash: "canary-token", LocationID: s.LocationID,
		FirstName: canaryFirst, LastName: canaryLast, ExpiresAt: t0.Add(time.Hour)}))
	must(t, db.CreateInvite(ctx, &chairside.FlowToken{Hash: "canary-invite", LocationID: s.LocationID, FirstName: canaryFirst,
		Email: canaryEmail, ExpiresAt: t0.Add(time.Hour)}, []*chairside.OutboxMessage{{LocationID: s.LocationID,
		Channel: chairside.ChannelEmail, Recipient: canaryEmail, RecipientMasked: "c•••@example.org", Body: "Hello " + canaryFirst}}))
	p := applicant(canaryFirst, canaryLast, canarySSN)
	p.DateOfBirth, p.IDNumber, p.Email = canaryDOB, canaryID, canaryEmail
	j := applicant(canaryFirst+"J", canaryLast, canarySSN)
	j.DateOfBirth = canaryDOB
	a := newApplication(t, db, s, p, &j)
	// An update rewrites the sealed columns: still no clear text.
	a.PurchaseAmountCents++
	must(t, db.UpdateApplication(ctx, a))
	pa := newLenderApplication(t, db, a, "synchrony_standard")
	must(t, db.CreateDecision(ctx, &chairside.Decision{LenderApplicationID: pa.ID, Operation: "apply", ResponseCode: chairside.ResponseApproved}))
	must(t, db.CreateConsent(ctx, &chairside.Consent{SessionID: s.ID, ApplicationID: a.ID, Kind: chairside.ConsentHardPull}))
	must(t, db.AppendEvent(ctx, &chairside.Event{SessionID: s.ID, ApplicationID: a.ID, Type: "decision.recorded", Data: map[string]any{"ssn": chairside.MaskSSN(canarySSN)}}))
	_, _, err := db.ClaimLenderCall(ctx, &chairside.LenderCall{LenderApplicationID: pa.ID, Step: chairside.StepApply,
		SessionID: s.ID, Reference: "ref-canary", RequestHash: "h", LeaseUntil: t0.Add(time.Minute)})
	must(t, err)
	// The store itself reads it all back.
	got, err := db.FindApplication(ctx, a.ID)
	must(t, err)
	if got.Primary.SSN != canarySSN || got.Primary.FirstName != canaryFirst || got.Primary.DateOfBirth != canaryDOB {
		t.Fatalf("canary application did not round-trip: %+v", got.Primary.Masked())
	}
	return a
}

// dumpTables returns every value of every column of every table as text.
func dumpTables(t *testing.T, db *store.DB) string {
	t.Helper()
	raw := store.RawDB(db)
	tables := tableNames(t, db)
	if len(tables) < 10 {
		t.Fatalf("found only tables %v", tables)
	}
	var b strings.Builder
	for _, table := range tables {
		rows, err := raw.Query(`SELECT * FROM ` + table)
		must(t, err)
		cols, _ := rows.Columns()
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		for rows.Next() {
			must(t, rows.Scan(ptrs...))
			for i, v := range vals {
				if bs, ok := v.([]byte); ok {
					v = string(bs)
				}
				fmt.Fprintf(&b, "%s.%s=%v\n", table, cols[i], v)
			}
		}
		must(t, rows.Err())
		rows.Close()
	}
	return b.String()
}

func TestNoPersonalDataInClearAtRest(t *testing.T) {
	storetest.EachEngine(t, func(t *testing.T, e storetest.Engine) {
		writeCanaries(t, e.DB)
		dump := dumpTables(t, e.DB)
		if !strings.Contains(dump, "applications.primary_sealed=v1:") {
			t.Fatal("dump does not show sealed applicants; the dump is broken")
		}
		for _, c := range canaries {
			if strings.Contains(dump, c) {
				t.Errorf("canary %q found in clear in a table", c)
			}
		}
		if e.Name != store.SQLite {
			return
		}
		// The file bytes too, write-ahead log included, before and after a
		// checkpoint.
		check := func(when string) {
			files, _ := filepath.Glob(e.DSN + "*")
			if len(files) < 2 {
				t.Fatalf("%s: expected the database and its -wal, found %v", when, files)
			}
			for _, f := range files {
				buf, err := os.ReadFile(f)
				must(t, err)
				for _, c := range canaries {
					if bytes.Contains(buf, []byte(c)) {
						t.Errorf("%s: canary %q found in clear in %s", when, c, filepath.Base(f))
					}
				}
			}
		}
		check("before checkpoint")
		_, err := store.RawDB(e.DB).Exec(`PRAGMA wal_checkpoint(FULL)`)
		must(t, err)
		check("after checkpoint")
	})
}

func TestTamperedCiphertextIsAnError(t *testing.T) {
	storetest.EachEngine(t, func(t *testing.T, e storetest.Engine) {
		db := e.DB
		a := writeCanaries(t, db)
		raw := store.RawDB(db)
		var sealed string
		must(t, raw.QueryRow(store.Rebind(db, `SELECT primary_sealed FROM applications WHERE id = ?`), a.ID).Scan(&sealed))

		// Flip one character of the ciphertext.
		i := len(sealed) - 10
		flipped := []byte(sealed)
		if flipped[i] == 'A' {
			flipped[i] = 'B'
		} else {
			flipped[i] = 'A'
		}
		_, err := raw.Exec(store.Rebind(db, `UPDATE applications SET primary_sealed = ? WHERE id = ?`), string(flipped), a.ID)
		must(t, err)
		got, err := db.FindApplication(ctx, a.ID)
		if err == nil || got != nil {
			t.Fatalf("tampered application opened: %v", got)
		}
		if chairside.ErrorCode(err) != chairside.EINTERNAL {
			t.Fatalf("tampered application: code %q, want internal", chairside.ErrorCode(err))
		}
		for _, c := range canaries {
			if strings.Contains(err.Error(), c) {
				t.Fatalf("error %q leaks %q", err, c)
			}
		}

		// A valid ciphertext moved to another row does not open either.
		s2 := newSession(t, db, t0)
		b := newApplication(t, db, s2, applicant("Other", "Person", "111223333"), nil)
		_, err = raw.Exec(store.Rebind(db, `UPDATE applications SET primary_sealed = ? WHERE id = ?`), sealed, b.ID)
		must(t, err)
		if got, err := db.FindApplication(ctx, b.ID); err == nil {
			t.Fatalf("ciphertext moved from another application opened: %v", got.Primary.Masked())
		}
		// Nor does the joint applicant moved to the primary column.
		var joint string
		must(t, raw.QueryRow(store.Rebind(db, `SELECT joint_sealed FROM applications WHERE id = ?`), a.ID).Scan(&joint))
		_, err = raw.Exec(store.Rebind(db, `UPDATE applications SET primary_sealed = ? WHERE id = ?`), joint, a.ID)
		must(t, err)
		if _, err := db.FindApplication(ctx, a.ID); err == nil {
			t.Fatal("joint ciphertext opened as the primary applicant")
		}

		// A store opened with other keys cannot read the data.
		other, err := store.Open(ctx, e.DSN, storetest.Keys(t))
		must(t, err)
		defer other.Close()
		if _, err := other.FindApplication(ctx, s2.ApplicationID); err == nil {
			t.Fatal("application opened with another keyring")
		}
	})
}

// TestNoCardColumns: card numbers and CVV are never stored (PCI DSS 3.3.1).
func TestNoCardColumns(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		raw := store.RawDB(db)
		tables := tableNames(t, db)
		if len(tables) < 10 {
			t.Fatalf("only %d tables found: %v", len(tables), tables)
		}
		for _, table := range tables {
			rows, err := raw.Query(`SELECT * FROM ` + table + ` WHERE 1 = 0`)
			must(t, err)
			cols, err := rows.Columns()
			rows.Close()
			must(t, err)
			for _, c := range cols {
				lc := strings.ToLower(c)
				for _, bad := range []string{"cvv", "cvc", "card", "pan", "account_number", "routing"} {
					if strings.Contains(lc, bad) {
						t.Errorf("column %s.%s looks like card or bank data", table, c)
					}
				}
			}
		}
	})
}

// TestSQLInjectionIsData: hostile strings are stored as data, never run.
func TestSQLInjectionIsData(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		evil := `x'); DROP TABLE sessions; --`
		_, err := db.FindSession(ctx, evil)
		wantCode(t, err, chairside.ENOTFOUND)
		_, err = db.FindLocationByEntityKey(ctx, `' OR '1'='1`)
		wantCode(t, err, chairside.ENOTFOUND)
		must(t, db.AppendEvent(ctx, &chairside.Event{SessionID: evil, Type: evil + "?", Data: map[string]any{"q": "?"}}))
		events, err := db.ListEvents(ctx, evil)
		must(t, err)
		if len(events) != 1 || events[0].Type != evil+"?" {
			t.Fatalf("events = %+v", events)
		}
		// The sessions table is still there.
		var n int
		must(t, store.RawDB(db).QueryRow(`SELECT COUNT(*) FROM sessions`).Scan(&n))
	})
}

// tableNames lists every table of the store's schema.
func tableNames(t *testing.T, db *store.DB) []string {
	t.Helper()
	q := `SELECT name FROM sqlite_master WHERE type = 'table'`
	if db.Engine() == store.Postgres {
		q = `SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()`
	}
	var tables []string
	rows, err := store.RawDB(db).Query(q)
	must(t, err)
	defer rows.Close()
	for rows.Next() {
		var name string
		must(t, rows.Scan(&name))
		tables = append(tables, name)
	}
	must(t, rows.Err())
	return tables
}
