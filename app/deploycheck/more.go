package deploycheck

import (
	"context"
	"fmt"
	"net"
	"net/netip"
	"os"
	"path/filepath"
	"strings"

	"github.com/uptrace/bun"

	"meritmark/app/config"
	"meritmark/app/model"
	"meritmark/db"
)

// moreFindings are the checks of a deployment's shape (issue 32): several instances on
// one PostgreSQL database (uploads, shared secrets), mail on an https site, profiling,
// trusted proxies, and the demo coupons.
func moreFindings(ctx context.Context, cfg *config.Config, d *bun.DB) ([]Finding, error) {
	var out []Finding
	out = append(out, sharedDatabaseFindings(cfg)...)
	out = append(out, httpsSiteFindings(cfg)...)
	out = append(out, pprofFindings(cfg)...)
	out = append(out, proxyFindings(cfg)...)
	if d == nil {
		return out, nil
	}
	fs, err := demoCouponFindings(ctx, d)
	out = append(out, fs...)
	if err != nil {
		return out, err
	}
	fs, err = secretMismatchFindings(ctx, cfg, d)
	return append(out, fs...), err
}

func postgres(cfg *config.Config) bool { return strings.HasPrefix(cfg.DatabaseURL, "postgres") }

// sharedDatabaseFindings: on PostgreSQL (which several instances may share), files kept in
// the local folder and a wallet secret each instance generates for itself.
func sharedDatabaseFindings(cfg *config.Config) []Finding {
	if !postgres(cfg) {
		return nil
	}
	var out []Finding
	if !strings.HasPrefix(cfg.StorageURL, "s3://") {
		out = append(out, Finding{Setting: "MERITMARK_STORAGE_URL", Problem: fmt.Sprintf(
			"uploads are kept in the local folder %s with a shared database: files uploaded through one instance are missing on the others (use an s3:// bucket, unless that folder is shared by every instance)",
			filepath.Join(cfg.DataDir, "uploads"))})
	}
	if strings.TrimSpace(os.Getenv("MERITMARK_SECRET_OAUTH_HMAC")) == "" {
		out = append(out, Finding{Setting: "MERITMARK_SECRET_OAUTH_HMAC", Problem: "not set with a shared database: each instance signs wallet (OAuth) tokens with the secret in its own data dir, so behind a load balancer the others refuse them at random (set the same secret everywhere)"})
	}
	return out
}

// httpsSiteFindings: a public (https) site that cannot send mail, or sits behind a proxy
// it does not know.
func httpsSiteFindings(cfg *config.Config) []Finding {
	if !cfg.Secure() {
		return nil
	}
	var out []Finding
	if cfg.SMTPURL == "" {
		out = append(out, Finding{Setting: "MERITMARK_SMTP_URL", Problem: "not set on the https origin " + cfg.BaseURL + ": mail is only written to the log, so members can never confirm their address or reset a password"})
	}
	if len(cfg.TrustedProxies) == 0 {
		out = append(out, Finding{Setting: "MERITMARK_TRUSTED_PROXIES", Problem: "not set on the https origin " + cfg.BaseURL + ": behind a TLS proxy every client has the proxy's address, so all of them share one sign-in, sign-up and reset limit (list the proxy's addresses)"})
	}
	return out
}

// pprofFindings: the profiler reachable from beyond the machine.
func pprofFindings(cfg *config.Config) []Finding {
	if cfg.PprofAddr == "" {
		return nil
	}
	host, _, err := net.SplitHostPort(cfg.PprofAddr)
	if err == nil && loopbackHost(host) {
		return nil
	}
	return []Finding{{Setting: "MERITMARK_PPROF", Problem: fmt.Sprintf("%q listens beyond loopback: anyone who reaches it can read the process's memory profiles and stall it (use 127.0.0.1:6060)", cfg.PprofAddr)}}
}

func loopbackHost(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	a, err := netip.ParseAddr(host)
	return err == nil && a.Unmap().IsLoopback()
}

// privateRanges are the networks a reverse proxy of the site may be in: loopback, the
// private IPv4 ranges, IPv6 unique local and link-local addresses.
var privateRanges = []netip.Prefix{
	netip.MustParsePrefix("127.0.0.0/8"), netip.MustParsePrefix("10.0.0.0/8"),
	netip.MustParsePrefix("172.16.0.0/12"), netip.MustParsePrefix("192.168.0.0/16"),
	netip.MustParsePrefix("::1/128"), netip.MustParsePrefix("fc00::/7"), netip.MustParsePrefix("fe80::/10"),
}

