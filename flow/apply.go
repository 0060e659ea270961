package flow

import (
	"context"
	"encoding/json"
	"strings"
	"time"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/provider"
	"github.com/chairside/chairside/validate"
)

// Operations of a submit, as in URLs and Decision.Operation.
const (
	OpPrequalify = "prequalify"
	OpPrescreen  = "prescreen"
	OpApply      = "apply"
)

// Document kinds a browser asks for with GET /providers/{k}/disclosures.
const (
	DocPrequalification = "prequalification" // soft-pull authorisation
	DocApplication      = "application"      // hard-pull authorisation and disclosures
	DocESign            = "esign"            // E-SIGN disclosure and consent
)

// step returns the caller's location and the waterfall step of providerKey;
// a provider outside the waterfall is resource_not_found.
func (s *Service) step(ctx context.Context, c *Caller, providerKey string) (*chairside.Location, *chairside.WaterfallStep, error) {
	loc, err := s.location(ctx, c.Session.LocationID)
	if err != nil {
		return nil, nil, err
	}
	st := loc.Step(providerKey)
	if st == nil {
		return nil, nil, errorf(chairside.ENOTFOUND, "This lender is not offered here.")
	}
	return loc, st, nil
}

// ApplyStart answers the form for one provider of the caller's waterfall in
// a mode (default: the step's mode). It writes nothing: the provider
// application is created by the first submit.
func (s *Service) ApplyStart(ctx context.Context, c *Caller, providerKey, mode string) (*ApplyStartResponse, error) {
	loc, st, err := s.step(ctx, c, providerKey)
	if err != nil {
		return nil, err
	}
	if mode == "" {
		mode = st.ApplyMode
	}
	if !chairside.ValidMode(mode) {
		return nil, errorf(chairside.EBADREQUEST, "mode must be full, prequalify or prescreen.")
	}
	fields, groups, err := provider.Fields(providerKey, mode)
	if err != nil {
		return nil, err
	}
	providers := make([]chairside.Provider, 0, len(loc.Waterfall))
	for _, w := range loc.Waterfall {
		p, err := provider.Get(w.ProviderKey)
		if err != nil {
			s.log.Error("waterfall names an unknown provider", "location", loc.ID, "provider", w.ProviderKey)
			continue
		}
		providers = append(providers, p)
	}
	if fields == nil {
		fields = []chairside.FieldDefinition{}
	}
	if groups == nil {
		groups = []chairside.FieldGroupRule{}
	}
	return &ApplyStartResponse{
		ProviderKey:     providerKey,
		ApplyMode:       mode,
		Fields:          fields,
		FieldGroupRules: groups,
		Providers:       providers,
	}, nil
}

// modeOf maps a submit operation to its apply mode.
func modeOf(op string) string {
	if op == OpApply {
		return chairside.ModeFull
	}
	return op
}

// validateSubmit checks the applicants with the provider's rules for the
// mode; every field error carries its applicant prefix.
func (s *Service) validateSubmit(providerKey, mode string, primary *chairside.Applicant, joint *chairside.Applicant, jointEnabled bool) ([]chairside.FieldError, error) {
	defs, groups, err := provider.Fields(providerKey, mode)
	if err != nil {
		return nil, err
	}
	now := s.now()
	fe := validate.Applicant(defs, groups, primary, "primary", now)
	if jointEnabled {
		if joint == nil {
			fe = append(fe, chairside.FieldError{Field: "joint", Message: "Required Field"})
		} else {
			fe = append(fe, validate.Applicant(defs, groups, joint, "joint", now)...)
		}
	}
	return fe, nil
}

