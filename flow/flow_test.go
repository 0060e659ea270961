package flow_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/flow"
	"github.com/chairside/chairside/lender/sandbox"
	"github.com/chairside/chairside/store"
	"github.com/chairside/chairside/store/storetest"
	"github.com/chairside/chairside/testkit"
)

// countingLenders wraps the sandbox to make AcceptOffer fail on demand,
// and to hold document fetches until a test lets them go.
type countingLenders struct {
	inner      chairside.Lenders
	failAccept atomic.Bool
	// holdDocs, when set, holds every Document call until it is closed;
	// each call first sends on docEntered.
	holdDocs   chan struct{}
	docEntered chan struct{}
	// revision, when set, is a new version of every document: the lender
	// changed its texts.
	revision atomic.Value // string
}

func (c *countingLenders) Lender(key string) (chairside.Lender, error) {
	l, err := c.inner.Lender(key)
	if err != nil {
		return nil, err
	}
	return &countingLender{Lender: l, c: c}, nil
}

type countingLender struct {
	chairside.Lender
	c *countingLenders
}

// As hands out the sandbox lender's optional steps as they are
// (chairside.StepOf): this decorator changes only core methods.
func (l *countingLender) As(target any) bool { return chairside.AsStep(l.Lender, target) }

func (l *countingLender) AcceptOffer(ctx context.Context, req *chairside.OfferRequest) error {
	if l.c.failAccept.Load() {
		return errors.New("lender down")
	}
	return l.Lender.AcceptOffer(ctx, req)
}

func (l *countingLender) Document(ctx context.Context, req *chairside.DocumentRequest) (*chairside.Document, error) {
	if l.c.holdDocs != nil {
		l.c.docEntered <- struct{}{}
		<-l.c.holdDocs
	}
	doc, err := l.Lender.Document(ctx, req)
	if rev, _ := l.c.revision.Load().(string); err == nil && rev != "" {
		doc.Version += "-" + rev
		doc.Content += "\n<p>Revised " + rev + ".</p>"
		sum := sha256.Sum256([]byte(doc.Content))
		doc.SHA256 = hex.EncodeToString(sum[:])
	}
	return doc, err
}

// lenderLog keeps every call that reached the sandbox, as its Observe hook
// reports them.
type lenderLog struct {
	mu    sync.Mutex
	calls []sandbox.Call
}

func (l *lenderLog) observe(c sandbox.Call) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.calls = append(l.calls, c)
}

// count answers how many calls of op reached the lender, and their
// distinct references.
func (l *lenderLog) count(op string) (n int, refs map[string]int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	refs = map[string]int{}
	for _, c := range l.calls {
		if c.Op == op {
			n++
			refs[c.Reference]++
		}
	}
	return n, refs
}

type fixture struct {
	svc     *flow.Service
	lenders *countingLenders
	log     *lenderLog
	db      *store.DB
}

func newFixture(t *testing.T, e storetest.Engine, opts flow.Options) *fixture {
	t.Helper()
	testkit.SeedOffice(t, e.DB)
	log := &lenderLog{}
	l := &countingLenders{inner: sandbox.New(sandbox.Options{Observe: log.observe})}
	f := &fixture{svc: flow.New(e.DB, l, e.Keys, opts), lenders: l, log: log, db: e.DB}
	testkit.AuditAfter(t, e.DB)
	return f
}

// caller starts a session for a $4,500 treatment and answers its caller.
func (f *fixture) caller(t *testing.T) *flow.Caller {
	t.Helper()
	return f.callerWith(t, flow.StartOptions{PurchaseAmountCents: testkit.Ptr(int64(450_000))})
}

// callerWith starts a session with opts and answers its caller.
func (f *fixture) callerWith(t *testing.T, opts flow.StartOptions) *flow.Caller {
	t.Helper()
	return f.callerAt(t, testkit.EntityKey, opts)
}

// callerAt starts a session with opts at the office of entityKey and
// answers its caller.
func (f *fixture) callerAt(t *testing.T, entityKey string, opts flow.StartOptions) *flow.Caller {
	t.Helper()
	ctx := context.Background()
	start, err := f.svc.StartByEntityKey(ctx, entityKey, opts)
	if err != nil {
		t.Fatal(err)
	}
	sess, err := f.svc.Authenticate(ctx, start.Session.WebSessionID)
	if err != nil {
		t.Fatal(err)
	}
	return &flow.Caller{Session: sess, IP: "127.0.0.1", UserAgent: "test"}
}

func (f *fixture) submit(t *testing.T, c *flow.Caller, key, lastName, ssn string) (*flow.DecisionResponse, error) {
	t.Helper()
	return value(f.svc.Submit(context.Background(), c, key, flow.OpPrequalify, f.request(t, c, key, flow.OpPrequalify, lastName, ssn)))
}

