package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"time"
)

// runProbe asks one address and succeeds when it answers 2xx within 5
// seconds: the health check of a container image with nothing but the
// binary in it (deploy/Dockerfile), on /healthz or /readyz.
func runProbe(ctx context.Context, args []string, stdout io.Writer) error {
	if len(args) != 1 {
		return fmt.Errorf("probe takes one address, such as http://127.0.0.1:8080/readyz")
	}
	u, err := url.Parse(args[0])
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("probe: %q is not an http(s) address", args[0])
	}
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return err
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return fmt.Errorf("probe: %w", err)
	}
	defer res.Body.Close()
	if res.StatusCode < 200 || res.StatusCode > 299 {
		return fmt.Errorf("probe: %s answered %d", u.Redacted(), res.StatusCode)
	}
	fmt.Fprintf(stdout, "%s: %d\n", u.Redacted(), res.StatusCode)
	return nil
}
