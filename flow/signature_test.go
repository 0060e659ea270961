package flow

import (
	"bytes"
	"encoding/base64"
	"image"
	"image/color"
	"image/png"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/testkit"
)

// pad returns a 600×140 pad as the browser sends it: paper with light
// speckles (so even an empty pad encodes to more than 3000 bytes, as a
// real blank pad does) and ink drawn by mark.
func pad(t *testing.T, mark func(img *image.NRGBA)) string {
	t.Helper()
	img := image.NewNRGBA(image.Rect(0, 0, 600, 140))
	rng := rand.New(rand.NewPCG(3, 4))
	for i := 0; i < len(img.Pix); i += 4 {
		v := uint8(200 + rng.IntN(56))
		img.Pix[i], img.Pix[i+1], img.Pix[i+2], img.Pix[i+3] = v, v, v, 255
	}
	if mark != nil {
		mark(img)
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	if b.Len() <= minSignatureBytes {
		t.Fatalf("test pad is only %d bytes", b.Len())
	}
	return "data:image/png;base64," + base64.StdEncoding.EncodeToString(b.Bytes())
}

func line(img *image.NRGBA, x0, x1, y int) {
	for x := x0; x < x1; x++ {
		img.Set(x, y, color.Black)
	}
}

// TestSignatureRule: bytes alone do not make a signature — an empty pad, a
// tap and scattered taps are refused; a stroke across a tenth of the pad
// is a mark.
func TestSignatureRule(t *testing.T) {
	cases := []struct {
		name string
		mark func(*image.NRGBA)
		ok   bool
	}{
		{"empty pad", nil, false},
		{"one tap", func(img *image.NRGBA) {
			for dy := range 4 {
				line(img, 300, 304, 70+dy)
			}
		}, false},
		{"two taps far apart", func(img *image.NRGBA) {
			line(img, 100, 103, 70)
			line(img, 400, 403, 70)
		}, false},
		{"a short stroke", func(img *image.NRGBA) { line(img, 100, 150, 70) }, false},
		{"a stroke across a tenth", func(img *image.NRGBA) { line(img, 100, 160, 70) }, true},
		{"a signature", func(img *image.NRGBA) {
			for y := 50; y < 90; y += 8 {
				line(img, 80, 420, y)
			}
		}, true},
	}
	for _, c := range cases {
		_, err := decodeSignature(pad(t, c.mark))
		if (err == nil) != c.ok {
			t.Errorf("%s: %v, want ok=%v", c.name, err, c.ok)
		}
		if err != nil && chairside.ErrorCode(err) != chairside.EBADREQUEST {
			t.Errorf("%s: code %s", c.name, chairside.ErrorCode(err))
		}
	}
	// An image larger than any pad is refused before its pixels are decoded.
	big := image.NewGray(image.Rect(0, 0, maxSignatureSide+1, 1))
	var b bytes.Buffer
	if err := png.Encode(&b, big); err != nil {
		t.Fatal(err)
	}
	b.Write(make([]byte, 4000)) // past the byte minimum
	if _, err := decodeSignature("data:image/png;base64," + base64.StdEncoding.EncodeToString(b.Bytes())); err == nil {
		t.Error("an oversized image was accepted")
	}
}

// TestSignatureInkEveryImageKind: the rows read straight from a grey or an
// NRGBA image judge as the pixel-by-pixel reading of any other image does,
// on a sub-image too (whose pixels start inside a larger one).
func TestSignatureInkEveryImageKind(t *testing.T) {
	for _, c := range []struct {
		name   string
		x0, x1 int // a stroke along y = 70
		want   bool
	}{
		{"no ink", 0, 0, false},
		{"a short stroke", 100, 150, false},
		{"a stroke across a tenth", 100, 160, true},
	} {
		r := image.Rect(10, 5, 610, 145) // not at the origin
		gray, nrgba, rgba := image.NewGray(r), image.NewNRGBA(r), image.NewRGBA(r)
		for _, img := range []interface{ Set(x, y int, c color.Color) }{gray, nrgba, rgba} {
			for y := r.Min.Y; y < r.Max.Y; y++ {
				for x := r.Min.X; x < r.Max.X; x++ {
					img.Set(x, y, color.White)
				}
			}
			for x := r.Min.X + c.x0; x < r.Min.X+c.x1; x++ {
				img.Set(x, 70, color.Black)
			}
		}
		sub := image.NewGray(image.Rect(0, 0, 700, 200))
		for i := range sub.Pix {
			sub.Pix[i] = 255
		}
		for x := r.Min.X + c.x0; x < r.Min.X+c.x1; x++ {
			sub.Set(x, 70, color.Black)
		}
		for name, img := range map[string]image.Image{"gray": gray, "nrgba": nrgba, "rgba": rgba, "gray sub-image": sub.SubImage(r)} {
			if got := signatureInk(img); got != c.want {
				t.Errorf("%s on %s: ink %v, want %v", c.name, name, got, c.want)
			}
		}
	}
}

// anyImage hides an image's type, so signatureInk reads it pixel by pixel
// through the image.Image interface.
type anyImage struct{ image.Image }

// TestSignatureInkWordsAgreeWithPixels: the grey and NRGBA rows, skipped
// 32 bytes at a time while they hold only paper, find the same ink (its
// count and its box) as the reading of every pixel does — on pads of odd
// widths (a row's last pixels outside any stretch), with ink near the
// light/dark and transparent/opaque edges, and on a sub-image.
func TestSignatureInkWordsAgreeWithPixels(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	near := func(edge int) uint8 { return uint8(edge - 2 + rng.IntN(4)) } // 126..129
	for n := range 400 {
		w, h := 1+rng.IntN(100), 1+rng.IntN(6)
		r := image.Rect(rng.IntN(3), rng.IntN(3), 0, 0)
		r.Max = r.Min.Add(image.Pt(w, h))
		gray, nrgba := image.NewGray(r), image.NewNRGBA(r)
		transparent := rng.IntN(2) == 0 // a canvas's paper, or white
		for i := range gray.Pix {
			gray.Pix[i] = 255
		}
		for i := 0; i < len(nrgba.Pix); i += 4 {
			if transparent {
				copy(nrgba.Pix[i:], []byte{0, 0, 0, 0})
			} else {
				copy(nrgba.Pix[i:], []byte{255, 255, 255, 255})
			}
		}
		// A stroke long enough to count, or a few dots that do not,
		// with values at the edges of ink.
		dots := 1 + rng.IntN(3)
		if rng.IntN(2) == 0 {
			dots = w
		}
		y := r.Min.Y + rng.IntN(h)
		for k := range dots {
			x := r.Min.X + (k+rng.IntN(2))%w
			gray.SetGray(x, y, color.Gray{Y: near(128)})
			nrgba.SetNRGBA(x, y, color.NRGBA{R: near(128), G: near(128), B: near(128), A: near(128)})
		}
		for name, pair := range map[string][2]image.Image{
			"gray":  {gray, anyImage{gray}},
			"nrgba": {nrgba, anyImage{nrgba}},
		} {
			if got, want := inkOf(pair[0]), inkOf(pair[1]); got != want {
				t.Fatalf("case %d, %s %dx%d at %v: rows find %+v, pixels %+v", n, name, w, h, r.Min, got, want)
			}
		}
		if w > 2 && h > 1 {
			sub := image.Rect(r.Min.X+1, r.Min.Y, r.Max.X-1, r.Max.Y)
			g := gray.SubImage(sub)
			if got, want := inkOf(g), inkOf(anyImage{g}); got != want {
				t.Fatalf("case %d, gray sub-image: rows find %+v, pixels %+v", n, got, want)
			}
		}
	}
}

// BenchmarkSignatureInk measures the ink check on the load client's
// signature (testkit.Signature): 600 by 140 grey pixels.
func BenchmarkSignatureInk(b *testing.B) {
	url, err := testkit.Signature()
	if err != nil {
		b.Fatal(err)
	}
	raw, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(url, "data:image/png;base64,"))
	if err != nil {
		b.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(raw))
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if !signatureInk(img) {
			b.Fatal("no ink")
		}
	}
}
