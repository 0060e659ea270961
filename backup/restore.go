package backup

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/benbjohnson/litestream"
)

// ErrTargetExists is a restore refused because its target is there: a
// restore never writes over a database, live or not.
var ErrTargetExists = errors.New("backup: the restore's target exists")

// ErrNothingToRestore is a replica with no copy at or before the point
// asked for.
var ErrNothingToRestore = errors.New("backup: the replica has no copy to restore")

// Restore writes the replica's database, as it was at the point at (the
// latest state when zero), to the new file to. It refuses a target that
// exists, with its WAL or shared-memory file, and checks the restored file
// with SQLite's integrity check.
func Restore(ctx context.Context, from, to string, at time.Time) error {
	client, err := Client(from)
	if err != nil {
		return err
	}
	for _, p := range []string{to, to + "-wal", to + "-shm"} {
		if _, err := os.Stat(p); err == nil {
			return fmt.Errorf("%w: %s", ErrTargetExists, p)
		} else if !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("backup: restore to %s: %w", to, err)
		}
	}
	if err := os.MkdirAll(filepath.Dir(to), 0o700); err != nil {
		return fmt.Errorf("backup: restore to %s: %w", to, err)
	}
	opt := litestream.NewRestoreOptions()
	opt.OutputPath = to
	opt.Timestamp = at
	opt.IntegrityCheck = litestream.IntegrityCheckFull
	r := litestream.NewReplicaWithClient(nil, client)
	if err := r.Restore(ctx, opt); err != nil {
		if errors.Is(err, litestream.ErrNoSnapshots) || errors.Is(err, litestream.ErrTxNotAvailable) {
			return fmt.Errorf("%w: %s%s", ErrNothingToRestore, Describe(from), pointIn(at))
		}
		return fmt.Errorf("backup: restore from %s%s: %w", Describe(from), pointIn(at), err)
	}
	// The database's files are private to their owner, as the server makes them.
	if err := os.Chmod(to, 0o600); err != nil {
		return fmt.Errorf("backup: restore to %s: %w", to, err)
	}
	return nil
}

func pointIn(at time.Time) string {
	if at.IsZero() {
		return ""
	}
	return " as of " + at.UTC().Format(time.RFC3339)
}
