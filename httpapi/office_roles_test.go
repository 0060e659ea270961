package httpapi_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/pquerna/otp"
	"github.com/pquerna/otp/totp"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/testkit"
)

// TestOfficeRoles: a front desk worker follows the day but gets 403 from
// every staff and audit call; a manager invites a front desk colleague by
// setup link, may not give the group administrator's role nor disable
// their own account, and disabling the colleague ends their session.
func TestOfficeRoles(t *testing.T) {
	eachEngine(t, config{}, func(t *testing.T, h *harness) {
		const boss, bossPW = "manager@brightsmiles.example", "the manager's long password"
		h.addStaff(t, EntityKey, boss, bossPW)
		mgr := h.staffSignIn(t, boss, bossPW)
		m := h.whoAmI(t, &mgr)
		if m["stage"] != "ready" || strings.Join(strs(m["permissions"]), ",") != "see_day,manage_staff,change_cases" {
			t.Fatalf("manager's session: %v", m)
		}

		res := h.do(t, req{method: "POST", path: "/office/staff", header: mgr.headers(true), body: map[string]string{"email": staffEmail, "role": "front_desk"}})
		inv := want(t, res, 201, "")
		link, _ := inv["setupLink"].(string)
		member := inv["member"].(map[string]any)
		if !strings.Contains(link, "/office/setup/") || member["status"] != "invited" || member["role"] != "front_desk" {
			t.Fatalf("invitation: %v", inv)
		}
		want(t, h.do(t, req{method: "POST", path: "/office/staff", header: mgr.headers(true),
			body: map[string]string{"email": "boss2@brightsmiles.example", "role": "group_admin"}}), 403, chairside.EFORBIDDEN)
		want(t, h.do(t, req{method: "POST", path: "/office/staff", header: mgr.headers(true),
			body: map[string]string{"email": staffEmail, "role": "manager"}}), 409, chairside.ECONFLICT)
		want(t, h.do(t, req{method: "POST", path: "/office/staff", header: mgr.headers(false),
			body: map[string]string{"email": "x@brightsmiles.example", "role": "manager"}}), 403, chairside.ECSRF)

		token := link[strings.LastIndex(link, "/")+1:]
		want(t, h.do(t, req{method: "POST", path: "/office/setup/" + token, body: map[string]string{"password": staffPassword}}), 204, "")
		desk := h.staffSignIn(t, staffEmail, staffPassword)
		m = h.whoAmI(t, &desk)
		if strings.Join(strs(m["permissions"]), ",") != "see_day" || m["staff"].(map[string]any)["role"] != "front_desk" {
			t.Fatalf("front desk's session: %v", m)
		}
		want(t, h.do(t, req{method: "GET", path: "/office/applications", header: desk.headers(false)}), 200, "")
		for _, q := range []req{
			{method: "GET", path: "/office/staff"},
			{method: "POST", path: "/office/staff", body: map[string]string{"email": "y@brightsmiles.example", "role": "front_desk"}},
			{method: "GET", path: "/office/audit"},
			{method: "GET", path: "/office/audit.csv"},
			{method: "PUT", path: "/office/session/office", body: map[string]string{"entityKey": EntityKey}},
		} {
			q.header = desk.headers(true)
			if res := h.do(t, q); res.status != 403 {
				t.Errorf("front desk %s %s: %d, want 403", q.method, q.path, res.status)
			}
		}

		var list struct {
			Staff []struct{ ID, Email, Role, Status string }
		}
		h.do(t, req{method: "GET", path: "/office/staff", header: mgr.headers(false)}).into(t, &list)
		ids := map[string]string{}
		for _, s := range list.Staff {
			ids[s.Email] = s.ID
		}
		if len(list.Staff) != 2 || ids[staffEmail] == "" {
			t.Fatalf("staff: %+v", list.Staff)
		}
		want(t, h.do(t, req{method: "POST", path: "/office/staff/" + ids[boss] + "/disable", header: mgr.headers(true)}), 409, chairside.ECONFLICT)
		want(t, h.do(t, req{method: "POST", path: "/office/staff/nope/disable", header: mgr.headers(true)}), 404, chairside.ENOTFOUND)
		h.clock.Advance(time.Second) // the audit log's rows in order
		want(t, h.do(t, req{method: "POST", path: "/office/staff/" + ids[staffEmail] + "/disable", header: mgr.headers(true)}), 204, "")
		want(t, h.do(t, req{method: "GET", path: "/office/applications", header: desk.headers(false)}), 401, chairside.EUNAUTHORIZED)

		// The audit log, read and exported by the manager.
		var log struct {
			Entries []struct{ Email, Action, IP, Details string }
		}
		h.clock.Advance(time.Second)
		h.do(t, req{method: "GET", path: "/office/audit", header: mgr.headers(false)}).into(t, &log)
		var actions []string
		for _, e := range log.Entries {
			actions = append(actions, e.Action)
		}
		for _, a := range []string{chairside.AuditStaffInvited, chairside.AuditSetup, chairside.AuditStaffDisabled, chairside.AuditSignIn} {
			if !strings.Contains(strings.Join(actions, ","), a) {
				t.Errorf("audit log %v lacks %s", actions, a)
			}
		}
		if log.Entries[0].Action != chairside.AuditStaffDisabled || log.Entries[0].Email != boss {
			t.Errorf("newest row: %+v, want the manager's disable", log.Entries[0])
		}
		h.clock.Advance(time.Second)
		res = h.do(t, req{method: "GET", path: "/office/audit.csv", header: mgr.headers(false)})
		lines := strings.Split(strings.TrimSpace(string(res.body)), "\n")
		if res.status != 200 || !strings.HasPrefix(res.header.Get("Content-Type"), "text/csv") || lines[0] != "Time,Staff email,Action,Address,Details" ||
			!strings.Contains(res.header.Get("Content-Disposition"), "chairside-audit-"+EntityKey) || !strings.Contains(lines[len(lines)-1], chairside.AuditViewAudit) {
			t.Fatalf("audit CSV %d %v:\n%s", res.status, res.header, res.body)
		}
		// The download is recorded as a download, after the rows it holds
		// (a read records itself after reading).
		h.clock.Advance(time.Second)
		h.do(t, req{method: "GET", path: "/office/audit", header: mgr.headers(false)}).into(t, &log)
		if log.Entries[0].Action != chairside.AuditExportAudit || log.Entries[0].Email != boss {
			t.Errorf("newest row after the download: %+v, want the manager's export", log.Entries[0])
		}
	})
}

