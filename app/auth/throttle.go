package auth

import (
	"context"
	"net/netip"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"meritmark/app/metrics"
	"meritmark/app/model"
	"meritmark/db"
)

// Sign-in throttling that slows attackers without locking owners out (OWASP's "device
// cookie" scheme, with known networks as a second sign of the owner):
//
//   - A browser that signed in to an account successfully gets a device cookie, and the
//     account remembers the network it came from (the /24 of an IPv4 address, the /64
//     of an IPv6 one: KnownNetwork). An attempt from such a device
//     or network is "trusted" and counted only against that device (or network) of that
//     account.
//   - Every other attempt is counted against the account from untrusted clients, against
//     the account from this client address, and against this client address.
//   - Each count is free up to a threshold; past it, every further failure doubles a wait
//     (1 s, 2 s, 4 s … at most 15 minutes) before the next attempt under that count is
//     even checked (429 with Retry-After). Counts fade after an hour without failures.
//   - An attempt is counted before the password is checked (so parallel guesses cannot
//     slip past), and a successful sign-in takes its count back: successes never count.
//     A success also clears the client's own counts.
//
// So an attacker hammering an account from other addresses soon waits minutes between
// guesses, while the owner, on a device or network that signed in before, signs in at once.

// Throttle thresholds (free failures per count) and timing.
const (
	freeAccountUntrusted = 10
	freeAccountClient    = 10
	freeClient           = 50
	freeTrusted          = 10
	throttleFade         = time.Hour
	maxDelay             = 15 * time.Minute
	deviceTTL            = 180 * 24 * time.Hour
	DeviceCookie         = "mm_device"
)

// loginThrottle is one count of failed sign-ins.
type loginThrottle struct {
	bun.BaseModel `bun:"table:login_throttle"`

	Key         string     `bun:"key,pk"`
	Failures    int        `bun:"failures"`
	LockedUntil *time.Time `bun:"locked_until"`
	UpdatedAt   time.Time  `bun:"updated_at"`
}

// LoginDevice is a device (cookie) or network (address) an account signed in from.
type LoginDevice struct {
	bun.BaseModel `bun:"table:login_devices"`

	ID         string    `bun:"id,pk"`
	UserID     string    `bun:"user_id"`
	Kind       string    `bun:"kind"`
	CreatedAt  time.Time `bun:"created_at"`
	LastUsedAt time.Time `bun:"last_used_at"`
}

// ThrottleDelay is the wait after failures failures when free are free: none below free,
// then 1 s, 2 s, 4 s … at most maxDelay.
func ThrottleDelay(failures, free int) time.Duration {
	if failures < free {
		return 0
	}
	n := failures - free
	if n > 20 {
		return maxDelay
	}
	return min(time.Second<<n, maxDelay)
}

// pendingFor is how long a count past its threshold waits for its wait to be written
// (between the attempt that counted and its update; a crash in between is forgotten).
const pendingFor = 5 * time.Second

type count struct {
	key  string
	free int
	own  bool // the client's own count (cleared by its success)
}

// countKinds name the kinds of count (their key's prefix) in the lockout metric.
var countKinds = map[string]string{
	"ip":      metrics.CountClient,
	"acctip":  metrics.CountAccountClient,
	"acct":    metrics.CountAccount,
	"trusted": metrics.CountTrusted,
	"mfa":     metrics.CountTwoFactor,
	"change":  metrics.CountPasswordCheck,
}

// countKind is the metric label of the count with key: its kind, never the key (which
// holds an e-mail address or a client address).
func countKind(key string) string {
	prefix, _, _ := strings.Cut(key, ":")
	if k, ok := countKinds[prefix]; ok {
		return k
	}
	return "other"
}

func deviceID(token, userID string) string { return HashToken("device|" + token + "|" + userID) }
func networkID(ip, userID string) string {
	return HashToken("network|" + KnownNetwork(ip) + "|" + userID)
}

// KnownNetwork is the network an address stands for as a "known network": its /24 (IPv4,
// an IPv4-mapped IPv6 address included) or its /64 (IPv6), so the owner's next sign-in from
// a neighbouring address of the same home or office network (DHCP, IPv6 privacy
// addresses) is still recognised. Anything that is not an address stands for itself.
func KnownNetwork(ip string) string {
	a, err := netip.ParseAddr(ip)
	if err != nil {
		return ip
	}
	a = a.Unmap().WithZone("")
	bits := 64
	if a.Is4() {
		bits = 24
	}
	p, err := a.Prefix(bits)
	if err != nil {
		return ip
	}
	return p.String()
}

// trust answers the id of the device or network of u this attempt comes from ("" when
// neither signed in to u before).
func (s *Service) trust(ctx context.Context, u *model.User, cl Client, now time.Time) (string, error) {
	if u == nil {
		return "", nil
	}
	ids := []string{networkID(cl.IP, u.ID)}
	if cl.Device != "" && len(cl.Device) <= 100 {
		ids = append([]string{deviceID(cl.Device, u.ID)}, ids...)
	}
	var rows []LoginDevice
	if err := s.DB.NewSelect().Model(&rows).Where("id IN (?)", bun.List(ids)).Where("user_id = ?", u.ID).
		Where("last_used_at > ?", now.Add(-deviceTTL)).Scan(ctx); err != nil {
		return "", err
	}
	for _, id := range ids { // the device first
		for _, r := range rows {
			if r.ID == id {
				return id, nil
			}
		}
	}
	return "", nil
}

