package flow

import (
	"context"
	"regexp"
	"slices"

	"github.com/chairside/chairside"
)

// PlansPresented records that plans of these providers were shown.
func (s *Service) PlansPresented(ctx context.Context, c *Caller, req *PlansPresentedRequest) error {
	if len(req.ProviderKeys) > 20 {
		return errorf(chairside.EBADREQUEST, "Too many providerKeys.")
	}
	loc, err := s.location(ctx, c.Session.LocationID)
	if err != nil {
		return err
	}
	keys := make([]string, 0, len(req.ProviderKeys))
	for _, k := range req.ProviderKeys {
		if loc.Step(k) == nil {
			return errorf(chairside.ENOTFOUND, "This lender is not offered here.")
		}
		keys = append(keys, k)
	}
	s.event(ctx, c.Session, "", "financing_plans.presented", map[string]any{"providerKeys": keys})
	return nil
}

// testCaseID bounds test case ids to a harmless alphabet.
var testCaseID = regexp.MustCompile(`^[A-Za-z0-9_.-]{1,64}$`)

// ApplyTestCase chooses a sandbox test case for the caller's application.
// It is refused in env prod, whatever the id.
func (s *Service) ApplyTestCase(ctx context.Context, c *Caller, id string) (*TestCaseResponse, error) {
	if s.opts.Env == chairside.EnvProd {
		return nil, errorf(chairside.EFORBIDDEN, "Test cases are not available in production.")
	}
	if !testCaseID.MatchString(id) || (s.opts.TestCaseIDs != nil && !slices.Contains(s.opts.TestCaseIDs, id)) {
		return nil, errorf(chairside.ENOTFOUND, "Unknown test case.")
	}
	app, err := s.store.FindApplication(ctx, c.Session.ApplicationID)
	if err != nil {
		return nil, err
	}
	app.TestCase = id
	app.UpdatedAt = s.now().UTC()
	if err := s.store.UpdateApplication(ctx, app); err != nil {
		return nil, err
	}
	s.event(ctx, c.Session, "", "test_case.applied", map[string]any{"testCase": id})
	return &TestCaseResponse{TestCase: id}, nil
}

// longDigits finds runs of digits long enough to be an SSN, a phone, an
// account or card number.
var longDigits = regexp.MustCompile(`\d[\d -]{5,}\d`)

// ClientLog writes a browser's log line. The browser is untrusted and may
// put personal data in a message by mistake, so long digit runs are
// redacted and every string is bounded; slog's JSON handler escapes
// newlines, so a message cannot forge log lines. sess may be nil.
func (s *Service) ClientLog(ctx context.Context, sess *chairside.Session, req *LogRequest) error {
	switch req.Level {
	case "ERROR", "WARN", "INFO", "DEBUG", "TRACE", "OFF":
	default:
		return errorf(chairside.EBADREQUEST, "level must be one of ERROR, WARN, INFO, DEBUG, TRACE, OFF.")
	}
	if req.Level == "OFF" {
		return nil
	}
	clean := func(v string, n int) string {
		if len(v) > n {
			v = v[:n]
		}
		return longDigits.ReplaceAllString(v, "[redacted]")
	}
	tags := make([]string, 0, min(len(req.Tags), 20))
	for i, t := range req.Tags {
		if i == 20 {
			break
		}
		tags = append(tags, clean(t, 100))
	}
	attrs := []any{
		"source", "browser",
		"level", req.Level,
		"name", clean(req.Name, 200),
		"clientSource", clean(req.Source, 200),
		"clientDateTime", clean(req.ClientDateTime, 64),
		"tags", tags,
		"message", clean(req.Message, 2000),
	}
	if sess != nil {
		attrs = append(attrs, "session", SessionHash(sess.ID))
	}
	s.log.InfoContext(ctx, "client log", attrs...)
	return nil
}
