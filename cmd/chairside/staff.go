package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/url"
	"slices"
	"strings"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/office"
)

const staffUsage = `Usage:
  chairside staff add -entity-key K -email E [-role R] [-setup-link] [-db …]
      adds a staff member to an office (role manager unless -role says
      front_desk or group_admin); the password is read from standard input
      (one line), or with -setup-link a one-time link to choose it is
      printed (usable for 24 hours)
  chairside staff disable -email E [-db …]
      disables a staff member and ends their sessions
  chairside staff reset-second-factor -email E [-db …]
      forgets a staff member's authenticator app and recovery codes and
      ends their sessions: they set up a new one at their next sign-in
  chairside staff setup-link -email E [-db …]
      prints a new one-time link to choose the password (a forgotten one)
`

// staffCommands are the verbs of `chairside staff`.
var staffCommands = []string{"add", "disable", "reset-second-factor", "setup-link"}

// runStaff dispatches `chairside staff` and its verbs.
func runStaff(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	if len(args) < 1 || !slices.Contains(staffCommands, args[0]) {
		fmt.Fprint(stderr, staffUsage)
		return flag.ErrHelp
	}
	m := NewMain()
	c := &m.Config
	var entityKey, email, role string
	var setupLink bool
	fs := flag.NewFlagSet("chairside staff "+args[0], flag.ContinueOnError)
	fs.SetOutput(stderr)
	c.flags(fs, "db", "key-file")
	fs.StringVar(&email, "email", "", "the staff member's email (required)")
	if args[0] == "add" || args[0] == "setup-link" {
		c.flags(fs, "public-url")
	}
	if args[0] == "add" {
		fs.StringVar(&entityKey, "entity-key", "", "the office's 16-digit entity key (required)")
		fs.StringVar(&role, "role", chairside.StaffManager, "front_desk, manager or group_admin")
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
	switch args[0] {
	case "disable":
		if err := svc.DisableStaff(ctx, email); err != nil {
			return cliError(err)
		}
		fmt.Fprintf(stdout, "Disabled %s; their sessions are ended.\n", strings.ToLower(email))
		return nil
	case "reset-second-factor":
		if err := svc.ResetSecondFactor(ctx, email); err != nil {
			return cliError(err)
		}
		fmt.Fprintf(stdout, "Reset the second factor of %s; they set up a new one at their next sign-in.\n", strings.ToLower(email))
		return nil
	case "setup-link":
		st, err := svc.FindStaff(ctx, email)
		if err != nil {
			return cliError(err)
		}
		return printSetupLink(ctx, svc, stdout, st, c.publicURL())
	}
	return addStaff(ctx, svc, stdout, entityKey, email, password, role, c.publicURL())
}

// addStaff creates the account and, without a password, prints its setup
// link.
func addStaff(ctx context.Context, svc *office.Service, stdout io.Writer, entityKey, email, password, role, publicURL string) error {
	st, err := svc.AddStaff(ctx, entityKey, email, password, role)
	if err != nil {
		return cliError(err)
	}
	if password != "" {
		fmt.Fprintf(stdout, "Added %s. They can sign in at %s/office.\n", st.Email, strings.TrimSuffix(publicURL, "/"))
		return nil
	}
	fmt.Fprintf(stdout, "Added %s. ", st.Email)
	return printSetupLink(ctx, svc, stdout, st, publicURL)
}

// printSetupLink makes a setup link for st and prints it.
func printSetupLink(ctx context.Context, svc *office.Service, stdout io.Writer, st *chairside.Staff, publicURL string) error {
	if st.DisabledAt != nil {
		return errors.New("this account is disabled")
	}
	token, until, err := svc.NewSetupLink(ctx, st)
	if err != nil {
		return cliError(err)
	}
	link := strings.TrimSuffix(publicURL, "/") + "/office/setup/" + url.PathEscape(token)
	fmt.Fprintf(stdout, "Send them this link to choose a password (usable once, until %s):\n%s\n",
		until.Format("Jan 2, 2006 15:04 MST"), link)
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
