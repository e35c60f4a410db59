// Package config parses and validates all configuration in one place: environment
// variables, with command-line flags mirroring them.
package config

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// Config is the whole configuration of one process.
type Config struct {
	Addr         string // MERITMARK_ADDR, default 127.0.0.1:8080 (loopback: see ListenProblem)
	DataDir      string // MERITMARK_DATA_DIR, default ./data
	DatabaseURL  string // DATABASE_URL: empty = SQLite in the data dir
	BaseURL      string // MERITMARK_BASE_URL: public origin used in links; empty = from the request
	SupportEmail string // MERITMARK_SUPPORT_EMAIL

	// CredentialKeys (MERITMARK_CREDENTIAL_KEYS): comma-separated base64url Ed25519 seeds
	// that sign credentials, the first active; empty = generated in <data dir>/keys.
	CredentialKeys string

	SMTPURL  string // MERITMARK_SMTP_URL: smtp://user:pass@host:port; empty = log outbox
	MailFrom string // MERITMARK_MAIL_FROM

	StorageURL string // MERITMARK_STORAGE_URL: empty = local folder under the data dir; s3://… for a bucket

	PayPalBaseURL   string // MERITMARK_PAYPAL_BASE_URL: empty = built-in sandbox simulator
	PayPalClientID  string // MERITMARK_PAYPAL_CLIENT_ID
	PayPalSecret    string // MERITMARK_PAYPAL_SECRET
	PayPalWebhookID string // MERITMARK_PAYPAL_WEBHOOK_ID

	SSRWorkers    int           // MERITMARK_SSR_WORKERS: isolates in the pool, default = cores
	RenderTimeout time.Duration // MERITMARK_RENDER_TIMEOUT, default 2s
	PageCache     bool          // MERITMARK_PAGE_CACHE: visitors' pages served from the data-aware page cache, default true
	SessionIdle   time.Duration // MERITMARK_SESSION_IDLE, default 7 days
	SessionMaxAge time.Duration // MERITMARK_SESSION_MAX_AGE, default 30 days
	LogLevel      string        // MERITMARK_LOG_LEVEL: debug, info, warn, error
	LogFormat     string        // MERITMARK_LOG_FORMAT: text (default) or json
	DevMode       bool          // MERITMARK_DEV: serve assets from disk, no caching
	PprofAddr     string        // MERITMARK_PPROF: host:port serving net/http/pprof (profiling); empty = off
	// MetricsAddr (MERITMARK_METRICS_ADDR): host:port of a separate server answering
	// Prometheus metrics at /metrics (docs/observability.md); empty = off.
	MetricsAddr string

	// TrustedProxies (MERITMARK_TRUSTED_PROXIES): comma-separated CIDRs (or single
	// addresses) of the reverse proxies in front of the server. Only a request arriving
	// from one of them has its X-Forwarded-For, X-Forwarded-Proto and X-Forwarded-Host
	// believed; empty = no proxy is trusted and those headers are ignored.
	TrustedProxies []string

	// PayPalSimulator (MERITMARK_PAYPAL_SIMULATOR=1) allows the built-in PayPal simulator
	// on an https origin (a public trial site); every page then shows a banner. Without
	// it serve refuses to start with the simulator on https.
	PayPalSimulator bool

	// HSTS (MERITMARK_HSTS, default on) sends Strict-Transport-Security on an https
	// origin; 0 turns it off (meritmark check reports that as unsafe).
	HSTS bool

	// RequestTimeout (MERITMARK_REQUEST_TIMEOUT, default 60s) bounds the work of one
	// request (database, PayPal, storage): a database that stops answering costs a 503
	// after it instead of a request, and a pool connection, held forever.
	RequestTimeout time.Duration

	// LinkedInOrganizationID (MERITMARK_LINKEDIN_ORGANIZATION_ID): the issuer's LinkedIn
	// company page id (digits); when set, "Add to profile" links carry organizationId so
	// LinkedIn shows the certification under that page. Empty = organizationName only.
	LinkedInOrganizationID string

	// ShutdownDelay (MERITMARK_SHUTDOWN_DELAY, default 5s on an https origin, 0 elsewhere)
	// is how long, after SIGTERM, /readyz answers 503 while requests are still served, so
	// that a load balancer stops sending new ones before the listener closes.
	ShutdownDelay time.Duration
	// ShutdownTimeout (MERITMARK_SHUTDOWN_TIMEOUT, default 30s) bounds how long the
	// requests accepted before the listener closed may take to finish.
	ShutdownTimeout time.Duration

	// DevMailbox (MERITMARK_DEV_MAILBOX) is the loopback address of the development
	// mailbox, a page listing the mails the outbox holds when no SMTP server is set ("" =
	// off). Default: 127.0.0.1:8025 when neither MERITMARK_SMTP_URL nor MERITMARK_BASE_URL
	// is set (make run), else off; "off" turns it off. Never on an https origin.
	DevMailbox string

	// AdminsWithoutTwoStep (MERITMARK_INSECURE_ADMIN_WITHOUT_2FA=1): administrators may work
	// without two-step sign-in. A switch for other features' browser tests only; serve logs
	// a warning and meritmark check reports it.
	AdminsWithoutTwoStep bool

	// Settings is every setting with its effective value, secrets masked (meritmark config).
	Settings []Setting
}

