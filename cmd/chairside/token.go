package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net/url"
	"strings"
	"time"

	"rsc.io/qr"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/store"
)

// tokenRequest is what an office says about the patient it invites.
type tokenRequest struct {
	EntityKey              string
	AmountCents            int64
	InsuranceBenefitsCents int64
	FirstName, LastName    string
	Experience             string
	TTL                    time.Duration
}

// runTokenCreate creates a single-use flow token for a patient at a location
// and prints the start link and a QR code, so an office can use the product
// before any staff console exists.
func runTokenCreate(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	m := NewMain()
	c := &m.Config
	var req tokenRequest
	fs := flag.NewFlagSet("chairside token create", flag.ContinueOnError)
	fs.SetOutput(stderr)
	c.flags(fs, "db", "key-file")
	c.flags(fs, "public-url")
	fs.StringVar(&req.EntityKey, "entity-key", "", "the office's 16-digit entity key (required)")
	fs.Int64Var(&req.AmountCents, "amount-cents", 0, "treatment cost in cents, e.g. 450000 for $4,500.00 (required)")
	fs.Int64Var(&req.InsuranceBenefitsCents, "insurance-cents", 0, "expected insurance benefits in cents")
	fs.StringVar(&req.FirstName, "first-name", "", "patient's first name (optional)")
	fs.StringVar(&req.LastName, "last-name", "", "patient's last name (optional)")
	fs.StringVar(&req.Experience, "experience", chairside.ExperienceInStore, "in_store (tablet in the office) or at_home (patient's own phone)")
	fs.DurationVar(&req.TTL, "ttl", chairside.FlowTokenTTL, "how long the link stays usable")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if m.envErr != nil {
		return m.envErr
	}
	if err := req.validate(); err != nil {
		return err
	}

	db, _, err := c.openStore(ctx)
	if err != nil {
		return err
	}
	defer db.Close()
	token, err := createFlowToken(ctx, db, req, time.Now())
	if err != nil {
		return err
	}

	link := strings.TrimSuffix(c.publicURL(), "/") + "/start/tokens/" + url.PathEscape(token)
	fmt.Fprintf(stdout, "Start link for %s (%s, usable once, until %s):\n%s\n\n",
		patientLabel(req), chairside.Dollars(req.AmountCents), time.Now().Add(req.TTL).Format("Jan 2, 2006 15:04 MST"), link)
	code, err := qr.Encode(link, qr.M)
	if err != nil {
		return fmt.Errorf("QR code: %w", err)
	}
	fmt.Fprint(stdout, terminalQR(code))
	return nil
}

func (r tokenRequest) validate() error {
	if len(r.EntityKey) != 16 || strings.Trim(r.EntityKey, "0123456789") != "" {
		return fmt.Errorf("-entity-key must be exactly 16 digits")
	}
	if r.AmountCents <= 0 || r.AmountCents > 100_000_000 {
		return fmt.Errorf("-amount-cents must be between 1 and 100000000 ($1,000,000.00)")
	}
	if r.InsuranceBenefitsCents < 0 || r.InsuranceBenefitsCents > r.AmountCents {
		return fmt.Errorf("-insurance-cents must be between 0 and the amount")
	}
	if r.Experience != chairside.ExperienceInStore && r.Experience != chairside.ExperienceAtHome {
		return fmt.Errorf("-experience must be in_store or at_home")
	}
	if r.TTL <= 0 || r.TTL > 30*24*time.Hour {
		return fmt.Errorf("-ttl must be between 1s and 720h")
	}
	for _, n := range []string{r.FirstName, r.LastName} {
		if len(n) > 64 || strings.ContainsAny(n, "\r\n\t") {
			return fmt.Errorf("names must be at most 64 characters on one line")
		}
	}
	return nil
}

// createFlowToken stores a new token for the location and returns the token
// itself, which exists only in the link from then on.
func createFlowToken(ctx context.Context, db *store.DB, r tokenRequest, now time.Time) (string, error) {
	loc, err := db.FindLocationByEntityKey(ctx, r.EntityKey)
	if err != nil {
		if chairside.ErrorCode(err) == chairside.ENOTFOUND {
			return "", fmt.Errorf("no office has entity key %s", r.EntityKey)
		}
		return "", err
	}
	token := chairside.NewSecret(16)
	err = db.CreateFlowToken(ctx, &chairside.FlowToken{
		Hash:                   chairside.HashSecret(token),
		LocationID:             loc.ID,
		PurchaseAmountCents:    r.AmountCents,
		InsuranceBenefitsCents: r.InsuranceBenefitsCents,
		FirstName:              r.FirstName,
		LastName:               r.LastName,
		ExperienceType:         r.Experience,
		ExpiresAt:              now.Add(r.TTL),
		CreatedAt:              now,
	})
	return token, err
}

func patientLabel(r tokenRequest) string {
	if n := strings.TrimSpace(r.FirstName + " " + r.LastName); n != "" {
		return n
	}
	return "a patient"
}

// terminalQR draws a QR code with half-block characters, two modules per
// character row, inside a quiet zone. Light modules are painted with block
// characters and dark ones left as the terminal's background, which suits
// the usual dark terminal; phones also read the inverted code.
func terminalQR(code *qr.Code) string {
	const quiet = 2
	n := code.Size
	dark := func(x, y int) bool {
		if x < 0 || y < 0 || x >= n || y >= n {
			return false
		}
		return code.Black(x, y)
	}
	var b strings.Builder
	for y := -quiet; y < n+quiet; y += 2 {
		for x := -quiet; x < n+quiet; x++ {
			top, bottom := dark(x, y), dark(x, y+1)
			switch {
			case !top && !bottom:
				b.WriteRune('█')
			case !top && bottom:
				b.WriteRune('▀')
			case top && !bottom:
				b.WriteRune('▄')
			default:
				b.WriteRune(' ')
			}
		}
		b.WriteByte('\n')
	}
	return b.String()
}
