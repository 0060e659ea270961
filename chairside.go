// Package chairside holds the domain of the Chairside patient-financing
// product, one file per entity: locations, flow tokens, web sessions,
// applications, lender applications, lender decisions, payment plans,
// documents, consents, the event log and the lender calls, and the
// interfaces of the services that store them (Store) and decide on them
// (Lender).
//
// Subpackages implement these interfaces for one dependency each (store for
// SQLite and PostgreSQL, lender/sandbox for the built-in lenders) or build
// on them (flow, the application service; httpapi, the JSON API), and talk
// to each other only in these terms. Wiring happens in cmd/chairside alone.
package chairside

import "time"

// Build information, set by the linker (-ldflags "-X ...").
var (
	Version = "dev"
	Commit  = ""
)

// Environments a server can run in (docs/running.md, the -env setting). Test cases
// and demo data are refused in EnvProd.
const (
	EnvProd    = "prod"
	EnvTest    = "test"
	EnvUAT     = "uat"
	EnvDemo    = "demo"
	EnvDev     = "dev"
	EnvDefault = "default"
)

// ValidEnv reports whether env is one of the known environments.
func ValidEnv(env string) bool {
	switch env {
	case EnvProd, EnvTest, EnvUAT, EnvDemo, EnvDev, EnvDefault:
		return true
	}
	return false
}

// Apply modes, one per waterfall step (docs/behaviour.md, "The waterfall").
// Prescreen is shown as prequalify.
const (
	ModeFull       = "full"
	ModePrequalify = "prequalify"
	ModePrescreen  = "prescreen"
)

// ValidMode reports whether mode is a known apply mode.
func ValidMode(mode string) bool {
	return mode == ModeFull || mode == ModePrequalify || mode == ModePrescreen
}

// Clock is the source of time for everything that expires, so tests can move
// time forward. Production uses time.Now.
type Clock func() time.Time

// BlindIndexer computes keyed hashes (HMAC) of secrets, so a stored hash can
// be compared and looked up but never tested against guesses by someone
// without the key. *seal.Keyring implements it; package flow uses it for
// the hash of what a lender step asks, and package store for the SSN's
// blind index (Application.SSNIndex).
type BlindIndexer interface {
	BlindIndex(s string) string
}