// TestGroupAdministrator: a group administrator sees the two offices of
// their group and not a third outside it, and works in the other one;
// a manager cannot switch.
func TestGroupAdministrator(t *testing.T) {
	eachEngine(t, config{}, func(t *testing.T, h *harness) {
		ctx := context.Background()
		sister := &chairside.Location{EntityKey: "1000200030004001", Name: "Bright Smiles Uptown", State: "CA", GroupID: "group-100"}
		outside := &chairside.Location{EntityKey: "9999888877776666", Name: "Other Dental", State: "CA", GroupID: "g2"}
		for _, l := range []*chairside.Location{sister, outside} {
			if err := h.eng.DB.CreateLocation(ctx, l); err != nil {
				t.Fatal(err)
			}
		}
		h.addStaffAs(t, EntityKey, "owner@brightsmiles.example", staffPassword, chairside.StaffGroupAdmin)
		h.addStaff(t, EntityKey, staffEmail, staffPassword)
		admin := h.staffSignIn(t, "owner@brightsmiles.example", staffPassword)
		var s struct {
			Office    struct{ EntityKey string }
			Offices   []struct{ Name, EntityKey string }
			CSRFToken string
		}
		h.do(t, req{method: "GET", path: "/office/session", header: admin.headers(false)}).into(t, &s)
		h.whoAmI(t, &admin)
		var keys []string
		for _, o := range s.Offices {
			keys = append(keys, o.EntityKey)
		}
		if strings.Join(keys, ",") != EntityKey+","+sister.EntityKey {
			t.Fatalf("offices %v, want the group's two", s.Offices)
		}
		want(t, h.do(t, req{method: "PUT", path: "/office/session/office", header: admin.headers(true),
			body: map[string]string{"entityKey": outside.EntityKey}}), 404, chairside.ENOTFOUND)
		h.do(t, req{method: "PUT", path: "/office/session/office", header: admin.headers(true),
			body: map[string]string{"entityKey": sister.EntityKey}}).into(t, &s)
		if s.Office.EntityKey != sister.EntityKey {
			t.Fatalf("after switching: %+v", s.Office)
		}
		admin.csrf = s.CSRFToken
		// The session works in the sister office from now on: its invite
		// is the sister's, and the home office's list does not show it.
		want(t, h.do(t, req{method: "POST", path: "/office/invites", header: admin.headers(true),
			body: map[string]any{"purchaseAmountCents": 120000, "firstName": "Ana", "lastName": "Sister", "experienceType": "in_store"}}), 201, "")
		mgr := h.staffSignIn(t, staffEmail, staffPassword)
		home := string(h.do(t, req{method: "GET", path: "/office/applications", header: mgr.headers(false)}).body)
		there := string(h.do(t, req{method: "GET", path: "/office/applications", header: admin.headers(false)}).body)
		if strings.Contains(home, "Sister") || !strings.Contains(there, "Sister") {
			t.Fatalf("home office list %s; sister office list %s", home, there)
		}
		want(t, h.do(t, req{method: "PUT", path: "/office/session/office", header: mgr.headers(true),
			body: map[string]string{"entityKey": sister.EntityKey}}), 403, chairside.EFORBIDDEN)
	})
}

