// Package testkit holds what the tests of several packages share, so each
// exists once: inputs a patient's browser would send (a signature image,
// applicants), a client that walks a patient through the API over HTTP,
// and a buffer safe to write from a server's goroutines. It is imported
// only by tests.
package testkit

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"
	"math/rand/v2"
	"testing"
)

// SignaturePNG returns a data URL of a black-and-white, signature-like PNG
// larger than the 3000 bytes a signature needs.
func SignaturePNG(t testing.TB) string {
	t.Helper()
	s, err := Signature()
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// Signature is SignaturePNG for programs (the load client of
// cmd/chairside-bench).
func Signature() (string, error) {
	img := image.NewGray(image.Rect(0, 0, 600, 140))
	for i := range img.Pix {
		img.Pix[i] = 255
	}
	// Three wavy strokes with a deterministic jitter, like a hand-drawn
	// signature, so the PNG does not compress to almost nothing.
	rng := rand.New(rand.NewPCG(1, 2))
	for stroke := range 3 {
		for x := 20; x < 580; x++ {
			f := float64(x) / float64(11+7*stroke)
			y := 70 + int(35*math.Sin(f)*math.Cos(f/3)) + rng.IntN(5) - 2
			for dy := -1; dy <= 1; dy++ {
				img.Set(x, y+dy, color.Gray{})
			}
		}
	}
	var raw bytes.Buffer
	if err := png.Encode(&raw, img); err != nil {
		return "", err
	}
	if raw.Len() <= 3000 {
		return "", fmt.Errorf("signature PNG is only %d bytes", raw.Len())
	}
	return "data:image/png;base64," + base64.StdEncoding.EncodeToString(raw.Bytes()), nil
}
