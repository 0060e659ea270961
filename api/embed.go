// Package api holds the OpenAPI description of the Chairside JSON API,
// api/openapi.yaml: the contract the browser's TypeScript types are generated
// from, the document the server serves at GET /api/v1/openapi.yaml, and the
// schema the API tests validate every real answer against.
package api

import _ "embed"

// Spec is the content of openapi.yaml, embedded at build time.
//
//go:embed openapi.yaml
var Spec []byte
