package store

import (
	"sync"

	"github.com/chairside/chairside"
)

// The session cache (SQLite only; docs/performance.md, "The session read
// every call begins with").
//
// Every patient call begins by reading its session. On SQLite that read
// was a statement on the read-only pool, and each commit empties a
// reader's page cache, so under load every look-up read its pages again. A
// SQLite database has one server writing it, and this store is that
// writer: every change to a session row goes through TouchSession or
// FinishSession here. So the rows read can be kept in memory and stay
// exact, as long as no row read before a change is kept after it:
//
//   - Once the commit holding a write of a session returned (committed or
//     not), Batch tells the cache: its row is dropped, and the write is
//     recorded as the newest event.
//   - A read takes a ticket, the newest event, before it reads, and keeps
//     its row only if no write of its session was recorded after the
//     ticket. A read that began before the commit returned may have read
//     the row from before it; it keeps nothing.
//
// Until the commit returns, reads find the row from before the write, as
// they would in the database. A read inside a Batch goes to the
// transaction, never the cache: it must see the unit's own writes.
// PostgreSQL has no cache: several servers write it.

// sessionCacheSize bounds the sessions kept, and the writes recorded; past
// it each starts again empty (a few hundred bytes a session).
const sessionCacheSize = 4096

type sessionCache struct {
	mu      sync.Mutex
	entries map[string]*chairside.Session
	// seq counts the writes recorded; last holds, by session, the seq of
	// its newest. A read's ticket is seq when it began.
	seq  uint64
	last map[string]uint64
	// floor is seq when last was emptied: a read that began before it
	// cannot tell what was written since, and keeps nothing.
	floor uint64
}

func newSessionCache() *sessionCache {
	return &sessionCache{entries: map[string]*chairside.Session{}, last: map[string]uint64{}}
}

// get answers a copy of the kept session, if there is one.
func (c *sessionCache) get(id string) (*chairside.Session, bool) {
	c.mu.Lock()
	s, ok := c.entries[id]
	c.mu.Unlock()
	if !ok {
		return nil, false
	}
	return copySession(s), true
}

// readBegins answers the ticket a read must show to keep what it read.
func (c *sessionCache) readBegins() uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.seq
}

// put keeps a copy of s, read with ticket, unless a write of its session
// was recorded since the read began.
func (c *sessionCache) put(s *chairside.Session, ticket uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if ticket < c.floor || c.last[s.ID] > ticket {
		return
	}
	if len(c.entries) >= sessionCacheSize {
		c.entries = map[string]*chairside.Session{}
	}
	c.entries[s.ID] = copySession(s)
}

// written records a write of id whose commit returned.
func (c *sessionCache) written(id string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.seq++
	delete(c.entries, id)
	if len(c.last) >= sessionCacheSize {
		c.last = map[string]uint64{}
		c.floor = c.seq
	}
	c.last[id] = c.seq
}

func copySession(s *chairside.Session) *chairside.Session {
	cp := *s
	if s.FinishedAt != nil {
		at := *s.FinishedAt
		cp.FinishedAt = &at
	}
	return &cp
}