// value is a lender step's answer as a value, for tests that read it.
func value[T any](a *flow.StepAnswer[T], err error) (*T, error) {
	if err != nil {
		return nil, err
	}
	return a.Value()
}

// request builds a submit the lender's form for op accepts, agreeing to
// the authorisation document op needs.
func (f *fixture) request(t *testing.T, c *flow.Caller, key, op, lastName, ssn string) *flow.SubmitRequest {
	t.Helper()
	kind := flow.DocPrequalification
	if op == flow.OpApply {
		kind = flow.DocApplication
	}
	doc, err := f.svc.Disclosures(context.Background(), c, key, kind)
	if err != nil {
		t.Fatal(err)
	}
	a := testkit.Applicant(lastName, ssn)
	if op == flow.OpApply {
		a.HousingStatus, a.HousingPaymentAmount = "rent", testkit.Ptr(int64(150_000))
		a.EmployerName, a.MonthsEmployed = "Harbor Dental Lab", testkit.Ptr(30)
	}
	return &flow.SubmitRequest{
		Primary: a,
		Consent: &flow.ConsentInput{DocumentID: doc.ID, DocumentVersion: doc.Version, DocumentSHA256: doc.SHA256, Agreed: true},
	}
}

// consentTo answers the patient's agreement to exactly doc.
func consentTo(doc *chairside.Document) *flow.ConsentInput {
	return &flow.ConsentInput{DocumentID: doc.ID, DocumentVersion: doc.Version, DocumentSHA256: doc.SHA256, Agreed: true}
}

// esignRequest builds an e-sign agreeing to what the signing screen shows:
// the E-SIGN disclosure, the agreement and, with hardPull (an offer from a
// soft pull), the hard-pull authorisation; with a signature.
func (f *fixture) esignRequest(t *testing.T, c *flow.Caller, key string, hardPull bool) *flow.ESignRequest {
	t.Helper()
	ctx := context.Background()
	esign, err := f.svc.Disclosures(ctx, c, key, flow.DocESign)
	if err != nil {
		t.Fatal(err)
	}
	agreement, err := f.svc.Agreement(ctx, c, key)
	if err != nil {
		t.Fatal(err)
	}
	req := &flow.ESignRequest{Consent: consentTo(esign), AgreementConsent: consentTo(agreement), SignaturePNG: testkit.SignaturePNG(t)}
	if hardPull {
		doc, err := f.svc.Disclosures(ctx, c, key, flow.DocApplication)
		if err != nil {
			t.Fatal(err)
		}
		req.HardPullConsent = consentTo(doc)
	}
	return req
}

// confirmPlan selects and confirms the first plan offered for $2,000 and
// answers its code.
func (f *fixture) confirmPlan(t *testing.T, c *flow.Caller, key string) string {
	t.Helper()
	ctx := context.Background()
	plans, err := f.svc.Plans(ctx, c, key, 200000)
	if err != nil || len(plans.PaymentPlans) == 0 {
		t.Fatalf("plans: %v", err)
	}
	code := plans.PaymentPlans[0].LenderPlanCode
	if _, err := f.svc.SelectPlan(ctx, c, key, code); err != nil {
		t.Fatal(err)
	}
	if _, err := f.svc.ConfirmPlan(ctx, c, key, code); err != nil {
		t.Fatal(err)
	}
	return code
}

// TestNoLenderCallWithoutNeed: replays, capped submits and other sessions'
// objects never reach the lender.
func TestNoLenderCallWithoutNeed(t *testing.T) {
	storetest.EachEngine(t, func(t *testing.T, e storetest.Engine) {
		f := newFixture(t, e, flow.Options{SessionPullCap: 2})
		c := f.caller(t)
		first, err := f.submit(t, c, "synchrony_standard", "Approve", "123450001")
		if err != nil {
			t.Fatal(err)
		}
		c.IdempotencyKey = "another-tap"
		again, err := f.submit(t, c, "synchrony_standard", "Approve", "123450001")
		if n, _ := f.log.count(sandbox.OpDecide); err != nil || again.ResponseCode != first.ResponseCode || n != 1 {
			t.Fatalf("replay: %v, %d lender calls", err, n)
		}
		// The same submit with other data is not a repeat.
		if _, err := f.submit(t, c, "synchrony_standard", "Decline", "123450001"); chairside.ErrorCode(err) != chairside.EIDEMPOTENCY {
			t.Fatalf("other data: %v", err)
		}
		if _, err := f.submit(t, c, "fortiva_standard", "Decline", "123450001"); err != nil {
			t.Fatal(err)
		}
		// A third pull in this session is over the cap of 2: session_limit, not a request rate to wait out.
		_, err = f.submit(t, c, "snap_standard", "Approve", "123450001")
		if n, _ := f.log.count(sandbox.OpDecide); chairside.ErrorCode(err) != chairside.ESESSIONLIMIT || n != 2 {
			t.Fatalf("over the cap: %v, %d lender calls", err, n)
		}

		// Session B sees none of A's lender applications.
		b := f.caller(t)
		if _, err := f.svc.Plans(context.Background(), b, "synchrony_standard", 1000); chairside.ErrorCode(err) != chairside.ENOTFOUND {
			t.Fatalf("B reached A's application: %v", err)
		}
	})
}

