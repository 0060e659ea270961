package httpapi_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/officefile"
	"github.com/chairside/chairside/testkit"
)

// otherOffice creates a second office, in a group of its own, and answers
// a session started there.
func otherOffice(t *testing.T, h *harness, entityKey, group string) string {
	t.Helper()
	loc := &chairside.Location{EntityKey: entityKey, Name: "Other Dental", State: "CA", GroupID: group,
		Waterfall: []chairside.WaterfallStep{{LenderKey: "fortiva_standard", Role: chairside.RolePrimary, ApplyMode: chairside.ModePrequalify}}}
	if err := h.db.CreateLocation(context.Background(), loc); err != nil {
		t.Fatal(err)
	}
	m := want(t, h.do(t, req{method: "POST", path: "/flow/start/entity-keys/" + entityKey}), 200, "")
	return m["session"].(map[string]any)["webSessionId"].(string)
}

// importHelp imports an office file for the test office (its waterfall as
// seeded) with extra office-file lines, as `chairside office import` does.
func importHelp(t *testing.T, h *harness, extra string) {
	t.Helper()
	file := `- entityKey: "` + EntityKey + `"
  name: Bright Smiles Dental
  state: CA
  groupId: group-100
  brandName: Bright Smiles
  waterfall:
    - { providerKey: synchrony_standard, role: primary, applyMode: prequalify }
    - { providerKey: fortiva_standard, role: secondary, applyMode: prequalify, autoSubmit: true }
    - { providerKey: snap_standard, role: tertiary, applyMode: prequalify }
` + extra
	offices, err := officefile.Parse("offices.yaml", []byte(file))
	if err != nil {
		t.Fatal(err)
	}
	if err := officefile.Import(context.Background(), h.db, offices); err != nil {
		t.Fatal(err)
	}
}

// TestHelpOverrideForOneOffice: help content imported for one office is
// what that office's patients get at once, from the running server (no
// rebuild, no restart); another office's patients and a call without a
// session get the defaults, and the office's glossary, which it did not
// replace, stays the default one. Removing it brings the defaults back.
func TestHelpOverrideForOneOffice(t *testing.T) {
	eachEngine(t, config{}, func(t *testing.T, h *harness) {
		ours := h.start(t)
		theirs := otherOffice(t, h, "1000200030009400", "group-400")
		faqs := func(sid string) string {
			m := want(t, h.do(t, req{method: "GET", path: "/help/faqs", session: sid}), 200, "")
			return fmt.Sprint(m["faqs"])
		}
		defaults := faqs("")
		if !strings.Contains(defaults, "Will checking my options hurt my credit score?") || faqs(ours) != defaults {
			t.Fatalf("before the import: %s", faqs(ours))
		}
		glossary := fmt.Sprint(want(t, h.do(t, req{method: "GET", path: "/help/glossary", session: ours}), 200, "")["entries"])

		importHelp(t, h, `  help:
    en:
      faqs:
        - title: Do you take my insurance?
          facts: ["Yes: we bill your insurer first, and financing covers the rest."]
`)
		if got := faqs(ours); !strings.Contains(got, "Do you take my insurance?") || strings.Contains(got, "hurt my credit score") {
			t.Fatalf("the office's own questions: %s", got)
		}
		if faqs(theirs) != defaults || faqs("") != defaults {
			t.Fatalf("another office, or no session, got the office's questions: %s / %s", faqs(theirs), faqs(""))
		}
		if got := fmt.Sprint(want(t, h.do(t, req{method: "GET", path: "/help/glossary", session: ours}), 200, "")["entries"]); got != glossary {
			t.Errorf("the glossary, not replaced, changed: %s", got)
		}

		importHelp(t, h, "")
		if faqs(ours) != defaults {
			t.Errorf("after removing the office's questions: %s", faqs(ours))
		}
	})
}

