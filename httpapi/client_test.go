package httpapi_test

import (
	"context"
	"testing"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/flow"
	"github.com/chairside/chairside/httpapi"
	"github.com/chairside/chairside/testkit"
)

// from is a request's X-Forwarded-For header, as a proxy would send it.
func from(chain string) map[string]string { return map[string]string{"X-Forwarded-For": chain} }

// burnBudget spends a client's rate budget (config rate 1, burst 3) and
// answers the status of the call after it.
func burnBudget(t *testing.T, h *harness, header map[string]string) int {
	t.Helper()
	for range 3 {
		h.do(t, req{method: "GET", path: "/internal/version", header: header})
	}
	return h.do(t, req{method: "GET", path: "/internal/version", header: header}).status
}

// TestTrustedProxy: behind a proxy listed as trusted, two clients get
// separate rate budgets and each consent records its own client's address;
// a chain whose left end the client wrote itself is read from the right.
func TestTrustedProxy(t *testing.T) {
	sqliteOnly(t, config{rate: 1, burst: 3, proxies: "127.0.0.1"}, func(t *testing.T, h *harness) {
		if got := burnBudget(t, h, from("203.0.113.1")); got != 429 {
			t.Fatalf("first client over its budget: %d, want 429", got)
		}
		// The second client's chain starts with an address it made up.
		if got := h.do(t, req{method: "GET", path: "/internal/version", header: from("203.0.113.1, 203.0.113.2")}).status; got != 200 {
			t.Fatalf("second client: %d, want its own budget", got)
		}
	})
	sqliteOnly(t, config{proxies: "127.0.0.0/8"}, func(t *testing.T, h *harness) {
		if ip := consentIP(t, h, from("198.51.100.7")); ip != "198.51.100.7" {
			t.Fatalf("consent recorded %q, want the client's address", ip)
		}
		// The office audit and the sign-in lock know the client too: five
		// wrong tries lock one client out, not the office behind the same
		// proxy.
		st := h.addStaff(t, EntityKey, staffEmail, staffPassword)
		signIn := func(password, client string) *result {
			return h.do(t, req{method: "POST", path: "/office/session", header: from(client),
				body: map[string]string{"email": staffEmail, "password": password}})
		}
		for range 5 {
			signIn("wrong password", "203.0.113.66")
		}
		want(t, signIn(staffPassword, "203.0.113.66"), 429, chairside.ERATELIMITED)
		want(t, signIn(staffPassword, "198.51.100.7"), 200, "")
		entries, err := h.eng.DB.ListOfficeAudit(context.Background(), st.LocationID)
		if err != nil {
			t.Fatal(err)
		}
		ips := map[string]bool{}
		for _, e := range entries {
			ips[e.IP] = true
		}
		if !ips["203.0.113.66"] || !ips["198.51.100.7"] || ips["127.0.0.1"] {
			t.Errorf("the office audit recorded %v, want each client's own address and never the proxy's", ips)
		}
	})
}

// TestUntrustedForwardedFor: with no proxy trusted (the default) the
// header is the client's own word and changes nothing: one budget for the
// connection's address, which is what consents record.
func TestUntrustedForwardedFor(t *testing.T) {
	sqliteOnly(t, config{rate: 1, burst: 3}, func(t *testing.T, h *harness) {
		if got := burnBudget(t, h, from("203.0.113.1")); got != 429 {
			t.Fatalf("over the budget: %d, want 429", got)
		}
		if got := h.do(t, req{method: "GET", path: "/internal/version", header: from("203.0.113.2")}).status; got != 429 {
			t.Fatalf("a spoofed header bought a new budget: %d", got)
		}
	})
	sqliteOnly(t, config{proxies: "10.0.0.0/8"}, func(t *testing.T, h *harness) {
		if ip := consentIP(t, h, from("198.51.100.7")); ip != "127.0.0.1" {
			t.Fatalf("consent recorded %q from a peer no one trusts, want 127.0.0.1", ip)
		}
	})
}

// consentIP gives the prequalification consent through a proxy's header
// and answers the address the consent record holds.
func consentIP(t *testing.T, h *harness, header map[string]string) string {
	t.Helper()
	const key = "synchrony_standard"
	sid := h.start(t)
	want(t, h.do(t, req{method: "POST", path: "/providers/" + key + "/prequalify", session: sid, header: header, body: flow.SubmitRequest{
		Primary: testkit.Applicant("Approve", "123450731"), Consent: testkit.Ptr(h.consent(t, sid, key, flow.DocPrequalification)),
	}}), 200, "")
	sess, err := h.db.FindSession(context.Background(), sha(sid))
	if err != nil {
		t.Fatal(err)
	}
	consents, err := h.db.ListConsents(context.Background(), sess.ApplicationID)
	if err != nil || len(consents) == 0 {
		t.Fatalf("consents: %v %v", consents, err)
	}
	for _, c := range consents {
		if c.Kind == chairside.ConsentSoftPull {
			return c.IP
		}
	}
	t.Fatalf("no soft-pull consent among %d", len(consents))
	return ""
}

// TestParseProxies: addresses and prefixes, IPv4 and IPv6; anything else
// is refused with its text.
func TestParseProxies(t *testing.T) {
	got, err := httpapi.ParseProxies(" 10.0.0.0/8, 192.0.2.7 2001:db8::/32 ::ffff:198.51.100.1")
	if err != nil || len(got) != 4 || got[1].String() != "192.0.2.7/32" || got[3].String() != "198.51.100.1/32" {
		t.Fatalf("%v %v", got, err)
	}
	if _, err := httpapi.ParseProxies("10.0.0.0/8,proxy.internal"); err == nil {
		t.Fatal("a host name was taken for an address")
	}
}
