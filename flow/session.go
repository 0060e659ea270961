package flow

import (
	"context"
	"sync/atomic"
	"time"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/catalogue"
)

// maxPurchaseCents bounds amounts a client may send ($100,000).
const maxPurchaseCents = catalogue.MaxPurchaseCents

// StartByEntityKey starts a flow at the location with this entity key (an
// at-home link). A key that is not 16 digits answers bad_request, an unknown
// one resource_not_found.
func (s *Service) StartByEntityKey(ctx context.Context, entityKey string, opts StartOptions) (*StartResponse, error) {
	if !isEntityKey(entityKey) {
		return nil, errorf(chairside.EBADREQUEST, "The entity key must be exactly 16 digits.")
	}
	loc, err := s.locationByEntityKey(ctx, entityKey)
	if err != nil {
		return nil, err
	}
	exp := opts.ExperienceType
	if exp == "" {
		exp = chairside.ExperienceAtHome
	}
	if exp != chairside.ExperienceAtHome && exp != chairside.ExperienceInStore {
		return nil, errorf(chairside.EBADREQUEST, "experienceType must be in_store or at_home.")
	}
	var amount int64
	if opts.PurchaseAmountCents != nil {
		amount = *opts.PurchaseAmountCents
		if amount < 0 || amount > maxPurchaseCents {
			return nil, errorf(chairside.EBADREQUEST, "purchaseAmountCents must be between 0 and %d.", maxPurchaseCents)
		}
	}
	return s.startSession(ctx, loc, newSessionData{experience: exp, purchaseCents: amount})
}

// Start is POST /flow/start: a start by the entity key in the body.
func (s *Service) Start(ctx context.Context, req StartRequest) (*StartResponse, error) {
	if req.EntityKey == "" {
		return nil, errorf(chairside.EBADREQUEST, "entityKey is required.")
	}
	return s.StartByEntityKey(ctx, req.EntityKey, req.StartOptions)
}

// StartByToken starts a flow with a single-use office flow token. The token
// is looked up by its SHA-256 and consumed atomically: a used, expired or
// unknown token answers resource_not_found.
func (s *Service) StartByToken(ctx context.Context, token string) (*StartResponse, error) {
	if len(token) < 16 || len(token) > 128 || !isURLSafe(token) {
		return nil, errorf(chairside.ENOTFOUND, "This link is not valid.")
	}
	t, err := s.store.ConsumeFlowToken(ctx, chairside.HashSecret(token), s.now().UTC())
	if err != nil {
		if isCode(err, chairside.ENOTFOUND) {
			return nil, errorf(chairside.ENOTFOUND, "This link has expired or was already used. Please ask the office for a new one.")
		}
		return nil, err
	}
	loc, err := s.location(ctx, t.LocationID)
	if err != nil {
		return nil, err
	}
	if t.Language != "" && t.Language != loc.Language {
		// The desk chose the patient's language for the invitation: the
		// form opens in it, as its text and email were written.
		l := *loc
		l.Language = t.Language
		loc = &l
	}
	exp := t.ExperienceType
	if exp == "" {
		exp = chairside.ExperienceInStore
	}
	return s.startSession(ctx, loc, newSessionData{
		experience:     exp,
		purchaseCents:  t.PurchaseAmountCents,
		insuranceCents: t.InsuranceBenefitsCents,
		firstName:      t.FirstName,
		lastName:       t.LastName,
		email:          t.Email,
		mobilePhone:    t.MobilePhone,
		record:         t.Record,
	})
}

// Restart finishes the caller's session (outcome cancel) and starts a new
// one at the same location. The new application keeps the office's facts
// (purchase amount, insurance benefits, experience type) but none of the
// personal data typed in the old one, names included: a restart is how a
// patient starts over, and the old data is purged with the old session.
func (s *Service) Restart(ctx context.Context, c *Caller) (*StartResponse, error) {
	old := c.Session
	app, err := s.store.FindApplication(ctx, old.ApplicationID)
	if err != nil {
		return nil, err
	}
	loc, err := s.location(ctx, old.LocationID)
	if err != nil {
		return nil, err
	}
	if _, err := s.Finish(ctx, c, chairside.OutcomeCancel); err != nil {
		return nil, err
	}
	s.event(ctx, old, "", "flow.restarted", nil)
	return s.startSession(ctx, loc, newSessionData{
		experience:     old.ExperienceType,
		purchaseCents:  app.PurchaseAmountCents,
		insuranceCents: app.InsuranceBenefitsCents,
	})
}

