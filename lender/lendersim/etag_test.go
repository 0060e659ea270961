package lendersim_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/chairside/chairside/catalogue"
	"github.com/chairside/chairside/lender/lendersim"
	"github.com/chairside/chairside/lender/protocol"
)

// getDocument asks for a document in a language, If-None-Match
// ifNoneMatch when it is not empty.
func getDocument(t *testing.T, srv *httptest.Server, kind, lang, ifNoneMatch string) answer {
	t.Helper()
	req, err := http.NewRequest("GET", srv.URL+lenderPath(catalogue.HFD, "/documents/"+kind), nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+apiKey)
	req.Header.Set("Accept-Language", lang)
	req.Header.Set(protocol.HeaderCorrelationID, "cid-etag")
	if ifNoneMatch != "" {
		req.Header.Set(protocol.HeaderIfNoneMatch, ifNoneMatch)
	}
	res, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return answer{status: res.StatusCode, header: res.Header, body: raw}
}

// TestDocumentETag: a document comes with a strong ETag of its own in
// each language; If-None-Match naming it (alone, in a list, weak, or "*")
// is answered 304 without a body, anything else in full.
func TestDocumentETag(t *testing.T) {
	_, srv := start(t, lendersim.Options{})
	en := getDocument(t, srv, "terms", "en", "")
	es := getDocument(t, srv, "terms", "es", "")
	tag, tagES := en.header.Get(protocol.HeaderETag), es.header.Get(protocol.HeaderETag)
	if en.status != 200 || es.status != 200 || len(tag) < 3 || tag[0] != '"' || tagES == tag || tagES == "" {
		t.Fatalf("ETags %q (%d) and %q (%d), want two strong tags", tag, en.status, tagES, es.status)
	}
	if again := getDocument(t, srv, "terms", "en", ""); again.header.Get(protocol.HeaderETag) != tag {
		t.Fatalf("the same document got another ETag: %q", again.header.Get(protocol.HeaderETag))
	}
	for _, inm := range []string{tag, `"nope", ` + tag, "W/" + tag, "*"} {
		a := getDocument(t, srv, "terms", "en", inm)
		if a.status != http.StatusNotModified || len(a.body) != 0 || a.header.Get(protocol.HeaderETag) != tag ||
			a.header.Get(protocol.HeaderCorrelationID) != "cid-etag" {
			t.Errorf("If-None-Match %s: %d %q %v, want 304 without a body", inm, a.status, a.body, a.header)
		}
	}
	for _, c := range []struct{ kind, lang, inm, want string }{
		{"terms", "en", `"nope"`, tag}, {"terms", "es", tag, tagES}, {"agreement", "en", tag, ""},
	} {
		a := getDocument(t, srv, c.kind, c.lang, c.inm)
		var d protocol.Document
		a.decode(t, &d)
		got := a.header.Get(protocol.HeaderETag)
		if a.status != 200 || d.Validate() != nil || got == "" || c.want != "" && got != c.want || c.want == "" && got == tag {
			t.Errorf("%s in %s If-None-Match %s: %d %v, want the document in full", c.kind, c.lang, c.inm, a.status, a.header)
		}
	}
}
