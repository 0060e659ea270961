package flow

import (
	"context"
	"sync"
	"time"

	"github.com/chairside/chairside"
)

// Lender documents held between patients (docs/behaviour.md, "Consents",
// "Lender documents held while fresh"). Every step that shows or checks a lender's document — the
// consent screen, the submit that checks the consent against it, the
// signing screen — used to ask the lender for it, so a patient waited for
// the same document two or three times before a decision. A document is
// now held by lender, kind and language while it is fresh: for as long as
// the lender's answer says (chairside.Document.FreshFor, at most
// maxDocumentFreshFor), else for Options.DocumentsFreshFor. Past half that
// time a caller still gets the held copy and the lender is asked again in
// the background; past all of it the caller waits for the lender. A
// document the lender changed is therefore seen within the freshness
// window, and a consent given to the old one is asked again
// (checkConsent), as before.

// DefaultDocumentsFreshFor is how long a lender's document is held when
// the lender says nothing of it.
const DefaultDocumentsFreshFor = 5 * time.Minute

// maxDocumentFreshFor bounds the lender's own freshness: a lender that
// says a year still has a changed document reach patients within the hour.
const maxDocumentFreshFor = time.Hour

// heldDoc is a document as the lender last answered it.
type heldDoc struct {
	doc      chairside.Document
	fetched  time.Time
	freshFor time.Duration
}

// heldDocs holds documents by lender, kind and language. It is safe for
// concurrent use.
type heldDocs struct {
	mu   sync.Mutex
	docs map[string]heldDoc
}

func (h *heldDocs) get(key string) (heldDoc, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	d, ok := h.docs[key]
	return d, ok
}

// put holds d for key, unless a copy fetched later is held already.
func (h *heldDocs) put(key string, d heldDoc) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.docs == nil {
		h.docs = map[string]heldDoc{}
	}
	if old, ok := h.docs[key]; !ok || !old.fetched.After(d.fetched) {
		h.docs[key] = d
	}
}

func (h *heldDocs) forget(key string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	delete(h.docs, key)
}

// freshFor is how long doc may be held: the lender's word within the
// bound, ours when it gives none, nothing when it asks not to be held.
func (s *Service) freshFor(doc *chairside.Document) time.Duration {
	switch {
	case doc.FreshFor < 0:
		return 0
	case doc.FreshFor > 0:
		return min(doc.FreshFor, maxDocumentFreshFor)
	}
	return s.opts.DocumentsFreshFor
}

// heldDocument answers a copy of the held document of key while it is
// fresh (nil when none is), and whether it is past half its freshness,
// when the lender is to be asked again behind it.
func (s *Service) heldDocument(key string) (doc *chairside.Document, refresh bool) {
	h, ok := s.docs.get(key)
	if !ok {
		return nil, false
	}
	age := s.now().Sub(h.fetched)
	if age < 0 || age >= h.freshFor {
		return nil, false
	}
	d := h.doc // a copy each: callers may change theirs
	return &d, age >= h.freshFor/2
}

// fetchDocument is the shared lender call of document: it asks the lender
// under the call time-out, detached from any one caller, and holds what
// the lender answered (or forgets what it no longer has).
func (s *Service) fetchDocument(ctx context.Context, key string, lender chairside.Lender, req *chairside.DocumentRequest) func() (any, error) {
	return func() (any, error) {
		lctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), s.opts.LenderTimeout)
		defer cancel()
		fetched := s.now()
		doc, err := lender.Document(lctx, req)
		switch {
		case err == nil && doc != nil:
			if fresh := s.freshFor(doc); fresh > 0 {
				s.docs.put(key, heldDoc{doc: *doc, fetched: fetched, freshFor: fresh})
			} else {
				s.docs.forget(key)
			}
		case isCode(err, chairside.ENOTFOUND):
			s.docs.forget(key)
		}
		return doc, err
	}
}
