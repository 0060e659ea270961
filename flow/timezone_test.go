package flow_test

import (
	"context"
	"testing"
	"time"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/flow"
	"github.com/chairside/chairside/store/storetest"
	"github.com/chairside/chairside/testkit"
)

// TestAgesCountInThePatientsDay: an applicant whose eighteenth birthday is
// tomorrow where they are is refused, though it is already that birthday
// in UTC; both when the form is checked (POST /validate) and when it is
// submitted. A call that names no zone, or a zone that does not exist,
// counts from the server's day, as before.
func TestAgesCountInThePatientsDay(t *testing.T) {
	e := storetest.SQLite(t)
	// 03:00 UTC on 26 November is 19:00 on the 25th in Los Angeles.
	now := time.Date(2026, 11, 26, 3, 0, 0, 0, time.UTC)
	f := newFixture(t, e, flow.Options{Now: func() time.Time { return now }})
	bg := context.Background()
	c := f.callerWith(t, flow.StartOptions{})
	if _, err := f.svc.ApplyStart(bg, c, "synchrony_standard", ""); err != nil {
		t.Fatal(err)
	}
	const tooYoung = "Must be at least 18 years old"
	validate := func(zone string) string {
		t.Helper()
		a := testkit.Applicant("Approve", "123450031")
		a.DateOfBirth = "2008-11-26"
		c.Zone = chairside.TimeZone(zone)
		res, err := f.svc.Validate(bg, c, &flow.ValidateRequest{LenderKey: "synchrony_standard", Mode: flow.OpPrequalify,
			ApplicationData: flow.ApplicationData{Primary: a}, FieldIDs: []string{"dateOfBirth"}})
		if err != nil {
			t.Fatal(err)
		}
		for _, fe := range res.FieldErrors {
			if fe.Field == "primary.dateOfBirth" {
				return fe.Message
			}
		}
		return ""
	}
	for zone, want := range map[string]string{
		"America/Los_Angeles": tooYoung,
		"Pacific/Honolulu":    tooYoung,
		"America/New_York":    tooYoung, // 22:00 on the 25th
		"UTC":                 "",
		"Asia/Tokyo":          "",
		"":                    "", // no zone named: the server's day (UTC here)
		"Mars/Olympus_Mons":   "",
		"../../etc/passwd":    "",
		"Local":               "",
	} {
		if got := validate(zone); got != want {
			t.Errorf("zone %q: %q, want %q", zone, got, want)
		}
	}

	req := f.request(t, c, "synchrony_standard", flow.OpPrequalify, "Approve", "123450031")
	req.Primary.DateOfBirth = "2008-11-26"
	req.PurchaseAmountCents = testkit.Ptr(int64(320_000))
	c.Zone = chairside.TimeZone("America/Chicago")
	_, err := f.svc.Submit(bg, c, "synchrony_standard", flow.OpPrequalify, req)
	if got := fieldErrors(t, err)["primary.dateOfBirth"]; got != tooYoung {
		t.Fatalf("submit from Chicago: %q, want %q", got, tooYoung)
	}
}