// TestAcceptHandsBackOnLenderFailure: a lender failure during accept
// answers lender_unavailable and leaves the step retryable.
func TestAcceptHandsBackOnLenderFailure(t *testing.T) {
	storetest.EachEngine(t, func(t *testing.T, e storetest.Engine) {
		f := newFixture(t, e, flow.Options{})
		ctx := context.Background()
		c := f.caller(t)
		if _, err := f.submit(t, c, "synchrony_standard", "Approve", "123450002"); err != nil {
			t.Fatal(err)
		}
		f.confirmPlan(t, c, "synchrony_standard")
		f.lenders.failAccept.Store(true)
		if _, err := f.svc.AcceptOffer(ctx, c, "synchrony_standard", nil); chairside.ErrorCode(err) != chairside.ELENDER {
			t.Fatalf("accept with lender down: %v", err)
		}
		f.lenders.failAccept.Store(false)
		pa, err := value(f.svc.AcceptOffer(ctx, c, "synchrony_standard", nil))
		if err != nil || pa.Status != chairside.StatusOfferAccepted {
			t.Fatalf("retry accept: %v", err)
		}
		if _, err := f.svc.AcceptOffer(ctx, c, "synchrony_standard", nil); chairside.ErrorCode(err) != chairside.ECONFLICT {
			t.Fatalf("second accept: %v", err)
		}
	})
}

// TestAuthenticate: idle and finished sessions are refused; touches are
// throttled but keep an active session alive.
func TestAuthenticate(t *testing.T) {
	e := storetest.SQLite(t)
	now := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	f := newFixture(t, e, flow.Options{Now: func() time.Time { return now }})
	ctx := context.Background()
	start, err := f.svc.StartByEntityKey(ctx, testkit.EntityKey, flow.StartOptions{})
	if err != nil {
		t.Fatal(err)
	}
	id := start.Session.WebSessionID
	for range 3 { // active every 10 minutes: stays alive past the idle limit
		now = now.Add(10 * time.Minute)
		if _, err := f.svc.Authenticate(ctx, id); err != nil {
			t.Fatalf("active session refused: %v", err)
		}
	}
	now = now.Add(12 * time.Minute)
	if _, err := f.svc.Authenticate(ctx, id); chairside.ErrorCode(err) != chairside.EUNAUTHORIZED {
		t.Fatalf("idle session: %v", err)
	}
	if _, err := f.svc.Authenticate(ctx, "short"); chairside.ErrorCode(err) != chairside.EUNAUTHORIZED {
		t.Fatalf("malformed id: %v", err)
	}
}