// Setting is one setting as `meritmark config` shows it: its flag, its environment
// variable and its effective value, with secrets masked.
type Setting struct{ Flag, Env, Value string }

// HelpError is what Load answers for -h or --help: Text lists every setting.
type HelpError struct{ Text string }

func (h *HelpError) Error() string { return h.Text }

// envName is the environment variable of a flag.
func envName(flagName string) string {
	if flagName == "database-url" {
		return "DATABASE_URL"
	}
	return "MERITMARK_" + strings.ToUpper(strings.ReplaceAll(flagName, "-", "_"))
}

// masked hides a secret value: a whole secret setting, or the password in a URL's
// user information (database, SMTP, S3).
func masked(flagName, v string) string {
	if v == "" {
		return v
	}
	if strings.Contains(flagName, "secret") || strings.Contains(flagName, "keys") {
		return "(set, hidden)"
	}
	if u, err := url.Parse(v); err == nil && u.User != nil {
		if _, ok := u.User.Password(); ok {
			u.User = url.UserPassword(u.User.Username(), "xxxxx")
			return u.String()
		}
	}
	return v
}

// Env is how configuration reads the environment (a map in tests).
type Env func(string) string

// Load reads configuration from the environment and the flags in args.
func Load(env Env, args []string) (*Config, error) {
	if env == nil {
		env = os.Getenv
	}
	def := func(key, fallback string) string {
		if v := strings.TrimSpace(env(key)); v != "" {
			return v
		}
		return fallback
	}
	c := &Config{}
	fs := flag.NewFlagSet("meritmark", flag.ContinueOnError)
	fs.StringVar(&c.Addr, "addr", def("MERITMARK_ADDR", DefaultAddr), "listen address (MERITMARK_ADDR)")
	fs.StringVar(&c.DataDir, "data-dir", def("MERITMARK_DATA_DIR", "./data"), "data directory (MERITMARK_DATA_DIR)")
	fs.StringVar(&c.DatabaseURL, "database-url", def("DATABASE_URL", ""), "database URL; empty = SQLite in the data dir (DATABASE_URL)")
	fs.StringVar(&c.BaseURL, "base-url", def("MERITMARK_BASE_URL", ""), "public origin used in links (MERITMARK_BASE_URL)")
	fs.StringVar(&c.CredentialKeys, "credential-keys", def("MERITMARK_CREDENTIAL_KEYS", ""), "credential signing seeds, first active; empty = data dir (MERITMARK_CREDENTIAL_KEYS)")
	fs.StringVar(&c.SupportEmail, "support-email", def("MERITMARK_SUPPORT_EMAIL", "support@meritmark.example"), "support contact address")
	fs.StringVar(&c.SMTPURL, "smtp-url", def("MERITMARK_SMTP_URL", ""), "SMTP server smtp://user:pass@host:port; empty = log outbox")
	fs.StringVar(&c.MailFrom, "mail-from", def("MERITMARK_MAIL_FROM", "Meritmark <no-reply@meritmark.example>"), "sender address")
	fs.StringVar(&c.StorageURL, "storage-url", def("MERITMARK_STORAGE_URL", ""), "file storage; empty = local folder in the data dir")
	fs.StringVar(&c.PayPalBaseURL, "paypal-base-url", def("MERITMARK_PAYPAL_BASE_URL", ""), "PayPal API base URL; empty = built-in sandbox simulator")
	fs.StringVar(&c.PayPalClientID, "paypal-client-id", def("MERITMARK_PAYPAL_CLIENT_ID", ""), "PayPal client id")
	fs.StringVar(&c.PayPalSecret, "paypal-secret", def("MERITMARK_PAYPAL_SECRET", ""), "PayPal client secret")
	fs.StringVar(&c.PayPalWebhookID, "paypal-webhook-id", def("MERITMARK_PAYPAL_WEBHOOK_ID", ""), "PayPal webhook id")
	fs.StringVar(&c.LogLevel, "log-level", def("MERITMARK_LOG_LEVEL", "info"), "log level")
	fs.StringVar(&c.LogFormat, "log-format", def("MERITMARK_LOG_FORMAT", "text"), "log lines as text or json (MERITMARK_LOG_FORMAT)")
	fs.StringVar(&c.MetricsAddr, "metrics-addr", def("MERITMARK_METRICS_ADDR", ""), "host:port serving Prometheus metrics at /metrics; empty = off (MERITMARK_METRICS_ADDR)")
	var workers, renderTimeout, idle, maxAge, dev string
	var requestTimeout string
	var trustedProxies, simulator, hsts string
	fs.StringVar(&trustedProxies, "trusted-proxies", def("MERITMARK_TRUSTED_PROXIES", ""), "CIDRs of reverse proxies whose X-Forwarded-* headers are believed (MERITMARK_TRUSTED_PROXIES)")
	fs.StringVar(&simulator, "paypal-simulator", def("MERITMARK_PAYPAL_SIMULATOR", "0"), "1 = allow the PayPal simulator on an https origin (MERITMARK_PAYPAL_SIMULATOR)")
	fs.StringVar(&hsts, "hsts", def("MERITMARK_HSTS", "1"), "Strict-Transport-Security on an https origin; 0 = off (MERITMARK_HSTS)")
	fs.StringVar(&requestTimeout, "request-timeout", def("MERITMARK_REQUEST_TIMEOUT", "60s"), "longest a request may wait for the database, PayPal or storage (MERITMARK_REQUEST_TIMEOUT)")
	var pageCache string
	var shutdownDelay, shutdownTimeout string
	fs.StringVar(&c.DevMailbox, "dev-mailbox", def("MERITMARK_DEV_MAILBOX", ""), "loopback host:port of a page showing the outbox's mails when no SMTP is set; default 127.0.0.1:8025 with neither SMTP nor a base URL, off = never (MERITMARK_DEV_MAILBOX)")
	fs.StringVar(&shutdownDelay, "shutdown-delay", def("MERITMARK_SHUTDOWN_DELAY", ""), "after SIGTERM, how long /readyz answers 503 before the listener closes; default 5s on https, 0 elsewhere (MERITMARK_SHUTDOWN_DELAY)")
	fs.StringVar(&shutdownTimeout, "shutdown-timeout", def("MERITMARK_SHUTDOWN_TIMEOUT", "30s"), "longest the requests in flight at shutdown may take to finish (MERITMARK_SHUTDOWN_TIMEOUT)")
	fs.StringVar(&pageCache, "page-cache", def("MERITMARK_PAGE_CACHE", "true"), "serve visitors' pages whose data has not changed from memory (MERITMARK_PAGE_CACHE)")
	fs.StringVar(&workers, "ssr-workers", def("MERITMARK_SSR_WORKERS", "0"), "SSR isolates; 0 = one per core")
	fs.StringVar(&renderTimeout, "render-timeout", def("MERITMARK_RENDER_TIMEOUT", "2s"), "longest a page render may run")
	fs.StringVar(&idle, "session-idle", def("MERITMARK_SESSION_IDLE", "168h"), "session idle expiry")
	fs.StringVar(&maxAge, "session-max-age", def("MERITMARK_SESSION_MAX_AGE", "720h"), "session absolute expiry")
	fs.StringVar(&dev, "dev", def("MERITMARK_DEV", "false"), "development mode")
	fs.StringVar(&c.PprofAddr, "pprof", def("MERITMARK_PPROF", ""), "host:port serving net/http/pprof for profiling; empty = off (MERITMARK_PPROF)")
	fs.StringVar(&c.LinkedInOrganizationID, "linkedin-organization-id", def("MERITMARK_LINKEDIN_ORGANIZATION_ID", ""), "LinkedIn company page id for Add-to-profile links; empty = name only (MERITMARK_LINKEDIN_ORGANIZATION_ID)")
	var usage strings.Builder
	fs.SetOutput(&usage)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil, &HelpError{Text: usage.String()}
		}
		return nil, fmt.Errorf("config: %w", err)
	}
	fs.VisitAll(func(f *flag.Flag) {
		c.Settings = append(c.Settings, Setting{Flag: f.Name, Env: envName(f.Name), Value: masked(f.Name, f.Value.String())})
	})

	var errs []error
	bad := func(name, msg string) { errs = append(errs, fmt.Errorf("%s: %s", name, msg)) }

	if _, port, err := net.SplitHostPort(c.Addr); err != nil {
		bad("MERITMARK_ADDR", fmt.Sprintf("%q is not host:port (for example :8080)", c.Addr))
	} else if p, err := strconv.Atoi(port); err != nil || p < 0 || p > 65535 {
		bad("MERITMARK_ADDR", fmt.Sprintf("port %q is not a number from 0 to 65535", port))
	}
	if c.DataDir == "" {
		bad("MERITMARK_DATA_DIR", "must not be empty")
	}
	if u := c.DatabaseURL; u != "" && !strings.HasPrefix(u, "postgres://") && !strings.HasPrefix(u, "postgresql://") &&
		!strings.HasPrefix(u, "sqlite:") && !strings.HasPrefix(u, "file:") {
		bad("DATABASE_URL", "must be empty (SQLite in the data dir), postgres://… or sqlite:PATH")
	}
	if c.BaseURL != "" {
		u, err := url.Parse(c.BaseURL)
		// a bare origin: it is pasted in front of paths in links, canonical URLs and mail
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || (u.Path != "" && u.Path != "/") ||
			u.User != nil || u.RawQuery != "" || u.ForceQuery || u.Fragment != "" || strings.HasSuffix(c.BaseURL, "#") {
			bad("MERITMARK_BASE_URL", fmt.Sprintf("%q must be an origin such as https://meritmark.example", c.BaseURL))
		}
		c.BaseURL = strings.TrimRight(c.BaseURL, "/")
	}
	if c.SMTPURL != "" {
		u, err := url.Parse(c.SMTPURL)
		if err != nil || (u.Scheme != "smtp" && u.Scheme != "smtps") || u.Host == "" {
			bad("MERITMARK_SMTP_URL", "must look like smtp://user:password@host:port")
		}
	}
	if c.PayPalBaseURL != "" {
		u, err := url.Parse(c.PayPalBaseURL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			bad("MERITMARK_PAYPAL_BASE_URL", "must be an http(s) URL")
		}
		if c.PayPalClientID == "" || c.PayPalSecret == "" {
			bad("MERITMARK_PAYPAL_CLIENT_ID", "a PayPal base URL needs MERITMARK_PAYPAL_CLIENT_ID and MERITMARK_PAYPAL_SECRET")
		}
	}
	if n, err := strconv.Atoi(workers); err != nil || n < 0 || n > 256 {
		bad("MERITMARK_SSR_WORKERS", "must be a whole number from 0 to 256")
	} else {
		c.SSRWorkers = n
	}
	switch strings.ToLower(pageCache) {
	case "true", "1", "on", "yes":
		c.PageCache = true
	case "false", "0", "off", "no":
	default:
		bad("MERITMARK_PAGE_CACHE", "must be true or false")
	}
	parseDur := func(name, v string, min time.Duration) time.Duration {
		d, err := time.ParseDuration(v)
		if err != nil || d < min {
			bad(name, fmt.Sprintf("%q must be a duration of at least %s (like 2s, 168h)", v, min))
		}
		return d
	}
	c.RenderTimeout = parseDur("MERITMARK_RENDER_TIMEOUT", renderTimeout, 10*time.Millisecond)
	c.RequestTimeout = parseDur("MERITMARK_REQUEST_TIMEOUT", requestTimeout, time.Second)
	c.SessionIdle = parseDur("MERITMARK_SESSION_IDLE", idle, time.Minute)
	c.SessionMaxAge = parseDur("MERITMARK_SESSION_MAX_AGE", maxAge, time.Minute)
	c.ShutdownTimeout = parseDur("MERITMARK_SHUTDOWN_TIMEOUT", shutdownTimeout, time.Second)
	c.AdminsWithoutTwoStep = env("MERITMARK_INSECURE_ADMIN_WITHOUT_2FA") == "1"
	switch strings.ToLower(c.DevMailbox) {
	case "off", "0", "false", "no":
		c.DevMailbox = ""
	case "":
		if c.SMTPURL == "" && c.BaseURL == "" {
			c.DevMailbox = DefaultDevMailbox
		}
	default:
		if host, _, err := net.SplitHostPort(c.DevMailbox); err != nil || !IsLoopbackHost(host) {
			bad("MERITMARK_DEV_MAILBOX", fmt.Sprintf("%q must be a loopback host:port such as 127.0.0.1:8025 (it shows every mail, reset links included)", c.DevMailbox))
		}
	}
	if shutdownDelay == "" {
		if strings.HasPrefix(c.BaseURL, "https://") {
			c.ShutdownDelay = 5 * time.Second
		}
	} else {
		c.ShutdownDelay = parseDur("MERITMARK_SHUTDOWN_DELAY", shutdownDelay, 0)
	}
	switch strings.ToLower(c.LogLevel) {
	case "debug", "info", "warn", "error":
	default:
		bad("MERITMARK_LOG_LEVEL", "must be debug, info, warn or error")
	}
	c.LogFormat = strings.ToLower(c.LogFormat)
	if c.LogFormat != "text" && c.LogFormat != "json" {
		bad("MERITMARK_LOG_FORMAT", fmt.Sprintf("%q must be text or json", c.LogFormat))
	}
	if c.MetricsAddr != "" {
		if msg := metricsAddrProblem(c.MetricsAddr, c.Addr); msg != "" {
			bad("MERITMARK_METRICS_ADDR", msg)
		}
	}
	if c.PprofAddr != "" {
		if _, _, err := net.SplitHostPort(c.PprofAddr); err != nil {
			bad("MERITMARK_PPROF", fmt.Sprintf("%q is not host:port (for example 127.0.0.1:6060)", c.PprofAddr))
		}
	}
	if id := c.LinkedInOrganizationID; id != "" {
		ok := len(id) <= 20
		for i := 0; i < len(id); i++ {
			ok = ok && id[i] >= '0' && id[i] <= '9'
		}
		if !ok {
			bad("MERITMARK_LINKEDIN_ORGANIZATION_ID", fmt.Sprintf("%q must be the numeric id of a LinkedIn company page (up to 20 digits)", id))
		}
	}
	parseBool := func(name, v string) bool {
		switch strings.ToLower(v) {
		case "1", "true", "yes":
			return true
		case "0", "false", "no", "":
			return false
		}
		bad(name, "must be true or false (1 or 0)")
		return false
	}
	c.DevMode = parseBool("MERITMARK_DEV", dev)
	c.PayPalSimulator = parseBool("MERITMARK_PAYPAL_SIMULATOR", simulator)
	c.HSTS = parseBool("MERITMARK_HSTS", hsts)
	for _, p := range strings.Split(trustedProxies, ",") {
		if p = strings.TrimSpace(p); p == "" {
			continue
		}
		if _, err := ParsePrefix(p); err != nil {
			bad("MERITMARK_TRUSTED_PROXIES", fmt.Sprintf("%q is not an IP address or CIDR (for example 10.0.0.0/8)", p))
			continue
		}
		c.TrustedProxies = append(c.TrustedProxies, p)
	}
	if len(errs) > 0 {
		return nil, fmt.Errorf("invalid configuration:\n  %w", errors.Join(errs...))
	}
	return c, nil
}

