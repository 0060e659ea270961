// Package messaging sends invitations to patients by text and email and
// follows what becomes of them (docs/behaviour.md, "Texts and emails"):
// the words of a text within one message, the Twilio Messaging API and its
// signed status callbacks, and the keywords a patient replies with.
package messaging

import (
	"strings"
	"unicode/utf8"
)

// SegmentChars is how many GSM-7 characters one text message carries. A
// longer text is split, and a link split across messages is the first
// thing patients complain of; so an invitation is one message.
const SegmentChars = 160

// gsmBasic is the GSM 03.38 default alphabet; gsmExtended the characters
// it carries as two (an escape and the character).
const (
	gsmBasic    = "@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !\"#¤%&'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà"
	gsmExtended = "^{}\\[~]|€\f"
)

// folds are the characters a text replaces so that it stays in GSM-7 (a
// single character outside it would make the whole message UCS-2, 70
// characters long): Spanish accents the alphabet lacks, typographic
// quotes and dashes.
var folds = strings.NewReplacer(
	"á", "a", "í", "i", "ó", "o", "ú", "u", "Á", "A", "Í", "I", "Ó", "O", "Ú", "U", "ê", "e", "ç", "c",
	"’", "'", "‘", "'", "“", "\"", "”", "\"", "–", "-", "—", "-", "…", "...", "\u00a0", " ",
)

// GSMLength is how many GSM-7 characters s takes, and false when s has a
// character GSM-7 cannot carry.
func GSMLength(s string) (int, bool) {
	n := 0
	for _, r := range s {
		switch {
		case strings.ContainsRune(gsmBasic, r):
			n++
		case strings.ContainsRune(gsmExtended, r):
			n += 2
		default:
			return 0, false
		}
	}
	return n, true
}

// ToGSM is s in GSM-7: folded, and with any character still outside the
// alphabet dropped.
func ToGSM(s string) string {
	s = folds.Replace(s)
	var b strings.Builder
	for _, r := range s {
		if _, ok := GSMLength(string(r)); ok {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// inviteWords are an invitation's words in each language: the practice's
// name goes first, the link after what it is for, the way to stop last.
var inviteWords = map[string]struct{ lead, stop string }{
	"en": {": apply for treatment financing: ", " Reply STOP to opt out"},
	"es": {": solicite financiamiento dental: ", " Responda STOP para no recibir mas"},
}

// minPracticeChars is the shortest a practice's name is cut to before the
// text gives up on fitting (the patient must know who writes).
const minPracticeChars = 12

// InviteText is the text of an invitation in language ("es" or English):
// the practice's name, what the link is for, the link whole (the short
// one, ShortLink) and last but for how to stop. It fits one message: a long practice name is cut; a
// text that cannot fit even so answers false.
func InviteText(language, practice, link string) (string, bool) {
	w, ok := inviteWords[language]
	if !ok {
		w = inviteWords["en"]
	}
	practice = strings.TrimSpace(ToGSM(practice))
	fixed, ok := GSMLength(w.lead + link + w.stop)
	if !ok {
		return "", false
	}
	room := SegmentChars - fixed
	if room < minPracticeChars {
		return "", false
	}
	if n, _ := GSMLength(practice); n > room {
		practice = cut(practice, room)
	}
	return practice + w.lead + link + w.stop, true
}

// cut shortens s to at most n GSM-7 characters, ending with "." when it
// was cut.
func cut(s string, n int) string {
	out := ""
	for _, r := range s {
		next := out + string(r)
		if l, _ := GSMLength(next + "."); l > n {
			break
		}
		out = next
	}
	if utf8.RuneCountInString(out) < utf8.RuneCountInString(s) {
		out = strings.TrimRight(out, " ") + "."
	}
	return out
}

// ShortLink is an invitation's link as a text carries it: base/i/{token},
// which leads to the start page (base/start/tokens/{token}).
func ShortLink(base, token string) string {
	return strings.TrimSuffix(base, "/") + "/i/" + token
}
