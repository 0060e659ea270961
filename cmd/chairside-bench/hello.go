package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"runtime"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/seal"
	"github.com/chairside/chairside/store"
)

// helloMain serves the yardsticks the journey is measured against, over
// the same client, connections and cores:
//
//   - GET / is hello-world: the least a Go HTTP server can do per call;
//   - POST /event, with -db, appends one event row through the store's own
//     group commit (commit.go) and answers once it is durable: the least a
//     call that writes can do on this stack, with no read, no sealing, no
//     JSON body and no lender. A journey call is measured against both.
//
// GET /stats answers its allocation count, so that its allocations per
// call are measured as the server's are. It prints its address on standard
// output and serves until killed.
func helloMain(args []string) error {
	fs := flag.NewFlagSet("chairside-bench hello", flag.ContinueOnError)
	addr := fs.String("addr", "127.0.0.1:0", "listen address")
	dsn := fs.String("db", "", "database for POST /event: a SQLite file or a postgres:// URL (none: no /event)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	var db *store.DB
	if *dsn != "" {
		if db, err = openYardstickStore(*dsn); err != nil {
			return err
		}
		defer db.Close()
	}
	fmt.Printf("http://%s\n", ln.Addr())
	return http.Serve(ln, yardstickMux(db))
}

// yardstickMux serves GET / and GET /stats, and POST /event when db is not
// nil.
func yardstickMux(db *store.DB) *http.ServeMux {
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
	if db == nil {
		return mux
	}
	mux.HandleFunc("POST /event", func(w http.ResponseWriter, r *http.Request) {
		e := &chairside.Event{SessionID: yardstickSession, Type: "bench.durable"}
		if err := db.AppendEvent(r.Context(), e); err != nil {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusInternalServerError)
			io.WriteString(w, `{"error":"write failed"}`)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"ok":true}`)
	})
	return mux
}

// yardstickSession is the session the durable write's events are filed
// under.
const yardstickSession = "bench-yardstick"

// openYardstickStore opens the store as the server does (migrations,
// group commit, synchronous writes), under a keyring of its own: an event
// holds nothing sealed.
func openYardstickStore(dsn string) (*store.DB, error) {
	raw, err := seal.Generate()
	if err != nil {
		return nil, err
	}
	keys, err := seal.FromJSON(raw)
	if err != nil {
		return nil, err
	}
	return store.Open(context.Background(), dsn, keys)
}
