package office

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net"
	"net/url"
	"time"

	"github.com/go-webauthn/webauthn/protocol"
	"github.com/go-webauthn/webauthn/webauthn"

	"github.com/chairside/chairside"
)

// Passkeys (WebAuthn, through go-webauthn): a staff member adds one to
// their account once signed in; it then answers the second factor after
// the password, or signs them in by itself, since a passkey asks for the
// device's own unlock (user verification) and so is two factors in one.
// Each ceremony's challenge is kept in the store until its one answer
// (docs/behaviour.md, "Two-step sign-in").

// passkeyTTL is how long a ceremony's challenge may be answered.
const passkeyTTL = 5 * time.Minute

const msgBadPasskey = "That passkey did not work. Try again, or use your code."

// PasskeyOptions is what the browser passes to navigator.credentials: the
// ceremony's options (publicKey, as WebAuthn's JSON form), and the id to
// send back with the answer.
type PasskeyOptions struct {
	CeremonyID string          `json:"ceremonyId"`
	Options    json.RawMessage `json:"options"`
}

// PasskeyAnswer is the browser's answer to a ceremony: its id, and the
// credential's JSON form (PublicKeyCredential.toJSON()).
type PasskeyAnswer struct {
	CeremonyID string          `json:"ceremonyId"`
	Credential json.RawMessage `json:"credential"`
}

// staffUser is a staff member as the WebAuthn library sees them: the
// account id as the user handle, never the email.
type staffUser struct {
	st    *chairside.Staff
	creds []webauthn.Credential
}

func (u staffUser) WebAuthnID() []byte                         { return []byte(u.st.ID) }
func (u staffUser) WebAuthnName() string                       { return u.st.Email }
func (u staffUser) WebAuthnDisplayName() string                { return u.st.Email }
func (u staffUser) WebAuthnCredentials() []webauthn.Credential { return u.creds }

// PasskeysAt says whether passkeys work for staff who reach us at base: a
// passkey belongs to a name (chairside.practice.example, localhost), never
// to an address such as 127.0.0.1 or 10.0.0.5.
func PasskeysAt(base string) bool {
	u, err := url.Parse(base)
	return err == nil && u.Hostname() != "" && net.ParseIP(u.Hostname()) == nil
}

// relyingParty is us as the browser's passkeys know us: the host of the
// address staff use (base), for that origin only.
func relyingParty(base string) (*webauthn.WebAuthn, error) {
	if !PasskeysAt(base) {
		return nil, chairside.Errorf(chairside.ECONFLICT, "Passkeys work when this server is reached by its name, not by a numeric address. Use your code instead.")
	}
	u, _ := url.Parse(base)
	return webauthn.New(&webauthn.Config{
		RPID: u.Hostname(), RPDisplayName: "Chairside", RPOrigins: []string{u.Scheme + "://" + u.Host},
		AuthenticatorSelection: protocol.AuthenticatorSelection{
			ResidentKey: protocol.ResidentKeyRequirementRequired, UserVerification: protocol.VerificationRequired,
		},
	})
}

// party is the relying party at base and st as it knows them.
func (s *Service) party(ctx context.Context, st *chairside.Staff, base string) (*webauthn.WebAuthn, staffUser, error) {
	rp, err := relyingParty(base)
	if err != nil {
		return nil, staffUser{}, err
	}
	u, err := s.userOf(ctx, st)
	return rp, u, err
}

// userOf is st with their passkeys.
func (s *Service) userOf(ctx context.Context, st *chairside.Staff) (staffUser, error) {
	keys, err := s.store.ListStaffPasskeys(ctx, st.ID)
	if err != nil {
		return staffUser{}, err
	}
	u := staffUser{st: st}
	for _, k := range keys {
		var c webauthn.Credential
		if err := json.Unmarshal(k.Credential, &c); err != nil {
			return staffUser{}, fmt.Errorf("office: passkey %s: %w", k.ID, err)
		}
		u.creds = append(u.creds, c)
	}
	return u, nil
}

// BeginPasskey starts adding a passkey to the caller's account: allowed
// once signed in, and while a second factor is to be set up.
func (s *Service) BeginPasskey(ctx context.Context, c *Caller, base string) (*PasskeyOptions, error) {
	if c.Stage == StageSecondFactor {
		return nil, c.Allow(SeeDay)
	}
	rp, u, err := s.party(ctx, c.Staff, base)
	if err != nil {
		return nil, err
	}
	creation, data, err := rp.BeginRegistration(u, webauthn.WithExclusions(webauthn.Credentials(u.creds).CredentialDescriptors()))
	if err != nil {
		return nil, fmt.Errorf("office: begin passkey: %w", err)
	}
	return s.ceremony(ctx, chairside.PasskeyRegister, c, data, creation.Response)
}

