package httplender

import (
	"context"
	"errors"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/lender"
	"github.com/chairside/chairside/lender/protocol"
	"github.com/chairside/chairside/locale"
)

// maxKept bounds the documents one Lender keeps. Kinds are ours and few,
// languages two, and only a document the lender answered is kept, so the
// bound is never reached by honest use; it only stops a lender that
// answers any kind from growing the store.
const maxKept = 128

// docKey names a kept document: its kind and the language asked for (the
// Accept-Language sent). The lender is the Lender's own.
type docKey struct {
	kind string
	lang locale.Language
}

// keptDoc is the last document the lender answered for a docKey, with its
// entity tag.
type keptDoc struct {
	etag string
	doc  protocol.Document
}

// documents keeps the last document of each kind and language, so that a
// fetch can ask the lender whether it still holds it (If-None-Match)
// instead of reading it again. It is safe for concurrent use.
type documents struct {
	mu   sync.Mutex
	kept map[docKey]keptDoc
}

func (s *documents) get(k docKey) (keptDoc, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	e, ok := s.kept[k]
	return e, ok
}

// put keeps e for k, replacing what was kept; a new key past maxKept is
// not kept.
func (s *documents) put(k docKey, e keptDoc) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.kept == nil {
		s.kept = map[docKey]keptDoc{}
	}
	if _, ok := s.kept[k]; ok || len(s.kept) < maxKept {
		s.kept[k] = e
	}
}

// forget drops what is kept for k when it is still the document of etag
// (a newer one put meanwhile stays); any etag when etag is "".
func (s *documents) forget(k docKey, etag string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if e, ok := s.kept[k]; ok && (etag == "" || e.etag == etag) {
		delete(s.kept, k)
	}
}

// conditional makes a GET conditional on a kept answer's entity tag, and
// says how the lender answered.
type conditional struct {
	ifNoneMatch  string // sent as If-None-Match; "" sends none
	etag         string // the ETag of a 2xx answer
	notModified  bool   // the lender answered 304 to ifNoneMatch
	cacheControl string // the Cache-Control of the answer, 2xx or 304
}

// freshFor reads a document answer's Cache-Control: max-age=N is how long
// the lender says the document stays current; no-store, no-cache or
// max-age=0 ask that it not be held (negative); nothing, or nothing we
// read, leaves it to Chairside (zero). chairside.Document.FreshFor.
func freshFor(cacheControl string) time.Duration {
	fresh := time.Duration(0)
	for _, d := range strings.Split(cacheControl, ",") {
		d = strings.ToLower(strings.TrimSpace(d))
		if d == "no-store" || d == "no-cache" {
			return -1
		}
		v, ok := strings.CutPrefix(d, "max-age=")
		if !ok {
			continue
		}
		n, err := strconv.ParseInt(strings.Trim(v, `"`), 10, 32)
		switch {
		case err != nil || n < 0:
		case n == 0:
			return -1
		default:
			fresh = time.Duration(n) * time.Second
		}
	}
	return fresh
}

// Document fetches a document of the lender by kind, in the request's
// language. Every call asks the lender, so every caller gets its current
// document; when a document of that kind and language is kept, the
// request names its ETag and a 304 answers a copy of it without the body
// crossing the network (docs/lender-protocol.md, "Kept documents").
func (l *Lender) Document(ctx context.Context, req *chairside.DocumentRequest) (*chairside.Document, error) {
	kind := req.Kind
	lang := locale.English // the lender's own, for any language but Spanish
	if locale.Language(req.Language) == locale.Spanish {
		lang = locale.Spanish
	}
	key := docKey{kind: kind, lang: lang}
	kept, have := l.docs.get(key)
	cond := &conditional{}
	if have {
		cond.ifNoneMatch = kept.etag
	}
	var d protocol.Document
	r := get(lender.OpDocument, protocol.PathDocuments+url.PathEscape(kind), nil, into(&d, (*protocol.Document).Validate))
	r.cond = cond
	if err := l.call(ctx, string(lang), r); err != nil {
		var le *lender.Error
		if have && errors.As(err, &le) && le.Kind == lender.KindMalformed {
			l.docs.forget(key, kept.etag) // the next call asks afresh
		}
		return nil, err
	}
	if cond.notModified {
		doc := kept.doc.Chairside() // a new struct: callers may change theirs
		doc.FreshFor = freshFor(cond.cacheControl)
		return doc, nil
	}
	if entityTag(cond.etag) {
		l.docs.put(key, keptDoc{etag: cond.etag, doc: d})
	} else {
		l.docs.forget(key, "") // a lender that stopped tagging is asked in full
	}
	doc := d.Chairside()
	doc.FreshFor = freshFor(cond.cacheControl)
	return doc, nil
}

// entityTag reports whether s is an HTTP entity tag, "…" or W/"…", fit to
// be sent back as If-None-Match.
func entityTag(s string) bool {
	t := s
	if len(t) > 2 && t[:2] == "W/" {
		t = t[2:]
	}
	if len(s) > 256 || len(t) < 2 || t[0] != '"' || t[len(t)-1] != '"' {
		return false
	}
	for _, c := range []byte(t[1 : len(t)-1]) {
		if c < 0x21 || c == '"' || c == 0x7f {
			return false
		}
	}
	return true
}