// Secure reports whether cookies should carry the Secure flag.
func (c *Config) Secure() bool { return strings.HasPrefix(c.BaseURL, "https://") }

// Secret returns the named secret: from the environment (MERITMARK_SECRET_<NAME>) when
// given, else from <data dir>/secrets/<name>, generated (32 random bytes, hex) on first use.
func (c *Config) Secret(env Env, name string) (string, error) {
	if env == nil {
		env = os.Getenv
	}
	if v := env("MERITMARK_SECRET_" + strings.ToUpper(strings.ReplaceAll(name, "-", "_"))); v != "" {
		return v, nil
	}
	dir := filepath.Join(c.DataDir, "secrets")
	path := filepath.Join(dir, name)
	if b, err := os.ReadFile(path); err == nil && len(strings.TrimSpace(string(b))) > 0 {
		return strings.TrimSpace(string(b)), nil
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", err
	}
	var raw [32]byte
	if _, err := rand.Read(raw[:]); err != nil {
		return "", err
	}
	v := hex.EncodeToString(raw[:])
	// written whole to a temporary file, then linked into place (fails if the name exists):
	// instances started together never read a secret file another one is still writing
	f, err := os.CreateTemp(dir, "."+name+".*")
	if err != nil {
		return "", err
	}
	tmp := f.Name()
	defer os.Remove(tmp)
	_, err = f.WriteString(v + "\n")
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return "", err
	}
	if err := os.Link(tmp, path); err != nil {
		if os.IsExist(err) { // another process won the race: use theirs
			b, rerr := os.ReadFile(path)
			return strings.TrimSpace(string(b)), rerr
		}
		return "", err
	}
	return v, nil
}

