package httpapi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"reflect"
	"sync"
	"testing"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/flow"
	"github.com/chairside/chairside/testkit"
)

// The answer of a lender step is the JSON its lender call recorded
// (flow.StepAnswer): encoded once, written as it is to the first request
// and to every repeat (docs/performance.md, "What has been done").

// TestStepAnswersAreTheirRecord: the answers to a prequalification, an
// accept, an e-sign and a complete (of a lender with no steps of its own,
// so no answer adds open steps) are, for the first request and for a
// repeat with the same Idempotency-Key, byte for byte the JSON the step's
// lender call recorded, and a newline. A repeat of the accept in Spanish gets the same bytes:
// nothing of these answers is translated on the way out. (A submit's
// repeat in Spanish is refused before it is answered: its consent names
// the English authorisation.)
func TestStepAnswersAreTheirRecord(t *testing.T) {
	eachEngine(t, config{}, func(t *testing.T, h *harness) {
		const key = "synchrony_standard"
		sid := h.start(t)
		submit := req{method: "POST", path: "/providers/" + key + "/prequalify", session: sid,
			header: map[string]string{"Idempotency-Key": "pq-1"}, body: flow.SubmitRequest{
				Primary: testkit.Applicant("Approve", "123450711"), Consent: testkit.Ptr(h.consent(t, sid, key, flow.DocPrequalification)),
			}}
		h.answersAreTheRecord(t, submit, sid, key, flow.OpPrequalify)

		code := confirmFirstPlan(t, h, sid, key)
		accept := req{method: "POST", path: "/providers/" + key + "/acceptOffer", session: sid,
			header: map[string]string{"Idempotency-Key": "accept-1"}, body: map[string]any{"providerPlanCode": code}}
		h.answersAreTheRecord(t, accept, sid, key, chairside.StepAccept)
		accept.header["Accept-Language"] = "es"
		h.answersAreTheRecord(t, accept, sid, key, chairside.StepAccept)

		esign := req{method: "POST", path: "/providers/" + key + "/application/esign", session: sid,
			header: map[string]string{"Idempotency-Key": "esign-1"}, body: flow.ESignRequest{
				Consent: testkit.Ptr(h.consent(t, sid, key, flow.DocESign)), AgreementConsent: testkit.Ptr(agreementConsent(t, h, sid, key)),
				HardPullConsent: testkit.Ptr(h.consent(t, sid, key, flow.DocApplication)), SignaturePNG: testkit.SignaturePNG(t),
			}}
		h.answersAreTheRecord(t, esign, sid, key, chairside.StepESign)
		complete := req{method: "POST", path: "/providers/" + key + "/application/complete", session: sid,
			header: map[string]string{"Idempotency-Key": "complete-1"}}
		h.answersAreTheRecord(t, complete, sid, key, chairside.StepComplete)
	})
}

// answersAreTheRecord sends q, then again, and fails unless each answer
// is the record of step, with a newline.
func (h *harness) answersAreTheRecord(t *testing.T, q req, sid, key, step string) {
	t.Helper()
	first := h.do(t, q)
	want(t, first, 200, "")
	rec := h.record(t, sid, key, step)
	again := h.do(t, q)
	want(t, again, 200, "")
	line := append(append([]byte{}, rec...), '\n')
	for i, res := range []*result{first, again} {
		if !bytes.Equal(res.body, line) {
			t.Errorf("%s %s: answer %d of 2 is not the record\nanswer: %s\nrecord: %s", q.method, q.path, i+1, res.body, rec)
		}
	}
}

// TestStepAnswerWithOpenSteps: an accept whose lender has steps of its
// own answers them (openSteps), which the record does not hold: the answer
// is the record's fields and the steps, the same for a repeat.
func TestStepAnswerWithOpenSteps(t *testing.T) {
	sqliteOnly(t, config{}, func(t *testing.T, h *harness) {
		const key, ek = "hfd_standard", "1000200030009301"
		sid := hfdSession(t, h, ek)
		want(t, h.prequalify(t, sid, key, testkit.Applicant("Approve", "123450402")), 200, "")
		code := confirmFirstPlan(t, h, sid, key)
		accept := req{method: "POST", path: "/providers/" + key + "/acceptOffer", session: sid,
			header: map[string]string{"Idempotency-Key": "accept-1"}, body: map[string]any{"providerPlanCode": code}}
		first := h.do(t, accept)
		want(t, first, 200, "")
		again := h.do(t, accept)
		want(t, again, 200, "")
		if !bytes.Equal(first.body, again.body) {
			t.Fatalf("the repeat differs:\n%s\n%s", first.body, again.body)
		}
		got := first.json(t)
		if steps, _ := got["openSteps"].([]any); len(steps) == 0 {
			t.Fatalf("no open steps: %s", first.body)
		}
		delete(got, "openSteps")
		var rec map[string]any
		if err := json.Unmarshal(h.record(t, sid, key, chairside.StepAccept), &rec); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, rec) {
			t.Fatalf("the answer without its open steps is not the record\nanswer: %v\nrecord: %v", got, rec)
		}
	})
}

