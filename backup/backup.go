// Package backup streams the built-in SQLite database to a replica — a
// folder on another disk or a share, or S3-compatible storage — with
// Litestream, run as a library inside `chairside serve`, and restores it
// (docs/operations.md, "Backups"; docs/decisions.md says why a library).
//
// Litestream copies every committed page of SQLite's WAL into small files
// on the replica about a second after the commit, takes a full snapshot
// every SnapshotEvery, and drops what is older than Retention. A restore
// reads a snapshot and the files after it up to the latest state or to a
// point in time. PostgreSQL is not backed up here: it has its own
// point-in-time recovery.
package backup

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/benbjohnson/litestream"
	"github.com/benbjohnson/litestream/file"
	"github.com/benbjohnson/litestream/s3"
)

// Config says where and how often the database is copied.
type Config struct {
	// To is the replica: a folder's path, or an s3://bucket/path URL with,
	// for S3-compatible storage, ?endpoint=http://host:port. S3's keys
	// come from AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, never from
	// the URL.
	To string
	// SnapshotEvery is how often a full copy is taken; a restore reads the
	// last snapshot before its point and the changes after it.
	SnapshotEvery time.Duration
	// Retention is how long snapshots and changes are kept: the furthest
	// back a point-in-time restore can go.
	Retention time.Duration
	// BehindAfter is how long the replica may lag or fail before Status
	// says it is behind (DefaultBehindAfter when zero).
	BehindAfter time.Duration
}

// Defaults: a daily snapshot kept a week, so a restore reads at most a
// day of changes and can go back seven days.
const (
	DefaultSnapshotEvery = 24 * time.Hour
	DefaultRetention     = 7 * 24 * time.Hour
)

// syncEvery is how often the WAL's new pages are read and shipped: the
// replica is about this far behind a commit when all is well.
const syncEvery = time.Second

// Client answers the Litestream replica client for a replica: a folder's
// path, file://path, or s3://bucket/path.
func Client(to string) (litestream.ReplicaClient, error) {
	to = strings.TrimSpace(to)
	switch {
	case to == "":
		return nil, errors.New("backup: no replica given")
	case strings.HasPrefix(to, "s3://"):
		u, err := url.Parse(to)
		if err != nil {
			return nil, fmt.Errorf("backup: replica %s: %w", Describe(to), err)
		}
		// Litestream's S3 client fails to start when AWS_CA_BUNDLE is set;
		// it trusts the system's certificates (SSL_CERT_FILE) instead.
		if os.Getenv("AWS_CA_BUNDLE") != "" {
			return nil, errors.New("backup: unset AWS_CA_BUNDLE for an S3 replica: the system's certificates (SSL_CERT_FILE, SSL_CERT_DIR) are used")
		}
		if u.User != nil {
			return nil, errors.New("backup: an S3 replica's keys go in AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, not in its URL")
		}
		c, err := s3.NewReplicaClientFromURL(u.Scheme, u.Host, u.Path, u.Query(), nil)
		if err != nil {
			return nil, fmt.Errorf("backup: replica %s: %w", Describe(to), err)
		}
		return c, nil
	case strings.Contains(to, "://") && !strings.HasPrefix(to, "file://"):
		return nil, fmt.Errorf("backup: replica %s: a folder's path or an s3:// URL", Describe(to))
	}
	path, err := filepath.Abs(strings.TrimPrefix(to, "file://"))
	if err != nil {
		return nil, fmt.Errorf("backup: replica %s: %w", to, err)
	}
	return file.NewReplicaClient(path), nil
}

// Describe answers a replica's name fit for a log or a screen: a folder's
// path, or an S3 URL without its query (which may name an endpoint's
// credentials-bearing host options).
func Describe(to string) string {
	if u, err := url.Parse(to); err == nil && u.Scheme == "s3" {
		return "s3://" + u.Host + u.Path
	}
	return to
}

// Replicator streams one SQLite database to its replica while the server
// runs. Status says how far behind it is.
type Replicator struct {
	store       *litestream.Store
	db          *litestream.DB
	behindAfter time.Duration
	watch       *watched
	to          string
	stop        chan struct{}
	stopped     chan struct{}
}

