package main

import (
	"cmp"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"text/tabwriter"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/demo"
	"github.com/chairside/chairside/officefile"
)

const officeUsage = `Usage:
  chairside office import [flags] FILE   create or update the offices of an office file (YAML or JSON)
  chairside office list [flags]          print the offices, sorted by name

The file's format is in docs/offices.md; examples/offices.yaml is a sample.
Flags: -db (CHAIRSIDE_DB) and -key-file (CHAIRSIDE_KEY_FILE), as for serve.
`

// runOffice dispatches `chairside office …`.
func runOffice(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, officeUsage)
		return flag.ErrHelp
	}
	switch args[0] {
	case "import":
		return runOfficeImport(ctx, args[1:], stdout, stderr)
	case "list":
		return runOfficeList(ctx, args[1:], stdout, stderr)
	default:
		fmt.Fprint(stderr, officeUsage)
		return fmt.Errorf("unknown office command %q", args[0])
	}
}

// officeFlags parses the store flags of an office command and answers its
// other arguments, which may come before or after the flags.
func officeFlags(name string, args []string, stderr io.Writer) (*Main, []string, error) {
	m := NewMain()
	c := &m.Config
	fs := flag.NewFlagSet("chairside office "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	c.flags(fs, "db", "key-file")
	var rest []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, nil, err
		}
		if fs.NArg() == 0 {
			break
		}
		rest, args = append(rest, fs.Arg(0)), fs.Args()[1:]
	}
	return m, rest, m.envErr
}

// runOfficeImport checks a whole office file, then creates or updates its
// offices in one transaction: a file with any problem changes nothing
// (docs/offices.md). The demo offices' entity keys are refused: they are
// made by -env dev, and a database holding them is refused by -env prod.
func runOfficeImport(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	m, files, err := officeFlags("import", args, stderr)
	if err != nil {
		return err
	}
	if len(files) != 1 {
		fmt.Fprint(stderr, officeUsage)
		return fmt.Errorf("office import takes one file, the office file")
	}
	data, err := os.ReadFile(files[0])
	if err != nil {
		return fmt.Errorf("cannot read the office file: %w", err)
	}
	offices, err := officefile.Parse(files[0], data)
	if err != nil {
		return fmt.Errorf("nothing was imported; fix these and import the file again:\n%w", err)
	}
	var demoKeys []officefile.Problem
	for _, o := range offices {
		if demo.IsDemoKey(o.Location.EntityKey) {
			demoKeys = append(demoKeys, officefile.Problem{File: files[0], Line: o.Line, Office: o.Location.Name,
				Text: fmt.Sprintf("entity key %s belongs to a demo office", o.Location.EntityKey)})
		}
	}
	if len(demoKeys) > 0 {
		return fmt.Errorf("nothing was imported; fix these and import the file again:\n%w\n"+
			"The demo offices come with -env dev (and demo, test), and -env prod refuses a database holding them: "+
			"give each real office its own entity key", &officefile.Error{Problems: demoKeys})
	}
	db, _, err := m.Config.openStore(ctx)
	if err != nil {
		return err
	}
	defer db.Close()
	existed := map[string]bool{}
	for _, o := range offices {
		_, err := db.FindLocationByEntityKey(ctx, o.Location.EntityKey)
		existed[o.Location.EntityKey] = err == nil
	}
	if err := officefile.Import(ctx, db, offices); err != nil {
		return fmt.Errorf("nothing was imported: %w", err)
	}
	fmt.Fprintf(stdout, "Imported %d %s from %s:\n", len(offices), plural(len(offices), "office", "offices"), files[0])
	w := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	for _, o := range offices {
		l, what := o.Location, "created"
		if existed[l.EntityKey] {
			what = "updated"
		}
		fmt.Fprintf(w, "  %s\t%s\t%s (%s)\n", what, l.EntityKey, l.Name, l.State)
	}
	return w.Flush()
}

// runOfficeList prints every office with its waterfall, sorted by name.
func runOfficeList(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	m, rest, err := officeFlags("list", args, stderr)
	if err != nil {
		return err
	}
	if len(rest) > 0 {
		return fmt.Errorf("unexpected argument %q", rest[0])
	}
	db, _, err := m.Config.openStore(ctx)
	if err != nil {
		return err
	}
	defer db.Close()
	locs, err := db.ListLocations(ctx)
	if err != nil {
		return err
	}
	if len(locs) == 0 {
		fmt.Fprintln(stdout, "No offices yet. Add them with: chairside office import FILE (see examples/offices.yaml).")
		return nil
	}
	slices.SortFunc(locs, func(a, b *chairside.Location) int {
		return cmp.Or(cmp.Compare(a.Name, b.Name), cmp.Compare(a.EntityKey, b.EntityKey))
	})
	w := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(w, "ENTITY KEY\tNAME\tSTATE\tWATERFALL")
	for _, l := range locs {
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\n", l.EntityKey, l.Name, l.State, officefile.Describe(l.Waterfall))
	}
	return w.Flush()
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
