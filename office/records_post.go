package office

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/pms"
)

// Posting the financing to the patient's ledger in the office's own
// system (docs/practice-records.md): a post for each money fact that calls
// for one, claimed before its call; a post tried before is looked for by
// its reference before it is sent again, since Open Dental takes no
// idempotency key.

// Posting pace: how many posts a round takes, and how soon a post waiting
// for a refused key is tried again (the office may have fixed it). A call
// may take Service.PostTimeout, and a claim lasts twice that: a server
// killed mid-call leaves its post to another once the claim runs out.
const (
	postBatch          = 20
	defaultPostTimeout = 30 * time.Second
	postWaitRefused    = time.Minute
)

func (s *Service) postTimeout() time.Duration {
	if s.PostTimeout > 0 {
		return s.PostTimeout
	}
	return defaultPostTimeout
}

// PostRecords makes the posts the money facts call for and sends the due
// ones; it answers how many it posted. Every server runs it: the store's
// claims keep two from sending one post.
func (s *Service) PostRecords(ctx context.Context) (int, error) {
	if s.Bridge == nil {
		return 0, nil
	}
	cands, err := s.store.RecordsCandidates(ctx, postBatch)
	if err != nil {
		return 0, err
	}
	now := s.Now().UTC()
	for _, c := range cands {
		// Made and due on the clock the claims below read, not the
		// database's: a post stamped later than now would wait for it.
		var plan *chairside.PaymentPlan
		if c.Kind != chairside.MoneyRefunded && c.Kind != chairside.MoneyVoided {
			if plan, err = s.selectedPlan(ctx, c.LenderApplicationID, c.SelectedPlanCode); err != nil {
				return 0, err
			}
		}
		p := postOf(c, plan)
		p.CreatedAt = now
		if err := s.store.AddRecordsPost(ctx, p); err != nil {
			return 0, err
		}
	}
	posts, err := s.store.ClaimRecordsPosts(ctx, now, now.Format(time.DateOnly), 2*s.postTimeout(), postBatch)
	if err != nil {
		return 0, err
	}
	posted := 0
	for _, p := range posts {
		ok, err := s.postOne(ctx, p, now)
		if err != nil {
			return posted, err
		}
		if ok {
			posted++
		}
	}
	return posted, nil
}

// postOf is the post a money fact calls for: the payment (the amount
// financed, or funded gross), or a negative one for a refund or a
// cancellation; dated the office's day of the fact. The payment's note
// names the lender, the plan the patient chose (when it is kept) and the
// case, on one line: Open Dental shows it in the ledger's list.
func postOf(c chairside.RecordsCandidate, plan *chairside.PaymentPlan) *chairside.RecordsPost {
	ref := "CS " + chairside.ApplicationReference(c.ApplicationID)
	lender := lenderName(c.LenderKey)
	p := &chairside.RecordsPost{MoneyEntryID: c.MoneyEntryID, LocationID: c.LocationID, ApplicationID: c.ApplicationID, PatientID: c.PatientID,
		PayDate: c.OnAt.In(chairside.StateTimeZone(c.State)).Format(time.DateOnly)}
	switch c.Kind {
	case chairside.MoneyRefunded, chairside.MoneyVoided:
		p.Kind, p.AmountCents = chairside.RecordsRefund, -c.AmountCents
		p.Reference = ref + " R" + strings.ToUpper(shortID(c.MoneyEntryID))
		p.Note = fmt.Sprintf("Chairside: %s %s of the financing, case %s", lender, map[string]string{chairside.MoneyRefunded: "refund",
			chairside.MoneyVoided: "cancellation"}[c.Kind], chairside.ApplicationReference(c.ApplicationID))
	default:
		p.Kind, p.AmountCents, p.Reference = chairside.RecordsPayment, c.AmountCents, ref
		words := ""
		if plan != nil && plan.DurationMonths > 0 {
			words = ", " + planNote(plan)
		}
		p.Note = fmt.Sprintf("Chairside: financed by %s%s, case %s", lender, words, chairside.ApplicationReference(c.ApplicationID))
	}
	return p
}

// planNote names a plan in a few words, as the office's screens do: its
// months and APR; a deferred-interest promotion, no interest if paid in
// full in time and the APR after; a lease (not credit), never an APR.
func planNote(p *chairside.PaymentPlan) string {
	months := fmt.Sprintf("%d months", p.DurationMonths)
	if p.DurationMonths == 1 {
		months = "1 month"
	}
	switch {
	case p.ProductType == chairside.ProductLease:
		return "lease-to-own over " + months
	case p.TypeID == chairside.PlanDeferredInterest:
		return "no interest if paid in full in " + months + " (" + percent(p.APR) + " APR after)"
	}
	return months + " at " + percent(p.APR) + " APR"
}

// shortID is the last four characters of an id, to tell a case's refunds
// apart in a short reference.
func shortID(id string) string {
	if len(id) <= 4 {
		return id
	}
	return id[len(id)-4:]
}

