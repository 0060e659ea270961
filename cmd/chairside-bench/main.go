// Command chairside-bench measures the server as `make bench` reports it
// (docs/performance.md): the whole patient journey at 32 concurrent
// sessions, on SQLite and on PostgreSQL, beside a hello-world handler
// measured the same way in the same run.
//
// The server (the real binary, env test) and the hello-world handler run
// on the first core, and the load client, a process of its own, on the
// second (taskset), so that the client's work is never counted against
// them. On a machine with one core nothing is pinned. For each engine it
// prints, closed loop (every session sends its next call once the last is
// answered) and paced (a pause between one session's calls, as a person
// reading would make, if shorter): calls per second, p50 and p99 per call, the
// server's CPU time per call and its allocations per call; and on SQLite
// the time from start to ready and the resident memory with 1,000 live
// sessions.
//
//	chairside-bench [-bin bin/chairside] [-journeys 2000] [-engines sqlite,postgres]
//	chairside-bench load -base URL [-kind flow|start|hello] …   (the load client)
//	chairside-bench hello                                       (the hello-world server)
//	chairside-bench decision [-latencies D,D] [-patients N]        (time to decision: decision.go)
package main

import (
	"fmt"
	"os"
)

func main() {
	var err error
	switch {
	case len(os.Args) > 1 && os.Args[1] == "load":
		err = loadMain(os.Args[2:])
	case len(os.Args) > 1 && os.Args[1] == "hello":
		err = helloMain(os.Args[2:])
	case len(os.Args) > 1 && os.Args[1] == "decision":
		err = decisionMain(os.Args[2:])
	default:
		err = benchMain(os.Args[1:])
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "chairside-bench:", err)
		os.Exit(1)
	}
}
