package office

import (
	"strings"
	"testing"

	"github.com/chairside/chairside"
)

func TestHashPassword(t *testing.T) {
	h := HashPassword("correct horse battery staple")
	if !strings.HasPrefix(h, "$argon2id$v=19$m=19456,t=2,p=1$") {
		t.Fatalf("hash %q does not record argon2id and its parameters", h)
	}
	if h2 := HashPassword("correct horse battery staple"); h2 == h {
		t.Fatal("two hashes of one password are equal: no random salt")
	}
	if !VerifyPassword(h, "correct horse battery staple") {
		t.Fatal("the right password is refused")
	}
	for _, wrong := range []string{"", "correct horse battery stapl", "Correct horse battery staple"} {
		if VerifyPassword(h, wrong) {
			t.Fatalf("%q accepted", wrong)
		}
	}
	// The parameters are read from the hash: one made with others still
	// verifies, and a damaged one never does.
	parts := strings.Split(h, "$")
	for _, bad := range []string{"", "plain", strings.Replace(h, "argon2id", "argon2i", 1),
		strings.Join(append(parts[:3:3], "m=19456,t=3,p=1", parts[4], parts[5]), "$"),
		strings.Join(append(parts[:3:3], "m=99999999,t=2,p=1", parts[4], parts[5]), "$")} {
		if VerifyPassword(bad, "correct horse battery staple") {
			t.Fatalf("damaged hash %q accepted", bad)
		}
	}
}

func TestCheckPassword(t *testing.T) {
	for pw, ok := range map[string]bool{
		"elevenchars":                  false,
		"twelve chars":                 true,
		"Desk@Example.com":             false, // the email, any case
		strings.Repeat("x", 257):       false,
		"correct horse battery staple": true,
	} {
		err := CheckPassword("desk@example.com", pw)
		if (err == nil) != ok {
			t.Errorf("CheckPassword(%q) = %v, want ok=%v", pw, err, ok)
		}
		if err != nil && chairside.ErrorCode(err) != chairside.EINVALID {
			t.Errorf("CheckPassword(%q) code %s", pw, chairside.ErrorCode(err))
		}
	}
}