// TestHelpGroupOverride: a group's content reaches every office of the
// group without content of its own, and not another group's.
func TestHelpGroupOverride(t *testing.T) {
	sqliteOnly(t, config{}, func(t *testing.T, h *harness) {
		ours := h.start(t)
		sameGroup := otherOffice(t, h, "1000200030009401", "group-100")
		otherGroup := otherOffice(t, h, "1000200030009402", "group-401")
		importHelp(t, h, `  groupHelp:
    en:
      glossary:
        - { term: Copay, definition: The part of a visit's cost you pay yourself. }
`)
		for sid, wantCopay := range map[string]bool{ours: true, sameGroup: true, otherGroup: false, "": false} {
			m := want(t, h.do(t, req{method: "GET", path: "/help/glossary", session: sid}), 200, "")
			if strings.Contains(fmt.Sprint(m["entries"]), "Copay") != wantCopay {
				t.Errorf("session %q: %v", sid, m["entries"])
			}
		}
	})
}

// TestHelpCachingAndLanguage: a strong ETag and a minute of private
// caching; If-None-Match answers 304; a language without content is served
// in English and says so; Accept-Language is read; a bad lang is 400; a
// session no longer live is ignored.
func TestHelpCachingAndLanguage(t *testing.T) {
	sqliteOnly(t, config{}, func(t *testing.T, h *harness) {
		res := h.do(t, req{method: "GET", path: "/help/faqs"})
		want(t, res, 200, "")
		etag := res.header.Get("ETag")
		if !strings.HasPrefix(etag, `"`) || strings.HasPrefix(etag, "W/") || res.header.Get("Cache-Control") != "private, max-age=60" {
			t.Fatalf("headers: %v", res.header)
		}
		for _, inm := range []string{etag, `"other", ` + etag, "W/" + etag, "*"} {
			res := h.do(t, req{method: "GET", path: "/help/faqs", header: map[string]string{"If-None-Match": inm}})
			if res.status != 304 || len(res.body) != 0 || res.header.Get("ETag") != etag {
				t.Errorf("If-None-Match %s: %d %q", inm, res.status, res.body)
			}
		}
		want(t, h.do(t, req{method: "GET", path: "/help/faqs", header: map[string]string{"If-None-Match": `"stale"`}}), 200, "")
		if g := h.do(t, req{method: "GET", path: "/help/glossary"}); g.header.Get("ETag") == etag {
			t.Error("the glossary has the questions' ETag")
		}

		for _, tc := range []struct{ path, accept, lang string }{
			{"/help/faqs?lang=es", "", "es"},
			{"/help/faqs?lang=en-US", "", "en"},
			{"/help/faqs?lang=fr", "", "en"}, // no French: English, and the answer says so
			{"/help/faqs", "es-MX,es;q=0.9", "es"},
			{"/help/faqs", "garbage;;", "en"},
		} {
			m := want(t, h.do(t, req{method: "GET", path: tc.path, header: map[string]string{"Accept-Language": tc.accept}}), 200, "")
			if m["language"] != tc.lang {
				t.Errorf("%s %s: language %v", tc.path, tc.accept, m["language"])
			}
		}
		want(t, h.do(t, req{method: "GET", path: "/help/faqs?lang=english!"}), 400, chairside.EBADREQUEST)

		sid := h.start(t)
		want(t, h.do(t, req{method: "POST", path: "/flow/finish/canceled", session: sid}), 200, "")
		want(t, h.do(t, req{method: "GET", path: "/help/faqs", session: sid}), 200, "")
		want(t, h.do(t, req{method: "GET", path: "/help/faqs", session: "not-a-session"}), 200, "")
	})
}

// TestGlossarySearch: any case, terms first, then definitions; q of 1 to
// 64 characters.
func TestGlossarySearch(t *testing.T) {
	sqliteOnly(t, config{}, func(t *testing.T, h *harness) {
		terms := func(q string) []string {
			m := want(t, h.do(t, req{method: "GET", path: "/help/glossary/search?q=" + q}), 200, "")
			var out []string
			for _, e := range m["entries"].([]any) {
				out = append(out, e.(map[string]any)["term"].(string))
			}
			return out
		}
		got := terms("CREDIT")
		if len(got) < 4 || got[0] != "Soft credit check" || got[1] != "Hard credit check" || got[2] != "Credit limit" {
			t.Fatalf("credit: %v", got)
		}
		for i, term := range got {
			if !strings.Contains(strings.ToLower(term), "credit") {
				for _, later := range got[i:] {
					if strings.Contains(strings.ToLower(later), "credit") {
						t.Fatalf("a term match after a definition match: %v", got)
					}
				}
				break
			}
		}
		if got := terms("interest"); len(got) == 0 || got[0] != "Deferred interest" {
			t.Errorf("interest: %v", got)
		}
		if got := terms("zzzz"); len(got) != 0 {
			t.Errorf("no match: %v", got)
		}
		want(t, h.do(t, req{method: "GET", path: "/help/glossary/search?q="}), 400, chairside.EBADREQUEST)
		want(t, h.do(t, req{method: "GET", path: "/help/glossary/search?q=" + strings.Repeat("a", 65)}), 400, chairside.EBADREQUEST)
	})
}

