package flow

import (
	"context"
	"net/url"
	"strings"
	"time"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/catalogue"
)

// What a lender with a page of its own would use, and the patient's
// choices around the agreement (docs/content.md, "Lender pages and
// QA routes").

// iframeTTL is how long the address of a lender's page is good for.
const iframeTTL = 15 * time.Minute

// IframeURL answers GET and POST …/iframeUrl.
type IframeURL struct {
	LenderKey string    `json:"providerKey"`
	URL       string    `json:"url"`
	ExpiresAt time.Time `json:"expiresAt"`
}

// IframeURLRequest is the body of POST …/iframeUrl.
type IframeURLRequest struct {
	RedirectURL string `json:"redirectUrl"`
}

// SDKConfig answers GET …/sdkConfig.
type SDKConfig struct {
	LenderKey   string `json:"providerKey"`
	Environment string `json:"environment"`
	PublicKey   string `json:"publicKey"`
	LenderRef   string `json:"lenderApplicationId"`
	RedirectURL string `json:"redirectUrl"`
}

// localPath reports whether a redirect stays on this site: a path starting
// with one "/" (never "//" or "/\", which browsers read as another host),
// with no scheme and no control characters, at most 512 bytes.
func localPath(p string) bool {
	if len(p) > 512 || !strings.HasPrefix(p, "/") || strings.HasPrefix(p, "//") || strings.HasPrefix(p, `/\`) {
		return false
	}
	if strings.ContainsAny(p, "\\\r\n\t") {
		return false
	}
	u, err := url.Parse(p)
	return err == nil && u.Scheme == "" && u.Host == ""
}

// breakout is the app's route that stands for a lender's own page in the
// sandbox: following it comes back from the lender (docs/behaviour.md,
// "Routes").
func breakout(lenderKey, lenderRef string) string {
	return "/breakout/" + url.PathEscape(lenderKey) + "/" + url.PathEscape(lenderRef)
}

// lenderApplication reads the caller's application with one of the
// office's lenders that has an application id; a conflict before the
// lender has one, not found for a lender the office does not offer.
func (s *Service) appWithLenderRef(ctx context.Context, c *Caller, lenderKey string) (*chairside.LenderApplication, error) {
	if _, _, err := s.step(ctx, c, lenderKey); err != nil {
		return nil, err
	}
	pa, err := s.ownLenderApplication(ctx, c, lenderKey)
	if err != nil && !isCode(err, chairside.ENOTFOUND) {
		return nil, err
	}
	if pa == nil || pa.LenderRef == "" {
		return nil, errorf(chairside.ECONFLICT, "This lender has no application yet.")
	}
	return pa, nil
}

// IframeURL answers the address of the lender's own page for the caller's
// application. redirectURL ("" for none) must stay on this site; it is
// where a real lender sends the patient back, while the sandbox's page
// (the breakout route) leads back into the journey itself.
func (s *Service) IframeURL(ctx context.Context, c *Caller, lenderKey, redirectURL string) (*IframeURL, error) {
	if redirectURL != "" && !localPath(redirectURL) {
		return nil, &chairside.Error{Code: chairside.EINVALID, Message: "Please review the fields below and correct any errors.",
			FieldErrors: []chairside.FieldError{{Field: "redirectUrl", Message: "Must be a path of this site, starting with a single /."}}}
	}
	pa, err := s.appWithLenderRef(ctx, c, lenderKey)
	if err != nil {
		return nil, err
	}
	return &IframeURL{LenderKey: lenderKey, URL: breakout(lenderKey, pa.LenderRef),
		ExpiresAt: s.now().UTC().Add(iframeTTL).Truncate(time.Second)}, nil
}

// SDKConfig answers what a lender's own script needs: the lender's
// environment, its public (publishable, never secret) key, the
// application and where to come back to.
func (s *Service) SDKConfig(ctx context.Context, c *Caller, lenderKey string) (*SDKConfig, error) {
	pa, err := s.appWithLenderRef(ctx, c, lenderKey)
	if err != nil {
		return nil, err
	}
	env := "sandbox"
	if s.opts.Env == chairside.EnvProd {
		env = "production"
	}
	return &SDKConfig{LenderKey: lenderKey, Environment: env, PublicKey: "pk_" + env + "_" + catalogue.BaseKey(lenderKey),
		LenderRef: pa.LenderRef, RedirectURL: breakout(lenderKey, pa.LenderRef)}, nil
}

// PaymentMethodRequest is the body of …/paymentMethod.
type PaymentMethodRequest struct {
	PaymentMethod string `json:"paymentMethod"`
}

// PaymentMethodResult answers …/paymentMethod.
type PaymentMethodResult struct {
	LenderKey     string `json:"providerKey"`
	PaymentMethod string `json:"paymentMethod"`
}

// PaymentMethod records how the patient chose to make the monthly
// payments, card or checking account, once the offer is accepted and
// before signing; the account or card itself goes through its own step.
func (s *Service) PaymentMethod(ctx context.Context, c *Caller, lenderKey string, req *PaymentMethodRequest) (*PaymentMethodResult, error) {
	if req.PaymentMethod != "card" && req.PaymentMethod != "checking" {
		return nil, &chairside.Error{Code: chairside.EINVALID, Message: "Please review the fields below and correct any errors.",
			FieldErrors: []chairside.FieldError{{Field: "paymentMethod", Message: "Please choose a card or a checking account."}}}
	}
	pa, err := s.ownLenderApplication(ctx, c, lenderKey)
	if err != nil {
		return nil, err
	}
	if pa.Status != chairside.StatusOfferAccepted {
		return nil, errorf(chairside.ECONFLICT, "Please accept a plan before choosing how to pay.")
	}
	s.event(ctx, c.Session, lenderKey, "payment_method.chosen", map[string]any{"paymentMethod": req.PaymentMethod})
	return &PaymentMethodResult{LenderKey: lenderKey, PaymentMethod: req.PaymentMethod}, nil
}

// EmailAgreementResult answers …/emailAgreement: where the message goes,
// masked.
type EmailAgreementResult struct {
	LenderKey string `json:"providerKey"`
	SentTo    string `json:"sentTo"`
}

// agreementEmailEvery: asking again within it (a double tap) queues no
// second message.
const agreementEmailEvery = time.Minute

// EmailAgreement queues an email telling the patient their agreement is
// ready, through the outbox (docs/behaviour.md, "The office side"), once
// the offer is accepted. The message names the lender, its product and the
// office, and holds no link and nothing personal but the address it goes
// to.
func (s *Service) EmailAgreement(ctx context.Context, c *Caller, lenderKey string) (*EmailAgreementResult, error) {
	pa, err := s.ownLenderApplication(ctx, c, lenderKey)
	if err != nil {
		return nil, err
	}
	switch pa.Status {
	case chairside.StatusOfferAccepted, chairside.StatusSigned, chairside.StatusCompleted:
	default:
		return nil, errorf(chairside.ECONFLICT, "There is no agreement to send yet: please accept a plan first.")
	}
	app, err := s.store.FindApplication(ctx, c.Session.ApplicationID)
	if err != nil {
		return nil, err
	}
	if app.Primary.Email == "" {
		return nil, errorf(chairside.ECONFLICT, "There is no email address on the application.")
	}
	out := &EmailAgreementResult{LenderKey: lenderKey, SentTo: chairside.MaskEmail(app.Primary.Email)}
	events, err := s.store.ListEvents(ctx, c.Session.ID)
	if err != nil {
		return nil, err
	}
	for _, e := range events {
		if e.Type == "agreement.emailed" && e.LenderKey == lenderKey && s.now().Sub(e.CreatedAt) < agreementEmailEvery {
			return out, nil
		}
	}
	loc, err := s.location(ctx, c.Session.LocationID)
	if err != nil {
		return nil, err
	}
	p, err := catalogue.Get(lenderKey)
	if err != nil {
		return nil, err
	}
	msg := &chairside.OutboxMessage{LocationID: loc.ID, Channel: chairside.ChannelEmail, Recipient: app.Primary.Email,
		RecipientMasked: out.SentTo, Subject: "Your " + p.FinancingName + " agreement", Body: agreementEmail(p, loc), CreatedAt: s.now().UTC()}
	err = s.batch(ctx, c, func(tx Store) error {
		if err := tx.EnqueueOutbox(ctx, msg); err != nil {
			return err
		}
		s.eventIn(ctx, tx, c.Session, lenderKey, "agreement.emailed", nil)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// agreementEmail is the text of the agreement email: no link, no amount,
// nothing about the patient.
func agreementEmail(p chairside.LenderConfig, loc *chairside.Location) string {
	practice := loc.BrandName
	if practice == "" {
		practice = "the dental practice"
	}
	return "Your " + p.FinancingName + " agreement with " + p.Name + " is ready. You read and agreed to it on screen with " + practice +
		". " + p.Name + " sends you its own copy of your agreement, and " + practice + " can print one for you.\n\n" +
		"This email holds no link. To ask about your account, contact " + p.Name + " directly."
}