// metricsAddrProblem is what is wrong with the metrics address addr ("" when nothing):
// it must be host:port with a port from 1 to 65535, other than the application's.
func metricsAddrProblem(addr, appAddr string) string {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Sprintf("%q is not host:port (for example 127.0.0.1:9090)", addr)
	}
	if p, err := strconv.Atoi(port); err != nil || p < 0 || p > 65535 {
		return fmt.Sprintf("port %q is not a number from 0 to 65535", port)
	}
	if strings.ContainsAny(host, "/ ") {
		return fmt.Sprintf("%q is not host:port (for example 127.0.0.1:9090)", addr)
	}
	if ah, ap, err := net.SplitHostPort(appAddr); err == nil && ap == port && port != "0" &&
		(ah == host || ah == "" || host == "" || ah == "0.0.0.0" || host == "0.0.0.0" || ah == "::" || host == "::") {
		return fmt.Sprintf("%q is the application's own address (MERITMARK_ADDR %q): metrics need an address of their own", addr, appAddr)
	}
	return ""
}

// MetricsExposed reports whether the metrics address accepts connections from beyond
// this machine and its private networks: a host that is empty (every interface), a
// public address, or a name other than localhost (meritmark check reports it).
func (c *Config) MetricsExposed() bool {
	if c.MetricsAddr == "" {
		return false
	}
	host, _, err := net.SplitHostPort(c.MetricsAddr)
	if err != nil {
		return true
	}
	if IsLoopbackHost(host) {
		return false
	}
	a, err := netip.ParseAddr(strings.Trim(host, "[]"))
	if err != nil {
		return true // a name: it may resolve to anything
	}
	a = a.Unmap()
	return !(a.IsPrivate() || a.IsLinkLocalUnicast())
}

