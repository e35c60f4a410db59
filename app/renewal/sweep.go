package renewal

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/uptrace/bun"

	"meritmark/app/events"
	"meritmark/app/mail"
	"meritmark/app/model"
)

// Sweeper sends the reminders that are due and records expiries.
type Sweeper struct {
	DB      *bun.DB
	Mailer  *mail.Worker // kicked after queuing (nil = the worker's own schedule)
	BaseURL string       // links in the mails when a grant has no credential origin
	Now     func() time.Time
	Batch   int         // grants per query (default 200)
	Events  *events.Bus // expiries are recorded as grant.expired

	kickOnce sync.Once
	kick     chan struct{}
}

// Result counts what one sweep did.
type Result struct {
	Reminded int // reminder mails queued
	Expired  int // expiries recorded
}

type candidate struct {
	GrantID              string    `bun:"grant_id"`
	UserID               string    `bun:"user_id"`
	BadgeID              string    `bun:"badge_id"`
	ExpiresAt            time.Time `bun:"expires_at"`
	PublicVerificationID string    `bun:"public_verification_id"`
	CredentialOrigin     string    `bun:"credential_origin"`
	UserName             string    `bun:"user_name"`
	UserEmail            string    `bun:"user_email"`
	BadgeName            string    `bun:"badge_name"`
	BadgeType            string    `bun:"badge_type"`
}

const candidateSelect = `SELECT g.id AS grant_id, g.user_id, g.badge_id, g.expires_at, g.public_verification_id, g.credential_origin,
	u.name AS user_name, u.email AS user_email, b.name AS badge_name, b.type AS badge_type
FROM badge_grants AS g JOIN users AS u ON u.id = g.user_id JOIN badges AS b ON b.id = g.badge_id
WHERE g.expires_at IS NOT NULL AND g.expires_at > ? AND g.expires_at <= ?
	AND NOT EXISTS (SELECT 1 FROM expiry_notices AS n WHERE n.grant_id = g.id AND n.kind = ?) `

// reminders only for grants in force that were not renewed already
const reminderFilter = `AND g.revoked_at IS NULL
	AND NOT EXISTS (SELECT 1 FROM badge_grants AS r WHERE r.previous_grant_id = g.id AND r.revoked_at IS NULL) `

// Sweep handles every notice due now.
func (s *Sweeper) Sweep(ctx context.Context) (Result, error) {
	var res Result
	now := model.Now()
	if s.Now != nil {
		now = s.Now().UTC()
	}
	batch := s.Batch
	if batch <= 0 {
		batch = 200
	}
	for _, w := range Windows {
		for {
			var cs []candidate
			if err := s.DB.NewRaw(candidateSelect+reminderFilter+"ORDER BY g.expires_at, g.id LIMIT ?",
				now.Add(w.From), now.Add(w.To), w.Kind, batch).Scan(ctx, &cs); err != nil {
				return res, err
			}
			for i := range cs {
				sent, err := s.remind(ctx, &cs[i], w.Kind, now)
				if err != nil {
					return res, err
				}
				if sent {
					res.Reminded++
				}
			}
			if len(cs) < batch {
				break
			}
		}
	}
	// expiries: the holder's Hall of Fame entry stops counting the badge
	for {
		var cs []candidate
		if err := s.DB.NewRaw(candidateSelect+"ORDER BY g.expires_at, g.id LIMIT ?",
			time.Unix(0, 0).UTC(), now, Expired, batch).Scan(ctx, &cs); err != nil {
			return res, err
		}
		for i := range cs {
			c := &cs[i]
			err := s.Events.RunInTx(ctx, s.DB, func(ctx context.Context, tx bun.Tx) error {
				ok, err := claim(ctx, tx, c.GrantID, Expired, now)
				if err != nil || !ok {
					return err
				}
				res.Expired++
				return events.Record(ctx, tx, events.GrantExpired, "grant", c.GrantID,
					map[string]string{"grantId": c.GrantID, "badgeId": c.BadgeID, "userId": c.UserID})
			})
			if err != nil {
				return res, err
			}
		}
		if len(cs) < batch {
			break
		}
	}
	if res.Reminded > 0 && s.Mailer != nil {
		s.Mailer.Kick()
	}
	return res, nil
}

