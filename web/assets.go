// Package web holds the patient-facing React application. Its Go files
// expose the built app (web/dist) to the server binary.
//
// The built files are embedded only when the binary is built with the
// "webdist" tag (the Makefile does this after `npm run build`), so that
// `go test ./...` and `go build ./...` work on a fresh clone before any
// JavaScript has been built; without the tag Dist is empty and the server
// answers a short page saying the web app is not built.
package web
