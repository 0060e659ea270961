package httpapi

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"time"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/catalogue"
	"github.com/chairside/chairside/flow"
	"github.com/chairside/chairside/lender/protocol"
)

// webhookMaxBytes bounds a webhook's body: an event with its decision fits
// in far less.
const webhookMaxBytes = 64 << 10

// lenderWebhook receives a lender's signed event (docs/lender-protocol.md,
// "Webhooks"). The signature is checked over the exact bytes received
// before anything is read from them; a bad or old signature, or one from a
// lender with no webhook secret, changes nothing. An event is applied once
// per id. The answer tells the lender whether to deliver again: 2xx never,
// 404 (an application we do not know yet) and 5xx later.
func (h *Handler) lenderWebhook(w http.ResponseWriter, r *http.Request) {
	key := r.PathValue("providerKey")
	label := key // the metrics' label: known lenders only
	if _, err := catalogue.Get(key); err != nil || key != catalogue.BaseKey(key) {
		label = "unknown"
	}
	result, err := h.receiveWebhook(w, r, key, label)
	h.opts.Metrics.Webhook(label, result)
	if err != nil {
		h.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, webhookAnswer{Result: result})
}

// receiveWebhook checks and applies one webhook; it answers the result
// the metrics count and, for a refused or failed one, the error answered.
func (h *Handler) receiveWebhook(w http.ResponseWriter, r *http.Request, key, label string) (string, error) {
	var secrets [][]byte
	ok := false
	if h.opts.WebhookSecrets != nil && label != "unknown" {
		secrets, ok = h.opts.WebhookSecrets(key)
	}
	if !ok {
		return "unknown_lender", chairside.Errorf(chairside.ENOTFOUND, "This lender sends no webhooks here.")
	}
	if err := checkContentType(r.Header.Get("Content-Type")); err != nil {
		return "malformed", err
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, webhookMaxBytes))
	if err != nil {
		return "malformed", chairside.Errorf(chairside.ETOOLARGE, "The event is too large.")
	}
	if result, err := verifyWebhook(secrets, r.Header.Get(protocol.SignatureHeader), body, h.svc.Now()); err != nil {
		h.log.Warn("webhook refused", "lender", label, "result", result)
		return result, chairside.Errorf(chairside.EFORBIDDEN, "The webhook signature is missing, wrong or too old.")
	}
	var ev protocol.Event
	if err := json.Unmarshal(body, &ev); err != nil || ev.Validate() != nil {
		return "malformed", chairside.Errorf(chairside.EBADREQUEST, "%s", malformedEvent(ev.Type))
	}
	var result string
	switch ev.Type {
	case protocol.EventApplicationUpdated:
		result, err = h.svc.LenderEvent(r.Context(), key, newsOf(key, &ev))
	case protocol.EventFundingUpdated:
		result, err = h.svc.FundingEvent(r.Context(), key, ev.ID, ev.Type, ev.Data.ApplicationID, ev.Data.Funding.Chairside())
	case protocol.EventDepositSent:
		result, err = h.depositSent(r, key, &ev)
	default:
		return chairside.EventIgnored, nil
	}
	if err != nil && chairside.ErrorCode(err) != chairside.ENOTFOUND {
		result = "error"
	}
	return result, err
}

// malformedEvent is what a refused event of a type is told
// (protocol.Event.Validate says what is checked).
func malformedEvent(typ string) string {
	switch typ {
	case protocol.EventFundingUpdated:
		return "The event's funding is missing, not held or funded, or does not add up."
	case protocol.EventDepositSent:
		return "The event's deposit is missing or does not add up."
	}
	return "The event needs an id, a type and its data."
}

// depositSent keeps the total the deposit states, then applies its
// fundings (checked by the event's Validate), each as an event of its own (the deposit's id and the
// application's), so a redelivery of the deposit applies only what is
// missing. An application we do not know answers ENOTFOUND after the
// others are applied, so the lender delivers the deposit again later.
func (h *Handler) depositSent(r *http.Request, key string, ev *protocol.Event) (string, error) {
	d := ev.Data.Deposit
	if d.NetCents > 0 {
		if err := h.svc.DepositStated(r.Context(), key, d.Reference, d.On, d.NetCents); err != nil {
			return "", err
		}
	}
	result, unknown := chairside.EventIgnored, error(nil)
	for i := range d.Fundings {
		f := &d.Fundings[i]
		res, err := h.svc.FundingEvent(r.Context(), key, ev.ID+"/"+f.ApplicationID, ev.Type, f.ApplicationID, f.Chairside())
		switch {
		case chairside.ErrorCode(err) == chairside.ENOTFOUND:
			unknown = err
		case err != nil:
			return "", err
		case res == chairside.EventApplied || result == chairside.EventIgnored:
			result = res
		}
	}
	if unknown != nil {
		return chairside.EventUnknownApplication, unknown
	}
	return result, nil
}

// webhookAnswer is the body of a webhook's 200 answer.
type webhookAnswer struct {
	Result string `json:"result"`
}

// verifyWebhook checks the signature against each of the lender's secrets
// (more than one while it rotates them) and names what failed for the
// metrics.
func verifyWebhook(secrets [][]byte, header string, body []byte, now time.Time) (string, error) {
	err := protocol.ErrNoSignature
	for _, s := range secrets {
		if err = protocol.VerifySignature(s, header, body, now); err == nil {
			return "", nil
		}
		if errors.Is(err, protocol.ErrStale) {
			return "stale", err
		}
	}
	return "bad_signature", err
}

// newsOf reads an event's data as the flow service takes it. A decision
// the protocol's own checks refuse (an unknown status, negative money, no
// or another application) is left out: the flow service then asks the
// lender instead of guessing.
func newsOf(key string, ev *protocol.Event) *flow.LenderNews {
	n := &flow.LenderNews{EventID: ev.ID, Type: ev.Type, LenderRef: ev.Data.ApplicationID}
	if d := ev.Data.Decision; d != nil && d.Validate() == nil && d.ApplicationID == ev.Data.ApplicationID {
		n.Decision = d.Chairside(key, "")
	}
	return n
}
