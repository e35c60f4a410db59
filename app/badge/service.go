package badge

import (
	"context"
	"errors"

	"github.com/uptrace/bun"

	"meritmark/app/model"
	"meritmark/app/quiz"
	"meritmark/db"
)

// Service reads the catalogue and badge details.
type Service struct {
	DB *bun.DB

	active  db.Prepared    // activeBadgesSQL, parsed once per connection
	cards   db.Prepared    // cardsSQL
	records [2]db.Prepared // userRecordsSQL
}

// Catalogue lists every active badge; for a signed-in viewer each entry says whether the
// viewer owns it and the status of the viewer's latest application. Two queries at most,
// whatever the number of badges.
func (s *Service) Catalogue(ctx context.Context, viewer *model.User) ([]Owned, error) {
	badges, err := activeBadges(ctx, s.DB, &s.active)
	if err != nil {
		return nil, err
	}
	var mine map[string]*Mine
	if viewer != nil {
		recs, err := userRecords(ctx, s.DB, &s.records, viewer.ID, "")
		if err != nil {
			return nil, err
		}
		mine = fold(recs, model.Now())
	}
	out := make([]Owned, len(badges))
	for i, b := range badges {
		out[i] = WithOwnership(b, mine[b.ID])
	}
	return out, nil
}

// Cards is the catalogue page's list: every active badge's card, oldest first, with what
// a signed-in viewer has done about each. Two queries at most, like Catalogue, but the
// first reads only the card's columns (no quiz, no creator).
func (s *Service) Cards(ctx context.Context, viewer *model.User) ([]Card, error) {
	cards, err := activeCards(ctx, s.DB, &s.cards)
	if err != nil || viewer == nil {
		return cards, err
	}
	recs, err := userRecords(ctx, s.DB, &s.records, viewer.ID, "")
	if err != nil {
		return nil, err
	}
	mine := fold(recs, model.Now())
	for i := range cards {
		cards[i].Ownership = ownership(mine[cards[i].ID])
	}
	return cards, nil
}

// Detail is one badge with the viewer's latest application and grant.
type Detail struct {
	Badge Badge
	Mine  Mine
}

// Detail loads badge id for viewer. A malformed or unknown id, or an inactive badge seen
// by anyone but an administrator, is ErrNotFound.
func (s *Service) Detail(ctx context.Context, id string, viewer *model.User) (*Detail, error) {
	if !model.ValidID(id) {
		return nil, ErrNotFound
	}
	b, err := badgeByID(ctx, s.DB, id)
	if err != nil {
		return nil, err
	}
	if b == nil || (!b.IsActive && !viewer.IsAdmin()) {
		return nil, ErrNotFound
	}
	d := &Detail{Badge: *b}
	if viewer != nil {
		recs, err := userRecords(ctx, s.DB, &s.records, viewer.ID, id)
		if err != nil {
			return nil, err
		}
		if m := fold(recs, model.Now())[id]; m != nil {
			d.Mine = *m
		}
	}
	return d, nil
}

// QuizState fills what the viewer's quiz record means for the badge page: a passed
// attempt not used by an application yet (then 'Continue application'), and a locked
// next attempt (from the assessment's eligibility; nil assessment: no quiz).
func (s *Service) QuizState(ctx context.Context, viewer *model.User, b *Badge, a *quiz.Assessment, m *Mine) error {
	_, err := quiz.PassingAttempt(ctx, s.DB, viewer.ID, b.ID)
	switch {
	case err == nil:
		m.Passed = true
	case !errors.Is(err, quiz.ErrNoPassingAttempt):
		return err
	}
	if a != nil && a.Next != nil && !a.Next.CanStart && a.Next.NextAttemptAt != nil {
		t := *a.Next.NextAttemptAt
		m.NextAttemptAt = &t
	}
	return nil
}
