package testkit

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"testing"

	"github.com/fxamacker/cbor/v2"
)

// Authenticator is a passkey authenticator in software, answering as a
// phone's or a laptop's would: an ES256 key per credential, attestation
// "none", user presence and verification always given, a counter that
// moves with each use. Its answers are WebAuthn's JSON form
// (PublicKeyCredential.toJSON()), for the options our server answers.
type Authenticator struct {
	// Origin is the page the browser would be on; RPID the relying party
	// it answers for.
	Origin, RPID string
	keys         map[string]*ecdsa.PrivateKey // by credential id
	users        map[string][]byte            // the user handle each was made for
	count        uint32
}

var b64 = base64.RawURLEncoding

// Copy is an authenticator holding the same credentials that answers as
// if on origin for rpID: a phishing page's.
func (a *Authenticator) Copy(origin, rpID string) *Authenticator {
	return &Authenticator{Origin: origin, RPID: rpID, keys: a.keys, users: a.users, count: a.count}
}

// ceremony reads what an answer needs of a ceremony's options.
type ceremony struct {
	Challenge string `json:"challenge"`
	User      struct {
		ID string `json:"id"`
	} `json:"user"`
	AllowCredentials []struct {
		ID string `json:"id"`
	} `json:"allowCredentials"`
}

func read(t testing.TB, options []byte) ceremony {
	t.Helper()
	var c ceremony
	if err := json.Unmarshal(options, &c); err != nil {
		t.Fatalf("passkey options: %v: %s", err, options)
	}
	return c
}

// Allowed are the credential ids an assertion's options allow.
func (a *Authenticator) Allowed(t testing.TB, options []byte) []string {
	var ids []string
	for _, c := range read(t, options).AllowCredentials {
		ids = append(ids, c.ID)
	}
	return ids
}

func (a *Authenticator) clientData(kind, challenge string) []byte {
	buf, _ := json.Marshal(map[string]any{"type": kind, "challenge": challenge, "origin": a.Origin, "crossOrigin": false})
	return buf
}

// authData is the authenticator data: the RP id's hash, the flags (user
// present and verified, and attested data when given) and the counter.
func (a *Authenticator) authData(attested []byte) []byte {
	h := sha256.Sum256([]byte(a.RPID))
	flags := byte(0x01 | 0x04)
	if attested != nil {
		flags |= 0x40
	}
	a.count++
	out := binary.BigEndian.AppendUint32(append(h[:], flags), a.count)
	return append(out, attested...)
}

// Create answers registration options with a new credential.
func (a *Authenticator) Create(t testing.TB, options []byte) []byte {
	t.Helper()
	c := read(t, options)
	user, _ := b64.DecodeString(c.User.ID)
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	id := make([]byte, 16)
	_, _ = rand.Read(id)
	if a.keys == nil {
		a.keys, a.users = map[string]*ecdsa.PrivateKey{}, map[string][]byte{}
	}
	a.keys[b64.EncodeToString(id)], a.users[b64.EncodeToString(id)] = key, user
	pub, _ := key.PublicKey.ECDH()
	raw := pub.Bytes() // 0x04 | x | y
	cose, _ := cbor.Marshal(map[int]any{1: 2, 3: -7, -1: 1, -2: raw[1:33], -3: raw[33:]})
	attested := append(make([]byte, 16), byte(len(id)>>8), byte(len(id)))
	attested = append(append(attested, id...), cose...)
	obj, _ := cbor.Marshal(map[string]any{"fmt": "none", "attStmt": map[string]any{}, "authData": a.authData(attested)})
	cred, _ := json.Marshal(map[string]any{"id": b64.EncodeToString(id), "rawId": b64.EncodeToString(id), "type": "public-key",
		"response": map[string]any{"clientDataJSON": b64.EncodeToString(a.clientData("webauthn.create", c.Challenge)),
			"attestationObject": b64.EncodeToString(obj)}})
	return cred
}

// Get answers assertion options with one of its credentials.
func (a *Authenticator) Get(t testing.TB, options []byte) []byte {
	t.Helper()
	c := read(t, options)
	var id string
	for k := range a.keys {
		id = k
	}
	data := a.authData(nil)
	cd := a.clientData("webauthn.get", c.Challenge)
	cdHash := sha256.Sum256(cd)
	sum := sha256.Sum256(append(append([]byte{}, data...), cdHash[:]...))
	sig, err := ecdsa.SignASN1(rand.Reader, a.keys[id], sum[:])
	if err != nil {
		t.Fatal(err)
	}
	cred, _ := json.Marshal(map[string]any{"id": id, "rawId": id, "type": "public-key",
		"response": map[string]any{"clientDataJSON": b64.EncodeToString(cd), "authenticatorData": b64.EncodeToString(data),
			"signature": b64.EncodeToString(sig), "userHandle": b64.EncodeToString(a.users[id])}})
	return cred
}