type newSessionData struct {
	experience                    string
	purchaseCents, insuranceCents int64
	firstName, lastName           string
	// email and mobilePhone are where the office sent an invitation: shown
	// back prefilled for the patient to confirm, never stored by the start.
	email, mobilePhone string
	// record is what the office's own system holds of the patient, when
	// the invitation was made from it: its id is kept with the
	// application, the rest prefilled like the email.
	record *chairside.RecordPrefill
}

func (d newSessionData) recordPatientID() string {
	if d.record == nil {
		return ""
	}
	return d.record.PatientID
}

// startSession creates the session, its application and the start event.
func (s *Service) startSession(ctx context.Context, loc *chairside.Location, d newSessionData) (*StartResponse, error) {
	if len(loc.Waterfall) == 0 {
		s.log.Error("location has no waterfall", "location", loc.ID)
		return nil, errorf(chairside.ENOTFOUND, "This office is not set up for financing yet.")
	}
	first := loc.Waterfall[0]
	now := s.now().UTC()

	// 256 random bits: the raw id goes to the browser once; only its hash
	// is stored and only a prefix of the hash is logged.
	webSessionID := chairside.NewSecret(32)

	app := &chairside.Application{
		ID:                     newID(),
		LocationID:             loc.ID,
		PurchaseAmountCents:    d.purchaseCents,
		InsuranceBenefitsCents: d.insuranceCents,
		Primary:                chairside.Applicant{FirstName: d.firstName, LastName: d.lastName},
		RecordPatientID:        d.recordPatientID(),
		CreatedAt:              now,
		UpdatedAt:              now,
	}
	sess := &chairside.Session{
		ID:                  chairside.HashSecret(webSessionID),
		LocationID:          loc.ID,
		ApplicationID:       app.ID,
		Env:                 s.opts.Env,
		GroupID:             loc.GroupID,
		ExperienceType:      d.experience,
		FlowType:            chairside.FlowApply,
		WarnCountdownMillis: s.opts.WarnCountdown.Milliseconds(),
		TimeoutAfterMillis:  s.opts.TimeoutAfter.Milliseconds(),
		DynamicLenderKey:    first.LenderKey,
		CreatedAt:           now,
		LastSeenAt:          now,
	}
	app.SessionID = sess.ID
	err := s.batch(ctx, nil, func(st Store) error {
		if err := st.CreateApplication(ctx, app); err != nil {
			return err
		}
		if err := st.CreateSession(ctx, sess); err != nil {
			return err
		}
		s.eventIn(ctx, st, sess, first.LenderKey, "flow.started", map[string]any{"experienceType": d.experience})
		return nil
	})
	if err != nil {
		return nil, err
	}
	s.log.Info("flow started", "session", SessionHash(sess.ID), "location", loc.ID, "experienceType", d.experience)

	resp := &StartResponse{
		Session: SessionInfo{
			WebSessionID: webSessionID,
			Env:          sess.Env,
			GroupID:      sess.GroupID,
			Properties: SessionProperties{
				State:        loc.State,
				LocationName: loc.Name,
				BrandName:    loc.BrandName,
				ApplyMode:    first.ApplyMode,
			},
			ExperienceType:      sess.ExperienceType,
			FlowType:            sess.FlowType,
			WarnCountdownMillis: sess.WarnCountdownMillis,
			TimeoutAfterMillis:  sess.TimeoutAfterMillis,
			DynamicLenderKey:    sess.DynamicLenderKey,
			ShowCancelModal:     true,
		},
		Application: applicationSummary(app, loc, d),
		Location:    locationInfo(loc),
	}
	resp.Form = s.firstForm(ctx, loc, first, app.PurchaseAmountCents)
	return resp, nil
}

// firstForm is the form a new session's first screen shows, or nil when it
// cannot be built: the screen then asks for it (ApplyStart) and gets the
// error there.
func (s *Service) firstForm(ctx context.Context, loc *chairside.Location, first chairside.WaterfallStep, purchaseCents int64) *ApplyStartResponse {
	if !chairside.ValidMode(first.ApplyMode) {
		return nil
	}
	form, err := s.form(ctx, loc, first.LenderKey, first.ApplyMode, purchaseCents)
	if err != nil {
		s.log.Error("first lender's form", "location", loc.ID, "lender", first.LenderKey, "err", err)
		return nil
	}
	return form
}