// TestDocumentsAPI: the documents pages for an office and lender, with a
// session and without; unknown pages, lenders and sheets are JSON 404s.
func TestDocumentsAPI(t *testing.T) {
	sqliteOnly(t, config{}, func(t *testing.T, h *harness) {
		sid := h.start(t)
		doc := func(path, session string) map[string]any {
			return want(t, h.do(t, req{method: "GET", path: path, session: session}), 200, "")
		}
		if c := doc("/documents/privacyNotice", sid)["content"].(string); !strings.Contains(c, "Bright Smiles") {
			t.Errorf("privacy notice of the office: %s", c)
		}
		if c := doc("/documents/privacyNotice", "")["content"].(string); !strings.Contains(c, "the dental practice") {
			t.Errorf("privacy notice without a session: %s", c)
		}
		// The lender: the office's first before any application, the one
		// asked last after one, or the one named.
		if id := doc("/documents/arbitration", sid)["id"]; id != "synchrony_standard/arbitration" {
			t.Errorf("the first lender's: %v", id)
		}
		want(t, h.prequalify(t, sid, "snap_standard", testkit.Applicant("Approve", "123450911")), 200, "")
		if id := doc("/documents/creditReport", sid)["id"]; id != "snap_standard/credit_report" {
			t.Errorf("the lender asked last: %v", id)
		}
		if id := doc("/documents/creditReport?providerKey=fortiva_standard", sid)["id"]; id != "fortiva_standard/credit_report" {
			t.Errorf("the lender named: %v", id)
		}
		if id := doc("/documents/electronicDisclosuresAndSignatures?providerKey=ads_standard", "")["id"]; id != "ads_standard/electronic_disclosures" {
			t.Errorf("without a session: %v", id)
		}
		for _, q := range []req{
			{method: "GET", path: "/documents/terms-of-love", session: sid},
			{method: "GET", path: "/documents/arbitration"},
			{method: "GET", path: "/documents/arbitration?providerKey=ads_standard", session: sid}, // not this office's
			{method: "GET", path: "/documents/arbitration?providerKey=nope_standard"},
			{method: "GET", path: "/documents/pdf/nope_standard-rates.pdf"},
			{method: "GET", path: "/documents/pdf/synchrony_standard-rates.txt"},
			{method: "GET", path: "/documents/pdf/Synchrony_standard-rates.pdf"},
			{method: "GET", path: "/documents/pdf/..%2Fetc-rates.pdf"},
		} {
			want(t, h.do(t, q), 404, chairside.ENOTFOUND)
		}
		res := h.do(t, req{method: "GET", path: "/documents/pdf/snap_standard-rates.pdf"})
		if res.status != 200 || !strings.HasPrefix(string(res.body), "%PDF-1.4") || !strings.Contains(string(res.body), "Snap Lease-to-Own rates") {
			t.Errorf("snap's rates sheet: %d %.80s", res.status, res.body)
		}
		// A link opened by the browser names the patient's language; the browser's own Accept-Language does not decide.
		es := h.do(t, req{method: "GET", path: "/documents/pdf/snap_standard-rates.pdf?lang=es", header: map[string]string{"Accept-Language": "en"}})
		if es.status != 200 || !strings.Contains(string(es.body), "Tasas de Snap Lease-to-Own") {
			t.Errorf("snap's rates sheet in Spanish: %d %.200s", es.status, es.body)
		}
		html := want(t, h.do(t, req{method: "GET", path: "/providers/synchrony_standard/disclosures-html", session: sid}), 200, "")
		if s := html["html"].(string); !strings.HasPrefix(s, "<p>") || strings.Contains(s, "\n\n") {
			t.Errorf("disclosures as HTML: %s", s)
		}
	})
}
