package httpapi_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/lender/protocol"
)

// TestFundingWebhookChecks: a funding.updated is held or funded news (the
// protocol's Event.Validate): a held one puts the hold on the money line
// and a funded one the funding, once per event id; a waiting or
// deposited one, and a deposit that names an application twice, are
// refused as malformed and change nothing. /metrics counts each result
// by lender, as for decisions.
func TestFundingWebhookChecks(t *testing.T) {
	t.Parallel()
	eachEngine(t, config{}, func(t *testing.T, h *harness) {
		const key = "synchrony_standard"
		ctx := context.Background()
		id := completeAt(t, h, key, "1000990300000001", "123450952")
		pa, err := h.db.FindLenderApplication(ctx, id, key)
		if err != nil {
			t.Fatal(err)
		}
		line, _ := h.db.MoneyLine(ctx, id)
		gross := line[len(line)-1].AmountCents
		at := h.clock.Now()
		send := func(evID, typ string, data protocol.EventData) *result {
			t.Helper()
			body, _ := json.Marshal(protocol.Event{ID: evID, Type: typ, CreatedAt: at, Data: data})
			return h.webhook(t, key, body, protocol.Sign(webhookSecret, at, body))
		}
		news := func(f protocol.Funding) protocol.EventData {
			return protocol.EventData{ApplicationID: pa.LenderRef, Funding: &f}
		}
		held := protocol.Funding{ApplicationID: pa.LenderRef, State: chairside.FundingHeld, HeldReason: "Reviewing the account.",
			Currency: protocol.Currency, ExpectedOn: &at}
		funded := protocol.Funding{ApplicationID: pa.LenderRef, State: chairside.FundingFunded, FundingRef: "SYN-F-7", Currency: protocol.Currency,
			GrossCents: gross, FeeCents: 500, FeeRateBP: 25, NetCents: gross - 500, FundedOn: &at, DepositRef: "SYN-D-7", DepositOn: &at}
		waiting := protocol.Funding{ApplicationID: pa.LenderRef, State: chairside.FundingWaiting, Currency: protocol.Currency, ExpectedOn: &at}
		deposited := funded
		deposited.State = chairside.FundingDeposited

		if m := want(t, send("evt-held", protocol.EventFundingUpdated, news(held)), 200, ""); m["result"] != chairside.EventApplied {
			t.Fatalf("held: %v", m)
		}
		want(t, send("evt-waiting", protocol.EventFundingUpdated, news(waiting)), 400, chairside.EBADREQUEST)
		want(t, send("evt-deposited", protocol.EventFundingUpdated, news(deposited)), 400, chairside.EBADREQUEST)
		twice := protocol.EventData{Deposit: &protocol.Deposit{Reference: "SYN-D-7", On: at, Fundings: []protocol.Funding{deposited, deposited}}}
		want(t, send("evt-twice", protocol.EventDepositSent, twice), 400, chairside.EBADREQUEST)
		if m := want(t, send("evt-funded", protocol.EventFundingUpdated, news(funded)), 200, ""); m["result"] != chairside.EventApplied {
			t.Fatalf("funded: %v", m)
		}
		if m := want(t, send("evt-funded", protocol.EventFundingUpdated, news(funded)), 200, ""); m["result"] != chairside.EventDuplicate {
			t.Fatalf("funded again: %v", m)
		}

		line, _ = h.db.MoneyLine(ctx, id)
		var kinds []string
		for _, e := range line {
			kinds = append(kinds, e.Kind)
		}
		if fmt.Sprint(kinds) != "[approved signed completed held funded]" {
			t.Fatalf("money line: %v", kinds)
		}
		m := h.scrape(t)
		for _, l := range []string{
			`chairside_lender_webhooks_total{lender="synchrony_standard",result="applied"} 2`,
			`chairside_lender_webhooks_total{lender="synchrony_standard",result="duplicate"} 1`,
			`chairside_lender_webhooks_total{lender="synchrony_standard",result="malformed"} 3`,
		} {
			if !strings.Contains(m, l) {
				t.Errorf("/metrics lacks %s", l)
			}
		}
	})
}