// TestOfficeTwoStepSignIn: where a second factor is required, a password
// alone reaches only the sign-in calls; an app is set up from the key
// the server answers, and the next sign-in asks for a code.
func TestOfficeTwoStepSignIn(t *testing.T) {
	sqliteOnly(t, config{}, func(t *testing.T, h *harness) {
		h.office.RequireSecondFactor = true
		h.addStaff(t, EntityKey, staffEmail, staffPassword)
		s := h.staffSignIn(t, staffEmail, staffPassword)
		m := h.whoAmI(t, &s)
		if m["stage"] != "set_up_second_factor" || len(strs(m["permissions"])) != 0 || len(m["offices"].([]any)) != 0 {
			t.Fatalf("a password alone: %v", m)
		}
		want(t, h.do(t, req{method: "GET", path: "/office/applications", header: s.headers(false)}), 403, chairside.EFORBIDDEN)
		setup := want(t, h.do(t, req{method: "POST", path: "/office/second-factor/setup", header: s.headers(true)}), 200, "")
		key := strings.ReplaceAll(setup["key"].(string), "-", "")
		if !strings.Contains(setup["uri"].(string), "secret="+key) {
			t.Fatalf("setup: %v", setup)
		}
		want(t, h.do(t, req{method: "POST", path: "/office/second-factor/confirm", header: s.headers(true), body: map[string]string{"code": "12345"}}), 401, chairside.EUNAUTHORIZED)
		codes := want(t, h.do(t, req{method: "POST", path: "/office/second-factor/confirm", header: s.headers(true),
			body: map[string]string{"code": totpCode(t, key, h.clock.Now())}}), 200, "")
		if len(codes["codes"].([]any)) != 10 {
			t.Fatalf("recovery codes: %v", codes)
		}
		want(t, h.do(t, req{method: "GET", path: "/office/applications", header: s.headers(false)}), 200, "")

		s = h.staffSignIn(t, staffEmail, staffPassword)
		want(t, h.do(t, req{method: "GET", path: "/office/applications", header: s.headers(false)}), 403, chairside.EFORBIDDEN)
		h.clock.Advance(30 * time.Second)
		m = want(t, h.do(t, req{method: "POST", path: "/office/session/second-factor", header: s.headers(true),
			body: map[string]string{"code": totpCode(t, key, h.clock.Now())}}), 200, "")
		if m["stage"] != "ready" || m["staff"].(map[string]any)["secondFactor"] != true {
			t.Fatalf("after the code: %v", m)
		}
		s.csrf = m["csrfToken"].(string)
		want(t, h.do(t, req{method: "GET", path: "/office/applications", header: s.headers(false)}), 200, "")
		if logs := h.logs.String(); strings.Contains(logs, key) {
			t.Fatal("the authenticator key reached the log")
		}
	})
}

