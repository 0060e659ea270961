package backup

import (
	"context"
	"io"
	"sync"
	"time"

	"github.com/benbjohnson/litestream"
	"github.com/chairside/chairside"
	"github.com/superfly/ltx"
)

// DefaultBehindAfter is how long the replica may lag the database, or
// fail, before the backup counts as behind: a few missed seconds are a
// slow upload, a minute is something the office manager should hear about.
const DefaultBehindAfter = time.Minute

// Behind reports whether the office manager should be told: the replica
// has lagged, or failed, for after by now.
func Behind(s *chairside.BackupStatus, now time.Time, after time.Duration) bool {
	return s.Lag >= after || (s.Failing != "" && now.Sub(s.FailingSince) >= after)
}

// Status answers where the backup stands now.
func (r *Replicator) Status() *chairside.BackupStatus {
	now := time.Now()
	s := r.watch.status(now)
	s.Replica = Describe(r.to)
	s.Behind = Behind(s, now, r.behindAfter)
	return s
}

// watched is the replica's client with every upload's outcome noted: the
// one place that sees both the successes and the errors of Litestream's
// background loops.
type watched struct {
	litestream.ReplicaClient

	mu           sync.Mutex
	behindSince  time.Time
	lastShipped  time.Time
	lastSnapshot time.Time
	failing      string
	failingSince time.Time
}

func (w *watched) WriteLTXFile(ctx context.Context, level int, minTXID, maxTXID ltx.TXID, rd io.Reader) (*ltx.FileInfo, error) {
	info, err := w.ReplicaClient.WriteLTXFile(ctx, level, minTXID, maxTXID, rd)
	if err != nil {
		w.failed(err)
		return info, err
	}
	now := time.Now()
	w.mu.Lock()
	defer w.mu.Unlock()
	w.failing, w.failingSince = "", time.Time{}
	w.lastShipped = now
	if level == litestream.SnapshotLevel {
		w.lastSnapshot = now
	}
	return info, nil
}

func (w *watched) LTXFiles(ctx context.Context, level int, seek ltx.TXID, useMetadata bool) (ltx.FileIterator, error) {
	it, err := w.ReplicaClient.LTXFiles(ctx, level, seek, useMetadata)
	if err != nil {
		w.failed(err)
		return it, err
	}
	return watchedFiles{it, w}, nil
}

// watchedFiles is a listing of the replica's files whose error, which S3
// reports only once the listing is read, is noted.
type watchedFiles struct {
	ltx.FileIterator
	w *watched
}

func (f watchedFiles) Err() error {
	err := f.FileIterator.Err()
	f.w.failed(err)
	return err
}

func (f watchedFiles) Close() error {
	err := f.FileIterator.Close()
	f.w.failed(err)
	return err
}

// snapshotTaken notes a snapshot found on the replica at start.
func (w *watched) snapshotTaken(at time.Time) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if at.After(w.lastSnapshot) {
		w.lastSnapshot = at
	}
}

// failed notes an error talking to the replica; the first of a run of
// errors starts the clock.
func (w *watched) failed(err error) {
	if err == nil {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.failing == "" {
		w.failingSince = time.Now()
	}
	w.failing = err.Error()
}

// observe compares the database's last transaction with the replica's.
func (w *watched) observe(now time.Time, local, remote ltx.TXID) {
	w.mu.Lock()
	defer w.mu.Unlock()
	switch {
	case local <= remote:
		w.behindSince = time.Time{}
	case w.behindSince.IsZero():
		w.behindSince = now
	}
}

func (w *watched) status(now time.Time) *chairside.BackupStatus {
	w.mu.Lock()
	defer w.mu.Unlock()
	s := &chairside.BackupStatus{LastShipped: w.lastShipped, LastSnapshot: w.lastSnapshot, Failing: w.failing, FailingSince: w.failingSince}
	if !w.behindSince.IsZero() {
		s.Lag = now.Sub(w.behindSince)
	}
	return s
}