// counts are the counts an attempt for email (user u, nil when unknown) goes under.
func counts(email string, u *model.User, cl Client, trusted string) []count {
	if trusted != "" {
		return []count{{"trusted:" + trusted, freeTrusted, true}}
	}
	// the client's address first: a flood from one address is refused before it
	// writes anything under the accounts it sprays
	return []count{
		{"ip:" + cl.IP, freeClient, true},
		{"acctip:" + email + "|" + cl.IP, freeAccountClient, true},
		{"acct:" + email, freeAccountUntrusted, false},
	}
}

// reserve counts one attempt under each count, or answers how long to wait when one of
// them is in its wait (then nothing is counted). The statement that counts also refuses
// while a wait runs, so parallel attempts cannot slip past a threshold: past it, a count
// is "pending" (locked_until NULL) until the attempt that reached it writes its wait.
func (s *Service) reserve(ctx context.Context, cs []count, now time.Time) (time.Duration, error) {
	for i, c := range cs {
		var failures []int
		err := s.DB.NewRaw(`INSERT INTO login_throttle AS t (key, failures, locked_until, updated_at) VALUES (?, 1, NULL, ?)
ON CONFLICT (key) DO UPDATE SET failures = CASE WHEN t.updated_at < ? THEN 1 ELSE t.failures + 1 END, locked_until = NULL, updated_at = ?
WHERE t.updated_at < ? OR t.failures < ? OR (t.locked_until IS NULL AND t.updated_at < ?) OR t.locked_until <= ?
RETURNING failures`, c.key, now, now.Add(-throttleFade), now, now.Add(-throttleFade), c.free, now.Add(-pendingFor), now).Scan(ctx, &failures)
		if err != nil && !db.IsNoRows(err) {
			return 0, err
		}
		if len(failures) == 0 { // in its wait
			s.release(ctx, cs[:i], false, now)
			var t loginThrottle
			if err := s.DB.NewSelect().Model(&t).Where("key = ?", c.key).Scan(ctx); err != nil {
				return 0, err
			}
			wait := time.Second
			if t.LockedUntil != nil && t.LockedUntil.After(now) {
				wait = t.LockedUntil.Sub(now)
			}
			return wait, nil
		}
		if d := ThrottleDelay(failures[0], c.free); d > 0 {
			s.Metrics.SignInLockout(countKind(c.key))
			if _, err := s.DB.NewUpdate().Model((*loginThrottle)(nil)).Set("locked_until = ?", now.Add(d)).
				Where("key = ?", c.key).Exec(ctx); err != nil {
				return 0, err
			}
		}
	}
	return 0, nil
}

// release takes back one reserved attempt under each count (a success, or an attempt
// refused before it was checked); after a success the client's own counts are cleared.
func (s *Service) release(ctx context.Context, cs []count, success bool, now time.Time) {
	for _, c := range cs {
		if success && c.own {
			_, _ = s.DB.NewDelete().Model((*loginThrottle)(nil)).Where("key = ?", c.key).Exec(ctx)
			continue
		}
		// best effort: a count left one too high fades within the hour
		_, _ = s.DB.NewRaw(`UPDATE login_throttle SET failures = failures - 1,
locked_until = CASE WHEN failures - 1 < ? THEN NULL ELSE COALESCE(locked_until, ?) END WHERE key = ? AND failures > 0`, c.free, now, c.key).Exec(ctx)
	}
}

// remember records the device (token) and network of a successful sign-in of userID.
func (s *Service) remember(ctx context.Context, userID, token, ip string, now time.Time) error {
	for _, d := range []LoginDevice{
		{ID: deviceID(token, userID), UserID: userID, Kind: "device", CreatedAt: now, LastUsedAt: now},
		{ID: networkID(ip, userID), UserID: userID, Kind: "network", CreatedAt: now, LastUsedAt: now},
	} {
		if _, err := s.DB.NewInsert().Model(&d).On("CONFLICT (id) DO UPDATE").Set("last_used_at = EXCLUDED.last_used_at").Exec(ctx); err != nil {
			return err
		}
	}
	return nil
}

// SweepThrottle deletes faded counts and forgotten devices (called periodically).
func SweepThrottle(ctx context.Context, d *bun.DB, now time.Time) error {
	if _, err := d.NewDelete().Model((*loginThrottle)(nil)).Where("updated_at < ?", now.Add(-throttleFade-maxDelay)).Exec(ctx); err != nil {
		return err
	}
	_, err := d.NewDelete().Model((*LoginDevice)(nil)).Where("last_used_at < ?", now.Add(-deviceTTL)).Exec(ctx)
	return err
}