// whoAmI answers GET /office/session and keeps the CSRF token it
// answers, which replaces the one before.
func (h *harness) whoAmI(t *testing.T, s *staffSession) map[string]any {
	t.Helper()
	m := want(t, h.do(t, req{method: "GET", path: "/office/session", header: s.headers(false)}), 200, "")
	s.csrf = m["csrfToken"].(string)
	return m
}

// totpCode is what an authenticator app with key shows at t.
func totpCode(t *testing.T, key string, at time.Time) string {
	t.Helper()
	c, err := totp.GenerateCodeCustom(key, at, totp.ValidateOpts{Period: 30, Digits: otp.DigitsSix, Algorithm: otp.AlgorithmSHA1})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// strs reads a JSON array of strings.
func strs(v any) []string {
	var out []string
	list, _ := v.([]any)
	for _, s := range list {
		out = append(out, s.(string))
	}
	return out
}

// TestOfficePasskeys: over HTTP, a passkey added while a second factor is
// to be set up answers the recovery codes; then it signs in by itself,
// cookie and all, with both factors passed.
func TestOfficePasskeys(t *testing.T) {
	// Passkeys belong to a name, never to an address such as 127.0.0.1.
	sqliteOnly(t, config{publicURL: "https://chairside.bright.example"}, func(t *testing.T, h *harness) {
		h.office.RequireSecondFactor = true
		h.addStaff(t, EntityKey, staffEmail, staffPassword)
		s := h.staffSignIn(t, staffEmail, staffPassword)
		if m := h.whoAmI(t, &s); m["passkeys"] != true {
			t.Fatalf("passkeys not offered on a name: %v", m)
		}
		phone := &testkit.Authenticator{Origin: "https://chairside.bright.example", RPID: "chairside.bright.example"}
		var opts struct {
			CeremonyID string
			Options    json.RawMessage
		}
		h.do(t, req{method: "POST", path: "/office/passkeys/begin", header: s.headers(true)}).into(t, &opts)
		codes := want(t, h.do(t, req{method: "POST", path: "/office/passkeys", header: s.headers(true),
			body: map[string]any{"ceremonyId": opts.CeremonyID, "credential": json.RawMessage(phone.Create(t, opts.Options))}}), 200, "")
		if len(codes["codes"].([]any)) != 10 {
			t.Fatalf("recovery codes: %v", codes)
		}
		want(t, h.do(t, req{method: "GET", path: "/office/applications", header: s.headers(false)}), 200, "")

		h.do(t, req{method: "POST", path: "/office/session/passkey/begin"}).into(t, &opts)
		answer := map[string]any{"ceremonyId": opts.CeremonyID, "credential": json.RawMessage(phone.Get(t, opts.Options))}
		res := h.do(t, req{method: "POST", path: "/office/session/passkey", body: answer})
		m := want(t, res, 200, "")
		if m["stage"] != "ready" || m["staff"].(map[string]any)["email"] != staffEmail {
			t.Fatalf("passkey sign-in: %v", m)
		}
		again := staffSession{cookie: staffCookieOf(t, res), csrf: m["csrfToken"].(string)}
		want(t, h.do(t, req{method: "GET", path: "/office/applications", header: again.headers(false)}), 200, "")
		want(t, h.do(t, req{method: "POST", path: "/office/session/passkey", body: answer}), 404, chairside.ENOTFOUND)
	})
	sqliteOnly(t, config{}, func(t *testing.T, h *harness) {
		h.addStaff(t, EntityKey, staffEmail, staffPassword)
		s := h.staffSignIn(t, staffEmail, staffPassword)
		if m := h.whoAmI(t, &s); m["passkeys"] != false {
			t.Fatalf("passkeys offered on an address: %v", m)
		}
		want(t, h.do(t, req{method: "POST", path: "/office/passkeys/begin", header: s.headers(true)}), 409, chairside.ECONFLICT)
	})
}