// DefaultAddr is the listen address when none is configured: loopback only, so that a
// server started without MERITMARK_BASE_URL is reachable only from this machine.
const DefaultAddr = "127.0.0.1:8080"

// ParsePrefix parses a CIDR ("10.0.0.0/8") or a single address ("10.1.2.3", a /32 or
// /128).
func ParsePrefix(s string) (netip.Prefix, error) {
	if strings.Contains(s, "/") {
		p, err := netip.ParsePrefix(s)
		return p.Masked(), err
	}
	a, err := netip.ParseAddr(s)
	if err != nil {
		return netip.Prefix{}, err
	}
	a = a.Unmap()
	return netip.PrefixFrom(a, a.BitLen()), nil
}

// IsLoopbackHost reports whether host (a host name or address, with or without a port
// or brackets) names this machine: localhost (or a name under .localhost), 127.0.0.0/8
// or ::1.
func IsLoopbackHost(host string) bool {
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = strings.ToLower(strings.TrimSuffix(strings.Trim(host, "[]"), "."))
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return true
	}
	a, err := netip.ParseAddr(host)
	return err == nil && a.Unmap().IsLoopback()
}

// MsgNoBaseURL is why serve refuses to listen beyond loopback without a base URL.
const MsgNoBaseURL = "MERITMARK_BASE_URL is not set, and MERITMARK_ADDR %q accepts connections from other machines: " +
	"links in mail, canonical URLs and credentials would have no trustworthy origin. " +
	"Set MERITMARK_BASE_URL to the public origin (for example https://meritmark.example), " +
	"or listen on loopback only (MERITMARK_ADDR=127.0.0.1:8080)"