// RestartWindow is how long after a session finished "start again" may
// begin a new one from it (docs/behaviour.md, "Finishing").
const RestartWindow = 30 * time.Minute

// StartAgain starts a new flow at the location, and in the experience, of
// a session that finished within RestartWindow: the browser's "start
// again" after a finish. Nothing of the finished application is carried
// over. Anything else — malformed, unknown, live, or finished too long
// ago — answers resource_not_found, with no hint of which.
func (s *Service) StartAgain(ctx context.Context, previousSessionID string) (*StartResponse, error) {
	gone := errorf(chairside.ENOTFOUND, "We could not find what you were looking for.")
	prev, err := s.sessionByRawID(ctx, previousSessionID, gone)
	if err != nil {
		return nil, err
	}
	now := s.now().UTC()
	if prev.FinishedAt == nil || now.Sub(*prev.FinishedAt) > RestartWindow {
		return nil, gone
	}
	loc, err := s.location(ctx, prev.LocationID)
	if err != nil {
		return nil, err
	}
	return s.startSession(ctx, loc, newSessionData{experience: prev.ExperienceType})
}

// sessionByRawID finds a session, live or not, by the raw id the browser
// holds; a malformed or unknown id answers notFound, so callers give no
// hint of which.
func (s *Service) sessionByRawID(ctx context.Context, rawID string, notFound error) (*chairside.Session, error) {
	if len(rawID) < 22 || len(rawID) > 128 || !isURLSafe(rawID) {
		return nil, notFound
	}
	sess, err := s.store.FindSession(ctx, chairside.HashSecret(rawID))
	if isCode(err, chairside.ENOTFOUND) {
		return nil, notFound
	}
	return sess, err
}

// Authenticate returns the live session for the browser's raw session id.
// Anything else — malformed, unknown, finished, idle or too old — answers
// session_invalid, with no hint of which. It moves LastSeenAt, throttled to
// one write every few seconds.
func (s *Service) Authenticate(ctx context.Context, webSessionID string) (*chairside.Session, error) {
	sess, due, err := s.liveSession(ctx, webSessionID)
	if err != nil || !due {
		return sess, err
	}
	if err := s.store.TouchSession(ctx, sess.ID, sess.LastSeenAt); err != nil {
		return nil, err
	}
	return sess, nil
}

// AuthenticateCall is Authenticate for an API call that may write: it
// answers the Caller of the live session, for the transport to add the
// request's facts to. A due move of LastSeenAt is not written at once but
// carried by the Caller: the call's first write takes it into its own
// transaction (batch), so a step makes one commit, not two; SettleTouch
// writes it at the end of a call that wrote nothing.
func (s *Service) AuthenticateCall(ctx context.Context, webSessionID string) (*Caller, error) {
	sess, due, err := s.liveSession(ctx, webSessionID)
	if err != nil {
		return nil, err
	}
	c := &Caller{Session: sess}
	if due {
		c.touch = &pendingTouch{session: sess.ID, at: sess.LastSeenAt}
	}
	return c, nil
}

// SettleTouch writes the move of LastSeenAt that AuthenticateCall left in
// c, unless a write of the call already took it.
func (s *Service) SettleTouch(ctx context.Context, c *Caller) error {
	t := c.touch
	if t == nil || !t.take() {
		return nil
	}
	return s.store.TouchSession(ctx, t.session, t.at)
}

// liveSession finds the live session for a raw id (Authenticate) and
// reports whether its LastSeenAt is due to move, already moved to now in
// the answer.
func (s *Service) liveSession(ctx context.Context, webSessionID string) (*chairside.Session, bool, error) {
	invalid := errorf(chairside.EUNAUTHORIZED, "Your session has ended. Please start again.")
	sess, err := s.sessionByRawID(ctx, webSessionID, invalid)
	if err != nil {
		return nil, false, err
	}
	now := s.now().UTC()
	if !sess.Live(now) {
		return nil, false, invalid
	}
	if now.Sub(sess.LastSeenAt) < touchEvery {
		return sess, false, nil
	}
	sess.LastSeenAt = now
	return sess, true, nil
}

// pendingTouch is a move of a session's LastSeenAt not yet written; taken
// once, by the first write of the call or by SettleTouch. A call's steps
// may run in more than one goroutine, hence the atomic.
type pendingTouch struct {
	session string
	at      time.Time
	taken   atomic.Bool
}

// take claims the touch for the caller's write; false when already taken.
func (t *pendingTouch) take() bool { return t.taken.CompareAndSwap(false, true) }

