package lendersim

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/lender/protocol"
)

// now is the lender's clock: the sandbox's requests take the time from
// the caller, and over the wire the caller is this lender.
func now() time.Time { return time.Now().UTC() }

// decisionReply answers a sandbox decision; the sandbox's "error" outcome
// is a lender failing (500), never a status on the wire.
func decisionReply(d *chairside.Decision, reference string) (reply, *protocol.Decision) {
	if d.ResponseCode == chairside.ResponseError {
		return fail(http.StatusInternalServerError, protocol.CodeLenderError, "The lender could not decide this application."), nil
	}
	w := protocol.FromChairside(d, reference)
	return ok(w), w
}

// stipStatuses are the stipulation statuses of a decision.
func stipStatuses(d *chairside.Decision) map[string]string {
	m := map[string]string{}
	for _, st := range d.Stipulations {
		m[st.ID] = st.Status
	}
	return m
}

// create is POST /applications: a prequalify, prescreen or application,
// decided by the sandbox and remembered by id and platform reference.
func (s *Sim) create(c *call) reply {
	var in protocol.CreateApplication
	if rep := decodeBody(c, &in); rep != nil {
		return *rep
	}
	if fe := in.Validate(); len(fe) > 0 {
		return fail(http.StatusUnprocessableEntity, protocol.CodeValidation, "Some fields are missing or wrong.", fe...)
	}
	if rep := s.claim(c.lender, in.PlatformReference); rep != nil {
		return *rep
	}
	req := in.Chairside(c.lender)
	req.Now, req.Language = now(), c.lang
	d, err := c.sandbox.Decide(c.ctx, req)
	if err == nil && advances(&in, d) {
		req.TestCase = pendingThenApproved
		d, err = c.sandbox.Decide(c.ctx, req)
	}
	if err != nil {
		return fromSandbox(c, err, http.StatusServiceUnavailable)
	}
	rep, w := decisionReply(d, in.PlatformReference)
	if w != nil {
		s.remember(&application{lender: c.lender, id: w.ApplicationID, reference: in.PlatformReference, decision: w,
			advancing: advances(&in, d), stips: stipStatuses(d)})
	}
	return rep
}

// claim counts a create of a platform reference, or refuses one already
// used: a second application under the same reference (and another
// idempotency key) is the caller's mistake, and looking it up the answer.
func (s *Sim) claim(lender, reference string) *reply {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.byRef[pair(lender, reference)] != nil {
		rep := fail(http.StatusConflict, protocol.CodeDuplicateReference,
			"An application with this platform reference exists; look it up by its reference.")
		return &rep
	}
	s.creates[pair(lender, reference)]++
	return nil
}

// lookup is GET /applications?platformReference=…: the application a
// platform reference created, or 404.
func (s *Sim) lookup(c *call) reply {
	ref := c.r.URL.Query().Get("platformReference")
	if ref == "" {
		return fail(http.StatusBadRequest, protocol.CodeBadRequest, "The platformReference parameter is required.")
	}
	s.mu.Lock()
	app := s.byRef[pair(c.lender, ref)]
	s.mu.Unlock()
	if app == nil {
		return fail(http.StatusNotFound, protocol.CodeNotFound, "No application has this platform reference.")
	}
	d, _ := s.held(c.lender, app.id)
	return ok(d)
}

// status is GET /applications/{id}. An application the simulator does not
// remember (made before a restart) is answered by the stateless sandbox,
// whose ids carry their own decision.
func (s *Sim) status(c *call) reply {
	if d, held := s.held(c.lender, c.id); held {
		return ok(d)
	}
	d, err := c.sandbox.Status(c.ctx, &chairside.StatusRequest{LenderKey: c.lender, Language: c.lang, LenderRef: c.id})
	if err != nil {
		return fromSandbox(c, err, http.StatusServiceUnavailable)
	}
	rep, _ := decisionReply(d, "")
	return rep
}

// guard refuses the offer steps of an application still pending.
func (s *Sim) guard(c *call) *reply {
	if s.stillPending(c.lender, c.id) {
		rep := fail(http.StatusConflict, protocol.CodeConflict, "The application is still pending.")
		return &rep
	}
	return nil
}

// cents reads a money parameter: absent is 0, anything but a whole
// non-negative number is an error.
func cents(v string) (int64, bool) {
	if v == "" {
		return 0, true
	}
	n, err := strconv.ParseInt(v, 10, 64)
	return n, err == nil && n >= 0
}

