package flow

import (
	"bytes"
	"context"
	"encoding/base64"
	"image"
	"image/png"
	"strings"
	"time"

	"github.com/chairside/chairside"
)

// Signature limits: a signature is valid only above 3000 bytes of
// black-and-white PNG — the same bytes the browser measured and sent
// (docs/decisions.md, "One signature rule") — and 512 KiB is far more than
// a pad needs.
const (
	minSignatureBytes = 3000
	maxSignatureBytes = 512 << 10
)

// Disclosures answers a document to show before a consent: kind is
// prequalification, application (default) or esign.
func (s *Service) Disclosures(ctx context.Context, c *Caller, providerKey, kind string) (*chairside.Document, error) {
	if kind == "" {
		kind = DocApplication
	}
	if kind != DocPrequalification && kind != DocApplication && kind != DocESign {
		return nil, errorf(chairside.EBADREQUEST, "kind must be prequalification, application or esign.")
	}
	if _, _, err := s.step(ctx, c, providerKey); err != nil {
		return nil, err
	}
	lender, err := s.lenders.Lender(providerKey)
	if err != nil {
		return nil, err
	}
	return s.document(ctx, lender, providerKey, kind)
}

// Agreement answers the agreement of an approved offer.
func (s *Service) Agreement(ctx context.Context, c *Caller, providerKey string) (*chairside.Document, error) {
	pa, err := s.ownProviderApplication(ctx, c, providerKey)
	if err != nil {
		return nil, err
	}
	if pa.Decision == nil || !chairside.Positive(pa.Decision.ResponseCode) {
		return nil, errorf(chairside.ECONFLICT, "There is no approved offer from this lender.")
	}
	lender, err := s.lenders.Lender(providerKey)
	if err != nil {
		return nil, err
	}
	return s.document(ctx, lender, providerKey, "agreement")
}

// Terms answers the provider's terms document (with its URL).
func (s *Service) Terms(ctx context.Context, c *Caller, providerKey string) (*chairside.Document, error) {
	if _, _, err := s.step(ctx, c, providerKey); err != nil {
		return nil, err
	}
	lender, err := s.lenders.Lender(providerKey)
	if err != nil {
		return nil, err
	}
	return s.document(ctx, lender, providerKey, "terms")
}

// document fetches a lender document; kind is one of ours and is mapped to
// the lender's (application → disclosures).
func (s *Service) document(ctx context.Context, lender chairside.Lender, providerKey, kind string) (*chairside.Document, error) {
	lenderKind := kind
	if kind == DocApplication {
		lenderKind = "disclosures"
	}
	lctx, cancel := context.WithTimeout(ctx, s.opts.LenderTimeout)
	defer cancel()
	doc, err := lender.Document(lctx, providerKey, lenderKind)
	if err != nil {
		if isCode(err, chairside.ENOTFOUND) {
			return nil, err
		}
		s.log.Warn("lender document failed", "provider", providerKey, "kind", kind, "err", chairside.ErrorCode(err))
		return nil, errorf(chairside.ELENDER, "We could not load this document. Please try again.")
	}
	return doc, nil
}

// checkConsent requires an affirmative consent naming exactly doc.
func checkConsent(in *ConsentInput, doc *chairside.Document) error {
	if in == nil || !in.Agreed {
		return errorf(chairside.ECONSENT, "Please read and agree to the authorisation before continuing.")
	}
	if in.DocumentID != doc.ID || in.DocumentVersion != doc.Version || !strings.EqualFold(in.DocumentSHA256, doc.SHA256) {
		return errorf(chairside.ECONSENT, "The authorisation you agreed to has changed. Please read it again and agree to the current one.")
	}
	return nil
}

// consentRecord is the record of a consent the caller gave to doc now:
// what was shown (id, version, SHA-256), when, from where, and the
// signature image when there is one.
func (s *Service) consentRecord(c *Caller, providerKey, kind string, doc *chairside.Document, planCode string, signature []byte, now time.Time) *chairside.Consent {
	rec := &chairside.Consent{
		ID:               newID(),
		SessionID:        c.Session.ID,
		ApplicationID:    c.Session.ApplicationID,
		ProviderKey:      providerKey,
		Kind:             kind,
		DocumentID:       doc.ID,
		DocumentVersion:  doc.Version,
		DocumentSHA256:   doc.SHA256,
		ConsentText:      doc.Title,
		ProviderPlanCode: planCode,
		ShownAt:          now,
		ConsentedAt:      now,
		IP:               c.IP,
		UserAgent:        c.UserAgent,
		SignaturePNG:     signature,
	}
	if signature != nil {
		rec.SignedAt = &now
	}
	return rec
}

