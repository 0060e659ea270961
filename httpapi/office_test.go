package httpapi_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/httpapi"
	"github.com/chairside/chairside/testkit"
)

const (
	staffEmail    = "frontdesk@brightsmiles.example"
	staffPassword = "correct horse battery staple"
)

// staffSession is a signed-in staff member's cookie and CSRF token.
type staffSession struct {
	cookie *http.Cookie
	csrf   string
}

// headers sends the cookie, and the CSRF token when withCSRF.
func (s staffSession) headers(withCSRF bool) map[string]string {
	hd := map[string]string{"Cookie": s.cookie.Name + "=" + s.cookie.Value}
	if withCSRF {
		hd["X-CSRF-Token"] = s.csrf
	}
	return hd
}

// addStaff adds a manager with a password to the office with entityKey.
func (h *harness) addStaff(t testing.TB, entityKey, email, password string) *chairside.Staff {
	t.Helper()
	return h.addStaffAs(t, entityKey, email, password, chairside.StaffManager)
}

// addStaffAs adds a staff member of role with a password.
func (h *harness) addStaffAs(t testing.TB, entityKey, email, password, role string) *chairside.Staff {
	t.Helper()
	st, err := h.office.AddStaff(context.Background(), entityKey, email, password, role)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

func (h *harness) signIn(t testing.TB, email, password string) *result {
	t.Helper()
	return h.do(t, req{method: "POST", path: "/office/session", body: map[string]string{"email": email, "password": password}})
}

// staffSignIn signs in and answers the session, failing unless it worked.
func (h *harness) staffSignIn(t testing.TB, email, password string) staffSession {
	t.Helper()
	res := h.signIn(t, email, password)
	m := want(t, res, 200, "")
	ck := staffCookieOf(t, res)
	csrf, _ := m["csrfToken"].(string)
	if csrf == "" {
		t.Fatalf("no csrfToken: %s", res.body)
	}
	return staffSession{cookie: ck, csrf: csrf}
}

func staffCookieOf(t testing.TB, res *result) *http.Cookie {
	t.Helper()
	for _, ck := range (&http.Response{Header: res.header}).Cookies() {
		if ck.Name == httpapi.StaffCookie {
			return ck
		}
	}
	t.Fatalf("no %s cookie in %v", httpapi.StaffCookie, res.header.Values("Set-Cookie"))
	return nil
}

func (h *harness) audit(t testing.TB, locationID string) []string {
	t.Helper()
	rows, err := h.eng.DB.ListOfficeAudit(context.Background(), locationID)
	if err != nil {
		t.Fatal(err)
	}
	var actions []string
	for _, r := range rows {
		actions = append(actions, r.Action)
	}
	return actions
}

// TestOfficeLockout: five wrong passwords lock the account for 15 minutes,
// the right password too; after that it signs in. Passwords never reach
// the log.
func TestOfficeLockout(t *testing.T) {
	eachEngine(t, config{}, func(t *testing.T, h *harness) {
		st := h.addStaff(t, EntityKey, staffEmail, staffPassword)
		unknown := want(t, h.signIn(t, "nobody@example.com", "wrong password 0"), 401, chairside.EUNAUTHORIZED)
		for i := 1; i <= 4; i++ {
			m := want(t, h.signIn(t, staffEmail, "wrong password "+string(rune('0'+i))), 401, chairside.EUNAUTHORIZED)
			if m["message"] != unknown["message"] {
				t.Fatalf("wrong password says %q, unknown email %q: they must not differ", m["message"], unknown["message"])
			}
		}
		res := h.signIn(t, staffEmail, "wrong password 5")
		m := want(t, res, 429, chairside.ERATELIMITED)
		if m["message"] != "Too many tries. Try again in 15 minutes or ask your office manager." || res.header.Get("Retry-After") != "900" {
			t.Fatalf("lock: %v, Retry-After %q", m, res.header.Get("Retry-After"))
		}
		h.clock.Advance(14 * time.Minute)
		want(t, h.signIn(t, staffEmail, staffPassword), 429, chairside.ERATELIMITED)
		h.clock.Advance(time.Minute)
		h.staffSignIn(t, staffEmail, staffPassword)

		actions := strings.Join(h.audit(t, st.LocationID), ",")
		for _, a := range []string{chairside.AuditSignInFailed, chairside.AuditLocked, chairside.AuditSignIn} {
			if !strings.Contains(actions, a) {
				t.Errorf("audit log %s lacks %s", actions, a)
			}
		}
		logs := h.logs.String()
		for _, pw := range []string{staffPassword, "wrong password"} {
			if strings.Contains(logs, pw) {
				t.Fatalf("a password reached the log")
			}
		}
	})
}

// TestOfficeCookie checks the staff cookie's attributes, with and without
// https.
func TestOfficeCookie(t *testing.T) {
	for _, https := range []bool{false, true} {
		sqliteOnly(t, config{hsts: https}, func(t *testing.T, h *harness) {
			h.addStaff(t, EntityKey, staffEmail, staffPassword)
			s := h.staffSignIn(t, staffEmail, staffPassword)
			ck := s.cookie
			if !ck.HttpOnly || ck.SameSite != http.SameSiteStrictMode || ck.Path != "/" || ck.Secure != https || len(ck.Value) < 40 {
				t.Fatalf("https=%v: cookie %+v", https, ck)
			}
		})
	}
}

// TestOfficeCSRF: sign-out needs the session's CSRF token; a token from
// before a refresh no longer works.
func TestOfficeCSRF(t *testing.T) {
	sqliteOnly(t, config{}, func(t *testing.T, h *harness) {
		st := h.addStaff(t, EntityKey, staffEmail, staffPassword)
		s := h.staffSignIn(t, staffEmail, staffPassword)
		want(t, h.do(t, req{method: "DELETE", path: "/office/session", header: s.headers(false)}), 403, chairside.ECSRF)
		wrong := s.headers(false)
		wrong["X-CSRF-Token"] = s.csrf + "x"
		want(t, h.do(t, req{method: "DELETE", path: "/office/session", header: wrong}), 403, chairside.ECSRF)

		m := want(t, h.do(t, req{method: "GET", path: "/office/session", header: s.headers(false)}), 200, "")
		if m["staff"].(map[string]any)["email"] != staffEmail || m["office"].(map[string]any)["name"] != "Bright Smiles Dental" {
			t.Fatalf("session: %v", m)
		}
		old := s.csrf
		s.csrf = m["csrfToken"].(string)
		if s.csrf == old {
			t.Fatal("GET /office/session kept the CSRF token")
		}
		stale := s.headers(false)
		stale["X-CSRF-Token"] = old
		want(t, h.do(t, req{method: "DELETE", path: "/office/session", header: stale}), 403, chairside.ECSRF)

		res := h.do(t, req{method: "DELETE", path: "/office/session", header: s.headers(true)})
		want(t, res, 204, "")
		if ck := staffCookieOf(t, res); ck.MaxAge >= 0 {
			t.Fatalf("sign-out left the cookie: %+v", ck)
		}
		want(t, h.do(t, req{method: "GET", path: "/office/session", header: s.headers(false)}), 401, chairside.EUNAUTHORIZED)
		if !strings.Contains(strings.Join(h.audit(t, st.LocationID), ","), chairside.AuditSignOut) {
			t.Fatal("sign-out not in the audit log")
		}
	})
}

// TestOfficeExpiry: 30 idle minutes end a session, and 12 hours end any.
func TestOfficeExpiry(t *testing.T) {
	sqliteOnly(t, config{}, func(t *testing.T, h *harness) {
		h.addStaff(t, EntityKey, staffEmail, staffPassword)
		s := h.staffSignIn(t, staffEmail, staffPassword)
		h.clock.Advance(29 * time.Minute)
		want(t, h.do(t, req{method: "GET", path: "/office/session", header: s.headers(false)}), 200, "")
		h.clock.Advance(30 * time.Minute)
		want(t, h.do(t, req{method: "GET", path: "/office/session", header: s.headers(false)}), 401, chairside.EUNAUTHORIZED)

		s = h.staffSignIn(t, staffEmail, staffPassword)
		for range 12 * 3 {
			h.clock.Advance(20 * time.Minute)
			res := h.do(t, req{method: "GET", path: "/office/session", header: s.headers(false)})
			if res.status == 401 {
				want(t, res, 401, chairside.EUNAUTHORIZED)
				return
			}
			want(t, res, 200, "")
		}
		t.Fatal("an active session outlived 12 hours")
	})
}

// TestOfficeDisabled: a disabled account cannot sign in, and its open
// session ends.
func TestOfficeDisabled(t *testing.T) {
	eachEngine(t, config{}, func(t *testing.T, h *harness) {
		h.addStaff(t, EntityKey, staffEmail, staffPassword)
		s := h.staffSignIn(t, staffEmail, staffPassword)
		if err := h.office.DisableStaff(context.Background(), strings.ToUpper(staffEmail)); err != nil {
			t.Fatal(err)
		}
		want(t, h.do(t, req{method: "GET", path: "/office/session", header: s.headers(false)}), 401, chairside.EUNAUTHORIZED)
		want(t, h.signIn(t, staffEmail, staffPassword), 401, chairside.EUNAUTHORIZED)
	})
}

// TestOfficeSetupLink: a setup link sets the password once; a refused
// password leaves it usable.
func TestOfficeSetupLink(t *testing.T) {
	eachEngine(t, config{}, func(t *testing.T, h *harness) {
		st := h.addStaff(t, EntityKey, staffEmail, "")
		want(t, h.signIn(t, staffEmail, ""), 401, chairside.EUNAUTHORIZED)
		token, _, err := h.office.NewSetupLink(context.Background(), st)
		if err != nil {
			t.Fatal(err)
		}
		path := "/office/setup/" + token
		m := want(t, h.do(t, req{method: "POST", path: path, body: map[string]string{"password": "short"}}), 400, chairside.EINVALID)
		if !strings.Contains(m["message"].(string), "12") {
			t.Fatalf("short password: %v", m)
		}
		want(t, h.do(t, req{method: "POST", path: path, body: map[string]string{"password": strings.ToUpper(staffEmail)}}), 400, chairside.EINVALID)
		want(t, h.do(t, req{method: "POST", path: path, body: map[string]string{"password": staffPassword}}), 204, "")
		want(t, h.do(t, req{method: "POST", path: path, body: map[string]string{"password": "another long password"}}), 404, chairside.ENOTFOUND)
		h.staffSignIn(t, staffEmail, staffPassword)
		want(t, h.signIn(t, staffEmail, "another long password"), 401, chairside.EUNAUTHORIZED)
		if !strings.Contains(strings.Join(h.audit(t, st.LocationID), ","), chairside.AuditSetup) {
			t.Fatal("setup not in the audit log")
		}
	})
}

// TestSetupLinkOfADisabledAccount: disabling an account spends the setup
// links sent to it, and a link made after it is refused too: none sets a
// password (each answers 404, as a used link does).
func TestSetupLinkOfADisabledAccount(t *testing.T) {
	eachEngine(t, config{}, func(t *testing.T, h *harness) {
		ctx := context.Background()
		st := h.addStaff(t, EntityKey, staffEmail, "")
		before, _, err := h.office.NewSetupLink(ctx, st)
		if err != nil {
			t.Fatal(err)
		}
		if err := h.office.DisableStaff(ctx, staffEmail); err != nil {
			t.Fatal(err)
		}
		after, _, err := h.office.NewSetupLink(ctx, st)
		if err != nil {
			t.Fatal(err)
		}
		for _, token := range []string{before, after} {
			want(t, h.do(t, req{method: "POST", path: "/office/setup/" + token, body: map[string]string{"password": staffPassword}}), 404, chairside.ENOTFOUND)
		}
		if got, err := h.eng.DB.FindStaffByID(ctx, st.ID); err != nil || got.PasswordHash != "" {
			t.Fatalf("a disabled account's password was set: %v", err)
		}
	})
}

// TestOfficeScoping: staff see their own office's application and get 404
// for another office's.
func TestOfficeScoping(t *testing.T) {
	eachEngine(t, config{}, func(t *testing.T, h *harness) {
		other := &chairside.Location{EntityKey: "9999888877776666", Name: "Other Dental", State: "CA", GroupID: "g2"}
		if err := h.eng.DB.CreateLocation(context.Background(), other); err != nil {
			t.Fatal(err)
		}
		st := h.addStaff(t, EntityKey, staffEmail, staffPassword)
		h.addStaff(t, other.EntityKey, "desk@other.example", staffPassword)

		sid := h.start(t)
		want(t, h.prequalify(t, sid, "synchrony_standard", testkit.Applicant("Approve", "123450901")), 200, "")
		sess, err := h.db.FindSession(context.Background(), sha(sid))
		if err != nil || sess.ApplicationID == "" {
			t.Fatalf("no application: %v", err)
		}
		path := "/office/applications/" + sess.ApplicationID

		mine := h.staffSignIn(t, staffEmail, staffPassword)
		m := want(t, h.do(t, req{method: "GET", path: path, header: mine.headers(false)}), 200, "")
		lenders := m["lenders"].([]any)
		if m["lastName"] != "Approve" || len(lenders) != 1 || lenders[0].(map[string]any)["responseCode"] == nil {
			t.Fatalf("summary: %v", m)
		}
		body := strings.ToLower(string(h.do(t, req{method: "GET", path: path, header: mine.headers(false)}).body))
		for _, secret := range []string{"123450901", "ssn", "dateofbirth", "income"} {
			if strings.Contains(body, secret) {
				t.Fatalf("summary shows %s: %s", secret, body)
			}
		}
		theirs := h.staffSignIn(t, "desk@other.example", staffPassword)
		want(t, h.do(t, req{method: "GET", path: path, header: theirs.headers(false)}), 404, chairside.ENOTFOUND)
		want(t, h.do(t, req{method: "GET", path: "/office/applications/nope", header: mine.headers(false)}), 404, chairside.ENOTFOUND)
		if !strings.Contains(strings.Join(h.audit(t, st.LocationID), ","), chairside.AuditViewApplication) {
			t.Fatal("viewing not in the audit log")
		}
	})
}

// TestOfficeAndPatientSessionsApart: the patient's header never authorises
// an office call, nor the staff cookie a patient call.
func TestOfficeAndPatientSessionsApart(t *testing.T) {
	sqliteOnly(t, config{}, func(t *testing.T, h *harness) {
		h.addStaff(t, EntityKey, staffEmail, staffPassword)
		s := h.staffSignIn(t, staffEmail, staffPassword)
		sid := h.start(t)
		want(t, h.do(t, req{method: "GET", path: "/office/session", session: sid}), 401, chairside.EUNAUTHORIZED)
		want(t, h.do(t, req{method: "GET", path: "/office/session", header: map[string]string{"Cookie": httpapi.StaffCookie + "=" + sid}}), 401, chairside.EUNAUTHORIZED)
		want(t, h.do(t, req{method: "GET", path: "/locations/current", header: s.headers(true)}), 401, chairside.EUNAUTHORIZED)
		want(t, h.do(t, req{method: "GET", path: "/locations/current", header: map[string]string{"X-Web-Session-Id": s.cookie.Value}}), 401, chairside.EUNAUTHORIZED)
	})
}

// TestOfficeHistorySaysHowItEnded: the history's finish names the outcome
// the server recorded — a patient declined who pressed Finish ended
// "declined", not as if they had signed (before, every finish read only
// "Finished").
func TestOfficeHistorySaysHowItEnded(t *testing.T) {
	eachEngine(t, config{}, func(t *testing.T, h *harness) {
		h.addStaff(t, EntityKey, staffEmail, staffPassword)
		sid := h.start(t)
		want(t, h.prequalify(t, sid, "synchrony_standard", testkit.Applicant("Decline", "123450902")), 200, "")
		sess, err := h.db.FindSession(context.Background(), sha(sid))
		if err != nil || sess.ApplicationID == "" {
			t.Fatalf("no application: %v", err)
		}
		want(t, h.do(t, req{method: "POST", path: "/flow/finish/completed", session: sid}), 200, "")
		mine := h.staffSignIn(t, staffEmail, staffPassword)
		m := want(t, h.do(t, req{method: "GET", path: "/office/applications/" + sess.ApplicationID, header: mine.headers(false)}), 200, "")
		events := m["events"].([]any)
		last := events[len(events)-1].(map[string]any)
		if last["type"] != "flow.finished" || last["outcome"] != "declined" {
			t.Fatalf("last event %v, want flow.finished with outcome declined", last)
		}
	})
}
