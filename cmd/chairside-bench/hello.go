package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"runtime"
)

// helloMain serves the hello-world handler the journey is measured against:
// the least a Go HTTP server can do per call, over the same client,
// connections and cores. GET /stats answers its allocation count, so that
// its allocations per call are measured as the server's are. It prints its
// address on standard output and serves until killed.
func helloMain(args []string) error {
	fs := flag.NewFlagSet("chairside-bench hello", flag.ContinueOnError)
	addr := fs.String("addr", "127.0.0.1:0", "listen address")
	if err := fs.Parse(args); err != nil {
		return err
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"hello":"world"}`)
	})
	mux.HandleFunc("GET /stats", func(w http.ResponseWriter, r *http.Request) {
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		json.NewEncoder(w).Encode(map[string]uint64{"mallocs": ms.Mallocs})
	})
	fmt.Printf("http://%s\n", ln.Addr())
	return http.Serve(ln, mux)
}
