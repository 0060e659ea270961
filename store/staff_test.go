package store_test

import (
	"os"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/store"
	"github.com/chairside/chairside/store/storetest"
)

func newStaff(t *testing.T, db *store.DB, loc *chairside.Location, email string) *chairside.Staff {
	t.Helper()
	s := &chairside.Staff{LocationID: loc.ID, Email: email, PasswordHash: "$argon2id$fake", Role: chairside.StaffFrontDesk, CreatedAt: t0}
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
		wantCode(t, db.CreateStaff(ctx, &chairside.Staff{LocationID: loc.ID, Email: "front.desk@EXAMPLE.com", Role: chairside.StaffManager}), chairside.ECONFLICT)
		wantCode(t, db.CreateStaff(ctx, &chairside.Staff{LocationID: "nope", Email: "x@example.com", Role: chairside.StaffManager}), chairside.ENOTFOUND)
		wantCode(t, db.CreateStaff(ctx, &chairside.Staff{LocationID: loc.ID, Email: "y@example.com", Role: "owner"}), chairside.EINVALID)
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
		if len(rows) != 2 || rows[0].Action != chairside.AuditSignIn || rows[1].Action != chairside.AuditSignOut || rows[0].IP != "192.0.2.1" ||
			rows[0].StaffEmail != "a@example.com" {
			t.Fatalf("ListOfficeAudit = %+v", rows)
		}
		rows, err = db.ListOfficeAuditBetween(ctx, loc.ID, t0.Add(time.Second), t0.Add(time.Hour))
		must(t, err)
		if len(rows) != 1 || rows[0].Action != chairside.AuditSignOut {
			t.Fatalf("ListOfficeAuditBetween = %+v, want the sign-out alone", rows)
		}
	})
}

// TestStaffSecondFactor: an authenticator key is sealed at rest, pending
// until confirmed with its recovery codes; each 30-second step and each
// recovery code is good once; a reset forgets both and ends the sessions.
func TestStaffSecondFactor(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := newStaff(t, db, newLocation(t, db), "desk@example.com")
		const key = "JBSWY3DPEHPK3PXP"
		must(t, db.SetStaffTOTP(ctx, s.ID, key))
		var raw string
		must(t, store.RawDB(db).QueryRowContext(ctx, store.Rebind(db, `SELECT totp_secret FROM staff WHERE id = ?`), s.ID).Scan(&raw))
		if raw == "" || strings.Contains(raw, key) {
			t.Fatalf("the key is stored as %q, want it sealed", raw)
		}
		got, err := db.FindStaffByID(ctx, s.ID)
		must(t, err)
		if got.TOTPSecret != key || got.HasSecondFactor() {
			t.Fatalf("pending key: %+v", got)
		}
		must(t, db.ConfirmStaffTOTP(ctx, s.ID, 100, []string{"h1", "h2"}, t0))
		wantCode(t, db.ConfirmStaffTOTP(ctx, s.ID, 101, nil, t0), chairside.ECONFLICT)
		wantCode(t, db.SetStaffTOTP(ctx, s.ID, "OTHER"), chairside.ECONFLICT)
		got, _ = db.FindStaffByID(ctx, s.ID)
		if !got.HasSecondFactor() {
			t.Fatal("confirmed key not on")
		}
		for _, c := range []struct {
			step int64
			want bool
		}{{100, false}, {101, true}, {101, false}, {100, false}, {103, true}} {
			if ok, err := db.UseTOTPStep(ctx, s.ID, c.step); err != nil || ok != c.want {
				t.Errorf("UseTOTPStep(%d) = %v, %v; want %v", c.step, ok, err, c.want)
			}
		}
		for _, c := range []struct {
			hash string
			want bool
		}{{"h1", true}, {"h1", false}, {"nope", false}} {
			if ok, err := db.UseRecoveryCode(ctx, s.ID, c.hash, t0); err != nil || ok != c.want {
				t.Errorf("UseRecoveryCode(%s) = %v, %v; want %v", c.hash, ok, err, c.want)
			}
		}
		if n, err := db.RecoveryCodesLeft(ctx, s.ID); err != nil || n != 1 {
			t.Fatalf("RecoveryCodesLeft = %d, %v; want 1", n, err)
		}
		sess := &chairside.StaffSession{IDHash: "s2", StaffID: s.ID, CSRFHash: "c", CreatedAt: t0, ExpiresAt: t0.Add(time.Hour)}
		must(t, db.CreateStaffSession(ctx, sess))
		must(t, db.ResetStaffSecondFactor(ctx, s.ID, t0.Add(time.Minute)))
		got, _ = db.FindStaffByID(ctx, s.ID)
		gs, _ := db.FindStaffSession(ctx, "s2")
		n, _ := db.RecoveryCodesLeft(ctx, s.ID)
		if got.TOTPSecret != "" || got.HasSecondFactor() || gs.RevokedAt == nil || n != 0 {
			t.Fatalf("after the reset: %+v, session %+v, %d codes", got, gs, n)
		}
		if ok, _ := db.UseRecoveryCode(ctx, s.ID, "h2", t0); ok {
			t.Fatal("a recovery code outlived the reset")
		}
	})
}

// TestStaffRolesSessionsAndGroups: roles are kept, a session keeps when
// it passed the second factor and which office it works in, and a
// group's offices are listed without the others.
func TestStaffRolesSessionsAndGroups(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		a, b := newLocation(t, db), newLocation(t, db)
		other := newLocation(t, db)
		other.GroupID = "g2"
		must(t, db.UpsertLocation(ctx, other))
		boss := &chairside.Staff{LocationID: a.ID, Email: "boss@example.com", Role: chairside.StaffGroupAdmin, CreatedAt: t0}
		must(t, db.CreateStaff(ctx, boss))
		newStaff(t, db, a, "desk@example.com")
		list, err := db.ListStaff(ctx, a.ID)
		must(t, err)
		if len(list) != 2 || list[0].Email != "boss@example.com" || list[0].Role != chairside.StaffGroupAdmin || list[1].Role != chairside.StaffFrontDesk {
			t.Fatalf("ListStaff = %+v", list)
		}
		sess := &chairside.StaffSession{IDHash: "s1", StaffID: boss.ID, CSRFHash: "c", CreatedAt: t0, ExpiresAt: t0.Add(time.Hour), LocationID: a.ID}
		must(t, db.CreateStaffSession(ctx, sess))
		must(t, db.PassStaffSessionSecondFactor(ctx, "s1", t0.Add(time.Second)))
		must(t, db.PassStaffSessionSecondFactor(ctx, "s1", t0.Add(time.Minute)))
		must(t, db.SetStaffSessionLocation(ctx, "s1", b.ID))
		gs, err := db.FindStaffSession(ctx, "s1")
		must(t, err)
		if gs.SecondFactorAt == nil || !gs.SecondFactorAt.Equal(t0.Add(time.Second)) || gs.LocationID != b.ID {
			t.Fatalf("session = %+v", gs)
		}
		group, err := db.ListGroupLocations(ctx, "g1")
		must(t, err)
		var ids []string
		for _, l := range group {
			ids = append(ids, l.ID)
		}
		if !slices.Contains(ids, a.ID) || !slices.Contains(ids, b.ID) || slices.Contains(ids, other.ID) {
			t.Fatalf("group g1 = %v; want %s and %s, not %s", ids, a.ID, b.ID, other.ID)
		}
		if none, err := db.ListGroupLocations(ctx, ""); err != nil || len(none) != 0 {
			t.Fatalf("no group = %v, %v", none, err)
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
