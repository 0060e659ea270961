package office

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"sync"
	"time"

	"rsc.io/qr"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/catalogue"
	"github.com/chairside/chairside/messaging"
	"github.com/chairside/chairside/validate"
)

// Bounds of an invitation's treatment amount: $1.00 to the most any
// patient may ask for.
const (
	MinInviteCents = 100
	MaxInviteCents = catalogue.MaxPurchaseCents
)

// InviteRequest is what the office says about the patient it invites. All
// but the amount may be left out; a mobile phone or an email is where the
// link is also sent.
type InviteRequest struct {
	PurchaseAmountCents *int64 `json:"purchaseAmountCents"`
	FirstName           string `json:"firstName,omitempty"`
	LastName            string `json:"lastName,omitempty"`
	MobilePhone         string `json:"mobilePhone,omitempty"`
	Email               string `json:"email,omitempty"`
	ExperienceType      string `json:"experienceType,omitempty"`
	// Language is the patient's ("en", "es"); "" is the office's.
	Language string `json:"language,omitempty"`
	// TextConsent: the patient gave the office the mobile number to be
	// texted this link, which the desk confirms before a text is sent.
	TextConsent bool `json:"textConsent,omitempty"`
	// RecordPatientID is the patient's id in the office's own system
	// when the desk found them there: the patient's date of birth and
	// address are read from it again, and the financing is posted to it.
	RecordPatientID string `json:"recordPatientId,omitempty"`
}

// Invite is a new invitation: its one-time link exists only here.
type Invite struct {
	ID                  string    `json:"id"`
	Link                string    `json:"link"`
	ExpiresAt           time.Time `json:"expiresAt"`
	PurchaseAmountCents int64     `json:"purchaseAmountCents"`
	FirstName           string    `json:"firstName"`
	LastName            string    `json:"lastName"`
	ExperienceType      string    `json:"experienceType"`
	QR                  QRCode    `json:"qr"`
	SentTo              []SentTo  `json:"sentTo"`
}

// QRCode is a QR code as rows of "0" (light) and "1" (dark) modules, for
// the browser to draw; no image library and nothing inline for the CSP.
type QRCode struct {
	Size int      `json:"size"`
	Rows []string `json:"rows"`
}

// SentTo is where an invitation's link is being sent, masked. Held: the
// email that goes only if the text is not delivered.
type SentTo struct {
	Channel string `json:"channel"`
	To      string `json:"to"`
	Held    bool   `json:"held,omitempty"`
}

// CreateInvite makes a one-time start link for a patient at the caller's
// office, valid for chairside.FlowTokenTTL, queues the text or email that
// carries it when the office gave a phone or an email, and records the
// action. base is the address patients open (https://chairside.example).
func (s *Service) CreateInvite(ctx context.Context, c *Caller, req InviteRequest, base string) (*Invite, error) {
	req, err := checkInvite(req, s.Now())
	if err != nil {
		return nil, err
	}
	if req.Language == "" {
		req.Language = languageOf(c.Location)
	}
	record, err := s.recordPrefill(ctx, c, req.RecordPatientID)
	if err != nil {
		return nil, err
	}
	now := s.Now().UTC()
	token := chairside.NewSecret(16)
	t := &chairside.FlowToken{
		Hash:                chairside.HashSecret(token),
		ID:                  chairside.NewSecret(12),
		StaffID:             c.Staff.ID,
		LocationID:          c.Location.ID,
		PurchaseAmountCents: *req.PurchaseAmountCents,
		FirstName:           req.FirstName,
		LastName:            req.LastName,
		MobilePhone:         req.MobilePhone,
		Email:               req.Email,
		ExperienceType:      req.ExperienceType,
		Language:            req.Language,
		TextConsent:         req.TextConsent,
		Record:              record,
		ExpiresAt:           now.Add(chairside.FlowTokenTTL),
		CreatedAt:           now,
	}
	t.Link = strings.TrimSuffix(base, "/") + "/start/tokens/" + url.PathEscape(token)
	link := t.Link
	code, err := qr.Encode(link, qr.M)
	if err != nil {
		return nil, fmt.Errorf("office: invite QR code: %w", err)
	}
	msgs, sent := s.inviteMessages(c.Location, t, now)
	if err := s.store.CreateInvite(ctx, t, msgs); err != nil {
		return nil, err
	}
	from := ""
	if record != nil {
		from = " from the practice records (chart " + record.PatientID + ")"
	}
	s.did(ctx, c, chairside.AuditInviteCreated, fmt.Sprintf("invite %s for %s in %s%s, sent by %d message(s)%s",
		t.ID, chairside.Dollars(t.PurchaseAmountCents), t.Language, from, len(msgs), consentWords(t)))
	if len(msgs) > 0 {
		s.wake()
	}
	return &Invite{ID: t.ID, Link: link, ExpiresAt: t.ExpiresAt, PurchaseAmountCents: t.PurchaseAmountCents,
		FirstName: t.FirstName, LastName: t.LastName, ExperienceType: t.ExperienceType, QR: qrRows(code), SentTo: sent}, nil
}

