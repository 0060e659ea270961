package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/chairside/chairside/backup"
	"github.com/chairside/chairside/seal"
	"github.com/chairside/chairside/store"
)

// runRestore runs `chairside restore`: the backup's database, as it is now
// or as it was at a moment, written to a new file. It never writes over a
// file: a restore beside the live database is compared or moved into
// place by a person, with the server stopped (docs/operations.md,
// "Restoring").
func runRestore(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("chairside restore", flag.ContinueOnError)
	fs.SetOutput(stderr)
	from := fs.String("from", os.Getenv("CHAIRSIDE_BACKUP_TO"), "the backup to read: a folder or an s3:// URL, as given to serve's -backup-to (default $CHAIRSIDE_BACKUP_TO)")
	to := fs.String("to", "", "the new SQLite file to write; it must not exist")
	at := fs.String("at", "", "the moment to restore to, as 2026-12-07T14:30:00Z or 2026-12-07T09:30:00-05:00 (default: the latest)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *from == "" || *to == "" || fs.NArg() > 0 {
		return fmt.Errorf("usage: chairside restore -from BACKUP -to NEW_FILE [-at TIME]")
	}
	var when time.Time
	if *at != "" {
		t, err := time.Parse(time.RFC3339, *at)
		if err != nil {
			return fmt.Errorf("-at %q: a moment with its zone, as 2026-12-07T14:30:00Z", *at)
		}
		when = t
	}
	if err := backup.Restore(ctx, *from, *to, when); err != nil {
		return err
	}
	as := "its latest state"
	if !when.IsZero() {
		as = "as of " + when.UTC().Format(time.RFC3339)
	}
	fmt.Fprintf(stdout, "Restored %s, %s, to %s.\n", backup.Describe(*from), as, *to)
	fmt.Fprintln(stdout, "The applicants' personal data in it opens only with the same data keys (the key file or CHAIRSIDE_KEYS), which the backup does not hold.")
	return nil
}

// runBackup runs `chairside backup verify`: the drill a practice runs
// monthly. The backup is restored into a temporary file, which must open,
// take this binary's migrations and pass the store's audit; the file is
// removed afterwards.
func runBackup(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 || args[0] != "verify" {
		return fmt.Errorf("usage: chairside backup verify -from BACKUP")
	}
	fs := flag.NewFlagSet("chairside backup verify", flag.ContinueOnError)
	fs.SetOutput(stderr)
	from := fs.String("from", os.Getenv("CHAIRSIDE_BACKUP_TO"), "the backup to check: a folder or an s3:// URL (default $CHAIRSIDE_BACKUP_TO)")
	keyFile := fs.String("key-file", os.Getenv("CHAIRSIDE_KEY_FILE"), "the data keys to check the backup's sealed values with (default $CHAIRSIDE_KEY_FILE, or CHAIRSIDE_KEYS); none: the keys are not checked")
	if err := fs.Parse(args[1:]); err != nil {
		return err
	}
	var keyData []byte
	if v := os.Getenv("CHAIRSIDE_KEYS"); v != "" {
		keyData = []byte(v)
	} else if *keyFile != "" {
		data, err := os.ReadFile(*keyFile)
		if err != nil {
			return fmt.Errorf("backup verify: keys: %w", err)
		}
		keyData = data
	}
	if *from == "" || fs.NArg() > 0 {
		return fmt.Errorf("usage: chairside backup verify -from BACKUP")
	}
	dir, err := os.MkdirTemp("", "chairside-verify-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	opened, err := verifyBackup(ctx, *from, filepath.Join(dir, "chairside.db"), keyData)
	if err != nil {
		return fmt.Errorf("backup verify: %s is NOT usable: %w", backup.Describe(*from), err)
	}
	fmt.Fprintf(stdout, "The backup at %s restores, opens, migrates and passes the audit.\n", backup.Describe(*from))
	if keyData == nil {
		fmt.Fprintln(stdout, "Its sealed personal data was not checked: give -key-file (or CHAIRSIDE_KEYS) to check the keys kept apart open it.")
	} else {
		fmt.Fprintf(stdout, "All %d sealed values in it open with the keys given.\n", opened)
	}
	return nil
}

// verifyBackup restores from into path and checks the copy as the server
// would open it; with keyData, that every sealed value opens with those
// keys (answering how many).
func verifyBackup(ctx context.Context, from, path string, keyData []byte) (int, error) {
	if err := backup.Restore(ctx, from, path, time.Time{}); err != nil {
		return 0, err
	}
	// The audit reads no personal data: without the practice's keys a
	// throwaway keyring opens the store.
	checkKeys := keyData != nil
	if !checkKeys {
		raw, err := seal.Generate()
		if err != nil {
			return 0, err
		}
		keyData = raw
	}
	keys, err := seal.FromJSON(keyData)
	if err != nil {
		return 0, err
	}
	db, err := store.Open(ctx, path, keys)
	if err != nil {
		return 0, err
	}
	defer db.Close()
	problems, err := db.Audit(ctx)
	if err != nil {
		return 0, err
	}
	if len(problems) > 0 {
		return 0, errors.New("the audit found: " + strings.Join(problems, "; "))
	}
	if !checkKeys {
		return 0, nil
	}
	return db.OpenAllSealed(ctx)
}
