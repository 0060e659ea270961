package store_test

import (
	"os"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/store"
	"github.com/chairside/chairside/store/storetest"
)

func newStaff(t *testing.T, db *store.DB, loc *chairside.Location, email string) *chairside.Staff {
	t.Helper()
	s := &chairside.Staff{LocationID: loc.ID, Email: email, PasswordHash: "$argon2id$fake", CreatedAt: t0}
	must(t, db.CreateStaff(ctx, s))
	return s
}

func TestStaffAccounts(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		loc := newLocation(t, db)
		s := newStaff(t, db, loc, "  Front.Desk@Example.COM ")
		if s.Email != "front.desk@example.com" {
			t.Fatalf("email stored as %q, want lower-cased", s.Email)
		}
		got, err := db.FindStaffByEmail(ctx, "FRONT.DESK@example.com")
		must(t, err)
		if !reflect.DeepEqual(got, s) {
			t.Fatalf("FindStaffByEmail = %+v, want %+v", got, s)
		}
		wantCode(t, db.CreateStaff(ctx, &chairside.Staff{LocationID: loc.ID, Email: "front.desk@EXAMPLE.com"}), chairside.ECONFLICT)
		wantCode(t, db.CreateStaff(ctx, &chairside.Staff{LocationID: "nope", Email: "x@example.com"}), chairside.ENOTFOUND)
		_, err = db.FindStaffByID(ctx, "nope")
		wantCode(t, err, chairside.ENOTFOUND)

		now := t0.Add(time.Hour)
		must(t, db.SetStaffPassword(ctx, s.ID, "$argon2id$other"))
		got, _ = db.FindStaffByID(ctx, s.ID)
		if got.PasswordHash != "$argon2id$other" {
			t.Fatalf("after SetStaffPassword: %+v", got)
		}

		sess := &chairside.StaffSession{IDHash: "h1", StaffID: s.ID, CSRFHash: "c1", CreatedAt: now, ExpiresAt: now.Add(12 * time.Hour)}
		must(t, db.CreateStaffSession(ctx, sess))
		must(t, db.DisableStaff(ctx, s.ID, now.Add(time.Minute)))
		got, _ = db.FindStaffByID(ctx, s.ID)
		if got.DisabledAt == nil {
			t.Fatal("DisableStaff left the account enabled")
		}
		gs, err := db.FindStaffSession(ctx, "h1")
		must(t, err)
		if gs.RevokedAt == nil {
			t.Fatal("DisableStaff left a session open")
		}
	})
}

func TestStaffSessionsAndSetupTokens(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := newStaff(t, db, newLocation(t, db), "manager@example.com")
		sess := &chairside.StaffSession{IDHash: "hash", StaffID: s.ID, CSRFHash: "csrf", CreatedAt: t0, ExpiresAt: t0.Add(12 * time.Hour)}
		must(t, db.CreateStaffSession(ctx, sess))
		wantCode(t, db.CreateStaffSession(ctx, sess), chairside.ECONFLICT)
		got, err := db.FindStaffSession(ctx, "hash")
		must(t, err)
		if !reflect.DeepEqual(got, sess) {
			t.Fatalf("FindStaffSession = %+v, want %+v", got, sess)
		}
		must(t, db.TouchStaffSession(ctx, "hash", t0.Add(time.Minute)))
		must(t, db.SetStaffSessionCSRF(ctx, "hash", "csrf2"))
		must(t, db.RevokeStaffSession(ctx, "hash", t0.Add(2*time.Minute)))
		got, _ = db.FindStaffSession(ctx, "hash")
		if !got.LastSeenAt.Equal(t0.Add(time.Minute)) || got.CSRFHash != "csrf2" || got.RevokedAt == nil {
			t.Fatalf("after touch, csrf and revoke: %+v", got)
		}
		_, err = db.FindStaffSession(ctx, "other")
		wantCode(t, err, chairside.ENOTFOUND)

		tok := &chairside.StaffSetupToken{Hash: "tok", StaffID: s.ID, CreatedAt: t0, ExpiresAt: t0.Add(24 * time.Hour)}
		must(t, db.CreateStaffSetupToken(ctx, tok))
		_, err = db.ConsumeStaffSetupToken(ctx, "tok", t0.Add(24*time.Hour))
		wantCode(t, err, chairside.ENOTFOUND) // expired at that instant
		used, err := db.ConsumeStaffSetupToken(ctx, "tok", t0.Add(time.Hour))
		must(t, err)
		if used.StaffID != s.ID || used.UsedAt == nil {
			t.Fatalf("ConsumeStaffSetupToken = %+v", used)
		}
		_, err = db.ConsumeStaffSetupToken(ctx, "tok", t0.Add(time.Hour))
		wantCode(t, err, chairside.ENOTFOUND) // once only
		found, err := db.FindStaffSetupToken(ctx, "tok")
		must(t, err)
		if found.UsedAt == nil {
			t.Fatal("FindStaffSetupToken lost used_at")
		}
	})
}

func TestOfficeAudit(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		loc := newLocation(t, db)
		s := newStaff(t, db, loc, "a@example.com")
		for i, action := range []string{chairside.AuditSignIn, chairside.AuditSignOut} {
			must(t, db.AppendOfficeAudit(ctx, &chairside.OfficeAuditEntry{LocationID: loc.ID, StaffID: s.ID, Action: action, IP: "192.0.2.1", At: t0.Add(time.Duration(i) * time.Second)}))
		}
		must(t, db.AppendOfficeAudit(ctx, &chairside.OfficeAuditEntry{LocationID: "elsewhere", Action: chairside.AuditSignInFailed, At: t0}))
		rows, err := db.ListOfficeAudit(ctx, loc.ID)
		must(t, err)
		if len(rows) != 2 || rows[0].Action != chairside.AuditSignIn || rows[1].Action != chairside.AuditSignOut || rows[0].IP != "192.0.2.1" {
			t.Fatalf("ListOfficeAudit = %+v", rows)
		}
	})
}

// TestOfficeAuditHasNoUpdateOrDelete reads the store's source: no
// statement changes or removes an office_audit row.
func TestOfficeAuditHasNoUpdateOrDelete(t *testing.T) {
	entries, err := os.ReadDir(".")
	must(t, err)
	bad := regexp.MustCompile(`(?is)(UPDATE\s+office_audit|DELETE\s+FROM\s+office_audit)`)
	read := 0
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".go") || strings.HasSuffix(e.Name(), "_test.go") {
			continue
		}
		buf, err := os.ReadFile(e.Name())
		must(t, err)
		read++
		if bad.Match(buf) {
			t.Errorf("%s changes or deletes office_audit rows", e.Name())
		}
	}
	if read == 0 {
		t.Fatal("read no source files")
	}
}
