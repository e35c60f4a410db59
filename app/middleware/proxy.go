package middleware

import (
	"net"
	"net/netip"
	"strings"

	"github.com/gofiber/fiber/v3"
	"github.com/valyala/fasthttp"
)

// ClientIPHeader is the request header through which ForwardedClient hands fiber the
// client address it resolved (the app's fiber.Config.ProxyHeader). A copy sent by a
// client is always removed, and fiber reads the header only for a request whose peer is
// a trusted proxy (fiber.Config.TrustProxy with the configured CIDRs).
const ClientIPHeader = "X-Meritmark-Client-Ip"

// ForwardedClient resolves the client address of a request that arrived from a trusted
// proxy: the right-most address in X-Forwarded-For that is not itself a trusted proxy.
// The left-most entry, which fiber would take, is whatever the client wrote there, so it
// is never believed. From an untrusted peer every forwarded header is ignored (fiber's
// IsProxyTrusted is false, so c.IP(), c.Scheme() and c.Host() use the connection and the
// Host header). It must run before anything calls c.IP().
func ForwardedClient(trusted []netip.Prefix) fiber.Handler {
	return func(c fiber.Ctx) error {
		h := &c.Request().Header
		h.Del(ClientIPHeader)
		if len(trusted) > 0 && c.IsProxyTrusted() {
			if ip := forwardedFor(h, trusted); ip != "" {
				h.Set(ClientIPHeader, ip)
			}
		}
		return c.Next()
	}
}

// ClientIP is the client's address as ForwardedClient and the framework resolve it, for
// a request answered before either runs: the nearest untrusted hop of X-Forwarded-For
// when the connection comes from a trusted proxy, else the connection's own address.
func ClientIP(ctx *fasthttp.RequestCtx, trusted []netip.Prefix) string {
	remote := ctx.RemoteIP()
	if len(trusted) > 0 {
		if a, ok := netip.AddrFromSlice(remote); ok && inAny(a.Unmap(), trusted) {
			if ip := forwardedFor(&ctx.Request.Header, trusted); ip != "" {
				return ip
			}
		}
	}
	return remote.String()
}

// forwardedFor is the client X-Forwarded-For names behind trusted proxies
// (rightmostUntrusted of its whole chain), "" for none.
func forwardedFor(h *fasthttp.RequestHeader, trusted []netip.Prefix) string {
	var chain []string
	for _, v := range h.PeekAll(fiber.HeaderXForwardedFor) {
		chain = append(chain, strings.Split(string(v), ",")...)
	}
	return rightmostUntrusted(chain, trusted)
}

// rightmostUntrusted walks the X-Forwarded-For chain from the proxy nearest to us
// outwards and returns the first address that is not a trusted proxy (the left-most when
// all are trusted); "" when the chain is empty or an entry the trusted proxies added is
// not an address.
func rightmostUntrusted(chain []string, trusted []netip.Prefix) string {
	last := ""
	for i := len(chain) - 1; i >= 0; i-- {
		a, ok := parseHop(chain[i])
		if !ok {
			return last
		}
		last = a.String()
		if !inAny(a, trusted) {
			return last
		}
	}
	return last
}

// parseHop parses one X-Forwarded-For entry: an address, optionally with a port
// ("1.2.3.4:5678", "[::1]:80").
func parseHop(s string) (netip.Addr, bool) {
	s = strings.TrimSpace(s)
	if a, err := netip.ParseAddr(strings.Trim(s, "[]")); err == nil {
		return a.Unmap(), true
	}
	if h, _, err := net.SplitHostPort(s); err == nil {
		if a, err := netip.ParseAddr(h); err == nil {
			return a.Unmap(), true
		}
	}
	return netip.Addr{}, false
}

func inAny(a netip.Addr, ps []netip.Prefix) bool {
	for _, p := range ps {
		if p.Contains(a) {
			return true
		}
	}
	return false
}