// claim inserts the (grant, kind) row; false when another sweep has it already.
func claim(ctx context.Context, tx bun.Tx, grantID, kind string, now time.Time) (bool, error) {
	r, err := tx.NewRaw(`INSERT INTO expiry_notices (grant_id, kind, created_at) VALUES (?, ?, ?) ON CONFLICT (grant_id, kind) DO NOTHING`,
		grantID, kind, now).Exec(ctx)
	if err != nil {
		return false, err
	}
	n, err := r.RowsAffected()
	return n == 1, err
}

// remind claims the notice and queues its mail in one transaction.
func (s *Sweeper) remind(ctx context.Context, c *candidate, kind string, now time.Time) (bool, error) {
	sent := false
	err := s.DB.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		ok, err := claim(ctx, tx, c.GrantID, kind, now)
		if err != nil || !ok {
			return err
		}
		origin := c.CredentialOrigin
		if origin == "" {
			origin = s.BaseURL
		}
		letter := Mail(Notice{Name: c.UserName, Email: c.UserEmail, BadgeID: c.BadgeID, BadgeName: c.BadgeName,
			BadgeType: c.BadgeType, ExpiresAt: c.ExpiresAt, PublicVerificationID: c.PublicVerificationID, Origin: origin, Now: now})
		if err := mail.Queue(ctx, tx, letter.Message()); err != nil {
			return err
		}
		sent = true
		return nil
	})
	return sent && err == nil, err
}

// Run sweeps now and then every interval until ctx ends, and also the moment the next
// grant in force expires: the expiry is recorded (and the holder's Hall of Fame standing
// refreshed) when it happens, not up to an interval later. A grant made or moved to an
// earlier expiry wakes it (Kick) to look at the next expiry again.
func (s *Sweeper) Run(ctx context.Context, interval time.Duration) {
	for {
		if r, err := s.Sweep(ctx); err != nil && ctx.Err() == nil {
			slog.Warn("expiry sweep failed", "err", err)
		} else if r.Reminded+r.Expired > 0 {
			slog.Info("expiry sweep", "reminded", r.Reminded, "expired", r.Expired)
		}
	wait:
		for {
			t := time.NewTimer(s.nextWait(ctx, interval))
			select {
			case <-ctx.Done():
				t.Stop()
				return
			case <-s.kicks():
				t.Stop() // a grant changed: the next expiry may be sooner
			case <-t.C:
				break wait
			}
		}
	}
}

// Follow kicks the sweeper on every grant made or expiry changed on this instance.
func (s *Sweeper) Follow(bus *events.Bus) {
	bus.AfterCommit(func(*events.Event) { s.Kick() }, events.GrantIssued, events.GrantExpiryChanged)
}

// Kick tells Run that a grant was made or its expiry changed.
func (s *Sweeper) Kick() {
	select {
	case s.kicks() <- struct{}{}:
	default: // a kick is pending already
	}
}

func (s *Sweeper) kicks() chan struct{} {
	s.kickOnce.Do(func() { s.kick = make(chan struct{}, 1) })
	return s.kick
}

// nextWait is how long Run sleeps: until the next grant in force expires (one step of
// badge_grants_expires_idx), at most interval.
func (s *Sweeper) nextWait(ctx context.Context, interval time.Duration) time.Duration {
	now := model.Now()
	if s.Now != nil {
		now = s.Now().UTC()
	}
	var next []time.Time
	if err := s.DB.NewRaw(`SELECT expires_at FROM badge_grants WHERE expires_at > ? AND revoked_at IS NULL ORDER BY expires_at LIMIT 1`,
		now).Scan(ctx, &next); err != nil || len(next) == 0 {
		return interval
	}
	// a millisecond past it: the sweep counts a grant expired once expires_at <= now
	if d := next[0].Sub(now) + time.Millisecond; d < interval {
		return d
	}
	return interval
}