// Start begins streaming the SQLite file at path to cfg.To. The store must
// have created and migrated the file first. Close it after the store, so
// the last commits are shipped.
func Start(ctx context.Context, path string, cfg Config, log *slog.Logger) (*Replicator, error) {
	client, err := Client(cfg.To)
	if err != nil {
		return nil, err
	}
	if cfg.SnapshotEvery <= 0 {
		cfg.SnapshotEvery = DefaultSnapshotEvery
	}
	if cfg.Retention <= 0 {
		cfg.Retention = DefaultRetention
	}
	if cfg.BehindAfter <= 0 {
		cfg.BehindAfter = DefaultBehindAfter
	}
	if log == nil {
		log = slog.Default()
	}
	w := &watched{ReplicaClient: client}
	db := litestream.NewDB(path)
	db.Logger = log.With("system", "backup")
	r := litestream.NewReplicaWithClient(db, w)
	r.SyncInterval = syncEvery
	db.Replica = r
	if fc, ok := client.(*file.ReplicaClient); ok {
		fc.Replica = r // the replica's files keep the database's owner and mode
	}
	// Level 1 gathers a minute of changes into one file, level 2 an hour:
	// a restore reads few files, and the finest files are kept long enough
	// (L0Retention) for a point in time to the second.
	levels := litestream.CompactionLevels{
		{Level: 0},
		{Level: 1, Interval: time.Minute},
		{Level: 2, Interval: time.Hour},
	}
	st := litestream.NewStore([]*litestream.DB{db}, levels)
	st.Logger = log.With("system", "backup")
	st.SnapshotInterval = cfg.SnapshotEvery
	st.SnapshotRetention = cfg.Retention
	if err := st.Open(ctx); err != nil {
		return nil, fmt.Errorf("backup: start streaming to %s: %w", Describe(cfg.To), err)
	}
	rep := &Replicator{store: st, db: db, behindAfter: cfg.BehindAfter, watch: w, to: cfg.To, stop: make(chan struct{}), stopped: make(chan struct{})}
	go rep.track()
	return rep, nil
}

// Close ships what is left and stops. The store's own connections must be
// closed first (Litestream's rule for a library).
func (r *Replicator) Close(ctx context.Context) error {
	close(r.stop)
	<-r.stopped
	if err := r.store.Close(ctx); err != nil {
		return fmt.Errorf("backup: stop: %w", err)
	}
	return nil
}

// Sync ships everything committed so far and waits until the replica has
// it: what a test or `chairside backup now` calls.
func (r *Replicator) Sync(ctx context.Context) error {
	if err := r.db.SyncAndWait(ctx); err != nil {
		r.watch.failed(err)
		return fmt.Errorf("backup: sync to %s: %w", Describe(r.to), err)
	}
	r.track1(time.Now())
	return nil
}

// track looks every second whether the replica has caught up with the
// database, for Status.
func (r *Replicator) track() {
	defer close(r.stopped)
	// The replica's last snapshot before this start, read here rather than
	// in Start: an unreachable replica takes its retries' time to say so,
	// and the server need not wait for that.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() { r.watch.snapshotTaken(lastSnapshot(ctx, r.watch.ReplicaClient)) }()
	t := time.NewTicker(syncEvery)
	defer t.Stop()
	for {
		select {
		case <-r.stop:
			return
		case now := <-t.C:
			r.track1(now)
		}
	}
}

func (r *Replicator) track1(now time.Time) {
	local, err := r.db.Pos()
	if err != nil {
		return // not yet initialised: nothing committed through Litestream yet
	}
	r.watch.observe(now, local.TXID, r.db.Replica.Pos().TXID)
}

// lastSnapshot answers when the replica's newest snapshot was taken, zero
// when it has none or cannot be read (Status then says so).
func lastSnapshot(ctx context.Context, c litestream.ReplicaClient) time.Time {
	it, err := c.LTXFiles(ctx, litestream.SnapshotLevel, 0, false)
	if err != nil {
		return time.Time{}
	}
	defer it.Close()
	var at time.Time
	for it.Next() {
		if t := it.Item().CreatedAt; t.After(at) {
			at = t
		}
	}
	return at
}
