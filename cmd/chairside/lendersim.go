package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/chairside/chairside/lender/lendersim"
)

// faultFlags collects the repeated -fault flag of lendersim.
type faultFlags []string

func (f *faultFlags) String() string { return strings.Join(*f, " ") }

func (f *faultFlags) Set(v string) error {
	if _, _, err := lendersim.ParseFault(v); err != nil {
		return err
	}
	*f = append(*f, v)
	return nil
}

// runLenderSim runs the lender simulator (docs/lender-protocol.md, "The
// simulator") until ctx ends: every product of the catalogue under
// /lenders/{providerKey}/, speaking our lender protocol.
func runLenderSim(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("lendersim", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", "127.0.0.1:8090", "address to listen on")
	webhookURL := fs.String("webhook-url", "", "where webhooks go, {providerKey} replaced by the lender's key, e.g.\n"+
		"http://127.0.0.1:8080/api/v1/lenders/{providerKey}/webhooks (none when empty)")
	webhookSecret := fs.String("webhook-secret", "", "the secret that signs webhooks (default $CHAIRSIDE_SIM_WEBHOOK_SECRET)")
	apiKey := fs.String("api-key", "", "when set, every request must carry Authorization: Bearer <api-key>")
	pendingFor := fs.Duration("pending-for", lendersim.DefaultPendingFor, "how long a pending application stays pending")
	fundingDay := fs.Duration("funding-day", 0, "how long a business day of the lenders' funding lasts; 0 counts real business days")
	var faults faultFlags
	fs.Var(&faults, "fault", "a fault of one lender, repeatable: lender=kind[:delay][,op=…][,count=n], kinds slow, 5xx,\n"+
		"garbage, drop, webhook-twice, webhook-never, webhook-late, webhook-reorder (a webhook fault's op is an event type);\n"+
		"e.g. snap_standard=slow:30s, vive_standard=drop,op=decide,count=1, synchrony_standard=webhook-reorder,op=funding.updated")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("lendersim: unexpected argument %q", fs.Arg(0))
	}
	if *fundingDay < 0 {
		return errors.New("lendersim: -funding-day must be zero (real business days) or more")
	}
	secret := *webhookSecret
	if secret == "" {
		secret = os.Getenv("CHAIRSIDE_SIM_WEBHOOK_SECRET")
	}
	if *webhookURL != "" && secret == "" {
		return errors.New("lendersim: -webhook-url needs -webhook-secret or CHAIRSIDE_SIM_WEBHOOK_SECRET")
	}
	sim := lendersim.New(lendersim.Options{
		APIKey: *apiKey, WebhookURL: *webhookURL, WebhookSecret: secret, PendingFor: *pendingFor, FundingDay: *fundingDay,
		Logger: slog.New(slog.NewTextHandler(stderr, nil)),
	})
	defer sim.Close()
	for _, spec := range faults {
		key, f, _ := lendersim.ParseFault(spec)
		if err := sim.SetFault(key, f); err != nil {
			return err
		}
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	return serveSim(ctx, ln, sim, stdout)
}

// serveSim serves the simulator on ln until ctx ends, then lets requests
// under way finish for a few seconds (a slow fault's wait ends sooner:
// with its client).
func serveSim(ctx context.Context, ln net.Listener, sim http.Handler, stdout io.Writer) error {
	srv := &http.Server{Handler: sim, ReadHeaderTimeout: 10 * time.Second}
	fmt.Fprintf(stdout, "Lender simulator listening on http://%s/lenders/{providerKey}\n", ln.Addr())
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		return srv.Close()
	}
	return nil
}
