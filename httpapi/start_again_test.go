package httpapi_test

import (
	"testing"
	"time"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/flow"
)

// TestStartAgain: "start again" after a finish begins a new application at
// the same office and in the same experience, carries nothing of the old
// one, and only from a session that finished a short while ago.
func TestStartAgain(t *testing.T) {
	eachEngine(t, config{}, func(t *testing.T, h *harness) {
		again := func(prev string) *result {
			return h.do(t, req{method: "POST", path: "/flow/start/again", body: map[string]any{"previousSessionId": prev}})
		}
		var first flow.StartResponse
		res := h.do(t, req{method: "POST", path: "/flow/start/entity-keys/" + EntityKey,
			body: map[string]any{"purchaseAmountCents": 450000, "experienceType": chairside.ExperienceAtHome}})
		want(t, res, 200, "")
		res.into(t, &first)
		sid := first.Session.WebSessionID

		// A live session is not restarted from.
		want(t, again(sid), 404, chairside.ENOTFOUND)
		want(t, h.do(t, req{method: "POST", path: "/flow/finish/timeout", session: sid}), 200, "")

		var next flow.StartResponse
		res = again(sid)
		want(t, res, 200, "")
		res.into(t, &next)
		if next.Session.WebSessionID == "" || next.Session.WebSessionID == sid {
			t.Fatalf("no new session: %+v", next.Session)
		}
		if next.Session.ExperienceType != chairside.ExperienceAtHome || next.Location.Name != first.Location.Name {
			t.Errorf("office or experience not kept: %+v %+v", next.Session, next.Location)
		}
		if next.Application.PurchaseAmountCents != 0 || next.Application.Primary != (flow.ApplicantName{}) {
			t.Errorf("the finished application leaked into the new one: %+v", next.Application)
		}
		want(t, h.do(t, req{method: "GET", path: "/locations/current", session: next.Session.WebSessionID}), 200, "")

		// Past the window, unknown or malformed: the same not-found answer.
		want(t, h.do(t, req{method: "POST", path: "/flow/finish/canceled", session: next.Session.WebSessionID}), 200, "")
		h.clock.Advance(flow.RestartWindow + time.Second)
		want(t, again(next.Session.WebSessionID), 404, chairside.ENOTFOUND)
		want(t, again("AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"), 404, chairside.ENOTFOUND)
		want(t, again("bad id!"), 404, chairside.ENOTFOUND)
		want(t, h.do(t, req{method: "POST", path: "/flow/start/again", body: map[string]any{"previousSessionId": sid, "extra": 1}}), 400, chairside.EBADREQUEST)
	})
}
