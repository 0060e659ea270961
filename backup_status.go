package chairside

import "time"

// BackupStatus is where the continuous backup of the built-in database
// stands (package backup): what /readyz details, /metrics counts and the
// office manager's banner says. A server on PostgreSQL, or without
// -backup-to, has none.
type BackupStatus struct {
	// Replica names where the copies go: a folder, or an S3 bucket and path.
	Replica string
	// Lag is how long the replica has been missing commits; zero when it
	// has them all.
	Lag time.Duration
	// LastShipped is when the replica last received changes, LastSnapshot
	// when it last received a full copy; zero before the first.
	LastShipped, LastSnapshot time.Time
	// Failing is the last error reaching the replica, failing since
	// FailingSince with no success after it; "" when it works.
	Failing      string
	FailingSince time.Time
	// Behind is set once the replica has lagged or failed long enough for
	// the office manager to be told.
	Behind bool
}
