package sandbox

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base32"
	"encoding/binary"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/chairside/chairside"
)

// A sandbox lenderApplicationId carries everything the later calls need,
// so that any Sandbox value (this process, a restarted one, another server
// copy) answers for it without having seen the Decide:
//
//	SBX-<abbr>-<payload>-<mac>     e.g. SBX-SYN-AEYQGRKQGQACMJNAAAAAAAG6H2ARLKDW-NO67LYKE
//
// payload is 20 bytes in standard base32 without padding (32 characters):
//
//	0      format version: idVersion, or idVersionHeld for an approval
//	       whose funding the lender will hold for a review (funding.go)
//	1      operation (high 4 bits) and outcome (low 4 bits): indexes of
//	       idOps and idOutcomes
//	2–3    simulated credit score, uint16
//	4–5    UTC date of the decision, days since 1970-01-01, uint16
//	6–9    approved amount in cents, uint32 (for pending-then-approved and
//	       pending-income the amount the approval will carry)
//	10–13  down payment in cents, uint32
//	14–19  the first 6 bytes of SHA-256(providerKey NUL reference), so that
//	       two attempts never share an id
//
// mac is the first 5 bytes of HMAC-SHA256(idKey, providerKey NUL payload),
// in base32 (8 characters). An id is at most 49 characters, upper case
// letters, digits 2–7 and '-': URL-safe as it is.
const (
	idVersion     = 1
	idVersionHeld = 2
	idPayloadSize = 20
	idMACSize     = 5
)

// idKey signs sandbox lenderApplicationIds. It is a fixed constant on
// purpose: this is the sandbox, not a lender, there is nothing secret to
// protect, and every copy of the server (and every restart) must accept the
// ids of every other without sharing configuration. The MAC makes an id
// tamper-evident (an edited amount, score or outcome is refused as unknown),
// not unforgeable by someone who reads this source. A real lender keeps its
// applications on its own side and needs none of this.
var idKey = []byte("chairside sandbox lenderApplicationId key v1 (not a secret)")

// idOps and idOutcomes number what a payload records; index 0 is invalid.
var (
	idOps      = []string{"", "prequalify", "prescreen", "apply"}
	idOutcomes = []string{"",
		OutcomeApproved, chairside.ResponsePrequalified, chairside.ResponsePreapproved, OutcomeExisting,
		OutcomeDeclined, OutcomeNoOffer, OutcomeError, OutcomePending, OutcomePendingThenApproved,
		OutcomePendingIncome, OutcomeUnderReview, OutcomePendingReview, OutcomeExpired,
		OutcomeExistingLowLimit, OutcomeBadPlan,
	}
)

var idEncoding = base32.StdEncoding.WithPadding(base32.NoPadding)

// record is what a lenderApplicationId says about an application: all the
// sandbox knows of it after Decide.
type record struct {
	op            string // prequalify, prescreen, apply
	outcome       string // one of idOutcomes
	score         int    // the simulated credit score (plans depend on it)
	day           int64  // UTC date of the decision, days since the Unix epoch
	approvedCents int64
	downCents     int64
	ref           [6]byte // from the lender key and our Reference
	fundingHeld   bool    // the funding will be held for a review
}

// dayOf returns the UTC date of t in days since the Unix epoch, or
// EBADREQUEST when an id cannot hold it (before 1970 or after 2149).
func dayOf(t time.Time) (int64, error) {
	s := t.Unix()
	if s < 0 || s/86400 > math.MaxUint16 {
		return 0, chairside.Errorf(chairside.EBADREQUEST, "The request time is out of range.")
	}
	return s / 86400, nil
}

// date is the start (00:00 UTC) of the decision's date.
func (r record) date() time.Time { return time.Unix(r.day*86400, 0).UTC() }

// expires is when a positive answer expires: the end (23:59:59 UTC) of the
// day days after the decision's date. Only the date is recorded, so the
// expiry is a date too, the same in Decide's answer and every later one.
func (r record) expires(days int) time.Time {
	return r.date().AddDate(0, 0, days+1).Add(-time.Second)
}

func refHash(lenderKey, reference string) (h [6]byte) {
	sum := sha256.Sum256([]byte(lenderKey + "\x00" + reference))
	copy(h[:], sum[:])
	return h
}

// idPrefix is the start of every id of this lender's applications.
func (l *lender) idPrefix() string { return "SBX-" + l.prod.abbr + "-" }

func (l *lender) idMAC(payload []byte) []byte {
	m := hmac.New(sha256.New, idKey)
	m.Write([]byte(l.p.Key))
	m.Write([]byte{0})
	m.Write(payload)
	return m.Sum(nil)[:idMACSize]
}

// encodeID returns the lenderApplicationId of a record. Amounts must fit in
// a uint32 and the day in a uint16 (Decide checks; products are far below).
func (l *lender) encodeID(r record) string {
	p := make([]byte, idPayloadSize)
	p[0] = idVersion
	if r.fundingHeld {
		p[0] = idVersionHeld
	}
	p[1] = byte(slices.Index(idOps, r.op))<<4 | byte(slices.Index(idOutcomes, r.outcome))
	binary.BigEndian.PutUint16(p[2:4], uint16(r.score))
	binary.BigEndian.PutUint16(p[4:6], uint16(r.day))
	binary.BigEndian.PutUint32(p[6:10], uint32(r.approvedCents))
	binary.BigEndian.PutUint32(p[10:14], uint32(r.downCents))
	copy(p[14:20], r.ref[:])
	return l.idPrefix() + idEncoding.EncodeToString(p) + "-" + idEncoding.EncodeToString(l.idMAC(p))
}

// parseID reads a lenderApplicationId of this lender. Anything else (another
// lender's id, a malformed, edited or unknown one) is ENOTFOUND, as a
// lender answers for an application it does not have.
func (l *lender) parseID(id string) (record, error) {
	notFound := chairside.Errorf(chairside.ENOTFOUND, "Unknown lender application.")
	rest, ok := strings.CutPrefix(id, l.idPrefix())
	if !ok {
		return record{}, notFound
	}
	enc, macEnc, ok := strings.Cut(rest, "-")
	if !ok || len(enc) != idEncoding.EncodedLen(idPayloadSize) || len(macEnc) != idEncoding.EncodedLen(idMACSize) {
		return record{}, notFound
	}
	p, err1 := idEncoding.DecodeString(enc)
	mac, err2 := idEncoding.DecodeString(macEnc)
	// The decoder skips newlines; only the canonical spelling is an id.
	if err1 != nil || err2 != nil || idEncoding.EncodeToString(p) != enc || idEncoding.EncodeToString(mac) != macEnc {
		return record{}, notFound
	}
	if !hmac.Equal(mac, l.idMAC(p)) || p[0] != idVersion && p[0] != idVersionHeld {
		return record{}, notFound
	}
	op, outcome := int(p[1]>>4), int(p[1]&0x0f)
	if op == 0 || op >= len(idOps) || outcome == 0 || outcome >= len(idOutcomes) {
		return record{}, notFound
	}
	r := record{
		op:            idOps[op],
		outcome:       idOutcomes[outcome],
		score:         int(binary.BigEndian.Uint16(p[2:4])),
		day:           int64(binary.BigEndian.Uint16(p[4:6])),
		approvedCents: int64(binary.BigEndian.Uint32(p[6:10])),
		downCents:     int64(binary.BigEndian.Uint32(p[10:14])),
		fundingHeld:   p[0] == idVersionHeld,
	}
	copy(r.ref[:], p[14:20])
	return r, nil
}
