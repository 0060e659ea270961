package office

import (
	"context"
	"sort"
	"time"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/catalogue"
)

// Row statuses: where an application or invitation stands, in the
// office's words (docs/behaviour.md, "The office side").
const (
	RowInvited        = "invited"
	RowInviteExpired  = "invite_expired"
	RowInviteCanceled = "invite_canceled"
	RowInProgress     = "in_progress"
	RowPending        = "pending"
	RowApproved       = "approved"
	RowDeclined       = "declined"
	RowNoOffer        = "no_offer"
	RowOfferExpired   = "offer_expired"
	RowSigned         = "signed"
	RowCompleted      = "completed"
	RowCanceled       = "canceled"
	RowTimedOut       = "timed_out"
)

// RowStatuses are the statuses a list may be filtered by.
var RowStatuses = []string{RowInvited, RowInviteExpired, RowInviteCanceled, RowInProgress, RowPending, RowApproved,
	RowDeclined, RowNoOffer, RowOfferExpired, RowSigned, RowCompleted, RowCanceled, RowTimedOut}

// Row kinds.
const (
	KindApplication = "application"
	KindInvite      = "invite"
)

// Row is one line of the office's list: a patient's application, or an
// invitation whose link nobody opened yet. It holds the name and nothing
// else of the patient's personal data.
type Row struct {
	ID                  string     `json:"id"`
	Reference           string     `json:"reference,omitempty"` // the application's short reference; none for an invitation
	Kind                string     `json:"kind"`
	Status              string     `json:"status"`
	FirstName           string     `json:"firstName"`
	LastName            string     `json:"lastName"`
	PurchaseAmountCents int64      `json:"purchaseAmountCents"`
	ExperienceType      string     `json:"experienceType"`
	CreatedAt           time.Time  `json:"createdAt"`
	UpdatedAt           time.Time  `json:"updatedAt"`
	ExpiresAt           *time.Time `json:"expiresAt,omitempty"`
	FinishedAt          *time.Time `json:"finishedAt,omitempty"`
	Lenders             []Lender   `json:"lenders"`
	ApprovedAmountCents int64      `json:"approvedAmountCents,omitempty"`
	Plan                *Plan      `json:"plan,omitempty"`
	Signed              bool       `json:"signed"`
	Completed           bool       `json:"completed"`
	// Money is where a completed case's money stands (money.go).
	Money *Money `json:"money,omitempty"`
	// Messages are an invitation's text and email, and what became of
	// them (texts.go).
	Messages []Message `json:"messages,omitempty"`
	// Records is where the case's posts to the patient's ledger in the
	// office's own system stand (records_post.go).
	Records *RecordsState `json:"records,omitempty"`
}

// Lender is one lender's part of a Row: its latest answer.
type Lender struct {
	LenderKey           string    `json:"providerKey"`
	LenderName          string    `json:"lenderName"`
	Status              string    `json:"status"`
	ResponseCode        string    `json:"responseCode,omitempty"`
	ApprovedAmountCents int64     `json:"approvedAmountCents,omitempty"`
	UpdatedAt           time.Time `json:"updatedAt"`
}

// Plan is the plan the patient chose, with its schedule as the patient saw
// it (docs/money.md).
type Plan struct {
	LenderKey            string  `json:"providerKey"`
	LenderName           string  `json:"lenderName"`
	TypeID               string  `json:"typeId"`
	ProductType          string  `json:"productType,omitempty"`
	MonthlyAmountCents   int64   `json:"monthlyAmountCents"`
	PaymentCount         int     `json:"paymentCount"`
	FinalPaymentCents    int64   `json:"finalPaymentCents"`
	TotalOfPaymentsCents int64   `json:"totalOfPaymentsCents"`
	DownPaymentCents     int64   `json:"downPaymentCents"`
	DurationMonths       int     `json:"durationMonths"`
	APR                  float64 `json:"apr"`
	PromoAPR             float64 `json:"promoApr"`
	AmountFinancedCents  int64   `json:"amountFinancedCents"`
}

// List is the office's list of one day.
type List struct {
	Day          string `json:"day"`
	TimeZone     string `json:"timeZone"`
	Applications []*Row `json:"applications"`
}

