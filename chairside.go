// Package chairside holds the domain of the Chairside patient-financing
// product: locations, flow tokens, web sessions, applications, lender
// decisions, payment plans, consents and the event log, and the interfaces of
// the services that store them (Store) and decide on them (Lender).
//
// Subpackages implement these interfaces for one dependency each (store for
// SQLite and PostgreSQL, lender/sandbox for the built-in lenders, httpapi for
// the JSON API) and talk to each other only in these terms. Wiring happens in
// cmd/chairside alone.
package chairside

import "time"

// Build information, set by the linker (-ldflags "-X ...").
var (
	Version = "dev"
	Commit  = ""
)

// Environments a server can run in (spec §3). Test cases and demo data are
// refused in EnvProd.
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

// Apply modes (spec §1). Prescreen is shown as prequalify.
const (
	ModeFull       = "full"
	ModePrequalify = "prequalify"
	ModePrescreen  = "prescreen"
)

// ValidMode reports whether mode is a known apply mode.
func ValidMode(mode string) bool {
	return mode == ModeFull || mode == ModePrequalify || mode == ModePrescreen
}

// Experience types and flow types (spec §3).
const (
	ExperienceInStore = "in_store"
	ExperienceAtHome  = "at_home"
	FlowApply         = "apply"
)

// Session timing defaults (spec §9).
const (
	DefaultTimeoutAfter  = 600000 * time.Millisecond
	DefaultWarnCountdown = 30000 * time.Millisecond
	// SessionIdleMargin is added on the server to the browser's timeout and
	// countdown before a session is considered idle, so the browser's own
	// warning always comes first.
	SessionIdleMargin = 60 * time.Second
	// SessionMaxAge bounds a session however active it is.
	SessionMaxAge = 4 * time.Hour
	// FlowTokenTTL is how long an office-issued flow token stays usable.
	FlowTokenTTL = 24 * time.Hour
)

// Finish outcomes. The URL word "canceled" is stored as cancel. A finish
// asked as completed when no lender completed an application, but every
// lender tried has answered (declined, no offer, an error), is recorded as
// OutcomeNoFinancing: the session ran its course without financing.
const (
	OutcomeCompleted   = "completed"
	OutcomeCancel      = "cancel"
	OutcomePending     = "pending"
	OutcomeTimeout     = "timeout"
	OutcomeNoFinancing = "no_financing"
)

// Clock is the source of time for everything that expires, so tests can move
// time forward. Production uses time.Now.
type Clock func() time.Time
