package httplender_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/catalogue"
	"github.com/chairside/chairside/lender"
	"github.com/chairside/chairside/lender/httplender"
	"github.com/chairside/chairside/lender/lendersim"
	"github.com/chairside/chairside/lender/protocol"
	"github.com/chairside/chairside/locale"
)

// seen is one request that reached a lender and how it was answered.
type seen struct {
	ifNoneMatch, language string
	status, bodyBytes     int
}

// recorder serves h and notes every request and its answer.
type recorder struct {
	h    http.Handler
	mu   sync.Mutex
	seen []seen
}

func (rec *recorder) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	sw := &statusWriter{ResponseWriter: w, status: http.StatusOK}
	rec.h.ServeHTTP(sw, r)
	rec.mu.Lock()
	defer rec.mu.Unlock()
	rec.seen = append(rec.seen, seen{r.Header.Get("If-None-Match"), r.Header.Get("Accept-Language"), sw.status, sw.n})
}

// last is the last request seen.
func (rec *recorder) last(t *testing.T) seen {
	t.Helper()
	rec.mu.Lock()
	defer rec.mu.Unlock()
	if len(rec.seen) == 0 {
		t.Fatal("no request reached the lender")
	}
	return rec.seen[len(rec.seen)-1]
}

type statusWriter struct {
	http.ResponseWriter
	status, n int
}

func (w *statusWriter) WriteHeader(status int) {
	w.status = status
	w.ResponseWriter.WriteHeader(status)
}

func (w *statusWriter) Write(p []byte) (int, error) {
	n, err := w.ResponseWriter.Write(p)
	w.n += n
	return n, err
}

