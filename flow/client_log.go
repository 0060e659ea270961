package flow

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/chairside/chairside"
)

// What a browser may report: one of the codes it sends and one of the
// route patterns of its route table, nothing else, so no line can carry a
// token, an SSN, a name or a sentence, whatever a browser sends. These
// lists are the one source of both: tools/generate writes them for the web
// app (web/src/lib/clientLog.generated.ts), whose types take only these
// codes and whose tests hold its route table to these patterns.
var (
	logCodes  = setOf(ClientLogCodes())
	logRoutes = setOf(clientLogRoutes)
)

// ClientLogCodes answers the codes a browser may report: its own, and
// "api." with each error code it may meet (KNOWN_ERROR_CODES of
// web/src/lib/api/types.ts: the API's and its own network, bad_response
// and unknown).
func ClientLogCodes() []string {
	codes := []string{
		"client.invalid_code",
		"credit_limit_change.failed",
		"decision.unknown_response",
		"finish.failed",
		"submit.failed",
		"ui.chunk_load_failed",
		"ui.route_error",
		"ui.route_not_found",
		"ui.widget_failed",
		"api.lender_step.in_flight",
		"api.lender_step.offline",
	}
	for _, c := range append(chairside.ErrorCodes(), "network", "bad_response", "unknown") {
		codes = append(codes, "api."+c)
	}
	return codes
}

// clientLogRoutes are the patterns of the web app's route table
// (web/src/app/routes.tsx), as web/src/lib/clientLog.ts routePattern
// writes them.
var clientLogRoutes = []string{
	"/",
	"/404",
	"/accessibility",
	"/breakout/{lender}/{lenderApplicationId}",
	"/contexthelp",
	"/docs/pdf/{pdfUrl}",
	"/docs/{doc}",
	"/error",
	"/finish",
	"/finish/{type}",
	"/home",
	"/home/apply",
	"/home/apply/at_home",
	"/home/{flowType}",
	"/home/{flowType}/{experienceType}",
	"/idle",
	"/internal/version",
	"/office",
	"/office/applications/{id}",
	"/office/audit",
	"/office/funding",
	"/office/invite",
	"/office/records",
	"/office/setup/{token}",
	"/office/staff",
	"/office/two-step",
	"/providers/{providerKey}",
	"/providers/{providerKey}/acceptOfferError",
	"/providers/{providerKey}/acceptOfferSubmit",
	"/providers/{providerKey}/addBankAccount",
	"/providers/{providerKey}/additionalContactInformation",
	"/providers/{providerKey}/agreement",
	"/providers/{providerKey}/amountChanged",
	"/providers/{providerKey}/approved",
	"/providers/{providerKey}/checkCalifornia",
	"/providers/{providerKey}/checkCaliforniaNext",
	"/providers/{providerKey}/checkWisconsin",
	"/providers/{providerKey}/checkWisconsinNext",
	"/providers/{providerKey}/complete",
	"/providers/{providerKey}/completeAgreement",
	"/providers/{providerKey}/completeApplicationSubmit",
	"/providers/{providerKey}/correctErrors",
	"/providers/{providerKey}/credit_limit_change/income",
	"/providers/{providerKey}/credit_limit_change/result",
	"/providers/{providerKey}/credit_limit_change/start",
	"/providers/{providerKey}/declined",
	"/providers/{providerKey}/downpayment",
	"/providers/{providerKey}/error",
	"/providers/{providerKey}/esignApplicationSubmit",
	"/providers/{providerKey}/existingAccount",
	"/providers/{providerKey}/expired",
	"/providers/{providerKey}/fail",
	"/providers/{providerKey}/fullApplicationSubmit",
	"/providers/{providerKey}/loanPayment",
	"/providers/{providerKey}/modes/{mode}/application",
	"/providers/{providerKey}/modes/{mode}/applicationNext",
	"/providers/{providerKey}/modes/{mode}/jointApplication",
	"/providers/{providerKey}/modes/{mode}/offerReviewNext",
	"/providers/{providerKey}/modes/{mode}/primary/start",
	"/providers/{providerKey}/modes/{mode}/start",
	"/providers/{providerKey}/modes/{mode}/switch",
	"/providers/{providerKey}/nooffer",
	"/providers/{providerKey}/offerReview",
	"/providers/{providerKey}/pass",
	"/providers/{providerKey}/patch/{patchType}",
	"/providers/{providerKey}/patchSubmit",
	"/providers/{providerKey}/patchSuccessful",
	"/providers/{providerKey}/paymentPlanReview",
	"/providers/{providerKey}/paymentPlans",
	"/providers/{providerKey}/paymentSelection",
	"/providers/{providerKey}/pending",
	"/providers/{providerKey}/preapproved",
	"/providers/{providerKey}/prequalified",
	"/providers/{providerKey}/prequalifyAgree",
	"/providers/{providerKey}/prequalifyAgreeNext",
	"/providers/{providerKey}/prequalifySubmit",
	"/providers/{providerKey}/quiz",
	"/providers/{providerKey}/resume",
	"/providers/{providerKey}/resume/from-payment-plans",
	"/providers/{providerKey}/resume/{rest}",
	"/providers/{providerKey}/terms",
	"/providers/{providerKey}/true-pending",
	"/providers/{providerKey}/under-review",
	"/redirect/{redirect}",
	"/session/invalid",
	"/start",
	"/start/entity-keys/{entityKey}",
	"/start/tokens/{token}",
	"/test-cases/{id}",
	"/{rest}",
}

