package messaging

import "strings"

// Replies a patient's text can mean (Keyword).
const (
	ReplyStop  = "stop"
	ReplyStart = "start"
	ReplyHelp  = "help"
)

// stopWords are the replies that end texts from a sender: the carriers'
// keywords and the ways of saying it the TCPA counts as a revocation,
// in English and Spanish.
var stopWords = map[string]bool{
	"stop": true, "stopall": true, "unsubscribe": true, "cancel": true, "end": true, "quit": true,
	"revoke": true, "opt out": true, "optout": true, "stop texting me": true, "stop texting": true,
	"no more texts": true, "do not text": true, "dont text me": true, "don't text me": true,
	"alto": true, "parar": true, "no mas": true, "no más": true, "cancelar": true, "basta": true,
}

var startWords = map[string]bool{"start": true, "yes": true, "unstop": true, "si": true, "sí": true}

var helpWords = map[string]bool{"help": true, "info": true, "ayuda": true}

// Keyword reads a patient's reply: stop, start or help, or "" for
// anything else. Case, spaces and end punctuation do not matter; a reply
// that starts with a stop word followed by more words ("STOP please")
// still stops.
func Keyword(body string) string {
	s := strings.ToLower(strings.TrimSpace(body))
	s = strings.TrimRight(s, ".!¡? ")
	s = strings.Join(strings.Fields(s), " ")
	switch {
	case stopWords[s]:
		return ReplyStop
	case startWords[s]:
		return ReplyStart
	case helpWords[s]:
		return ReplyHelp
	}
	if first, _, ok := strings.Cut(s, " "); ok && stopWords[first] {
		return ReplyStop
	}
	return ""
}
