package store

import (
	"fmt"
	"testing"

	"github.com/chairside/chairside"
)

// TestSessionCacheKeepsNoRowReadBeforeAWrite walks the orders in which a
// read and a write of one session can interleave (session_cache.go): a row
// is kept only when no write of its session was recorded since the read
// began.
func TestSessionCacheKeepsNoRowReadBeforeAWrite(t *testing.T) {
	c := newSessionCache()
	row := &chairside.Session{ID: "a", Outcome: "as read"}
	kept := func(id string) bool { _, ok := c.get(id); return ok }

	// Began before a write was recorded: nothing kept.
	ticket := c.readBegins()
	c.written("a")
	if c.put(row, ticket); kept("a") {
		t.Fatal("a row read before a write was kept after it")
	}
	// Began after: kept, whatever is written of other sessions meanwhile.
	ticket = c.readBegins()
	c.written("b")
	if c.put(row, ticket); !kept("a") {
		t.Fatal("a row read after its session's last write was not kept")
	}
	// What is answered is a copy.
	got, _ := c.get("a")
	got.Outcome = "changed by a caller"
	if again, _ := c.get("a"); again.Outcome != "as read" {
		t.Fatalf("the kept row changed with the copy: %q", again.Outcome)
	}
	// A write drops it.
	if c.written("a"); kept("a") {
		t.Fatal("a row stayed kept after a write of it")
	}

	// The record of writes is bounded: when it starts again, a read that
	// began before cannot keep a row whose write it no longer records.
	ticket = c.readBegins()
	c.written("y")
	for i := range sessionCacheSize {
		c.written(fmt.Sprint(i))
	}
	if len(c.last) >= sessionCacheSize {
		t.Fatalf("%d writes recorded, want fewer than %d", len(c.last), sessionCacheSize)
	}
	if c.put(&chairside.Session{ID: "y"}, ticket); kept("y") {
		t.Fatal("a row read before its write was kept once the record started again")
	}
	if c.put(&chairside.Session{ID: "y"}, c.readBegins()); !kept("y") {
		t.Fatal("a row read after the record started again was not kept")
	}

	// The rows kept are bounded too.
	for i := range sessionCacheSize + 1 {
		c.put(&chairside.Session{ID: fmt.Sprint("row-", i)}, c.readBegins())
	}
	if len(c.entries) > sessionCacheSize {
		t.Fatalf("%d rows kept, want at most %d", len(c.entries), sessionCacheSize)
	}
}