// MsgSimulatorOnHTTPS is why serve refuses the PayPal simulator on an https origin.
const MsgSimulatorOnHTTPS = "MERITMARK_BASE_URL is https but PayPal is not configured, so the built-in PayPal " +
	"simulator would take payments: members could approve their own \"payments\". " +
	"Configure PayPal (MERITMARK_PAYPAL_BASE_URL, _CLIENT_ID, _SECRET), or set " +
	"MERITMARK_PAYPAL_SIMULATOR=1 for a trial site (every page then shows a banner)"

// Simulated reports whether payments go to the built-in PayPal simulator.
func (c *Config) Simulated() bool { return c.PayPalBaseURL == "" }

// ServeProblem is why serve must not start with this configuration (nil when it may):
// a listen address reachable from other machines without a configured origin, or the
// PayPal simulator on an https origin without MERITMARK_PAYPAL_SIMULATOR=1.
func (c *Config) ServeProblem() error {
	if c.BaseURL == "" {
		host, _, err := net.SplitHostPort(c.Addr)
		if err != nil || !IsLoopbackHost(host) {
			return fmt.Errorf(MsgNoBaseURL, c.Addr)
		}
	}
	if c.Secure() && c.Simulated() && !c.PayPalSimulator {
		return errors.New(MsgSimulatorOnHTTPS)
	}
	if c.Secure() && c.DevMailbox != "" {
		return errors.New(MsgDevMailboxOnHTTPS)
	}
	return nil
}

// DefaultDevMailbox is where make run shows the mails it would send.
const DefaultDevMailbox = "127.0.0.1:8025"

// MsgDevMailboxOnHTTPS stops serve: the development mailbox shows every mail, reset and
// claim links included.
const MsgDevMailboxOnHTTPS = "MERITMARK_DEV_MAILBOX is set on an https origin: the development mailbox shows every mail (reset and claim links included); unset it and set MERITMARK_SMTP_URL"

// SimulatorBanner reports whether pages show the "payments are simulated" banner: the
// simulator explicitly allowed on an https origin.
func (c *Config) SimulatorBanner() bool { return c.Secure() && c.Simulated() && c.PayPalSimulator }

// HSTSHeader is the Strict-Transport-Security value to send ("" = none): only on an
// https origin with HSTS on.
func (c *Config) HSTSHeader() string {
	if !c.Secure() || !c.HSTS {
		return ""
	}
	return "max-age=63072000; includeSubDomains"
}
