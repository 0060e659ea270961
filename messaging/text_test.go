package messaging

import (
	"net/url"
	"strings"
	"testing"
)

// A link as long as a real one: a public URL and a one-time token.
var link = ShortLink("https://chairside.lakecountry.example/", "jG4VfU8NXwt-aBrucYUkxw")

func TestInviteTextIsOneMessage(t *testing.T) {
	for _, c := range []struct{ lang, practice, starts string }{
		{"en", "Maple Street Dental", "Maple Street Dental: apply for treatment financing"},
		{"es", "Clínica Dental Sonrisa Feliz del Valle de Guadalupe", "Clinica Dental"},
		{"en", "Dr. O’Brien’s Family & Cosmetic Dentistry of Greater Springfield", "Dr. O'Brien's"},
	} {
		got, ok := InviteText(c.lang, c.practice, link)
		if !ok {
			t.Fatalf("%s %q: no text", c.lang, c.practice)
		}
		n, gsm := GSMLength(got)
		if !gsm || n > SegmentChars {
			t.Errorf("%q: %d characters, GSM-7 %v", got, n, gsm)
		}
		if !strings.HasPrefix(got, c.starts) || !strings.Contains(got, " "+link+" ") || !strings.Contains(got, "STOP") {
			t.Errorf("%q: the practice, the whole link and how to stop", got)
		}
	}
	es, _ := InviteText("es", "Sonrisa", link)
	if !strings.HasSuffix(link, ".example/i/jG4VfU8NXwt-aBrucYUkxw") || !strings.Contains(es, "solicite financiamiento") || !strings.Contains(es, "Responda STOP") {
		t.Errorf("Spanish: %q", es)
	}
	if _, ok := InviteText("en", "Maple", link+strings.Repeat("x", 60)); ok {
		t.Error("a link that leaves no room for the practice's name still made a text")
	}
}

func TestGSMLength(t *testing.T) {
	for s, want := range map[string]int{"abc": 3, "€": 2, "[x]": 5, "ñandú": -1, "ñandu": 5} {
		n, ok := GSMLength(s)
		if (want < 0) != !ok || (ok && n != want) {
			t.Errorf("%q: %d %v, want %d", s, n, ok, want)
		}
	}
	if got := ToGSM("Consultorio “Sonrisa” – José Núñez 😀"); got != "Consultorio \"Sonrisa\" - José Nuñez " {
		t.Errorf("ToGSM: %q", got)
	}
}

func TestKeyword(t *testing.T) {
	for body, want := range map[string]string{
		"STOP": ReplyStop, " stop. ": ReplyStop, "Unsubscribe": ReplyStop, "STOP please": ReplyStop, "Stop texting me!": ReplyStop,
		"quit": ReplyStop, "ALTO": ReplyStop, "start": ReplyStart, "UNSTOP": ReplyStart, "Help?": ReplyHelp,
		"Thanks, see you Tuesday": "", "stopped by yesterday": "", "": "",
	} {
		if got := Keyword(body); got != want {
			t.Errorf("%q: %q, want %q", body, got, want)
		}
	}
}

// TestSignature follows the worked example of Twilio's webhook security
// documentation (auth token 12345) for the signature: the
// URL and the sorted parameters under the auth token. A changed
// parameter, URL or token does not verify.
func TestSignature(t *testing.T) {
	u := "https://mycompany.com/myapp.php?foo=1&bar=2"
	params := url.Values{"CallSid": {"CA1234567890ABCDE"}, "Caller": {"+14158675310"}, "Digits": {"1234"},
		"From": {"+14158675310"}, "To": {"+18005551212"}}
	const token = "12345"
	if got := Sign(token, u, params); got != "GvWf1cFY/Q7PnoempGyD5oXAezc=" {
		t.Errorf("signature %s", got)
	}
	sig := Sign(token, u, params)
	if !Verify([]string{"old", token}, u, params, sig) {
		t.Error("a good signature under the second token failed")
	}
	params.Set("Digits", "9999")
	if Verify([]string{token}, u, params, sig) || Verify([]string{token}, u+"&x=1", nil, sig) || Verify([]string{"other"}, u, params, sig) ||
		Verify([]string{token}, u, params, "") {
		t.Error("a changed request verified")
	}
}
