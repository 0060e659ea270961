package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/chairside/chairside/demo"
)

// TestStaffCommands adds staff the two ways an operator does (password on
// standard input, setup link), signs both in over HTTP, then disables one.
func TestStaffCommands(t *testing.T) {
	dir := t.TempDir()
	db, keyFile := filepath.Join(dir, "c.db"), filepath.Join(dir, "keys.json")
	first := startMainAt(t, db, keyFile) // creates and seeds the database
	first.Close()
	ctx := context.Background()
	base := []string{"-db", db, "-key-file", keyFile}

	var out bytes.Buffer
	err := runStaff(ctx, append([]string{"add", "-entity-key", demo.EntityKey, "-email", "Desk@Example.com"}, base...),
		strings.NewReader("correct horse battery staple\n"), &out, io.Discard)
	if err != nil || !strings.Contains(out.String(), "Added desk@example.com") {
		t.Fatalf("staff add: %v\n%s", err, out.String())
	}
	err = runStaff(ctx, append([]string{"add", "-entity-key", demo.EntityKey, "-email", "short@example.com"}, base...),
		strings.NewReader("too short\n"), io.Discard, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "at least 12") {
		t.Fatalf("short password: %v", err)
	}
	out.Reset()
	err = runStaff(ctx, append([]string{"add", "-entity-key", demo.EntityKey, "-email", "manager@example.com", "-setup-link",
		"-public-url", "https://office.example/"}, base...), strings.NewReader(""), &out, io.Discard)
	link := regexp.MustCompile(`https://office\.example/office/setup/([A-Za-z0-9_-]{43})\n`).FindStringSubmatch(out.String())
	if err != nil || link == nil {
		t.Fatalf("setup link: %v\n%s", err, out.String())
	}

	m := startMainAt(t, db, keyFile)
	post := func(path, body string) int {
		res, err := http.Post(m.URL()+"/api/v1"+path, "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res.StatusCode
	}
	if got := post("/office/session", `{"email":"desk@example.com","password":"correct horse battery staple"}`); got != 200 {
		t.Fatalf("sign-in with the password from stdin: %d", got)
	}
	if got := post("/office/setup/"+link[1], `{"password":"another good password"}`); got != 204 {
		t.Fatalf("setup link: %d", got)
	}
	if got := post("/office/session", `{"email":"manager@example.com","password":"another good password"}`); got != 200 {
		t.Fatalf("sign-in after setup: %d", got)
	}
	if err := runStaff(ctx, append([]string{"disable", "-email", "desk@example.com"}, base...), nil, io.Discard, io.Discard); err != nil {
		t.Fatal(err)
	}
	if got := post("/office/session", `{"email":"desk@example.com","password":"correct horse battery staple"}`); got != 401 {
		t.Fatalf("sign-in after disable: %d, want 401", got)
	}

	// The way back for a forgotten password or a lost second factor.
	out.Reset()
	err = runStaff(ctx, append([]string{"setup-link", "-email", "MANAGER@example.com", "-public-url", "https://office.example"}, base...), nil, &out, io.Discard)
	if err != nil || !regexp.MustCompile(`https://office\.example/office/setup/[A-Za-z0-9_-]{43}\n`).MatchString(out.String()) {
		t.Fatalf("setup-link: %v\n%s", err, out.String())
	}
	if err := runStaff(ctx, append([]string{"setup-link", "-email", "desk@example.com"}, base...), nil, io.Discard, io.Discard); err == nil ||
		!strings.Contains(err.Error(), "disabled") {
		t.Fatalf("setup-link for a disabled account: %v", err)
	}
	out.Reset()
	if err := runStaff(ctx, append([]string{"reset-second-factor", "-email", "manager@example.com"}, base...), nil, &out, io.Discard); err != nil ||
		!strings.Contains(out.String(), "Reset the second factor of manager@example.com") {
		t.Fatalf("reset-second-factor: %v %s", err, out.String())
	}
	if err := runStaff(ctx, append([]string{"reset-second-factor", "-email", "nobody@example.com"}, base...), nil, io.Discard, io.Discard); err == nil ||
		!strings.Contains(err.Error(), "No staff member") {
		t.Fatalf("reset-second-factor of nobody: %v", err)
	}
	err = runStaff(ctx, append([]string{"add", "-entity-key", demo.EntityKey, "-email", "owner@example.com", "-role", "owner", "-setup-link"}, base...),
		nil, io.Discard, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "role") {
		t.Fatalf("an unknown role: %v", err)
	}
}