// recordedLender is an adapter for key talking to h through a recorder.
func recordedLender(t *testing.T, key string, h http.Handler) (*httplender.Lender, *recorder) {
	t.Helper()
	rec := &recorder{h: h}
	srv := httptest.NewServer(rec)
	t.Cleanup(srv.Close)
	l, err := httplender.New(httplender.Config{LenderKey: key, BaseURL: srv.URL + "/lenders/" + key, APIKey: testAPIKey,
		Timeout: 2 * time.Second, BackoffBase: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	return l, rec
}

// TestDocumentRevalidated: a document fetched again is asked for with the
// ETag of the first answer, the simulator answers 304 without a body, and
// the adapter answers the same document; English and Spanish are kept
// apart; a caller changing its document changes nobody else's.
func TestDocumentRevalidated(t *testing.T) {
	sim := lendersim.New(lendersim.Options{APIKey: testAPIKey})
	t.Cleanup(sim.Close)
	l, rec := recordedLender(t, catalogue.Snap, sim)
	ctx := context.Background()

	first, err := l.Document(ctx, &chairside.DocumentRequest{LenderKey: catalogue.Snap, Kind: "terms"})
	if err != nil {
		t.Fatal(err)
	}
	if s := rec.last(t); s.status != http.StatusOK || s.ifNoneMatch != "" || s.bodyBytes == 0 {
		t.Fatalf("first fetch: %+v", s)
	}
	if first.FreshFor != 5*time.Minute {
		t.Errorf("the simulator's max-age=300 read as %s", first.FreshFor)
	}
	want := *first
	first.Content, first.SHA256 = "changed by a caller", "0" // a caller's own copy
	for range 2 {
		again, err := l.Document(ctx, &chairside.DocumentRequest{LenderKey: catalogue.Snap, Kind: "terms"})
		if err != nil || !reflect.DeepEqual(*again, want) {
			t.Fatalf("fetch again:\n got %+v %v\nwant %+v", again, err, want)
		}
		if s := rec.last(t); s.status != http.StatusNotModified || s.ifNoneMatch == "" || s.bodyBytes != 0 || s.language != "en" {
			t.Fatalf("fetch again: %+v, want a 304 without a body to If-None-Match", s)
		}
		again.Content = "changed again"
	}

	spanish, err := l.Document(ctx, &chairside.DocumentRequest{LenderKey: catalogue.Snap, Kind: "terms", Language: "es"})
	if s := rec.last(t); err != nil || s.status != http.StatusOK || s.ifNoneMatch != "" || s.language != "es" {
		t.Fatalf("first Spanish fetch: %+v %v, want a full answer to an unconditional request", s, err)
	}
	if spanish.Language != "es" || spanish.SHA256 == want.SHA256 || spanish.ID != want.ID {
		t.Fatalf("Spanish document: %+v", spanish)
	}
	spanishAgain, err := l.Document(ctx, &chairside.DocumentRequest{LenderKey: catalogue.Snap, Kind: "terms", Language: "es"})
	if s := rec.last(t); err != nil || s.status != http.StatusNotModified || !reflect.DeepEqual(spanishAgain, spanish) {
		t.Fatalf("Spanish again: %+v %v %+v", s, err, spanishAgain)
	}
	if english, err := l.Document(ctx, &chairside.DocumentRequest{LenderKey: catalogue.Snap, Kind: "terms"}); err != nil || !reflect.DeepEqual(*english, want) {
		t.Fatalf("English after Spanish: %+v %v", english, err)
	}
	if n := sim.Hits(catalogue.Snap, lender.OpDocument); n != 6 {
		t.Fatalf("the lender was asked %d times, want every call (6)", n)
	}
}

// docServer is a lender of one document whose version a test changes,
// answering If-None-Match as the protocol says unless told to answer 304
// whatever it is sent (notModified) or with another tag (otherTag).
type docServer struct {
	mu                    sync.Mutex
	version               string
	notModified, otherTag bool
}

func (s *docServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	v, always, other := s.version, s.notModified, s.otherTag
	s.mu.Unlock()
	content := "Terms, version " + v
	sum := sha256.Sum256([]byte(content))
	tag := `"` + v + `"`
	switch {
	case other:
		w.Header().Set("ETag", `"someone-else"`)
		w.WriteHeader(http.StatusNotModified)
		return
	case always || r.Header.Get("If-None-Match") == tag:
		w.Header().Set("ETag", tag)
		w.WriteHeader(http.StatusNotModified)
		return
	}
	w.Header().Set("ETag", tag)
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(protocol.Document{ID: "terms", Version: v, Title: "Terms", ContentType: "text/plain",
		Content: content, SHA256: hex.EncodeToString(sum[:]), Language: "en"})
}

func (s *docServer) set(f func(*docServer)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	f(s)
}

// TestDocumentChangedAtLender: a new version at the lender is answered at
// the next fetch, in place of the kept one.
func TestDocumentChangedAtLender(t *testing.T) {
	srv := &docServer{version: "v1"}
	l, rec := recordedLender(t, catalogue.Snap, srv)
	ctx := context.Background()
	for range 2 {
		if d, err := l.Document(ctx, &chairside.DocumentRequest{LenderKey: catalogue.Snap, Kind: "terms"}); err != nil || d.Version != "v1" {
			t.Fatalf("v1: %+v %v", d, err)
		}
	}
	if s := rec.last(t); s.status != http.StatusNotModified || s.ifNoneMatch != `"v1"` {
		t.Fatalf("second fetch of v1: %+v", s)
	}
	srv.set(func(s *docServer) { s.version = "v2" })
	d, err := l.Document(ctx, &chairside.DocumentRequest{LenderKey: catalogue.Snap, Kind: "terms"})
	if err != nil || d.Version != "v2" || d.Content != "Terms, version v2" {
		t.Fatalf("after the change: %+v %v, want v2", d, err)
	}
	if s := rec.last(t); s.status != http.StatusOK || s.ifNoneMatch != `"v1"` {
		t.Fatalf("fetch after the change: %+v", s)
	}
	if d, err := l.Document(ctx, &chairside.DocumentRequest{LenderKey: catalogue.Snap, Kind: "terms"}); err != nil || d.Version != "v2" || rec.last(t).ifNoneMatch != `"v2"` {
		t.Fatalf("v2 again: %+v %v %+v", d, err, rec.last(t))
	}
}

// TestDocumentBadNotModified: a 304 to a request that named no ETag, or
// one naming another ETag, is a malformed answer; after it the document
// is asked for in full.
func TestDocumentBadNotModified(t *testing.T) {
	srv := &docServer{version: "v1", notModified: true}
	l, rec := recordedLender(t, catalogue.Snap, srv)
	ctx := context.Background()
	_, err := l.Document(ctx, &chairside.DocumentRequest{LenderKey: catalogue.Snap, Kind: "terms"})
	lenderErr(t, err, lender.KindMalformed)

	srv.set(func(s *docServer) { s.notModified = false })
	if d, err := l.Document(ctx, &chairside.DocumentRequest{LenderKey: catalogue.Snap, Kind: "terms"}); err != nil || d.Version != "v1" {
		t.Fatalf("v1: %+v %v", d, err)
	}
	srv.set(func(s *docServer) { s.otherTag = true })
	_, err = l.Document(ctx, &chairside.DocumentRequest{LenderKey: catalogue.Snap, Kind: "terms"})
	lenderErr(t, err, lender.KindMalformed)
	srv.set(func(s *docServer) { s.otherTag = false })
	d, err := l.Document(ctx, &chairside.DocumentRequest{LenderKey: catalogue.Snap, Kind: "terms"})
	if s := rec.last(t); err != nil || d.Version != "v1" || s.ifNoneMatch != "" || s.status != http.StatusOK {
		t.Fatalf("after a bad 304: %+v %v %+v, want an unconditional fetch", d, err, s)
	}
}

// TestDocumentsConcurrent: callers fetching at once, in two languages, all
// get their language's document (run with -race).
func TestDocumentsConcurrent(t *testing.T) {
	sim := lendersim.New(lendersim.Options{APIKey: testAPIKey})
	t.Cleanup(sim.Close)
	l, _ := recordedLender(t, catalogue.Snap, sim)
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for i := range 16 {
		lang := locale.English
		if i%2 == 1 {
			lang = locale.Spanish
		}
		wg.Go(func() {
			d, err := l.Document(context.Background(), &chairside.DocumentRequest{LenderKey: catalogue.Snap, Kind: "terms", Language: string(lang)})
			if err == nil && d.Language != string(lang) {
				err = fmt.Errorf("got %s, want %s", d.Language, lang)
			}
			if err != nil {
				errs <- err
				return
			}
			d.Content = "mine"
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// TestDocumentFreshFor: a lender's Cache-Control on a document says how
// long it stays current; no-store, no-cache and max-age=0 ask that it not
// be held; nothing, or what we cannot read, leaves it to Chairside.
func TestDocumentFreshFor(t *testing.T) {
	for header, want := range map[string]time.Duration{
		"max-age=120": 2 * time.Minute, "public, Max-Age=\"60\"": time.Minute, "max-age=0": -1, "no-store": -1,
		"max-age=600, no-cache": -1, "": 0, "private": 0, "max-age=soon": 0, "max-age=-5": 0, "max-age=99999999999": 0,
	} {
		sim := lendersim.New(lendersim.Options{APIKey: testAPIKey})
		t.Cleanup(sim.Close)
		l, _ := recordedLender(t, catalogue.Snap, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			sim.ServeHTTP(headerWriter{w, header}, r)
		}))
		doc, err := l.Document(context.Background(), &chairside.DocumentRequest{LenderKey: catalogue.Snap, Kind: "terms"})
		if err != nil {
			t.Fatalf("Cache-Control %q: %v", header, err)
		}
		if doc.FreshFor != want {
			t.Errorf("Cache-Control %q: fresh for %s, want %s", header, doc.FreshFor, want)
		}
	}
}

// headerWriter answers with the Cache-Control cc in place of the
// simulator's.
type headerWriter struct {
	http.ResponseWriter
	cc string
}

func (w headerWriter) WriteHeader(status int) {
	w.Header().Del("Cache-Control")
	if w.cc != "" {
		w.Header().Set("Cache-Control", w.cc)
	}
	w.ResponseWriter.WriteHeader(status)
}
