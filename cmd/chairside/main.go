// Command chairside runs the Chairside server (`chairside serve`) and the
// small office tools that come with it (`chairside token create`).
//
// This is the only place where the program's parts are wired together: the
// store, the lenders, the application service and the HTTP layer know each
// other only through the domain package.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"runtime/pprof"
	"runtime/trace"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	defer record("cpu profile", os.Getenv("CHAIRSIDE_CPU_PROFILE"), pprof.StartCPUProfile, pprof.StopCPUProfile)()
	defer record("trace", os.Getenv("CHAIRSIDE_TRACE"), trace.Start, trace.Stop)()
	if err := run(ctx, os.Args[1:], os.Stdout, os.Stderr); err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(os.Stderr, "chairside:", err)
		}
		os.Exit(1)
	}
}

// record writes what start begins to path until the function it answers is
// called (at a clean exit): the CPU profile (CHAIRSIDE_CPU_PROFILE) and the
// execution trace (CHAIRSIDE_TRACE) behind the benchmark's account of where
// a call's time goes and where a paced call waits (docs/performance.md). An
// empty path records nothing.
func record(what, path string, start func(io.Writer) error, stop func()) func() {
	if path == "" {
		return func() {}
	}
	f, err := os.Create(path)
	if err == nil {
		err = start(f)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "chairside: %s: %v\n", what, err)
		return func() {}
	}
	return func() {
		stop()
		f.Close()
	}
}

// serverGC lets the server's heap grow twice as far as Go's default between
// collections, unless GOGC says otherwise. The live heap is a few megabytes,
// so at the default the collector runs many times a second under load and
// takes the one core from the requests waiting; the price is a few megabytes
// more (docs/performance.md, "Paced latency: what a patient waits").
func serverGC() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(200)
	}
}

const usage = `Chairside — patient financing at the dental chair.

Usage:
  chairside serve [flags]          run the server (API and web app); env prod unless
                                   -env says otherwise (-env dev: demo offices, test cases)
  chairside token create [flags]   create a one-time start link and QR code for a patient
  chairside office import FILE     create or update offices from an office file (YAML or JSON)
  chairside office list            print the offices and their lenders
  chairside staff add|disable      add a staff member of an office, or disable one
  chairside lendersim [flags]      run the lender simulator: every lender over our HTTP lender protocol
  chairside settings               print serve's settings: flag, variable, default, meaning
  chairside probe URL              exit 0 when URL answers 2xx: a container's health check
  chairside keys new|rotate|status|retire|backup|open-backup
                                   make, rotate, count, retire and back up the data keys
  chairside restore -from B -to F  write the backup B (serve's -backup-to), latest or -at a moment, to the new file F
  chairside backup verify -from B  restore B into a temporary file and check it opens, migrates and passes the audit
  chairside version                print the version

Run "chairside serve -h" or "chairside token create -h" for their flags.
`

// run dispatches a command line; it is main without the process around it,
// so tests can call it.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return flag.ErrHelp
	}
	switch args[0] {
	case "serve":
		serverGC()
		m := NewMain()
		m.Stdout = stdout
		if err := m.ParseFlags(args[1:], stderr); err != nil {
			return err
		}
		if err := m.Run(ctx); err != nil {
			return err
		}
		<-ctx.Done()
		fmt.Fprintln(stdout, "Shutting down…")
		return m.Close()
	case "token":
		if len(args) < 2 || args[1] != "create" {
			fmt.Fprint(stderr, usage)
			return flag.ErrHelp
		}
		return runTokenCreate(ctx, args[2:], stdout, stderr)
	case "staff":
		return runStaff(ctx, args[1:], os.Stdin, stdout, stderr)
	case "office":
		return runOffice(ctx, args[1:], stdout, stderr)
	case "lendersim":
		return runLenderSim(ctx, args[1:], stdout, stderr)
	case "settings":
		return runSettings(args[1:], stdout, stderr)
	case "probe":
		return runProbe(ctx, args[1:], stdout)
	case "keys":
		return runKeys(ctx, args[1:], os.Stdin, stdout, stderr)
	case "restore":
		return runRestore(ctx, args[1:], stdout, stderr)
	case "backup":
		return runBackup(ctx, args[1:], stdout, stderr)
	case "version":
		fmt.Fprintln(stdout, versionString())
		return nil
	case "-h", "-help", "--help", "help":
		fmt.Fprint(stdout, usage)
		return nil
	default:
		fmt.Fprint(stderr, usage)
		return fmt.Errorf("unknown command %q", args[0])
	}
}
