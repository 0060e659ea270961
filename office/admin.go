package office

import (
	"context"
	"time"

	"github.com/chairside/chairside"
)

// AddStaff creates a staff member of the office with entityKey. With a
// password it is checked and hashed; without one (password "") the member
// can sign in only after using a setup link (NewSetupLink).
func (s *Service) AddStaff(ctx context.Context, entityKey, email, password string) (*chairside.Staff, error) {
	email = normalEmail(email)
	if !validEmail(email) {
		return nil, chairside.Errorf(chairside.EINVALID, "%q is not an email address.", email)
	}
	loc, err := s.store.FindLocationByEntityKey(ctx, entityKey)
	if chairside.ErrorCode(err) == chairside.ENOTFOUND {
		return nil, chairside.Errorf(chairside.ENOTFOUND, "No office has entity key %s.", entityKey)
	} else if err != nil {
		return nil, err
	}
	st := &chairside.Staff{LocationID: loc.ID, Email: email, CreatedAt: s.Now()}
	if password != "" {
		if err := CheckPassword(email, password); err != nil {
			return nil, err
		}
		st.PasswordHash = HashPassword(password)
	}
	if err := s.store.CreateStaff(ctx, st); err != nil {
		return nil, err
	}
	return st, nil
}

// NewSetupLink makes a one-time setup token for a staff member, valid for
// SetupTTL, and returns the token (stored only as its hash) and its end.
func (s *Service) NewSetupLink(ctx context.Context, st *chairside.Staff) (string, time.Time, error) {
	token := chairside.NewSecret(32)
	now := s.Now()
	t := &chairside.StaffSetupToken{Hash: chairside.HashSecret(token), StaffID: st.ID, CreatedAt: now, ExpiresAt: now.Add(SetupTTL)}
	if err := s.store.CreateStaffSetupToken(ctx, t); err != nil {
		return "", time.Time{}, err
	}
	return token, t.ExpiresAt, nil
}

// DisableStaff disables the staff member with email and ends their
// sessions.
func (s *Service) DisableStaff(ctx context.Context, email string) error {
	st, err := s.store.FindStaffByEmail(ctx, email)
	if chairside.ErrorCode(err) == chairside.ENOTFOUND {
		return chairside.Errorf(chairside.ENOTFOUND, "No staff member has email %s.", normalEmail(email))
	} else if err != nil {
		return err
	}
	return s.store.DisableStaff(ctx, st.ID, s.Now())
}

// validEmail is a loose check: one @, something either side, a dot in the
// domain, no spaces, at most 254 characters.
func validEmail(e string) bool {
	at := -1
	for i, r := range e {
		if r == ' ' || r == '\t' || r == '\r' || r == '\n' {
			return false
		}
		if r == '@' {
			if at >= 0 {
				return false
			}
			at = i
		}
	}
	if at <= 0 || at == len(e)-1 || len(e) > 254 {
		return false
	}
	for _, r := range e[at+1:] {
		if r == '.' {
			return true
		}
	}
	return false
}

// ApplicationSummary is what an office sees of one of its applications
// here: the patient's name, times and each lender's status. Nothing else
// of the patient's data.
type ApplicationSummary struct {
	ID                  string          `json:"id"`
	FirstName           string          `json:"firstName"`
	LastName            string          `json:"lastName"`
	PurchaseAmountCents int64           `json:"purchaseAmountCents"`
	CreatedAt           time.Time       `json:"createdAt"`
	UpdatedAt           time.Time       `json:"updatedAt"`
	Lenders             []LenderSummary `json:"lenders"`
}

// LenderSummary is one lender's part of an ApplicationSummary.
type LenderSummary struct {
	ProviderKey         string    `json:"providerKey"`
	Status              string    `json:"status"`
	ResponseCode        string    `json:"responseCode,omitempty"`
	ApprovedAmountCents int64     `json:"approvedAmountCents,omitempty"`
	UpdatedAt           time.Time `json:"updatedAt"`
}

// Application answers the summary of an application of the caller's
// office; another office's application answers ENOTFOUND, exactly as a
// missing one does.
func (s *Service) Application(ctx context.Context, c *Caller, id string) (*ApplicationSummary, error) {
	notFound := chairside.Errorf(chairside.ENOTFOUND, "There is no such application at your office.")
	if id == "" || len(id) > 64 {
		return nil, notFound
	}
	a, err := s.store.FindApplication(ctx, id)
	if chairside.ErrorCode(err) == chairside.ENOTFOUND || (err == nil && a.LocationID != c.Location.ID) {
		return nil, notFound
	} else if err != nil {
		return nil, err
	}
	pas, err := s.store.ListProviderApplications(ctx, a.ID)
	if err != nil {
		return nil, err
	}
	sum := &ApplicationSummary{ID: a.ID, FirstName: a.Primary.FirstName, LastName: a.Primary.LastName,
		PurchaseAmountCents: a.PurchaseAmountCents, CreatedAt: a.CreatedAt, UpdatedAt: a.UpdatedAt, Lenders: []LenderSummary{}}
	for _, pa := range pas {
		l := LenderSummary{ProviderKey: pa.ProviderKey, Status: pa.Status, UpdatedAt: pa.UpdatedAt}
		if pa.Decision != nil {
			l.ResponseCode, l.ApprovedAmountCents = pa.Decision.ResponseCode, pa.Decision.ApprovedAmountCents
		}
		sum.Lenders = append(sum.Lenders, l)
	}
	s.audit(ctx, s.entry(c.Staff, chairside.AuditViewApplication, c.IP, "application "+a.ID))
	return sum, nil
}