func setOf(list []string) map[string]bool {
	m := make(map[string]bool, len(list))
	for _, s := range list {
		m[s] = true
	}
	return m
}

// ClientLog writes a browser's error report as one log line of the
// caller's session: the level the browser gave, message "client log", and
// source, code, route and the session hash — no text of the browser's
// beyond the code and the route, which are checked against narrow
// shapes. Anything else is bad_request. The caller must have a live
// session; the HTTP layer bounds the size and the rate.
func (s *Service) ClientLog(ctx context.Context, c *Caller, req *LogRequest) error {
	var level slog.Level
	switch req.Level {
	case "error":
		level = slog.LevelError
	case "warn":
		level = slog.LevelWarn
	case "info":
		level = slog.LevelInfo
	default:
		return errorf(chairside.EBADREQUEST, `level must be "error", "warn" or "info".`)
	}
	if !logCodes[req.Code] {
		return errorf(chairside.EBADREQUEST, "code must be one of the app's error codes.")
	}
	if !logRoutes[req.Route] {
		return errorf(chairside.EBADREQUEST, "route must be one of the app's route patterns.")
	}
	if req.ClientDateTime != "" {
		if _, err := time.Parse(time.RFC3339, req.ClientDateTime); len(req.ClientDateTime) > 40 || err != nil {
			return errorf(chairside.EBADREQUEST, "clientDateTime must be an RFC 3339 date and time, e.g. 2026-01-31T14:05:00Z.")
		}
	}
	s.log.LogAttrs(ctx, level, "client log",
		slog.String("source", "browser"),
		slog.String("code", req.Code),
		slog.String("route", req.Route),
		slog.String("session", SessionHash(c.Session.ID)),
	)
	return nil
}

// ClientLogFile is where tools/generate writes the lists for the web app,
// from the module's root.
const ClientLogFile = "web/src/lib/clientLog.generated.ts"

// BrowserClientLog renders the lists as the web app's module, formatted as
// Prettier would (web/.prettierrc.json), so its lint accepts it as it is.
func BrowserClientLog() []byte {
	var b strings.Builder
	b.WriteString("// Code generated by tools/generate from flow/client_log.go; DO NOT EDIT.\n//\n")
	b.WriteString("// What the browser may report to POST /log: the server refuses any other\n")
	b.WriteString("// code or route. Rewrite with:\n//   make generate\n")
	for _, list := range []struct {
		name  string
		items []string
	}{{"LOG_CODES", ClientLogCodes()}, {"LOG_ROUTES", clientLogRoutes}} {
		fmt.Fprintf(&b, "\nexport const %s = [\n", list.name)
		for _, s := range list.items {
			fmt.Fprintf(&b, "  '%s',\n", s)
		}
		b.WriteString("] as const;\n")
	}
	return []byte(b.String())
}
