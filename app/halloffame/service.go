package halloffame

import (
	"context"
	"math"
	"sync"
	"time"

	"github.com/uptrace/bun"

	"meritmark/app/model"
	"meritmark/app/pagecache"
)

// Service answers Hall of Fame queries.
type Service struct {
	DB *bun.DB

	mu       sync.Mutex
	stats    *Stats
	statsAt  time.Time
	syncedAt time.Time
	// the page cache's versions the stats and the category sync were made at: a request
	// carrying newer ones (a grant or badge changed, on any instance) does not reuse them
	statsVer, syncedVer pagecache.Versions
	StatsTTL            time.Duration // how long the stat cards are reused (default 5s)
	SyncEvery           time.Duration // how often badge categories are compared (default 10s)
}

// Invalidate drops the cached stat cards (a grant changed on this instance).
func (s *Service) Invalidate() {
	s.mu.Lock()
	s.stats = nil
	s.syncedAt = time.Time{}
	s.mu.Unlock()
}

func (s *Service) ttl(d, def time.Duration) time.Duration {
	if d == 0 {
		return def
	}
	return d
}

// Stats are the stat cards, cached a few seconds (they are the same for every visitor).
func (s *Service) Stats(ctx context.Context) (Stats, error) {
	s.mu.Lock()
	ver, versioned := pagecache.FromContext(ctx)
	if s.stats != nil && time.Since(s.statsAt) < s.ttl(s.StatsTTL, 5*time.Second) && (!versioned || ver.Same(&s.statsVer, pagecache.Badges, pagecache.Grants)) {
		st := *s.stats
		s.mu.Unlock()
		return st, nil
	}
	s.mu.Unlock()
	st, err := stats(ctx, s.DB)
	if err != nil {
		return st, err
	}
	s.mu.Lock()
	s.stats, s.statsAt, s.statsVer = &st, time.Now(), ver
	s.mu.Unlock()
	return st, nil
}

func (s *Service) syncCategories(ctx context.Context) error {
	s.mu.Lock()
	ver, versioned := pagecache.FromContext(ctx)
	due := time.Since(s.syncedAt) >= s.ttl(s.SyncEvery, 10*time.Second) || (versioned && !ver.Same(&s.syncedVer, pagecache.Badges))
	if due {
		s.syncedAt, s.syncedVer = time.Now(), ver
	}
	s.mu.Unlock()
	if !due {
		return nil
	}
	if err := syncCategories(ctx, s.DB); err != nil {
		s.mu.Lock()
		s.syncedAt = time.Time{}
		s.mu.Unlock()
		return err
	}
	return nil
}

// List answers one page of the Hall of Fame for q.
func (s *Service) List(ctx context.Context, q Query) (*Result, error) {
	if err := s.syncCategories(ctx); err != nil {
		return nil, err
	}
	// a search collects its matches in one pass over users (stopping at SearchProbe+1):
	// when they are few, the page is read by id; when they are many, the ranked walk finds
	// the page at once and the total is given as "more than SearchProbe" (totalCapped)
	// rather than paid for with a second full pass
	var ids []string
	var total int64
	capped := false
	if q.Search != "" {
		m, err := searchIDs(ctx, s.DB, q)
		if err != nil {
			return nil, err
		}
		total = int64(len(m))
		if len(m) <= SearchProbe {
			ids = m
			if ids == nil {
				ids = []string{}
			}
		} else {
			capped = true
		}
	} else {
		n, err := count(ctx, s.DB, q)
		if err != nil {
			return nil, err
		}
		total = n
	}
	var rows []userRow
	if ids == nil || len(ids) > 0 {
		r, err := list(ctx, s.DB, q, ids)
		if err != nil {
			return nil, err
		}
		rows = r
	}
	page := make([]string, len(rows))
	for i := range rows {
		page[i] = rows[i].UserID
	}
	badges, err := recent(ctx, s.DB, page)
	if err != nil {
		return nil, err
	}
	st, err := s.Stats(ctx)
	if err != nil {
		return nil, err
	}
	res := &Result{Users: make([]User, 0, len(rows)), Stats: st, Query: q,
		Pagination: Pagination{Page: q.Page, Limit: q.Limit, Total: total, TotalCapped: capped,
			TotalPages: int(math.Ceil(float64(total) / float64(q.Limit)))}}
	for i, r := range rows {
		u := User{ID: r.UserID, Rank: (q.Page-1)*q.Limit + i + 1, Name: r.Name, Title: r.Position, Company: r.Company,
			LinkedInURL: safeURL(r.LinkedIn), PortfolioURL: safeURL(r.Portfolio), TotalBadges: r.TotalBadges,
			JoinedDate: r.CreatedAt.UTC(), LastEarnedAt: r.LastEarnedAt.UTC(), Badges: badges[r.UserID]}
		u.ProfilePicURL = (&model.User{ProfilePicKey: r.ProfilePicKey}).ProfilePicURL()
		if u.Badges == nil {
			u.Badges = []Badge{}
		}
		res.Users = append(res.Users, u)
	}
	return res, nil
}