// postOne sends one claimed post and records what became of it; it
// answers whether it is on the ledger now.
func (s *Service) postOne(ctx context.Context, p *chairside.RecordsPost, now time.Time) (bool, error) {
	conn, err := s.store.RecordsConnection(ctx, p.LocationID)
	if chairside.ErrorCode(err) == chairside.ENOTFOUND {
		return false, s.store.SettleRecordsPost(ctx, p.ID, chairside.RecordsWaiting, "", "The office disconnected Open Dental; connect it again to post this.",
			now.Add(time.Hour), now)
	} else if err != nil {
		return false, err
	}
	cctx, cancel := context.WithTimeout(ctx, s.postTimeout())
	defer cancel()
	b := s.Bridge(conn)
	id, err := s.findEarlier(cctx, b, p, now)
	if err == nil && id == "" {
		date, _ := time.Parse(time.DateOnly, p.PayDate)
		id, err = b.PostPayment(cctx, pms.Payment{PatientID: p.PatientID, AmountCents: p.AmountCents, Date: date, Reference: p.Reference, Note: p.Note})
	}
	if err == nil {
		if conn.State != chairside.RecordsConnected {
			if serr := s.store.SetRecordsState(ctx, p.LocationID, chairside.RecordsConnected, "", now); serr != nil {
				return false, serr
			}
		}
		return true, s.store.SettleRecordsPost(ctx, p.ID, chairside.RecordsPosted, id, "", now, now)
	}
	s.log.WarnContext(ctx, "records post", "post", p.ID, "attempts", p.Attempts, "err", err.Error())
	switch {
	case errors.Is(err, pms.ErrRefused):
		if serr := s.store.SetRecordsState(ctx, p.LocationID, chairside.RecordsRefused, "Open Dental refused Chairside's key.", now); serr != nil {
			return false, serr
		}
		return false, s.store.SettleRecordsPost(ctx, p.ID, chairside.RecordsWaiting, "",
			"Open Dental refused Chairside's key: the office manager can check it under Practice records. This is posted once it works.",
			now.Add(postWaitRefused), now)
	case errors.Is(err, pms.ErrInvalid), errors.Is(err, pms.ErrNotFound):
		return false, s.store.SettleRecordsPost(ctx, p.ID, chairside.RecordsFailed, "",
			"Open Dental refused this payment ("+truncate(err.Error(), 120)+"). Check the patient's chart, then retry.", now.Add(365*24*time.Hour), now)
	}
	wait := min(30*time.Second<<min(p.Attempts-1, 6), 30*time.Minute)
	return false, s.store.SettleRecordsPost(ctx, p.ID, chairside.RecordsDue, "", "Open Dental did not answer; trying again.", now.Add(wait), now)
}

// findEarlier looks for the post on the patient's ledger when it was sent
// before (a lost answer, a crash mid-call): on the day it was first sent
// and today. It answers the system's id, "" when it is not there.
func (s *Service) findEarlier(ctx context.Context, b pms.Bridge, p *chairside.RecordsPost, now time.Time) (string, error) {
	if p.Attempts <= 1 {
		return "", nil
	}
	days := []string{p.FirstTryOn}
	if today := now.Format(time.DateOnly); today != p.FirstTryOn {
		days = append(days, today)
	}
	for _, d := range days {
		day, err := time.Parse(time.DateOnly, d)
		if err != nil {
			continue
		}
		id, err := b.FindPayment(ctx, p.PatientID, day, p.Reference)
		if err != nil || id != "" {
			return id, err
		}
	}
	return "", nil
}

// RetryRecords makes an application's posts that failed or wait for a
// refused key due at once.
func (s *Service) RetryRecords(ctx context.Context, c *Caller, applicationID string) error {
	n, err := s.store.RetryRecordsPosts(ctx, c.Location.ID, applicationID, s.Now().UTC())
	if err != nil {
		return err
	}
	if n == 0 {
		return chairside.Errorf(chairside.ECONFLICT, "Nothing of this case is waiting to be posted to Open Dental.")
	}
	s.did(ctx, c, chairside.AuditRecordsRetried, "retried posting case "+chairside.ApplicationReference(applicationID)+" to Open Dental")
	return nil
}

// RecordsState is what the office's list says of a case's posts to the
// patient's ledger: the latest post's state, amount and what went wrong.
type RecordsState struct {
	State       string `json:"state"`
	Kind        string `json:"kind"`
	AmountCents int64  `json:"amountCents"`
	Error       string `json:"error,omitempty"`
	// Posted is how many of the case's posts are on the ledger.
	Posted int `json:"posted"`
}

// recordsStateOf says where a case's posts stand: the latest's state, or
// nil for a case with none.
func recordsStateOf(posts []*chairside.RecordsPost) *RecordsState {
	if len(posts) == 0 {
		return nil
	}
	last := posts[len(posts)-1]
	out := &RecordsState{State: last.State, Kind: last.Kind, AmountCents: last.AmountCents}
	if last.State != chairside.RecordsPosted {
		out.Error = last.LastError
	}
	for _, p := range posts {
		if p.State == chairside.RecordsPosted {
			out.Posted++
		}
	}
	return out
}
