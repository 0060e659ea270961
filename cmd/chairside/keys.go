package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"sort"
	"strings"

	"github.com/chairside/chairside/seal"
	"github.com/chairside/chairside/store"
)

const keysUsage = `Usage:
  chairside keys new                      print fresh data keys as one line of JSON, for CHAIRSIDE_KEYS
  chairside keys rotate [-stage]          add a key and seal new values with it; the server re-seals the rest
                                          (-stage: add it only, for several servers; rotate again to use it)
  chairside keys status                   how many values each key seals
  chairside keys retire -id ID            remove an old key once nothing is sealed with it
  chairside keys backup -to FILE          write the keys encrypted under a passphrase read from standard input
  chairside keys open-backup -from FILE -to KEYFILE
                                          write the keys of a key backup to a new key file
Each takes -db and -key-file as serve does; with CHAIRSIDE_KEYS set, rotate and
retire print the new keys for it instead of writing a file.
`

// runKeys runs `chairside keys …` (docs/operations.md, "Rotating the data
// keys"). Keys are the secret that opens every applicant's data: what
// prints them writes to standard output only, for a secret store, never to
// a log.
func runKeys(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, keysUsage)
		return flag.ErrHelp
	}
	if args[0] == "new" && len(args) == 1 {
		data, err := seal.Generate()
		if err != nil {
			return err
		}
		return printCompact(stdout, data)
	}
	m := NewMain()
	c := &m.Config
	fs := flag.NewFlagSet("chairside keys "+args[0], flag.ContinueOnError)
	fs.SetOutput(stderr)
	c.flags(fs, "db", "key-file")
	stage := fs.Bool("stage", false, "rotate: add the new key without sealing with it yet")
	id := fs.String("id", "", "retire: the key to remove")
	to := fs.String("to", "", "backup: the file to write; open-backup: the new key file")
	from := fs.String("from", "", "open-backup: the key backup to read")
	if err := fs.Parse(args[1:]); err != nil {
		return err
	}
	if m.envErr != nil {
		return m.envErr
	}
	switch args[0] {
	case "rotate":
		return c.rotateKeys(ctx, *stage, stdout)
	case "status":
		return c.keyStatus(ctx, stdout)
	case "retire":
		return c.retireKey(ctx, *id, stdout)
	case "backup":
		return c.backupKeys(*to, stdin, stdout)
	case "open-backup":
		return openKeyBackup(*from, *to, stdin, stdout)
	}
	fmt.Fprint(stderr, keysUsage)
	return fmt.Errorf("unknown keys command %q", args[0])
}

func printCompact(w io.Writer, data []byte) error {
	var line bytes.Buffer
	if err := json.Compact(&line, data); err != nil {
		return err
	}
	fmt.Fprintln(w, line.String())
	return nil
}

// keyData reads the key set from CHAIRSIDE_KEYS or the key file, as serve
// would, never creating one.
func (c *Config) keyData() ([]byte, error) {
	if c.Keys != "" {
		return []byte(c.Keys), nil
	}
	data, err := os.ReadFile(c.keyFile())
	if err != nil {
		return nil, fmt.Errorf("keys: %w", err)
	}
	return data, nil
}

// saveKeys writes the new key set to the key file, or prints it for
// CHAIRSIDE_KEYS.
func (c *Config) saveKeys(data []byte, stdout io.Writer) error {
	if c.Keys != "" {
		fmt.Fprintln(stdout, "The new keys, for CHAIRSIDE_KEYS on every server (one line of JSON):")
		return printCompact(stdout, data)
	}
	if err := seal.WriteFile(c.keyFile(), data); err != nil {
		return fmt.Errorf("keys: write %s: %w", c.keyFile(), err)
	}
	return nil
}

func (c *Config) rotateKeys(ctx context.Context, stage bool, stdout io.Writer) error {
	data, err := c.keyData()
	if err != nil {
		return err
	}
	old, err := seal.FromJSON(data)
	if err != nil {
		return err
	}
	// A staged key is used by the next rotate rather than another added.
	staged := !stage && slices.Contains(old.KeyIDs(), stagedID(data)) && stagedID(data) != old.CurrentID()
	out, newest, err := seal.Rotate(data, !staged, !stage)
	if err != nil {
		return err
	}
	if err := c.saveKeys(out, stdout); err != nil {
		return err
	}
	if stage {
		fmt.Fprintf(stdout, "Added key %s; values are still sealed with %s. Restart every server so each can open %s, then run keys rotate again.\n", newest, old.CurrentID(), newest)
		return nil
	}
	fmt.Fprintf(stdout, "New values are sealed with %s from the next start of each server. Restart the servers: the one that takes the reseal lease seals again what %s sealed, a batch a second, while patients apply; keys status shows what is left, and keys retire -id %s removes the old key once nothing uses it.\n",
		newest, strings.Join(without(old.KeyIDs(), newest), ", "), old.CurrentID())
	return nil
}