// decodeSignature decodes a data:image/png;base64 URL and applies the one
// signature rule, which the browser applies to the same PNG before sending
// it (web/src/features/signing/signature.ts): more than 3000 and at most
// 512 KiB of PNG, and ink that makes a mark (signatureInk). The byte rule
// alone cannot tell an empty pad from a signed one — a blank pad encodes to
// more than 3000 bytes — so the ink rule is what refuses a tap.
func decodeSignature(dataURL string) ([]byte, error) {
	const prefix = "data:image/png;base64,"
	bad := func(msg string) error { return errorf(chairside.EBADREQUEST, "%s", msg) }
	if !strings.HasPrefix(dataURL, prefix) {
		return nil, bad("signaturePng must be a data:image/png;base64 URL.")
	}
	b64 := dataURL[len(prefix):]
	if base64.StdEncoding.DecodedLen(len(b64)) > maxSignatureBytes+3 {
		return nil, errorf(chairside.ETOOLARGE, "The signature image is too large.")
	}
	raw, err := base64.StdEncoding.DecodeString(b64)
	if err != nil {
		return nil, bad("signaturePng is not valid base64.")
	}
	if len(raw) > maxSignatureBytes {
		return nil, errorf(chairside.ETOOLARGE, "The signature image is too large.")
	}
	if len(raw) <= minSignatureBytes {
		return nil, bad("Please sign in the box before continuing.")
	}
	// The size is checked before the pixels are decoded, so a small file
	// cannot ask for a huge image.
	cfg, err := png.DecodeConfig(bytes.NewReader(raw))
	if err != nil {
		return nil, bad("signaturePng is not a PNG image.")
	}
	if cfg.Width <= 0 || cfg.Height <= 0 || cfg.Width > maxSignatureSide || cfg.Height > maxSignatureSide {
		return nil, bad("The signature image has an unexpected size.")
	}
	img, err := png.Decode(bytes.NewReader(raw))
	if err != nil {
		return nil, bad("signaturePng is not a PNG image.")
	}
	if !signatureInk(img) {
		return nil, bad("Please sign in the box before continuing.")
	}
	return raw, nil
}

// maxSignatureSide bounds a signature image's width and height in pixels: a
// pad 1000 CSS pixels wide on a screen with three device pixels to one.
const maxSignatureSide = 4096

// signatureInk reports whether an image holds a mark, not a tap: its ink
// (pixels darker than mid-grey) spans at least a tenth of the image's width
// (the larger side of the ink's bounding box), with at least as many ink
// pixels as that span, as one stroke across it would have. A dot, a few
// scattered dots or an empty pad fail.
func signatureInk(img image.Image) bool {
	b := img.Bounds()
	minX, minY, maxX, maxY, ink := b.Max.X, b.Max.Y, b.Min.X-1, b.Min.Y-1, 0
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if !dark(img, x, y) {
				continue
			}
			ink++
			minX, maxX = min(minX, x), max(maxX, x)
			minY, maxY = min(minY, y), max(maxY, y)
		}
	}
	if ink == 0 {
		return false
	}
	span := max(maxX-minX+1, maxY-minY+1)
	return span*10 >= b.Dx() && ink >= span
}

// dark reports whether a pixel is ink: luminance below half. Transparent
// pixels are paper.
func dark(img image.Image, x, y int) bool {
	switch m := img.(type) {
	case *image.Gray:
		return m.GrayAt(x, y).Y < 128
	case *image.NRGBA:
		c := m.NRGBAAt(x, y)
		return c.A >= 128 && luminance(uint32(c.R)*257, uint32(c.G)*257, uint32(c.B)*257) < 0x8000
	}
	r, g, bl, a := img.At(x, y).RGBA()
	if a < 0x8000 {
		return false
	}
	// Premultiplied: divide the alpha out before judging the colour.
	return luminance(r*0xffff/a, g*0xffff/a, bl*0xffff/a) < 0x8000
}

// luminance weighs 16-bit colour channels as the eye does (ITU-R BT.601).
func luminance(r, g, b uint32) uint32 {
	return (299*r + 587*g + 114*b) / 1000
}
