package flow

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/binary"
	"image"
	"image/png"
	"strings"
	"unicode"

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
//
// Grey and non-premultiplied RGBA images (what PNGs from a canvas decode
// to) are read row by row from their pixels: asking each pixel through the
// image.Image interface made this check an eighth of the server's CPU time
// under load (docs/performance.md).
func signatureInk(img image.Image) bool {
	b := img.Bounds()
	box := inkOf(img)
	if box.ink == 0 {
		return false
	}
	span := max(box.maxX-box.minX+1, box.maxY-box.minY+1)
	return span*10 >= b.Dx() && box.ink >= span
}

// inkOf counts an image's ink pixels and the box around them.
func inkOf(img image.Image) inkBox {
	b := img.Bounds()
	box := inkBox{minX: b.Max.X, minY: b.Max.Y, maxX: b.Min.X - 1, maxY: b.Min.Y - 1}
	switch m := img.(type) {
	case *image.Gray:
		for y := b.Min.Y; y < b.Max.Y; y++ {
			grayRowInk(m.Pix[m.PixOffset(b.Min.X, y):m.PixOffset(b.Max.X, y)], b.Min.X, y, &box)
		}
	case *image.NRGBA:
		for y := b.Min.Y; y < b.Max.Y; y++ {
			nrgbaRowInk(m.Pix[m.PixOffset(b.Min.X, y):m.PixOffset(b.Max.X, y)], b.Min.X, y, &box)
		}
	default:
		for y := b.Min.Y; y < b.Max.Y; y++ {
			for x := b.Min.X; x < b.Max.X; x++ {
				if dark(img, x, y) {
					box.add(x, y)
				}
			}
		}
	}
	return box
}

// A pad is mostly paper, so its rows are read 32 bytes at a time, as four
// words, and only a stretch with ink in it pixel by pixel. highBits is the
// top bit of each byte of a word, alphaHighBits the top bit of the alpha of
// each of two NRGBA pixels.
const (
	highBits      = 0x8080808080808080
	alphaHighBits = 0x8000000080000000
)

// grayRowInk adds to box the ink of one row of grey pixels, the first at
// x0: a byte under 128 is ink. A stretch whose bytes all have their top bit
// set is paper.
func grayRowInk(row []byte, x0, y int, box *inkBox) {
	i := 0
	for ; i+32 <= len(row); i += 32 {
		c := row[i : i+32 : i+32]
		if le64(c[0:])&le64(c[8:])&le64(c[16:])&le64(c[24:])&highBits == highBits {
			continue
		}
		for j, v := range c {
			if v < 128 {
				box.add(x0+i+j, y)
			}
		}
	}
	for j, v := range row[i:] {
		if v < 128 {
			box.add(x0+i+j, y)
		}
	}
}

// nrgbaRowInk adds to box the ink of one row of NRGBA pixels, the first at
// x0 (nrgbaInk). A stretch of eight pixels all transparent, or all with
// every channel at 128 or more (light), is paper.
func nrgbaRowInk(row []byte, x0, y int, box *inkBox) {
	i := 0
	for ; i+32 <= len(row); i += 32 {
		c := row[i : i+32 : i+32]
		w0, w1, w2, w3 := le64(c[0:]), le64(c[8:]), le64(c[16:]), le64(c[24:])
		if (w0&w1&w2&w3)&highBits == highBits || (w0|w1|w2|w3)&alphaHighBits == 0 {
			continue
		}
		for j := 0; j < 32; j += 4 {
			if nrgbaInk(c[j : j+4 : j+4]) {
				box.add(x0+(i+j)/4, y)
			}
		}
	}
	for ; i+4 <= len(row); i += 4 {
		if nrgbaInk(row[i : i+4 : i+4]) {
			box.add(x0+i/4, y)
		}
	}
}

// nrgbaInk reports whether one NRGBA pixel is ink: opaque enough (alpha
// 128 or more) and darker than mid-grey.
func nrgbaInk(p []byte) bool {
	return p[3] >= 128 && luminance(uint32(p[0])*257, uint32(p[1])*257, uint32(p[2])*257) < 0x8000
}

func le64(b []byte) uint64 { return binary.LittleEndian.Uint64(b) }

// inkBox counts ink pixels and the box around them.
type inkBox struct{ minX, minY, maxX, maxY, ink int }

func (k *inkBox) add(x, y int) {
	k.ink++
	k.minX, k.maxX = min(k.minX, x), max(k.maxX, x)
	k.minY, k.maxY = min(k.minY, y), max(k.maxY, y)
}

// dark reports whether a pixel of any other kind of image is ink:
// luminance below half. Transparent pixels are paper.
func dark(img image.Image, x, y int) bool {
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

// signatureMethod answers how an e-sign request's signature was made
// (docs/behaviour.md, "Signing"). A typed signature counts only as the
// applicant's own full name: what they adopt as their signature must be
// who they are, so a stray word typed into the box never signs.
func (s *Service) signatureMethod(ctx context.Context, c *Caller, req *ESignRequest) (string, error) {
	switch req.SignatureMethod {
	case "", chairside.SignatureDrawn:
		if req.TypedName != "" {
			return "", errorf(chairside.EBADREQUEST, "typedName goes only with signatureMethod typed.")
		}
		return chairside.SignatureDrawn, nil
	case chairside.SignatureTyped:
	default:
		return "", errorf(chairside.EBADREQUEST, "signatureMethod must be drawn or typed.")
	}
	app, err := s.store.FindApplication(ctx, c.Session.ApplicationID)
	if err != nil {
		return "", err
	}
	if len(req.TypedName) > 200 || !typedNameMatches(req.TypedName, app.Primary.FirstName, app.Primary.LastName) {
		return "", &chairside.Error{Code: chairside.EINVALID, Message: "Please type your full name as it is on your application.",
			FieldErrors: []chairside.FieldError{{Field: "typedName", Message: "Please type your first and last name, as on your application."}}}
	}
	return chairside.SignatureTyped, nil
}

// typedNameMatches reports whether a typed name is the applicant's: the
// first name first and the last name last, with a middle name or initial
// allowed between; case, accents' absence aside, spaces and punctuation do
// not count ("ana nunez-lopez" is not "Ana Núñez-López", but "ANA  Núñez
// López" is "Ana Núñez-López").
func typedNameMatches(typed, first, last string) bool {
	t, f, l := nameWords(typed), nameWords(first), nameWords(last)
	if len(f) == 0 || len(l) == 0 || len(t) < len(f)+len(l) || len(t) > len(f)+len(l)+2 {
		return false
	}
	for i, w := range f {
		if t[i] != w {
			return false
		}
	}
	for i, w := range l {
		if t[len(t)-len(l)+i] != w {
			return false
		}
	}
	return true
}

// nameWords lowercases a name and splits it into its words of letters, any
// other character separating them.
func nameWords(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsMark(r) })
}