// record is the JSON the lender call of step recorded for the caller's
// lender application of key.
func (h *harness) record(t testing.TB, sid, key, step string) []byte {
	t.Helper()
	ctx := context.Background()
	sess, err := h.view.FindSession(ctx, sha(sid))
	if err != nil {
		t.Fatal(err)
	}
	pa, err := h.view.FindLenderApplication(ctx, sess.ApplicationID, key)
	if err != nil {
		t.Fatal(err)
	}
	call, err := h.view.FindLenderCall(ctx, pa.ID, step)
	if err != nil {
		t.Fatal(err)
	}
	if call.State != chairside.CallDone || len(call.Response) == 0 {
		t.Fatalf("the %s call is %s, with %d bytes recorded", step, call.State, len(call.Response))
	}
	return call.Response
}

// confirmFirstPlan selects and confirms the first plan for $2,000 and
// answers its code.
func confirmFirstPlan(t testing.TB, h *harness, sid, key string) string {
	t.Helper()
	var plans flow.PlansResponse
	res := h.do(t, req{method: "POST", path: "/providers/" + key + "/payment/plans", session: sid, body: map[string]any{"amountCents": 200000}})
	want(t, res, 200, "")
	res.into(t, &plans)
	code := plans.PaymentPlans[0].LenderPlanCode
	want(t, h.do(t, req{method: "POST", path: "/providers/" + key + "/payment/plans/" + code + "/select", session: sid}), 200, "")
	want(t, h.do(t, req{method: "POST", path: "/providers/" + key + "/payment/plans/" + code + "/confirm-selection", session: sid}), 200, "")
	return code
}

// TestRepeatIsWrittenAsRecorded: a repeat is answered with the recorded
// bytes themselves, not with the recorded answer decoded and encoded
// again. The store here hands every recorded answer back indented — the
// same answer in other bytes — and the repeats must carry those bytes.
func TestRepeatIsWrittenAsRecorded(t *testing.T) {
	cfg := config{wrap: func(s flow.Store) flow.Store { return indentingStore{s} }}
	eachEngine(t, cfg, func(t *testing.T, h *harness) {
		const key = "synchrony_standard"
		sid := h.start(t)
		submit := req{method: "POST", path: "/providers/" + key + "/prequalify", session: sid,
			header: map[string]string{"Idempotency-Key": "pq-1"}, body: flow.SubmitRequest{
				Primary: testkit.Applicant("Approve", "123450712"), Consent: testkit.Ptr(h.consent(t, sid, key, flow.DocPrequalification)),
			}}
		want(t, h.do(t, submit), 200, "")
		h.repeatIsTheRecord(t, submit, sid, key, flow.OpPrequalify)

		code := confirmFirstPlan(t, h, sid, key)
		accept := req{method: "POST", path: "/providers/" + key + "/acceptOffer", session: sid,
			header: map[string]string{"Idempotency-Key": "accept-1"}, body: map[string]any{"providerPlanCode": code}}
		want(t, h.do(t, accept), 200, "")
		h.repeatIsTheRecord(t, accept, sid, key, chairside.StepAccept)
	})
}

// repeatIsTheRecord sends q again and fails unless the answer is the
// record of step as the store hands it back (indented), with a newline.
func (h *harness) repeatIsTheRecord(t *testing.T, q req, sid, key, step string) {
	t.Helper()
	rec := h.record(t, sid, key, step)
	if !bytes.Contains(rec, []byte("\n  ")) {
		t.Fatalf("the store did not indent the record: %s", rec)
	}
	again := h.do(t, q)
	want(t, again, 200, "")
	if !bytes.Equal(again.body, append(append([]byte{}, rec...), '\n')) {
		t.Errorf("%s %s: the repeat is not the record as stored\nanswer: %s\nrecord: %s", q.method, q.path, again.body, rec)
	}
}

// indentingStore hands every recorded answer of a lender call back
// indented: what a repeat is answered from.
type indentingStore struct{ flow.Store }

func (s indentingStore) FindLenderCall(ctx context.Context, lenderApplicationID, step string) (*chairside.LenderCall, error) {
	call, err := s.Store.FindLenderCall(ctx, lenderApplicationID, step)
	if err != nil {
		return nil, err
	}
	return indented(call)
}

