package flow_test

import (
	"context"
	"testing"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/flow"
	"github.com/chairside/chairside/store/storetest"
	"github.com/chairside/chairside/testkit"
)

// TestStartSaysWhetherAPurchaserMayApply: the start's application says
// whether someone other than the patient may apply — the office's setting,
// false unless the office allows it, and kept by a restart (docs/behaviour.md,
// "The patient check").
func TestStartSaysWhetherAPurchaserMayApply(t *testing.T) {
	storetest.EachEngine(t, func(t *testing.T, e storetest.Engine) {
		f := newFixture(t, e, flow.Options{})
		ctx := context.Background()
		inStore := flow.StartOptions{ExperienceType: chairside.ExperienceInStore}
		start, err := f.svc.StartByEntityKey(ctx, testkit.EntityKey, inStore)
		if err != nil {
			t.Fatal(err)
		}
		if start.Application.PurchaserEnabled {
			t.Error("an office that did not allow a purchaser answered purchaserEnabled")
		}
		loc := &chairside.Location{EntityKey: "1000200030099000", Name: "Family Dental", State: "CA", GroupID: "g-family", PurchaserEnabled: true,
			Waterfall: []chairside.WaterfallStep{{LenderKey: "synchrony_standard", Role: chairside.RolePrimary, ApplyMode: chairside.ModePrequalify}}}
		if err := e.DB.CreateLocation(ctx, loc); err != nil {
			t.Fatal(err)
		}
		start, err = f.svc.StartByEntityKey(ctx, loc.EntityKey, inStore)
		if err != nil {
			t.Fatal(err)
		}
		if !start.Application.PurchaserEnabled {
			t.Error("an office that allows a purchaser answered purchaserEnabled false")
		}
		sess, err := f.svc.Authenticate(ctx, start.Session.WebSessionID)
		if err != nil {
			t.Fatal(err)
		}
		again, err := f.svc.Restart(ctx, &flow.Caller{Session: sess, IP: "127.0.0.1", UserAgent: "test"})
		if err != nil {
			t.Fatal(err)
		}
		if !again.Application.PurchaserEnabled {
			t.Error("a restart lost the office's purchaserEnabled")
		}
	})
}