// FinishPasskey keeps the passkey the browser made. When it is the
// account's first second factor, this session has passed it and the
// answer holds the recovery codes, shown once; otherwise no codes.
func (s *Service) FinishPasskey(ctx context.Context, c *Caller, base string, a PasskeyAnswer) (*RecoveryCodes, error) {
	cer, err := s.takeCeremony(ctx, chairside.PasskeyRegister, c, a.CeremonyID)
	if err != nil {
		return nil, err
	}
	rp, u, err := s.party(ctx, c.Staff, base)
	if err != nil {
		return nil, err
	}
	parsed, err := protocol.ParseCredentialCreationResponseBytes(a.Credential)
	if err != nil {
		return nil, chairside.Errorf(chairside.EBADREQUEST, msgBadPasskey)
	}
	cred, err := rp.CreateCredential(u, cer, parsed)
	if err != nil {
		return nil, chairside.Errorf(chairside.EUNAUTHORIZED, msgBadPasskey)
	}
	rec, _ := json.Marshal(cred)
	now := s.Now()
	if err := s.store.AddStaffPasskey(ctx, &chairside.StaffPasskey{ID: base64.RawURLEncoding.EncodeToString(cred.ID),
		StaffID: c.Staff.ID, Credential: rec, CreatedAt: now}); err != nil {
		return nil, err
	}
	s.did(ctx, c, chairside.AuditPasskeyAdded, "passkey")
	if c.Staff.HasSecondFactor() {
		return &RecoveryCodes{Codes: []string{}}, nil
	}
	codes, hashes := newRecoveryCodes()
	if err := s.store.ReplaceRecoveryCodes(ctx, c.Staff.ID, hashes); err != nil {
		return nil, err
	}
	if err := s.store.PassStaffSessionSecondFactor(ctx, c.Session.IDHash, now); err != nil {
		return nil, err
	}
	return &RecoveryCodes{Codes: codes}, nil
}

// BeginPasskeyCheck asks for one of the caller's passkeys as the second
// factor after their password.
func (s *Service) BeginPasskeyCheck(ctx context.Context, c *Caller, base string) (*PasskeyOptions, error) {
	rp, u, err := s.party(ctx, c.Staff, base)
	if err != nil {
		return nil, err
	}
	if len(u.creds) == 0 {
		return nil, chairside.Errorf(chairside.ECONFLICT, "You have no passkey yet. Use the code from your authenticator app.")
	}
	assertion, data, err := rp.BeginLogin(u)
	if err != nil {
		return nil, fmt.Errorf("office: begin passkey check: %w", err)
	}
	return s.ceremony(ctx, chairside.PasskeyCheck, c, data, assertion.Response)
}

// FinishPasskeyCheck checks the passkey's answer; when good, this session
// has passed its second factor. Wrong answers count as wrong codes do.
func (s *Service) FinishPasskeyCheck(ctx context.Context, c *Caller, base string, a PasskeyAnswer) error {
	cer, err := s.takeCeremony(ctx, chairside.PasskeyCheck, c, a.CeremonyID)
	if err != nil {
		return err
	}
	rp, u, err := s.party(ctx, c.Staff, base)
	if err != nil {
		return err
	}
	now := s.Now()
	_, err = s.checkCode(ctx, c, "second-factor\x00"+c.Staff.ID+"\x00"+c.IP, now, func() (int64, bool) {
		parsed, err := protocol.ParseCredentialRequestResponseBytes(a.Credential)
		if err != nil {
			return 0, false
		}
		cred, err := rp.ValidateLogin(u, cer, parsed)
		return 0, err == nil && s.usedPasskey(ctx, cred, now) == nil
	})
	if err != nil {
		return err
	}
	if err := s.store.PassStaffSessionSecondFactor(ctx, c.Session.IDHash, now); err != nil {
		return err
	}
	s.did(ctx, c, chairside.AuditSecondFactor, "passkey")
	return nil
}

// BeginPasskeySignIn asks the browser for any passkey of ours: the person
// chooses theirs, no email typed.
func (s *Service) BeginPasskeySignIn(ctx context.Context, base string) (*PasskeyOptions, error) {
	rp, err := relyingParty(base)
	if err != nil {
		return nil, err
	}
	assertion, data, err := rp.BeginDiscoverableLogin()
	if err != nil {
		return nil, fmt.Errorf("office: begin passkey sign-in: %w", err)
	}
	return s.ceremony(ctx, chairside.PasskeySignIn, nil, data, assertion.Response)
}

