package messaging

import (
	"crypto/hmac"
	"crypto/sha1" // #nosec G505 -- Twilio signs its callbacks with HMAC-SHA1; we check, we choose nothing.
	"encoding/base64"
	"net/url"
	"sort"
)

// SignatureHeader is where Twilio puts a request's signature.
const SignatureHeader = "X-Twilio-Signature"

// Sign is Twilio's signature of a form POST to fullURL (as the provider
// called it, scheme, host, path and query): the Base64 of HMAC-SHA1 under
// the auth token over the URL followed by each parameter's name and
// value, sorted by name.
func Sign(authToken, fullURL string, params url.Values) string {
	names := make([]string, 0, len(params))
	for k := range params {
		names = append(names, k)
	}
	sort.Strings(names)
	mac := hmac.New(sha1.New, []byte(authToken))
	mac.Write([]byte(fullURL))
	for _, k := range names {
		vs := append([]string(nil), params[k]...)
		sort.Strings(vs)
		for _, v := range vs {
			mac.Write([]byte(k + v))
		}
	}
	return base64.StdEncoding.EncodeToString(mac.Sum(nil))
}

// Verify reports whether signature is the signature of the request under
// any of the auth tokens (more than one while an account's token is
// rotated), compared in constant time.
func Verify(authTokens []string, fullURL string, params url.Values, signature string) bool {
	if signature == "" {
		return false
	}
	for _, t := range authTokens {
		if t != "" && hmac.Equal([]byte(Sign(t, fullURL, params)), []byte(signature)) {
			return true
		}
	}
	return false
}