// maxInviteSends is how often an invitation's link may go by text (or
// by email when there is no number): the first send and two more. A
// patient who did not get it three times needs the QR code or a call.
const maxInviteSends = 3

// ResendInvite sends an invitation of the caller's office again, to the
// number and address it was made for, while no patient has opened it:
// the same link, the text first and the email held behind it as before.
func (s *Service) ResendInvite(ctx context.Context, c *Caller, id string) ([]SentTo, error) {
	if id == "" || len(id) > 64 {
		return nil, chairside.Errorf(chairside.ENOTFOUND, "There is no such invitation at your office.")
	}
	t, err := s.store.FindInvite(ctx, c.Location.ID, id)
	if err != nil {
		return nil, err
	}
	if t.Link == "" || (t.MobilePhone == "" && t.Email == "") {
		return nil, chairside.Errorf(chairside.ECONFLICT, "This invitation was made without a mobile number or an email: hand over its QR code instead.")
	}
	msgs, sent := s.inviteMessages(c.Location, t, s.Now().UTC())
	if err := s.store.ResendInvite(ctx, c.Location.ID, id, s.Now().UTC(), maxInviteSends, msgs); err != nil {
		return nil, err
	}
	s.did(ctx, c, chairside.AuditInviteResent, fmt.Sprintf("invite %s, sent again by %d message(s)", id, len(msgs)))
	s.wake()
	return sent, nil
}

// CancelInvite cancels an invitation of the caller's office that no
// patient has opened; its link then answers as a used one.
func (s *Service) CancelInvite(ctx context.Context, c *Caller, id string) error {
	if id == "" || len(id) > 64 {
		return chairside.Errorf(chairside.ENOTFOUND, "There is no such invitation at your office.")
	}
	err := s.store.CancelInvite(ctx, c.Location.ID, id, s.Now().UTC())
	switch chairside.ErrorCode(err) {
	case "":
		s.did(ctx, c, chairside.AuditInviteCanceled, "invite "+id)
		return nil
	case chairside.ECONFLICT:
		return chairside.Errorf(chairside.ECONFLICT, "This invitation cannot be canceled: the patient has already opened the link, or it has expired.")
	}
	return err
}

// checkInvite checks an invitation request with the rules the patient's
// own form uses for the same fields, so that what the office typed never
// fails the patient's form; it answers the request normalised.
func checkInvite(req InviteRequest, now time.Time) (InviteRequest, error) {
	var fe []chairside.FieldError
	add := func(field, msg string) { fe = append(fe, chairside.FieldError{Field: field, Message: msg}) }
	switch a := req.PurchaseAmountCents; {
	case a == nil:
		add("purchaseAmountCents", "Enter the treatment amount.")
	case *a < MinInviteCents || *a > MaxInviteCents:
		add("purchaseAmountCents", fmt.Sprintf("Enter an amount between %s and %s.", chairside.Dollars(MinInviteCents), chairside.Dollars(MaxInviteCents)))
	}
	req.FirstName, req.LastName = strings.TrimSpace(req.FirstName), strings.TrimSpace(req.LastName)
	req.Email = strings.TrimSpace(req.Email)
	req.MobilePhone = phoneDigits(req.MobilePhone)
	defs := inviteFieldDefs()
	for _, f := range []struct{ id, v string }{{"firstName", req.FirstName}, {"lastName", req.LastName},
		{"mobilePhone", req.MobilePhone}, {"email", req.Email}} {
		if f.v == "" {
			continue
		}
		if msg := validate.Field(defs[f.id], f.v, now); msg != "" {
			add(f.id, msg)
		}
	}
	switch req.ExperienceType {
	case "":
		req.ExperienceType = chairside.ExperienceInStore
	case chairside.ExperienceInStore, chairside.ExperienceAtHome:
	default:
		add("experienceType", "Choose where the patient will apply.")
	}
	switch req.Language {
	case "", "en", "es":
	default:
		add("language", "Choose English or Spanish.")
	}
	if req.MobilePhone != "" && !req.TextConsent {
		add("textConsent", "Confirm that the patient gave you this number to be texted the link, or leave the mobile number empty.")
	}
	if len(fe) > 0 {
		return req, &chairside.Error{Code: chairside.EINVALID, Message: "Please check the invitation's details.", FieldErrors: fe}
	}
	return req, nil
}

// inviteFieldDefs are the patient's definitions of the fields an
// invitation shares, none of them required here; built once.
var inviteFieldDefs = sync.OnceValue(func() map[string]chairside.FieldDefinition {
	out := map[string]chairside.FieldDefinition{}
	for _, d := range catalogue.AllFields() {
		switch d.ID {
		case "firstName", "lastName", "mobilePhone", "email":
			rules := map[string]chairside.Rule{}
			for k, r := range d.Rules {
				if k != chairside.RuleRequired {
					rules[k] = r
				}
			}
			d.Rules = rules
			out[d.ID] = d
		}
	}
	return out
})