// FinishPasskeySignIn signs in the staff member whose passkey answered,
// their second factor passed with it. An unknown or disabled account's
// passkey answers as a wrong one does.
func (s *Service) FinishPasskeySignIn(ctx context.Context, base string, a PasskeyAnswer, ip string) (*SignedIn, error) {
	cer, err := s.takeCeremony(ctx, chairside.PasskeySignIn, nil, a.CeremonyID)
	if err != nil {
		return nil, err
	}
	rp, err := relyingParty(base)
	if err != nil {
		return nil, err
	}
	parsed, err := protocol.ParseCredentialRequestResponseBytes(a.Credential)
	if err != nil {
		return nil, chairside.Errorf(chairside.EBADREQUEST, msgBadPasskey)
	}
	// Counted per the account the answer names and the client's address,
	// as a password is per email and address.
	now := s.Now()
	scope := chairside.HashSecret("passkey\x00" + string(parsed.Response.UserHandle) + "\x00" + ip)
	var st *chairside.Staff
	err = s.oneTry(ctx, scope, now, func() bool {
		_, cred, err := rp.ValidatePasskeyLogin(func(_, handle []byte) (webauthn.User, error) {
			found, err := s.store.FindStaffByID(ctx, string(handle))
			if err != nil {
				return nil, err
			}
			if found.DisabledAt != nil {
				return nil, fmt.Errorf("disabled")
			}
			st = found
			return s.userOf(ctx, found)
		}, cer, parsed)
		return err == nil && s.usedPasskey(ctx, cred, now) == nil
	}, func(locking bool) {
		s.audit(ctx, s.entryOf(st, chairside.AuditSignInFailed, ip, "passkey"))
		if locking {
			s.audit(ctx, s.entryOf(st, chairside.AuditLocked, ip, "passkey locked for 15 minutes"))
		}
	}, chairside.Errorf(chairside.EUNAUTHORIZED, msgBadPasskey))
	if err != nil {
		return nil, err
	}
	return s.openSession(ctx, st, ip, now, true)
}

// usedPasskey keeps the credential's record after a good answer: its
// signature counter, so that a cloned authenticator shows.
func (s *Service) usedPasskey(ctx context.Context, cred *webauthn.Credential, now time.Time) error {
	if cred.Authenticator.CloneWarning {
		return fmt.Errorf("office: passkey counter went back")
	}
	rec, err := json.Marshal(cred)
	if err != nil {
		return err
	}
	return s.store.UsedStaffPasskey(ctx, base64.RawURLEncoding.EncodeToString(cred.ID), rec, now)
}

// ceremony keeps a ceremony's session data for its answer and answers the
// options for the browser; c is nil for a sign-in.
func (s *Service) ceremony(ctx context.Context, kind string, c *Caller, data *webauthn.SessionData, options any) (*PasskeyOptions, error) {
	buf, err := json.Marshal(data)
	if err != nil {
		return nil, err
	}
	opts, err := json.Marshal(options)
	if err != nil {
		return nil, err
	}
	id := chairside.NewSecret(24)
	cer := &chairside.PasskeyCeremony{IDHash: chairside.HashSecret(id), Kind: kind, Data: buf, ExpiresAt: s.Now().Add(passkeyTTL)}
	if c != nil {
		cer.StaffID, cer.SessionHash = c.Staff.ID, c.Session.IDHash
	}
	if err := s.store.CreatePasskeyCeremony(ctx, cer, s.Now()); err != nil {
		return nil, err
	}
	return &PasskeyOptions{CeremonyID: id, Options: opts}, nil
}

// takeCeremony takes the ceremony with id, once, when it is of kind and
// was begun by this session (c nil: by nobody signed in).
func (s *Service) takeCeremony(ctx context.Context, kind string, c *Caller, id string) (webauthn.SessionData, error) {
	var data webauthn.SessionData
	ended := chairside.Errorf(chairside.ENOTFOUND, "This passkey request has ended. Try again.")
	if id == "" || len(id) > 128 {
		return data, ended
	}
	cer, err := s.store.TakePasskeyCeremony(ctx, chairside.HashSecret(id), s.Now())
	if chairside.ErrorCode(err) == chairside.ENOTFOUND {
		return data, ended
	} else if err != nil {
		return data, err
	}
	staff, session := "", ""
	if c != nil {
		staff, session = c.Staff.ID, c.Session.IDHash
	}
	if cer.Kind != kind || cer.StaffID != staff || cer.SessionHash != session {
		return data, ended
	}
	if err := json.Unmarshal(cer.Data, &data); err != nil {
		return data, fmt.Errorf("office: passkey ceremony: %w", err)
	}
	return data, nil
}
