package flow

import (
	"context"

	"github.com/chairside/chairside"
)

// TestCaseInfo is one named sandbox scenario as a QA person picks it.
type TestCaseInfo struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	Description string `json:"description"`
}

// TestCaseList answers GET /test-cases: the scenarios, and the demo office
// where the app's /test-cases/{id} route starts a session for one.
type TestCaseList struct {
	TestCases []TestCaseInfo `json:"testCases"`
	EntityKey string         `json:"entityKey,omitempty"`
}

// TestCases lists the sandbox's named test cases; refused in env prod, as
// applying one is.
func (s *Service) TestCases(ctx context.Context) (*TestCaseList, error) {
	if s.opts.Env == chairside.EnvProd {
		return nil, errorf(chairside.EFORBIDDEN, "Test cases are not available in production.")
	}
	list := append([]TestCaseInfo{}, s.opts.TestCases...)
	return &TestCaseList{TestCases: list, EntityKey: s.opts.DemoEntityKey}, nil
}