// phoneDigits drops what people type around a US number: spaces, dashes,
// dots, brackets and a leading +1. Anything else is left for the check.
func phoneDigits(s string) string {
	s = strings.TrimSpace(s)
	s = strings.TrimPrefix(s, "+1")
	s = strings.Map(func(r rune) rune {
		switch r {
		case ' ', '-', '.', '(', ')':
			return -1
		}
		return r
	}, s)
	if len(s) == 11 && s[0] == '1' {
		s = s[1:]
	}
	return s
}

// inviteMessages are the text and email that carry t's link, and where
// they go, masked. With both a mobile number and an email, and texts that
// reach the office's patients, the email is held: it goes only if the
// text is not delivered (ReleaseHeld), so a patient is not sent the same
// link twice.
func (s *Service) inviteMessages(loc *chairside.Location, t *chairside.FlowToken, now time.Time) ([]*chairside.OutboxMessage, []SentTo) {
	texts, _ := s.MessagesReach(loc)
	office := loc.BrandName
	if office == "" {
		office = loc.Name
	}
	base, token, _ := strings.Cut(t.Link, "/start/tokens/")
	msgs, sent := []*chairside.OutboxMessage{}, []SentTo{}
	// The text is one message in the invitation's language: the practice,
	// the short link whole, how to stop (messaging.InviteText). A link too
	// long for one message goes by email and QR code only.
	if sms, ok := messaging.InviteText(t.Language, office, messaging.ShortLink(base, token)); t.MobilePhone != "" && ok {
		m := &chairside.OutboxMessage{LocationID: loc.ID, InviteID: t.ID, Channel: chairside.ChannelSMS, Recipient: t.MobilePhone,
			RecipientMasked: MaskPhone(t.MobilePhone), Body: sms, CreatedAt: now}
		msgs, sent = append(msgs, m), append(sent, SentTo{Channel: m.Channel, To: m.RecipientMasked})
	}
	if t.Email != "" {
		subject, text := inviteEmail(t.Language, office, t, t.Link)
		m := &chairside.OutboxMessage{LocationID: loc.ID, InviteID: t.ID, Channel: chairside.ChannelEmail, Recipient: t.Email,
			RecipientMasked: MaskEmail(t.Email), Subject: subject, Body: text, FromName: office, CreatedAt: now}
		if len(msgs) > 0 && texts {
			m.State = chairside.OutboxHeld
		}
		msgs, sent = append(msgs, m), append(sent, SentTo{Channel: m.Channel, To: m.RecipientMasked, Held: m.State == chairside.OutboxHeld})
	}
	return msgs, sent
}

// languageOf is the language of a location's invitations when the desk
// does not choose: the office's, else English.
func languageOf(loc *chairside.Location) string {
	if loc.Language == "es" {
		return "es"
	}
	return "en"
}

// consentWords is what the audit line says of the patient's agreement to
// be texted.
func consentWords(t *chairside.FlowToken) string {
	if t.MobilePhone == "" {
		return ""
	}
	return "; the desk confirmed the patient gave the mobile number to be texted this link"
}

// inviteEmail is an invitation's email in the office's language: its
// subject and its text (the amount, the link whole, when it stops
// working), paragraphs apart for its HTML part (messaging.Mailer).
func inviteEmail(language, office string, t *chairside.FlowToken, link string) (subject, body string) {
	amount := chairside.Dollars(t.PurchaseAmountCents)
	if language == "es" {
		until := t.ExpiresAt.Format("02/01/2006 a las 15:04 MST")
		return "Sus opciones de pago en " + office, fmt.Sprintf("%s le invita a ver sus opciones de pago para su tratamiento (%s).\n\n"+
			"Abra este enlace para presentar su solicitud. Funciona una vez, hasta el %s:\n\n%s", office, amount, until, link)
	}
	until := t.ExpiresAt.Format("Jan 2 at 3:04 PM MST")
	return "Your payment options at " + office, fmt.Sprintf("%s invites you to see your payment options for your treatment (%s).\n\n"+
		"Open this link to apply. It works once, until %s:\n\n%s", office, amount, until, link)
}

// MaskPhone shows the last four digits of a phone number only.
func MaskPhone(digits string) string {
	if len(digits) < 4 {
		return "•••"
	}
	return "(•••) •••-" + digits[len(digits)-4:]
}

// MaskEmail shows the first letter of the mailbox and the domain only
// (chairside.MaskEmail).
var MaskEmail = chairside.MaskEmail

func qrRows(code *qr.Code) QRCode {
	rows := make([]string, code.Size)
	for y := range code.Size {
		var b strings.Builder
		for x := range code.Size {
			if code.Black(x, y) {
				b.WriteByte('1')
			} else {
				b.WriteByte('0')
			}
		}
		rows[y] = b.String()
	}
	return QRCode{Size: code.Size, Rows: rows}
}