// List answers the caller's office's rows of one day, newest first:
// every session started that day and every invitation made that day that
// no patient opened. It is a read of the office's own data: the caller
// audits it where it is an action (a page view, an export), not for every
// live refresh.
func (s *Service) List(ctx context.Context, c *Caller, f Filter) (*List, error) {
	now := s.Now()
	sessions, err := s.store.ListLocationSessions(ctx, c.Location.ID, f.From, f.To)
	if err != nil {
		return nil, err
	}
	invites, err := s.store.ListInvites(ctx, c.Location.ID, f.From, f.To)
	if err != nil {
		return nil, err
	}
	posts, err := s.store.ListRecordsPosts(ctx, c.Location.ID, f.From, f.To)
	if err != nil {
		return nil, err
	}
	rows := make([]*Row, 0, len(sessions)+len(invites))
	for _, sess := range sessions {
		r, err := s.sessionRow(ctx, sess, now)
		if err != nil {
			return nil, err
		}
		r.Records = recordsStateOf(posts[r.ID])
		rows = append(rows, r)
	}
	msgs, err := s.store.ListInviteMessages(ctx, c.Location.ID, f.From, f.To)
	if err != nil {
		return nil, err
	}
	for _, t := range invites {
		r := inviteRow(t, now)
		r.Messages = messagesOf(msgs[t.ID])
		for _, m := range r.Messages {
			if m.At != nil {
				r.UpdatedAt = latest(r.UpdatedAt, *m.At)
			}
		}
		rows = append(rows, r)
	}
	// Newest first, sessions and invitations together; the sort is
	// stable so equal times keep the store's order.
	sort.SliceStable(rows, func(i, j int) bool { return rows[i].CreatedAt.After(rows[j].CreatedAt) })
	out := &List{Day: f.Day, TimeZone: f.Zone.String(), Applications: make([]*Row, 0, len(rows))}
	for _, r := range rows {
		if f.Status == "" || r.Status == f.Status {
			out.Applications = append(out.Applications, r)
		}
	}
	return out, nil
}

// sessionRow is the row of one patient session and its application.
func (s *Service) sessionRow(ctx context.Context, sess *chairside.Session, now time.Time) (*Row, error) {
	app, err := s.store.FindApplication(ctx, sess.ApplicationID)
	if err != nil {
		return nil, err
	}
	pas, err := s.store.ListLenderApplications(ctx, app.ID)
	if err != nil {
		return nil, err
	}
	r := &Row{ID: app.ID, Reference: app.Reference(), Kind: KindApplication, FirstName: app.Primary.FirstName, LastName: app.Primary.LastName,
		PurchaseAmountCents: app.PurchaseAmountCents, ExperienceType: sess.ExperienceType,
		// UpdatedAt is the last change of the application, not the session's
		// last call: a patient reading a screen changes nothing the office
		// sees, and must not make every live list push and announce.
		CreatedAt: sess.CreatedAt, UpdatedAt: app.UpdatedAt, FinishedAt: sess.FinishedAt,
		Lenders: []Lender{}}
	if sess.FinishedAt != nil {
		r.UpdatedAt = latest(r.UpdatedAt, *sess.FinishedAt)
	}
	for _, pa := range pas {
		l := Lender{LenderKey: pa.LenderKey, LenderName: lenderName(pa.LenderKey), Status: pa.Status, UpdatedAt: pa.UpdatedAt}
		if d := pa.Decision; d != nil {
			l.ResponseCode = d.ResponseCode
			if chairside.Positive(d.ResponseCode) {
				l.ApprovedAmountCents = d.ApprovedAmountCents
				r.ApprovedAmountCents = max(r.ApprovedAmountCents, d.ApprovedAmountCents)
			}
		}
		r.UpdatedAt = latest(r.UpdatedAt, pa.UpdatedAt)
		r.Lenders = append(r.Lenders, l)
		r.Signed = r.Signed || pa.Status == chairside.StatusSigned || pa.Status == chairside.StatusCompleted
		r.Completed = r.Completed || pa.Status == chairside.StatusCompleted
		if pa.SelectedPlanCode != "" && r.Plan == nil {
			if r.Plan, err = s.chosenPlan(ctx, pa); err != nil {
				return nil, err
			}
		}
	}
	if r.Completed {
		line, err := s.store.MoneyLine(ctx, app.ID)
		if err != nil {
			return nil, err
		}
		var changed time.Time
		r.Money, changed = moneyOf(line)
		// A funding or a deposit is news the live list pushes.
		r.UpdatedAt = latest(r.UpdatedAt, changed)
	}
	r.Status = SessionStatus(sess, pas, now)
	return r, nil
}

