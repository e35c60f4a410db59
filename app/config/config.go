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
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// Config is the whole configuration of one process.
type Config struct {
	Addr         string // MERITMARK_ADDR, default :8080
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
	RenderCache   int           // MERITMARK_RENDER_CACHE: visitors' page renders kept (10 s, same props), default 512; 0 = off
	SessionIdle   time.Duration // MERITMARK_SESSION_IDLE, default 7 days
	SessionMaxAge time.Duration // MERITMARK_SESSION_MAX_AGE, default 30 days
	LogLevel      string        // MERITMARK_LOG_LEVEL: debug, info, warn, error
	DevMode       bool          // MERITMARK_DEV: serve assets from disk, no caching
	PprofAddr     string        // MERITMARK_PPROF: host:port serving net/http/pprof (profiling); empty = off

	// RequestTimeout (MERITMARK_REQUEST_TIMEOUT, default 60s) bounds the work of one
	// request (database, PayPal, storage): a database that stops answering costs a 503
	// after it instead of a request, and a pool connection, held forever.
	RequestTimeout time.Duration

	// LinkedInOrganizationID (MERITMARK_LINKEDIN_ORGANIZATION_ID): the issuer's LinkedIn
	// company page id (digits); when set, "Add to profile" links carry organizationId so
	// LinkedIn shows the certification under that page. Empty = organizationName only.
	LinkedInOrganizationID string
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
	fs.StringVar(&c.Addr, "addr", def("MERITMARK_ADDR", ":8080"), "listen address (MERITMARK_ADDR)")
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
	var workers, renderTimeout, idle, maxAge, dev string
	var requestTimeout string
	fs.StringVar(&requestTimeout, "request-timeout", def("MERITMARK_REQUEST_TIMEOUT", "60s"), "longest a request may wait for the database, PayPal or storage (MERITMARK_REQUEST_TIMEOUT)")
	var renderCache string
	fs.StringVar(&renderCache, "render-cache", def("MERITMARK_RENDER_CACHE", "512"), "visitors' page renders kept for 10 s and reused for the same props; 0 = off (MERITMARK_RENDER_CACHE)")
	fs.StringVar(&workers, "ssr-workers", def("MERITMARK_SSR_WORKERS", "0"), "SSR isolates; 0 = one per core")
	fs.StringVar(&renderTimeout, "render-timeout", def("MERITMARK_RENDER_TIMEOUT", "2s"), "longest a page render may run")
	fs.StringVar(&idle, "session-idle", def("MERITMARK_SESSION_IDLE", "168h"), "session idle expiry")
	fs.StringVar(&maxAge, "session-max-age", def("MERITMARK_SESSION_MAX_AGE", "720h"), "session absolute expiry")
	fs.StringVar(&dev, "dev", def("MERITMARK_DEV", "false"), "development mode")
	fs.StringVar(&c.PprofAddr, "pprof", def("MERITMARK_PPROF", ""), "host:port serving net/http/pprof for profiling; empty = off (MERITMARK_PPROF)")
	fs.StringVar(&c.LinkedInOrganizationID, "linkedin-organization-id", def("MERITMARK_LINKEDIN_ORGANIZATION_ID", ""), "LinkedIn company page id for Add-to-profile links; empty = name only (MERITMARK_LINKEDIN_ORGANIZATION_ID)")
	fs.SetOutput(new(strings.Builder))
	if err := fs.Parse(args); err != nil {
		return nil, fmt.Errorf("config: %w", err)
	}

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
	if n, err := strconv.Atoi(renderCache); err != nil || n < 0 || n > 100000 {
		bad("MERITMARK_RENDER_CACHE", "must be a whole number from 0 (off) to 100000")
	} else {
		c.RenderCache = n
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
	switch strings.ToLower(c.LogLevel) {
	case "debug", "info", "warn", "error":
	default:
		bad("MERITMARK_LOG_LEVEL", "must be debug, info, warn or error")
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
	switch strings.ToLower(dev) {
	case "1", "true", "yes":
		c.DevMode = true
	case "0", "false", "no", "":
	default:
		bad("MERITMARK_DEV", "must be true or false")
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
