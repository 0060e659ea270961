package httpapi

import (
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strings"
)

// The client's address (docs/operations.md, "Behind a proxy"). Behind a
// TLS proxy every connection comes from the proxy; the proxy says whose
// request it forwards in X-Forwarded-For, appending the address it
// received from. That header is believed only from a peer in
// Options.TrustedProxies, and then read from its right end: each trusted
// proxy's entry is skipped, and the first address no trusted proxy holds
// is the client (what a client writes itself stands left of it and is
// never read). The one address found is what the rate limit counts,
// consents and the office audit record.

// ParseProxies reads a list of trusted proxies: addresses or CIDR
// prefixes, separated by commas or spaces ("10.0.0.0/8, 192.0.2.7").
func ParseProxies(list string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, f := range strings.FieldsFunc(list, func(r rune) bool { return r == ',' || r == ' ' }) {
		if p, err := netip.ParsePrefix(f); err == nil {
			out = append(out, p.Masked())
			continue
		}
		a, err := netip.ParseAddr(f)
		if err != nil {
			return nil, fmt.Errorf("%q is not an address or a CIDR prefix", f)
		}
		out = append(out, netip.PrefixFrom(a.Unmap(), a.Unmap().BitLen()))
	}
	return out, nil
}

// clientIP answers the address of the client that made r.
func (h *Handler) clientIP(r *http.Request) string {
	peer := peerAddr(r)
	if len(h.opts.TrustedProxies) == 0 || !h.trusted(peer) {
		return addrString(peer, r.RemoteAddr)
	}
	hops := r.Header.Values("X-Forwarded-For")
	for i := len(hops) - 1; i >= 0; i-- {
		parts := strings.Split(hops[i], ",")
		for j := len(parts) - 1; j >= 0; j-- {
			a, err := netip.ParseAddr(strings.TrimSpace(parts[j]))
			if err != nil {
				return addrString(peer, r.RemoteAddr) // a garbled chain: the peer is all we know
			}
			if a = a.Unmap(); !h.trusted(a) {
				return a.String()
			}
		}
	}
	return addrString(peer, r.RemoteAddr)
}

// trusted reports whether a is one of the trusted proxies.
func (h *Handler) trusted(a netip.Addr) bool {
	if !a.IsValid() {
		return false
	}
	for _, p := range h.opts.TrustedProxies {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// peerAddr is the address of the connection's other end (invalid when
// RemoteAddr is not an address, as in some tests).
func peerAddr(r *http.Request) netip.Addr {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	a, _ := netip.ParseAddr(host)
	return a.Unmap()
}

// addrString writes a, or the raw remote address when a is not one.
func addrString(a netip.Addr, raw string) string {
	if a.IsValid() {
		return a.String()
	}
	if host, _, err := net.SplitHostPort(raw); err == nil {
		return host
	}
	return raw
}