// proxyFindings: trusted proxies wider than the private ranges: a public block larger
// than a /16 (IPv4) or a /32 (IPv6), such as 0.0.0.0/0 or 10.0.0.0/7 (any client there may
// set its own address, and so escape the per-address limits). A proxy's or a CDN's own
// public addresses and published ranges are smaller and are not reported.
func proxyFindings(cfg *config.Config) []Finding {
	var out []Finding
	for _, s := range cfg.TrustedProxies {
		p, err := config.ParsePrefix(s)
		if err != nil {
			continue
		}
		if p.Addr().Is4In6() {
			p = netip.PrefixFrom(p.Addr().Unmap(), max(p.Bits()-96, 0))
		}
		inside := false
		for _, r := range privateRanges {
			if r.Bits() <= p.Bits() && r.Contains(p.Addr()) {
				inside = true
			}
		}
		wide := p.Bits() < 16 || (p.Addr().Is6() && p.Bits() < 32)
		if !inside && wide {
			out = append(out, Finding{Setting: "MERITMARK_TRUSTED_PROXIES", Problem: fmt.Sprintf("%s is wider than the private ranges: any client there can claim another address in X-Forwarded-For and escape the sign-in limits (list only your proxies' addresses)", s)})
		}
	}
	return out
}

// demoCodes are the coupons `meritmark seed` creates (app/seed).
var demoCodes = []string{"FREEGRANT", "HALFOFF", "DEV20", "WELCOME10"}

// demoCouponFindings: a seeded demo coupon that can still be redeemed.
func demoCouponFindings(ctx context.Context, d *bun.DB) ([]Finding, error) {
	var cs []model.Coupon
	if err := d.NewSelect().Model(&cs).Where("code IN (?)", bun.List(demoCodes)).Where("is_active = ?", true).
		Where("valid_until > ?", model.Now()).Where("usage_limit IS NULL OR used_count < usage_limit").Order("code").Scan(ctx); err != nil {
		if missingTable(err) {
			return nil, nil
		}
		return nil, err
	}
	if len(cs) == 0 {
		return nil, nil
	}
	var list []string
	for _, c := range cs {
		off := fmt.Sprintf("$%.2f off", float64(c.DiscountValue)/100)
		if c.DiscountType == "percentage" {
			off = fmt.Sprintf("%g %% off", float64(c.DiscountValue)/100)
		}
		uses := "unlimited uses"
		if c.UsageLimit != nil {
			uses = fmt.Sprintf("%d uses, %d used", *c.UsageLimit, c.UsedCount)
		}
		list = append(list, fmt.Sprintf("%s (%s, %s)", c.Code, off, uses))
	}
	return []Finding{{Setting: "demo coupons", Problem: "the seeded demo coupons are still active: " + strings.Join(list, ", ") +
		"; anyone who knows the demo's codes can use them (deactivate or delete them in the admin's coupons)"}}, nil
}

// secretMismatchFindings: a shared secret this instance holds differently from the one
// recorded by the first instance of the database (db.SharedSecrets). The secrets are read
// as the server reads them (the environment, else the data dir) but never generated here.
func secretMismatchFindings(ctx context.Context, cfg *config.Config, d *bun.DB) ([]Finding, error) {
	values := map[string]string{}
	for _, s := range db.SharedSecrets {
		if v := strings.TrimSpace(os.Getenv(s.Setting)); v != "" {
			values[s.Name] = v
		} else if b, err := os.ReadFile(filepath.Join(cfg.DataDir, "secrets", s.Name)); err == nil && strings.TrimSpace(string(b)) != "" {
			values[s.Name] = strings.TrimSpace(string(b))
		}
	}
	differ, err := db.CompareSecretFingerprints(ctx, d, values)
	if err != nil {
		if missingTable(err) {
			return nil, nil
		}
		return nil, err
	}
	var out []Finding
	for _, s := range differ {
		out = append(out, Finding{Setting: s.Setting, Problem: fmt.Sprintf("differs from the one the first instance of this database recorded: %s (set the same value on every instance; to rotate it on purpose, delete its row: DELETE FROM secret_fingerprints WHERE name = '%s', then restart every instance with the new value)", s.Breaks, s.Name)})
	}
	return out, nil
}

// missingTable reports the error of a query on a database never migrated (or migrated
// before the table existed).
func missingTable(err error) bool {
	return strings.Contains(err.Error(), "no such table") || strings.Contains(err.Error(), "does not exist")
}