// TestTouchRidesWithTheStep: a due move of a session's LastSeenAt is
// written in the same commit as the call's first write; a call that wrote
// nothing, or whose write failed, has it written by SettleTouch.
func TestTouchRidesWithTheStep(t *testing.T) {
	e := storetest.SQLite(t)
	now := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	f := newFixture(t, e, flow.Options{Now: func() time.Time { return now }})
	ctx := context.Background()
	must := func(t *testing.T, err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	// dueCall starts a session, lets ten minutes pass, and authenticates a
	// call on it: the Caller it answers carries a due touch.
	dueCall := func() *flow.Caller {
		start, err := f.svc.StartByEntityKey(ctx, testkit.EntityKey, flow.StartOptions{})
		must(t, err)
		now = now.Add(10 * time.Minute)
		c, err := f.svc.AuthenticateCall(ctx, start.Session.WebSessionID)
		must(t, err)
		return c
	}
	lastSeen := func(c *flow.Caller) time.Time {
		t.Helper()
		sess, err := f.db.FindSession(ctx, c.Session.ID)
		must(t, err)
		return sess.LastSeenAt
	}
	commits := func() int64 { groups, _ := f.db.GroupStats(); return groups }

	// A writing call: one commit holds the step and the touch.
	c := dueCall()
	if got := lastSeen(c); !got.Before(now) {
		t.Fatalf("touch written before the call's write: %v", got)
	}
	before := commits()
	_, err := f.svc.Finish(ctx, c, chairside.OutcomeCancel)
	must(t, err)
	must(t, f.svc.SettleTouch(ctx, c))
	if got := commits() - before; got != 1 {
		t.Errorf("a step with a due touch made %d commits, want 1", got)
	}
	if got := lastSeen(c); !got.Equal(now) {
		t.Errorf("after the step: last seen %v, want %v", got, now)
	}

	// A call that wrote nothing: SettleTouch writes the touch.
	c = dueCall()
	must(t, f.svc.SettleTouch(ctx, c))
	if got := lastSeen(c); !got.Equal(now) {
		t.Errorf("read-only call: last seen %v, want %v", got, now)
	}

	// A call whose write failed: nothing of its batch is kept, and the
	// touch is written by SettleTouch.
	c = dueCall()
	other := &flow.Caller{Session: c.Session}
	_, err = f.svc.Finish(ctx, other, chairside.OutcomeCancel) // finished by another call meanwhile
	must(t, err)
	if got := lastSeen(c); !got.Before(now) {
		t.Fatalf("touch written with another call's write: %v", got)
	}
	if _, err := f.svc.Finish(ctx, c, chairside.OutcomeCancel); chairside.ErrorCode(err) != chairside.EUNAUTHORIZED {
		t.Fatalf("second finish: %v", err)
	}
	must(t, f.svc.SettleTouch(ctx, c))
	if got := lastSeen(c); !got.Equal(now) {
		t.Errorf("after a failed write: last seen %v, want %v", got, now)
	}
}

// TestCrossSessionAccess: every object is reached through the caller's own
// session, so session B finds none of session A's lender application
// whatever it asks, and A goes on unchanged.
func TestCrossSessionAccess(t *testing.T) {
	storetest.EachEngine(t, func(t *testing.T, e storetest.Engine) {
		f := newFixture(t, e, flow.Options{})
		ctx := context.Background()
		a := f.caller(t)
		if _, err := f.submit(t, a, "synchrony_standard", "Approve", "123456785"); err != nil {
			t.Fatal(err)
		}
		code := f.confirmPlan(t, a, "synchrony_standard")
		b := f.caller(t)
		// What A's signing screen shows, agreed to, sent by B.
		esign := f.esignRequest(t, a, "synchrony_standard", true)
		const key = "synchrony_standard"
		for name, try := range map[string]func() error{
			"plans":     func() error { _, err := f.svc.Plans(ctx, b, key, 100000); return err },
			"select":    func() error { _, err := f.svc.SelectPlan(ctx, b, key, code); return err },
			"confirm":   func() error { _, err := f.svc.ConfirmPlan(ctx, b, key, code); return err },
			"accept":    func() error { _, err := f.svc.AcceptOffer(ctx, b, key, nil); return err },
			"esign":     func() error { _, err := f.svc.ESign(ctx, b, key, esign); return err },
			"complete":  func() error { _, err := f.svc.Complete(ctx, b, key); return err },
			"status":    func() error { _, err := f.svc.ApplicationStatus(ctx, b, key); return err },
			"agreement": func() error { _, err := f.svc.Agreement(ctx, b, key); return err },
		} {
			if err := try(); chairside.ErrorCode(err) != chairside.ENOTFOUND {
				t.Errorf("B's %s reached A's application: %v", name, err)
			}
		}
		pa, err := value(f.svc.AcceptOffer(ctx, a, key, nil))
		if err != nil || pa.SelectedPlanCode != code || pa.Status != chairside.StatusOfferAccepted {
			t.Fatalf("A's accept after B's attempts: %+v %v", pa, err)
		}
		for _, op := range []string{sandbox.OpAcceptOffer, sandbox.OpESign, sandbox.OpComplete} {
			if n, _ := f.log.count(op); n > 1 {
				t.Errorf("%s reached the lender %d times", op, n)
			}
		}
	})
}

// TestSSNIndexHasOneSource: the SSN's cap counts under the blind index the
// store keeps with the application, the one place it is computed.
func TestSSNIndexHasOneSource(t *testing.T) {
	storetest.EachEngine(t, func(t *testing.T, e storetest.Engine) {
		f := newFixture(t, e, flow.Options{})
		ctx := context.Background()
		c := f.caller(t)
		if _, err := f.submit(t, c, "synchrony_standard", "Approve", "123456787"); err != nil {
			t.Fatal(err)
		}
		app, err := e.DB.FindApplication(ctx, c.Session.ApplicationID)
		if err != nil {
			t.Fatal(err)
		}
		if app.SSNIndex == "" || app.SSNIndex != e.Keys.BlindIndex("123456787") {
			t.Fatalf("stored SSN index %q is not the blind index of the SSN", app.SSNIndex)
		}
		// The submit took this scope's one pull of a cap of 1.
		day := time.Now().UTC().Format(time.DateOnly)
		spent := errors.New("spent")
		if err := e.DB.TakePull(ctx, "ssn:"+app.SSNIndex+":"+day, 1, func() error { return spent }); !errors.Is(err, spent) {
			t.Fatalf("the SSN's pull is not counted under the stored index: %v", err)
		}
	})
}