// Submit runs a prequalify, prescreen or full application with one provider
// of the caller's waterfall. In order: the provider must be in the
// waterfall; the applicants must pass the provider's rules (validation_error
// with prefixed fieldErrors); the consent must name the lender's current
// authorisation document; a repeat of the same submit answers the first
// answer (idempotency); the per-session and per-SSN caps must allow another
// credit pull; then the lender decides under LenderTimeout. A lender error or
// time-out is an ordinary "error" decision. The answer carries next when the
// decision cascades and the waterfall goes on.
func (s *Service) Submit(ctx context.Context, c *Caller, providerKey, op string, req *SubmitRequest) (*DecisionResponse, error) {
	if op != OpPrequalify && op != OpPrescreen && op != OpApply {
		return nil, errorf(chairside.ENOTFOUND, "Unknown operation.")
	}
	sess := c.Session
	loc, st, err := s.step(ctx, c, providerKey)
	if err != nil {
		return nil, err
	}
	mode := modeOf(op)
	if !req.JointEnabled {
		req.Joint = nil // never keep a joint applicant the patient switched off
	}
	fe, err := s.validateSubmit(providerKey, mode, &req.Primary, req.Joint, req.JointEnabled)
	if err != nil {
		return nil, err
	}
	if len(fe) > 0 {
		return nil, &chairside.Error{Code: chairside.EINVALID, Message: "Please review the fields below and correct any errors.", FieldErrors: fe}
	}

	lender, err := s.lenders.Lender(providerKey)
	if err != nil {
		return nil, err
	}
	docKind, consentKind := DocPrequalification, chairside.ConsentSoftPull
	if op == OpApply {
		docKind, consentKind = DocApplication, chairside.ConsentHardPull
	}
	doc, err := s.document(ctx, lender, providerKey, docKind)
	if err != nil {
		return nil, err
	}
	if err := checkConsent(req.Consent, doc); err != nil {
		return nil, err
	}

	// Idempotency: the key names the submit, the keyed hash its content.
	// The hash is an HMAC (the blind-index key), so a record never lets
	// anyone test guesses of the personal data it was computed from.
	key := idempotencyKey(sess.ID, op, providerKey, c.IdempotencyKey)
	canonical, _ := json.Marshal(req)
	now := s.now().UTC()
	rec := &chairside.IdempotencyRecord{
		Key:         key,
		RequestHash: s.keys.BlindIndex(string(canonical)),
		CreatedAt:   now,
		ExpiresAt:   now.Add(idempotencyTTL),
	}
	ssnIndex := s.keys.BlindIndex(req.Primary.SSN)

	// Everything before the lender call is one batch, committed together:
	// the idempotency claim, the provider application, the caps checked
	// and the consent recorded (one WAL flush on PostgreSQL instead of
	// four, one turn of SQLite's writer). The lender is called only after
	// the commit, so the claim and the consent are durable first.
	var (
		existing *chairside.IdempotencyRecord
		created  bool
		app      *chairside.Application
		pa       *chairside.ProviderApplication
	)
	err = s.batch(ctx, func(tx chairside.Store) error {
		var err error
		if existing, created, err = tx.BeginIdempotent(ctx, rec); err != nil || !created {
			return err
		}
		if app, err = tx.FindApplication(ctx, sess.ApplicationID); err != nil {
			return err
		}
		if pa, err = s.providerApplication(ctx, tx, app.ID, st, mode); err != nil {
			return err
		}
		switch pa.Status {
		case chairside.StatusStarted, chairside.StatusDecided, chairside.StatusPlanSelected, chairside.StatusPlanConfirmed:
		default:
			return errorf(chairside.ECONFLICT, "This application was already accepted.")
		}
		if err := s.checkCaps(ctx, tx, sess, ssnIndex, now); err != nil {
			return err
		}
		// The application keeps the latest applicant data; the store seals it.
		app.Primary = mergeNames(req.Primary, app.Primary)
		app.Joint = req.Joint
		app.JointEnabled = req.JointEnabled
		app.UpdatedAt = now
		if err := tx.UpdateApplication(ctx, app); err != nil {
			return err
		}
		// The authorisation is a record, not a flag: what was agreed, when,
		// from where (FCRA §604: soft and hard pulls are separate kinds).
		return tx.CreateConsent(ctx, &chairside.Consent{
			ID:              newID(),
			SessionID:       sess.ID,
			ApplicationID:   app.ID,
			ProviderKey:     providerKey,
			Kind:            consentKind,
			DocumentID:      doc.ID,
			DocumentVersion: doc.Version,
			DocumentSHA256:  doc.SHA256,
			ConsentText:     doc.Title,
			ShownAt:         now,
			ConsentedAt:     now,
			IP:              c.IP,
			UserAgent:       c.UserAgent,
		})
	})
	// From the claim on, anything but a recorded decision releases the key
	// so the patient can try again (a batch that failed may have committed
	// the claim). The work below must not be cut short by a client that
	// hangs up: a lender answer is never thrown away.
	done := false
	if created {
		ctx = context.WithoutCancel(ctx)
		defer func() {
			if !done {
				if err := s.store.DeleteIdempotent(ctx, key); err != nil {
					s.log.Error("release idempotency key", "session", SessionHash(sess.ID), "err", err)
				}
			}
		}()
	}
	if err != nil {
		return nil, err
	}
	if !created {
		return replay(existing, rec.RequestHash)
	}

	testCase := ""
	if s.opts.Env != chairside.EnvProd {
		testCase = app.TestCase
	}
	lctx, cancel := context.WithTimeout(ctx, s.opts.LenderTimeout)
	d, lerr := lender.Decide(lctx, &chairside.DecisionRequest{
		ProviderKey:         providerKey,
		Operation:           op,
		Reference:           "att_" + sha256Hex(key)[:32],
		Role:                st.Role,
		LocationState:       loc.State,
		PurchaseAmountCents: app.PurchaseAmountCents,
		Primary:             app.Primary,
		Joint:               app.Joint,
		TestCase:            testCase,
		Now:                 now,
	})
	cancel()
	if lerr != nil || d == nil {
		// ux.md's communication error: an answer, not a failure. The
		// patient is told not to apply again and the waterfall goes on.
		s.log.Warn("lender decision failed", "session", SessionHash(sess.ID), "provider", providerKey, "operation", op, "err", chairside.ErrorCode(lerr))
		d = &chairside.Decision{ResponseCode: chairside.ResponseError}
	}
	d = sanitizeDecision(d, providerKey, op)
	d.ID = newID()
	d.ProviderApplicationID = pa.ID
	d.CreatedAt = now
	// The decision, the state, the event and the answer for replays are
	// written in one batch; a failure stops it where the same calls one by
	// one would have stopped, keeping what was written (the decision first).
	var resp *DecisionResponse
	err = s.batch(ctx, func(st chairside.Store) error {
		if err := st.CreateDecision(ctx, d); err != nil {
			return err
		}
		pa.Status = chairside.StatusDecided
		pa.ApplyMode = mode
		pa.Decision = d
		pa.SelectedPlanCode = ""
		if d.LenderApplicationID != "" {
			pa.LenderApplicationID = d.LenderApplicationID
		}
		pa.UpdatedAt = now
		if err := st.UpdateProviderApplication(ctx, pa); err != nil {
			return err
		}
		s.eventIn(ctx, st, sess, providerKey, "decision.recorded", map[string]any{"operation": op, "responseCode": d.ResponseCode})
		s.log.Info("decision recorded", "session", SessionHash(sess.ID), "provider", providerKey, "operation", op, "responseCode", d.ResponseCode)

		resp = &DecisionResponse{Decision: *d}
		if chairside.Cascades(d.ResponseCode) {
			if nx := loc.Next(providerKey); nx != nil {
				resp.Next = s.nextIn(ctx, st, app.ID, nx)
			}
		}
		body, err := json.Marshal(resp)
		if err != nil {
			return err
		}
		return st.CompleteIdempotent(ctx, key, 200, body)
	})
	if err != nil {
		return nil, err
	}
	done = true
	return resp, nil
}