// plans is GET /applications/{id}/plans?amountCents=…&approvedAmountCents=….
func (s *Sim) plans(c *call) reply {
	if rep := s.guard(c); rep != nil {
		return *rep
	}
	q := c.r.URL.Query()
	amount, ok1 := cents(q.Get("amountCents"))
	approved, ok2 := cents(q.Get("approvedAmountCents"))
	if !ok1 || !ok2 {
		return fail(http.StatusBadRequest, protocol.CodeBadRequest, "Amounts are whole, non-negative cents.")
	}
	plans, err := c.sandbox.Plans(c.ctx, &chairside.PlansRequest{LenderKey: c.lender, Language: c.lang, LenderRef: c.id,
		AmountCents: amount, ApprovedAmountCents: approved, Now: now()})
	if err != nil {
		return fromSandbox(c, err, http.StatusBadRequest)
	}
	return ok(protocol.FromPlans(c.id, plans))
}

// step runs a step that answers a receipt: its body decoded into T, the
// application not pending, then run, which returns the step's platform
// reference.
func step[T any](s *Sim, c *call, sub string, run func(*T) (string, error)) reply {
	var in T
	if rep := decodeBody(c, &in); rep != nil {
		return *rep
	}
	if rep := s.guard(c); rep != nil {
		return *rep
	}
	ref, err := run(&in)
	if err != nil {
		return fromSandbox(c, err, http.StatusBadRequest)
	}
	return ok(protocol.Receipt{ApplicationID: c.id, PlatformReference: ref, Step: sub, Status: protocol.ReceiptRecorded})
}

// offerRequest is the sandbox's form of an offer step.
func offerRequest(c *call, in *protocol.Offer) *chairside.OfferRequest {
	return &chairside.OfferRequest{LenderKey: c.lender, Language: c.lang, LenderRef: c.id, LenderPlanCode: in.PlanCode,
		AmountCents: in.AmountCents, Reference: in.PlatformReference, Now: now()}
}

func (s *Sim) accept(c *call) reply {
	return step(s, c, protocol.SubAccept, func(in *protocol.Offer) (string, error) {
		if err := c.sandbox.AcceptOffer(c.ctx, offerRequest(c, in)); err != nil {
			return "", err
		}
		s.withApp(c, func(app *application) { app.planCode, app.financed = in.PlanCode, in.AmountCents })
		return in.PlatformReference, nil
	})
}

func (s *Sim) esign(c *call) reply {
	return step(s, c, protocol.SubESign, func(in *protocol.Offer) (string, error) {
		return in.PlatformReference, c.sandbox.ESign(c.ctx, offerRequest(c, in))
	})
}

func (s *Sim) bankAccount(c *call) reply {
	return step(s, c, protocol.SubBankAccount, func(in *protocol.BankAccount) (string, error) {
		return in.PlatformReference, c.sandbox.AddBankAccount(c.ctx, &chairside.BankAccountRequest{
			LenderKey: c.lender, Language: c.lang, LenderRef: c.id, RoutingNumber: in.RoutingNumber, AccountNumber: in.AccountNumber,
			BankName: in.BankName, AccountType: in.AccountType, Reference: in.PlatformReference, Now: now()})
	})
}

func (s *Sim) bankCard(c *call) reply {
	return step(s, c, protocol.SubBankCard, func(in *protocol.BankCard) (string, error) {
		return in.PlatformReference, c.sandbox.AddCard(c.ctx, &chairside.BankCardRequest{
			LenderKey: c.lender, Language: c.lang, LenderRef: c.id, CardholderName: in.CardholderName, Number: in.Number,
			ExpiryMonth: in.ExpiryMonth, ExpiryYear: in.ExpiryYear, CVV: in.CVV, ZIP: in.ZIP, Reference: in.PlatformReference, Now: now()})
	})
}

func (s *Sim) downPayment(c *call) reply {
	return step(s, c, protocol.SubDownPayment, func(in *protocol.DownPayment) (string, error) {
		if in.Currency != protocol.Currency {
			return "", &chairside.Error{Code: chairside.EINVALID, Message: "Only " + protocol.Currency + " is taken.",
				FieldErrors: []chairside.FieldError{{Field: "currency", Message: "Must be " + protocol.Currency + "."}}}
		}
		return in.PlatformReference, c.sandbox.DownPayment(c.ctx, &chairside.DownPaymentRequest{
			LenderKey: c.lender, Language: c.lang, LenderRef: c.id, AmountCents: in.AmountCents, Method: in.Method,
			Reference: in.PlatformReference, Now: now()})
	})
}

