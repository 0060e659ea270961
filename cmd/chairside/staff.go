package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/url"
	"strings"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/office"
)

const staffUsage = `Usage:
  chairside staff add -entity-key K -email E [-setup-link] [-db …]
      adds a staff member to an office; the password is read from standard
      input (one line), or with -setup-link a one-time link to choose it is
      printed (usable for 24 hours)
  chairside staff disable -email E [-db …]
      disables a staff member and ends their sessions
`

// runStaff dispatches `chairside staff add|disable`.
func runStaff(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	if len(args) < 1 || (args[0] != "add" && args[0] != "disable") {
		fmt.Fprint(stderr, staffUsage)
		return flag.ErrHelp
	}
	m := NewMain()
	c := &m.Config
	var entityKey, email string
	var setupLink bool
	fs := flag.NewFlagSet("chairside staff "+args[0], flag.ContinueOnError)
	fs.SetOutput(stderr)
	c.flags(fs, "db", "key-file")
	fs.StringVar(&email, "email", "", "the staff member's email (required)")
	if args[0] == "add" {
		c.flags(fs, "public-url")
		fs.StringVar(&entityKey, "entity-key", "", "the office's 16-digit entity key (required)")
		fs.BoolVar(&setupLink, "setup-link", false, "print a one-time link to choose the password instead of reading it from standard input")
	}
	if err := fs.Parse(args[1:]); err != nil {
		return err
	}
	if m.envErr != nil {
		return m.envErr
	}
	if email == "" {
		return errors.New("-email is required")
	}
	var password string
	if args[0] == "add" {
		if len(entityKey) != 16 || strings.Trim(entityKey, "0123456789") != "" {
			return errors.New("-entity-key must be exactly 16 digits")
		}
		if !setupLink {
			pw, err := readPassword(stdin, email)
			if err != nil {
				return err
			}
			password = pw
		}
	}
	db, _, err := c.openStore(ctx)
	if err != nil {
		return err
	}
	defer db.Close()
	svc := office.New(db, nil)
	if args[0] == "disable" {
		if err := svc.DisableStaff(ctx, email); err != nil {
			return cliError(err)
		}
		fmt.Fprintf(stdout, "Disabled %s; their sessions are ended.\n", strings.ToLower(email))
		return nil
	}
	return addStaff(ctx, svc, stdout, entityKey, email, password, c.publicURL())
}

// addStaff creates the account and, without a password, prints its setup
// link.
func addStaff(ctx context.Context, svc *office.Service, stdout io.Writer, entityKey, email, password, publicURL string) error {
	st, err := svc.AddStaff(ctx, entityKey, email, password)
	if err != nil {
		return cliError(err)
	}
	if password != "" {
		fmt.Fprintf(stdout, "Added %s. They can sign in at %s/office.\n", st.Email, strings.TrimSuffix(publicURL, "/"))
		return nil
	}
	token, until, err := svc.NewSetupLink(ctx, st)
	if err != nil {
		return cliError(err)
	}
	link := strings.TrimSuffix(publicURL, "/") + "/office/setup/" + url.PathEscape(token)
	fmt.Fprintf(stdout, "Added %s. Send them this link to choose a password (usable once, until %s):\n%s\n",
		st.Email, until.Format("Jan 2, 2006 15:04 MST"), link)
	return nil
}

// readPassword reads one line from r and checks it.
func readPassword(r io.Reader, email string) (string, error) {
	line, err := bufio.NewReader(io.LimitReader(r, office.MaxPasswordLen*4+2)).ReadString('\n')
	if err != nil && !errors.Is(err, io.EOF) {
		return "", fmt.Errorf("reading the password from standard input: %w", err)
	}
	pw := strings.TrimRight(line, "\r\n")
	if pw == "" {
		return "", errors.New("no password on standard input (one line), and no -setup-link")
	}
	if err := office.CheckPassword(email, pw); err != nil {
		return "", cliError(err)
	}
	return pw, nil
}

// cliError turns a domain error into its plain message.
func cliError(err error) error {
	if code := chairside.ErrorCode(err); code != chairside.EINTERNAL {
		return errors.New(chairside.ErrorMessage(err))
	}
	return err
}
