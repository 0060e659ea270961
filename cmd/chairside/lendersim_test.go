package main

import (
	"bytes"
	"context"
	"net/http"
	"regexp"
	"sync"
	"testing"
	"time"
)

// TestLenderSimSubcommand starts `chairside lendersim` on a free port
// with a key and a fault from the command line, asks it for a document
// (and the faulty lender for one), and stops it with its context.
func TestLenderSimSubcommand(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	out := &lockedBuffer{}
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"lendersim", "-addr", "127.0.0.1:0", "-api-key", "k1", "-pending-for", "1s",
			"-fault", "ads_standard=5xx,op=document"}, out, &lockedBuffer{})
	}()
	listening := regexp.MustCompile(`listening on (http://[0-9.:]+)/lenders/\{providerKey\}`)
	var base string
	for deadline := time.Now().Add(5 * time.Second); base == "" && time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if m := listening.FindStringSubmatch(out.String()); m != nil {
			base = m[1]
		}
	}
	if base == "" {
		cancel()
		t.Fatalf("no listening line: %q", out.String())
	}
	get := func(path, key string) int {
		req, _ := http.NewRequest("GET", base+path, nil)
		req.Header.Set("Authorization", "Bearer "+key)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res.StatusCode
	}
	for _, tt := range []struct {
		path, key string
		want      int
	}{
		{"/lenders/hfd_standard/documents/terms", "k1", 200},
		{"/lenders/hfd_standard/documents/terms", "k2", 401},
		{"/lenders/ads_standard/documents/terms", "k1", 503},
	} {
		if got := get(tt.path, tt.key); got != tt.want {
			t.Errorf("GET %s with %s: %d, want %d", tt.path, tt.key, got, tt.want)
		}
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("lendersim ended with %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("lendersim did not stop with its context")
	}
	if err := run(context.Background(), []string{"lendersim", "-fault", "nope"}, &lockedBuffer{}, &lockedBuffer{}); err == nil {
		t.Fatal("a malformed -fault was accepted")
	}
	t.Setenv("CHAIRSIDE_SIM_WEBHOOK_SECRET", "")
	if err := run(context.Background(), []string{"lendersim", "-webhook-url", "http://x/{providerKey}"}, &lockedBuffer{}, &lockedBuffer{}); err == nil {
		t.Fatal("a webhook URL without a secret was accepted")
	}
}

// lockedBuffer is an output safe to read while the command writes it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
