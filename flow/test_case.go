package flow

import (
	"context"
	"regexp"
	"slices"

	"github.com/chairside/chairside"
)

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