// ClaimLenderCall hands back indented the call a claim found in place (a
// repeat claims first, then answers from the call it found).
func (s indentingStore) ClaimLenderCall(ctx context.Context, c *chairside.LenderCall) (*chairside.LenderCall, bool, error) {
	existing, claimed, err := s.Store.ClaimLenderCall(ctx, c)
	if err != nil || existing == nil {
		return existing, claimed, err
	}
	existing, err = indented(existing)
	return existing, claimed, err
}

// indented is call with its recorded answer, if any, indented.
func indented(call *chairside.LenderCall) (*chairside.LenderCall, error) {
	if len(call.Response) == 0 {
		return call, nil
	}
	var buf bytes.Buffer
	if err := json.Indent(&buf, call.Response, "", "  "); err != nil {
		return nil, err
	}
	call.Response = buf.Bytes()
	return call, nil
}

// TestFirstAnswerIsWrittenFromTheRecord: the first request's answer is
// not encoded a second time: what the handler writes is the very slice the
// step handed the store to record (seen before the network copies it).
func TestFirstAnswerIsWrittenFromTheRecord(t *testing.T) {
	spy := &settled{}
	cfg := config{wrap: func(s flow.Store) flow.Store { return settleSpy{s, spy} }}
	sqliteOnly(t, cfg, func(t *testing.T, h *harness) {
		const key = "synchrony_standard"
		sid := h.start(t)
		h.writesTheRecord(t, spy, req{method: "POST", path: "/providers/" + key + "/prequalify", session: sid, body: flow.SubmitRequest{
			Primary: testkit.Applicant("Approve", "123450713"), Consent: testkit.Ptr(h.consent(t, sid, key, flow.DocPrequalification)),
		}})
		code := confirmFirstPlan(t, h, sid, key)
		h.writesTheRecord(t, spy, req{method: "POST", path: "/providers/" + key + "/acceptOffer", session: sid, body: map[string]any{"providerPlanCode": code}})
	})
}

// writesTheRecord serves q straight from the handler and fails unless its
// answer was written from the slice the store was handed last to record.
func (h *harness) writesTheRecord(t *testing.T, spy *settled, q req) {
	t.Helper()
	body, err := json.Marshal(q.body)
	if err != nil {
		t.Fatal(err)
	}
	r := httptest.NewRequest(q.method, "/api/v1"+q.path, bytes.NewReader(body))
	r.Header.Set("Content-Type", "application/json")
	r.Header.Set("X-Web-Session-Id", q.session)
	w := &sliceWriter{header: http.Header{}}
	before := len(spy.recorded())
	h.handler.ServeHTTP(w, r)
	recorded := spy.recorded()
	if w.status != http.StatusOK || len(recorded) != before+1 {
		t.Fatalf("%s: status %d, %d answers recorded (%d before): %s", q.path, w.status, len(recorded), before, bytes.Join(w.writes, nil))
	}
	rec := recorded[len(recorded)-1]
	if got := bytes.Join(w.writes, nil); !bytes.Equal(got, append(append([]byte{}, rec...), '\n')) {
		t.Fatalf("%s: the answer is not the record\nanswer: %s\nrecord: %s", q.path, got, rec)
	}
	if len(w.writes[0]) != len(rec) || &w.writes[0][0] != &rec[0] {
		t.Errorf("%s: the answer was encoded again, not written from the slice recorded", q.path)
	}
}

// settleSpy keeps the slice of every answer a lender call records, as the
// step handed it to the store.
type settleSpy struct {
	flow.Store
	log *settled
}

// settled is what a settleSpy saw, shared by its views of each batch.
type settled struct {
	mu   sync.Mutex
	done [][]byte
}

func (s settleSpy) SettleLenderCall(ctx context.Context, c *chairside.LenderCall) error {
	if err := s.Store.SettleLenderCall(ctx, c); err != nil || c.State != chairside.CallDone {
		return err
	}
	s.log.mu.Lock()
	s.log.done = append(s.log.done, c.Response)
	s.log.mu.Unlock()
	return nil
}

func (s *settled) recorded() [][]byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([][]byte(nil), s.done...)
}

// sliceWriter is a ResponseWriter that keeps the slices it is handed as
// they are.
type sliceWriter struct {
	header http.Header
	status int
	writes [][]byte
}

func (w *sliceWriter) Header() http.Header { return w.header }

func (w *sliceWriter) WriteHeader(status int) {
	if w.status == 0 {
		w.status = status
	}
}

func (w *sliceWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	w.writes = append(w.writes, b)
	return len(b), nil
}