// untake hands the touch back when the write that took it was not kept.
func (t *pendingTouch) untake() { t.taken.Store(false) }

// Finish ends the caller's session with an outcome (chairside.Outcome…).
// From then on its id answers session_invalid; a second finish does too.
// The outcome is checked against the application (finishOutcome): the
// browser asks, the server decides what is recorded.
func (s *Service) Finish(ctx context.Context, c *Caller, outcome string) (*FinishResponse, error) {
	switch outcome {
	case chairside.OutcomeCompleted, chairside.OutcomeCancel, chairside.OutcomePending, chairside.OutcomeTimeout:
	default:
		return nil, errorf(chairside.ENOTFOUND, "Unknown outcome.")
	}
	sess := c.Session
	outcome, err := s.finishOutcome(ctx, sess, outcome)
	if err != nil {
		return nil, err
	}
	err = s.batch(ctx, c, func(st Store) error {
		if err := st.FinishSession(ctx, sess.ID, outcome, s.now().UTC()); err != nil {
			return err
		}
		s.eventIn(ctx, st, sess, "", "flow.finished", map[string]any{"outcome": outcome})
		return nil
	})
	if err != nil {
		if isCode(err, chairside.ECONFLICT) || isCode(err, chairside.ENOTFOUND) {
			return nil, errorf(chairside.EUNAUTHORIZED, "Your session has ended. Please start again.")
		}
		return nil, err
	}
	s.log.Info("flow finished", "session", SessionHash(sess.ID), "outcome", outcome)
	return &FinishResponse{Outcome: outcome}, nil
}

// finishOutcome is the outcome to record for the one asked:
//   - completed only when a lender completed an application; when every
//     lender tried has answered and none completed, what happened
//     (noFinancingOutcome); while a lender step is in flight, or before any
//     lender answered, refused;
//   - pending only when a lender's latest decision is pending;
//   - cancel and timeout always.
func (s *Service) finishOutcome(ctx context.Context, sess *chairside.Session, asked string) (string, error) {
	if asked == chairside.OutcomeCancel || asked == chairside.OutcomeTimeout {
		return asked, nil
	}
	pas, err := s.store.ListLenderApplications(ctx, sess.ApplicationID)
	if err != nil {
		return "", err
	}
	decided, pending := false, false
	for _, pa := range pas {
		if pa.InFlight != "" {
			return "", inFlight(s.lease())
		}
		if pa.Status == chairside.StatusCompleted && asked == chairside.OutcomeCompleted {
			return chairside.OutcomeCompleted, nil
		}
		if pa.Decision != nil {
			decided = true
			pending = pending || pa.Decision.ResponseCode == chairside.ResponsePending
		}
	}
	switch {
	case asked == chairside.OutcomePending && pending:
		return chairside.OutcomePending, nil
	case asked == chairside.OutcomePending:
		return "", errorf(chairside.ECONFLICT, "No lender is reviewing this application.")
	case decided:
		return s.noFinancingOutcome(pas), nil
	}
	return "", errorf(chairside.ECONFLICT, "This application is not finished yet.")
}

// noFinancingOutcome says how a session that completed no application
// ended, from each lender's latest decision, so the office reads what
// happened: an offer still open that the patient did not take
// (no_financing), only offers past their date (offer_expired), a lender
// that declined (declined), else no lender made an offer (no_offer: no
// offer, no answer, still reviewing).
func (s *Service) noFinancingOutcome(pas []*chairside.LenderApplication) string {
	var open, expired, declined bool
	for _, pa := range pas {
		switch d := pa.Decision; {
		case d == nil:
		case chairside.Positive(d.ResponseCode) && s.expired(pa):
			expired = true
		case chairside.Positive(d.ResponseCode):
			open = true
		case d.ResponseCode == chairside.ResponseDeclined:
			declined = true
		}
	}
	switch {
	case open:
		return chairside.OutcomeNoFinancing
	case expired:
		return chairside.OutcomeOfferExpired
	case declined:
		return chairside.OutcomeDeclined
	}
	return chairside.OutcomeNoOffer
}

// isEntityKey reports whether k is exactly 16 ASCII digits.
func isEntityKey(k string) bool {
	if len(k) != 16 {
		return false
	}
	for i := 0; i < len(k); i++ {
		if k[i] < '0' || k[i] > '9' {
			return false
		}
	}
	return true
}

// isURLSafe reports whether s uses only the base64url alphabet.
func isURLSafe(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}