// replay answers a repeated submit from its idempotency record.
func replay(rec *chairside.IdempotencyRecord, requestHash string) (*DecisionResponse, error) {
	if rec.RequestHash != requestHash {
		return nil, errorf(chairside.EIDEMPOTENCY, "This submit was already sent with different data. Please start again to apply with new data.")
	}
	if !rec.Done {
		return nil, errorf(chairside.ECONFLICT, "This application is still being processed. Please wait.")
	}
	var resp DecisionResponse
	if err := json.Unmarshal(rec.ResponseBody, &resp); err != nil {
		return nil, err
	}
	return &resp, nil
}

// idempotencyKey names one submit: session, operation and provider, plus
// the client's Idempotency-Key when it sent one.
func idempotencyKey(sessionID, op, providerKey, clientKey string) string {
	k := sessionID + ":" + op + ":" + providerKey
	if clientKey != "" {
		k += ":" + sha256Hex(clientKey)[:32]
	}
	return k
}

// providerApplication finds or creates the caller's provider application
// for a waterfall step. Two first submits racing both try to create; the
// loser reads the winner's.
func (s *Service) providerApplication(ctx context.Context, store chairside.Store, applicationID string, st *chairside.WaterfallStep, mode string) (*chairside.ProviderApplication, error) {
	pa, err := store.FindProviderApplication(ctx, applicationID, st.ProviderKey)
	if err == nil || !isCode(err, chairside.ENOTFOUND) {
		return pa, err
	}
	now := s.now().UTC()
	pa = &chairside.ProviderApplication{
		ID:            newID(),
		ApplicationID: applicationID,
		ProviderKey:   st.ProviderKey,
		Role:          st.Role,
		ApplyMode:     mode,
		Status:        chairside.StatusStarted,
		CreatedAt:     now,
		UpdatedAt:     now,
	}
	if err := store.CreateProviderApplication(ctx, pa); err != nil {
		if isCode(err, chairside.ECONFLICT) {
			return store.FindProviderApplication(ctx, applicationID, st.ProviderKey)
		}
		return nil, err
	}
	return pa, nil
}