// stagedID is the newest key of a key set (seal.Rotate's newest).
func stagedID(data []byte) string {
	_, newest, err := seal.Rotate(data, false, false)
	if err != nil {
		return ""
	}
	return newest
}

func without(ids []string, id string) []string {
	return slices.DeleteFunc(slices.Clone(ids), func(s string) bool { return s == id })
}

// openKeyedStore opens the database with the key set, to count what each
// key seals.
func (c *Config) openKeyedStore(ctx context.Context) (*store.DB, *seal.Keyring, []byte, error) {
	data, err := c.keyData()
	if err != nil {
		return nil, nil, nil, err
	}
	keys, err := seal.FromJSON(data)
	if err != nil {
		return nil, nil, nil, err
	}
	db, err := store.Open(ctx, c.DB, keys)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("database: %w", err)
	}
	return db, keys, data, nil
}

func (c *Config) keyStatus(ctx context.Context, stdout io.Writer) error {
	db, keys, _, err := c.openKeyedStore(ctx)
	if err != nil {
		return err
	}
	defer db.Close()
	counts, err := db.SealedCounts(ctx)
	if err != nil {
		return err
	}
	ids := keys.KeyIDs()
	sort.Strings(ids)
	for _, id := range ids {
		mark := ""
		if id == keys.CurrentID() {
			mark = " (current)"
		}
		fmt.Fprintf(stdout, "%s%s: %d values\n", id, mark, counts[id])
	}
	n, err := db.OpenAllSealed(ctx)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "All %d sealed values open with these keys.\n", n)
	return nil
}

func (c *Config) retireKey(ctx context.Context, id string, stdout io.Writer) error {
	if id == "" {
		return errors.New("usage: chairside keys retire -id ID")
	}
	db, _, data, err := c.openKeyedStore(ctx)
	if err != nil {
		return err
	}
	defer db.Close()
	counts, err := db.SealedCounts(ctx)
	if err != nil {
		return err
	}
	if n := counts[id]; n > 0 {
		return fmt.Errorf("keys: %d values are still sealed with %s; a server re-seals them after a rotation (keys status shows what is left)", n, id)
	}
	out, err := seal.Retire(data, id)
	if err != nil {
		return err
	}
	if err := c.saveKeys(out, stdout); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "Retired %s: nothing is sealed with it. Restart the servers to drop it; a data backup older than the rotation still needs the key backup made before it.\n", id)
	return nil
}

// readPassphrase reads a key backup's passphrase: the first line of
// standard input.
func readPassphrase(stdin io.Reader) (string, error) {
	line, err := bufio.NewReader(stdin).ReadString('\n')
	if err != nil && !errors.Is(err, io.EOF) {
		return "", err
	}
	return strings.TrimRight(line, "\r\n"), nil
}

func (c *Config) backupKeys(to string, stdin io.Reader, stdout io.Writer) error {
	if to == "" {
		return errors.New("usage: chairside keys backup -to FILE (the passphrase on standard input)")
	}
	data, err := c.keyData()
	if err := passThrough(data, err, stdin, to, seal.SealBackup); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "Wrote the keys, encrypted under the passphrase, to %s. Keep it apart from the data's backup, and the passphrase apart from both: a restore needs the data, this file and the passphrase.\n", to)
	return nil
}

func openKeyBackup(from, to string, stdin io.Reader, stdout io.Writer) error {
	if from == "" || to == "" {
		return errors.New("usage: chairside keys open-backup -from FILE -to NEW_KEY_FILE (the passphrase on standard input)")
	}
	sealed, err := os.ReadFile(from)
	if err := passThrough(sealed, err, stdin, to, seal.OpenBackup); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "Wrote the keys to %s (mode 0600); start the server with -key-file %s.\n", to, to)
	return nil
}

// passThrough turns in (read with readErr) into what f makes of it with
// the passphrase on stdin, written to the new file to.
func passThrough(in []byte, readErr error, stdin io.Reader, to string, f func([]byte, string) ([]byte, error)) error {
	if readErr != nil {
		return readErr
	}
	pass, err := readPassphrase(stdin)
	if err != nil {
		return err
	}
	out, err := f(in, pass)
	if err != nil {
		return err
	}
	return writeNew(to, out)
}

// writeNew writes a new file private to its owner, refusing one that
// exists: neither command writes over keys.
func writeNew(path string, data []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return fmt.Errorf("keys: %w", err)
	}
	if _, err := f.Write(append(bytes.TrimSpace(data), '\n')); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