func (s *Sim) contact(c *call) reply {
	return step(s, c, protocol.SubContacts, func(in *protocol.Contact) (string, error) {
		return in.PlatformReference, c.sandbox.AddContact(c.ctx, &chairside.ContactRequest{
			LenderKey: c.lender, Language: c.lang, LenderRef: c.id, Name: in.Name, Relationship: in.Relationship, Phone: in.Phone,
			Reference: in.PlatformReference, Now: now()})
	})
}

func (s *Sim) consent(c *call) reply {
	return step(s, c, protocol.SubConsents, func(in *protocol.Consent) (string, error) {
		return in.PlatformReference, c.sandbox.RecordConsent(c.ctx, &chairside.ConsentNotice{
			LenderKey: c.lender, Language: c.lang, LenderRef: c.id, Kind: in.Kind, DocumentID: in.DocumentID,
			DocumentVersion: in.DocumentVersion, Reference: in.PlatformReference, Now: now()})
	})
}

func (s *Sim) spouse(c *call) reply {
	return step(s, c, protocol.SubSpouse, func(in *protocol.Spouse) (string, error) {
		return in.PlatformReference, c.sandbox.AddSpouse(c.ctx, &chairside.SpouseRequest{
			LenderKey: c.lender, Language: c.lang, LenderRef: c.id, Married: in.Married, FirstName: in.FirstName, LastName: in.LastName,
			AddressLine1: in.AddressLine1, AddressLine2: in.AddressLine2, City: in.City, State: in.State, ZipCode: in.ZipCode,
			Reference: in.PlatformReference, Now: now()})
	})
}

// complete is POST …/complete: the account is opened and the final
// decision answered (and remembered).
func (s *Sim) complete(c *call) reply {
	var in protocol.Offer
	if rep := decodeBody(c, &in); rep != nil {
		return *rep
	}
	if rep := s.guard(c); rep != nil {
		return *rep
	}
	d, err := c.sandbox.Complete(c.ctx, offerRequest(c, &in))
	if err != nil {
		return fromSandbox(c, err, http.StatusBadRequest)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	app := s.apps[pair(c.lender, c.id)]
	ref := ""
	if app != nil {
		ref = app.reference
	}
	rep, w := decisionReply(d, ref)
	if app != nil && w != nil {
		app.decision = w
		if app.completedAt.IsZero() {
			// What the lender's funding and changes need: the plan and
			// amount completed (those accepted when the complete names no
			// amount) and when.
			if in.AmountCents > 0 {
				app.planCode, app.financed = in.PlanCode, in.AmountCents
			}
			app.completedAt = now()
			go s.followFunding(app.lender, app.id) // after the lock
		}
	}
	return rep
}

// document is GET /documents/{kind}, with its ETag; 304 without a body
// when If-None-Match names that ETag.
func (s *Sim) document(c *call) reply {
	d, err := c.sandbox.Document(c.ctx, &chairside.DocumentRequest{LenderKey: c.lender, Language: c.lang, Kind: c.r.PathValue("kind")})
	if err != nil {
		return fromSandbox(c, err, http.StatusBadRequest)
	}
	doc := protocol.FromDocument(d)
	tag := documentETag(doc)
	if matches(c.r.Header.Values(protocol.HeaderIfNoneMatch), tag) {
		return notModified(tag)
	}
	rep := ok(doc)
	rep.etag = tag
	return rep
}

// documentETag is the strong entity tag of a document in one language: a
// digest of all of it (id, version, language, title, text and its hash),
// so a new version, a new text or the other language is another tag.
func documentETag(d *protocol.Document) string {
	raw, err := json.Marshal(d)
	if err != nil {
		return "" // strings only: cannot happen
	}
	sum := sha256.Sum256(raw)
	return `"` + hex.EncodeToString(sum[:16]) + `"`
}

// matches reports whether If-None-Match values name tag, or are "*".
func matches(ifNoneMatch []string, tag string) bool {
	for _, v := range ifNoneMatch {
		for t := range strings.SplitSeq(v, ",") {
			t = strings.TrimSpace(t)
			if t == "*" || protocol.SameEntityTag(t, tag) {
				return true
			}
		}
	}
	return false
}