// checkCaps refuses a credit pull over the per-session or per-SSN cap,
// counting through store (the service's, or a batch of it).
func (s *Service) checkCaps(ctx context.Context, store chairside.Store, sess *chairside.Session, ssnIndex string, now time.Time) error {
	pulls, n, err := store.CountPulls(ctx, sess.ID, "decision.recorded", ssnIndex, now.Add(-24*time.Hour))
	if err != nil {
		return err
	}
	if pulls >= s.opts.SessionPullCap {
		s.log.Warn("session pull cap reached", "session", SessionHash(sess.ID))
		return errorf(chairside.ERATELIMITED, "Too many applications in this session. Please ask the office for help.")
	}
	if n >= s.opts.DailySSNCap {
		s.log.Warn("daily SSN cap reached", "session", SessionHash(sess.ID))
		return errorf(chairside.ERATELIMITED, "Too many applications for this person today. Please try again tomorrow or ask the office for help.")
	}
	return nil
}

// nextIn builds the cascade target (reading through store): resume when the application already has
// that provider, start otherwise.
func (s *Service) nextIn(ctx context.Context, store chairside.Store, applicationID string, st *chairside.WaterfallStep) *Next {
	n := &Next{ResultType: "start", AutoSubmit: st.AutoSubmit, Provider: st.ProviderKey, ApplyMode: st.ApplyMode}
	if pa, err := store.FindProviderApplication(ctx, applicationID, st.ProviderKey); err == nil && pa.Decision != nil {
		n.ResultType, n.Resume = "resume", true
	}
	return n
}

// sanitizeDecision treats a lender's decision as untrusted: known code,
// our provider key and operation, non-negative amounts, lists never null.
func sanitizeDecision(d *chairside.Decision, providerKey, op string) *chairside.Decision {
	out := *d
	out.ProviderKey = providerKey
	out.Operation = op
	switch out.ResponseCode {
	case chairside.ResponseApproved, chairside.ResponseDeclined, chairside.ResponseError, chairside.ResponseNoOffer,
		chairside.ResponsePending, chairside.ResponsePreapproved, chairside.ResponsePrequalified:
	default:
		out.ResponseCode = chairside.ResponseError
	}
	if out.ApprovedAmountCents < 0 {
		out.ApprovedAmountCents = 0
	}
	if out.Stipulations == nil {
		out.Stipulations = []chairside.Stipulation{}
	}
	if out.PendingReasons == nil {
		out.PendingReasons = []string{}
	}
	return &out
}

// mergeNames keeps the office's names when the submit leaves them out.
func mergeNames(in, old chairside.Applicant) chairside.Applicant {
	if in.FirstName == "" {
		in.FirstName = old.FirstName
	}
	if in.LastName == "" {
		in.LastName = old.LastName
	}
	return in
}

// Validate checks application data against a provider's rules for a mode
// without submitting it; fieldIds limits the answer to those field ids.
func (s *Service) Validate(ctx context.Context, c *Caller, req *ValidateRequest) (*ValidateResponse, error) {
	_, st, err := s.step(ctx, c, req.ProviderKey)
	if err != nil {
		return nil, err
	}
	mode := req.Mode
	if mode == "" {
		mode = st.ApplyMode
	}
	if !chairside.ValidMode(mode) {
		return nil, errorf(chairside.EBADREQUEST, "mode must be full, prequalify or prescreen.")
	}
	d := req.ApplicationData
	fe, err := s.validateSubmit(req.ProviderKey, mode, &d.Primary, d.Joint, d.JointEnabled)
	if err != nil {
		return nil, err
	}
	if len(req.FieldIDs) > 0 {
		want := make(map[string]bool, len(req.FieldIDs))
		for _, id := range req.FieldIDs {
			want[id] = true
		}
		kept := fe[:0]
		for _, e := range fe {
			_, id, _ := strings.Cut(e.Field, ".")
			if want[id] || want[e.Field] {
				kept = append(kept, e)
			}
		}
		fe = kept
	}
	if fe == nil {
		fe = []chairside.FieldError{}
	}
	return &ValidateResponse{Valid: len(fe) == 0, FieldErrors: fe}, nil
}

// ValidPhone reports whether a phone number (digits) is valid.
func ValidPhone(r PhoneRequest) ValidResponse {
	return ValidResponse{Valid: validate.Phone(r.PhoneNumber)}
}

// ValidZipCode reports whether a ZIP code is valid for a state.
func ValidZipCode(r ZipCodeRequest) ValidResponse {
	return ValidResponse{Valid: validate.ZipCode(r.ZipCode) && validate.ZipForState(r.ZipCode, r.State)}
}

// ValidEmail reports whether an email address is valid.
func ValidEmail(r EmailRequest) ValidResponse {
	return ValidResponse{Valid: validate.Email(r.Email)}
}