// chosenPlan is the plan the patient chose with pa's lender, or nil when
// it is no longer among the plans offered.
func (s *Service) chosenPlan(ctx context.Context, pa *chairside.LenderApplication) (*Plan, error) {
	p, err := s.selectedPlan(ctx, pa.ID, pa.SelectedPlanCode)
	if p == nil || err != nil {
		return nil, err
	}
	return &Plan{LenderKey: pa.LenderKey, LenderName: lenderName(pa.LenderKey), TypeID: p.TypeID, ProductType: p.ProductType,
		MonthlyAmountCents: p.MonthlyAmountCents, PaymentCount: p.PaymentCount, FinalPaymentCents: p.FinalPaymentCents,
		TotalOfPaymentsCents: p.TotalOfPaymentsCents, DownPaymentCents: p.DownPaymentCents,
		DurationMonths: p.DurationMonths, APR: p.APR, PromoAPR: p.PromoAPR, AmountFinancedCents: p.AmountFinancedCents}, nil
}

// selectedPlan is the plan of code among those kept for a lender
// application (the first, as offered), or nil when none is: the one rule
// for which plan the patient chose, read by the day's list and the
// practice-records note alike.
func (s *Service) selectedPlan(ctx context.Context, lenderApplicationID, code string) (*chairside.PaymentPlan, error) {
	if code == "" {
		return nil, nil
	}
	plans, err := s.store.ListPaymentPlans(ctx, lenderApplicationID)
	if err != nil {
		return nil, err
	}
	for i := range plans {
		if plans[i].LenderPlanCode == code {
			return &plans[i], nil
		}
	}
	return nil, nil
}

// outcomeRows are the outcomes a session's row shows as themselves.
// no_financing is not among them: its row says how far a lender got.
var outcomeRows = map[string]string{
	chairside.OutcomeCompleted:    RowCompleted,
	chairside.OutcomeCancel:       RowCanceled,
	chairside.OutcomeTimeout:      RowTimedOut,
	chairside.OutcomeDeclined:     RowDeclined,
	chairside.OutcomeNoOffer:      RowNoOffer,
	chairside.OutcomeOfferExpired: RowOfferExpired,
	chairside.OutcomePending:      RowPending,
}

// SessionStatus is where a session stands for the office. An outcome the
// session finished with wins (declined, no offer, offer expired each as
// itself), except that a completed account always shows as completed; a
// session left idle is timed out even before anything recorded it;
// otherwise, and for a session finished as no_financing (an offer not
// taken, or any end without financing before the outcomes said which),
// the furthest any lender got.
func SessionStatus(sess *chairside.Session, pas []*chairside.LenderApplication, now time.Time) string {
	var signed, completed, approved, pending, declined, answered bool
	for _, pa := range pas {
		signed = signed || pa.Status == chairside.StatusSigned
		completed = completed || pa.Status == chairside.StatusCompleted
		if d := pa.Decision; d != nil {
			answered = true
			approved = approved || chairside.Positive(d.ResponseCode)
			pending = pending || d.ResponseCode == chairside.ResponsePending
			declined = declined || d.ResponseCode == chairside.ResponseDeclined
		}
	}
	row, byOutcome := outcomeRows[sess.Outcome]
	switch {
	case completed:
		return RowCompleted
	case byOutcome:
		return row
	case sess.FinishedAt == nil && !sess.Live(now):
		return RowTimedOut
	case signed:
		return RowSigned
	case approved:
		return RowApproved
	case pending:
		return RowPending
	case declined:
		return RowDeclined
	case answered:
		return RowNoOffer
	}
	return RowInProgress
}

// inviteRow is the row of an invitation no patient opened.
func inviteRow(t *chairside.FlowToken, now time.Time) *Row {
	exp := t.ExpiresAt
	r := &Row{ID: t.ID, Kind: KindInvite, Status: RowInvited, FirstName: t.FirstName, LastName: t.LastName,
		PurchaseAmountCents: t.PurchaseAmountCents, ExperienceType: t.ExperienceType, CreatedAt: t.CreatedAt,
		UpdatedAt: t.CreatedAt, ExpiresAt: &exp, Lenders: []Lender{}}
	switch {
	case t.CanceledAt != nil:
		r.Status, r.UpdatedAt = RowInviteCanceled, *t.CanceledAt
	case !now.Before(t.ExpiresAt):
		r.Status, r.UpdatedAt = RowInviteExpired, t.ExpiresAt
	}
	return r
}

// lenderName is the name staff know a lender by.
func lenderName(key string) string {
	base, _ := catalogue.ParseKey(key)
	if p, err := catalogue.Get(base); err == nil && p.Name != "" {
		return p.Name
	}
	return key
}

func latest(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}
