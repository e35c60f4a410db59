package user

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"

	"github.com/uptrace/bun"

	"meritmark/app/audit"
	"meritmark/app/events"
	"meritmark/app/model"
	"meritmark/app/storage"
	"meritmark/app/web"
	"meritmark/db"
)

// Service is the use cases of the user feature.
type Service struct {
	DB     *bun.DB
	Store  storage.Store
	Events *events.Bus // profile changes are recorded as events.ProfileChanged
	// decode limits how many pictures are decoded at once (each may take ~160 MB).
	decode chan struct{}
}

// NewService makes the service.
func NewService(d *bun.DB, store storage.Store, bus *events.Bus) *Service {
	return &Service{DB: d, Store: store, Events: bus, decode: make(chan struct{}, 2)}
}

// profileChanged records that a member's public profile changed.
func (s *Service) profileChanged(ctx context.Context, tx bun.IDB, userID string) error {
	return s.Events.Record(ctx, tx, events.ProfileChanged, "user", userID, map[string]string{"userId": userID})
}

// View is u as the API answers it, with its badge grants (the auth feature answers
// /auth/me and login with it).
func View(ctx context.Context, d bun.IDB, u *model.User) (*JSON, error) {
	rows, err := grants(ctx, d, u.ID, false)
	if err != nil {
		return nil, err
	}
	return viewOf(u, rows), nil
}

func viewOf(u *model.User, rows []grantRow) *JSON {
	gs := make([]GrantJSON, 0, len(rows))
	for _, r := range rows {
		if r.RevokedAt == nil {
			gs = append(gs, r.grant())
		}
	}
	return ToJSON(u, gs)
}

// OwnProfile is View and Earned with revoked badges (what the holder's own profile page
// shows) from one read of the grants.
func OwnProfile(ctx context.Context, d bun.IDB, u *model.User) (*JSON, []EarnedBadge, error) {
	rows, err := grants(ctx, d, u.ID, true)
	if err != nil {
		return nil, nil, err
	}
	return viewOf(u, rows), PerBadge(rows, model.Now()), nil
}

// Earned lists the user's badges, newest first, one entry per badge (a renewed badge is
// one) with its state; revoked ones only withRevoked (the holder's own profile).
func Earned(ctx context.Context, d bun.IDB, userID string, withRevoked bool) ([]EarnedBadge, error) {
	rows, err := grants(ctx, d, userID, withRevoked)
	if err != nil {
		return nil, err
	}
	return PerBadge(rows, model.Now()), nil
}

// SetNameInCredentials records the holder's choice that the credentials signed from now on
// name them (or not); credentials signed before keep what they say.
func (s *Service) SetNameInCredentials(ctx context.Context, u *model.User, on bool) error {
	return s.DB.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		return SetNameInCredentialsTx(ctx, tx, u, on)
	})
}

// SetNameInCredentialsTx is SetNameInCredentials inside tx (the award claim makes the
// choice in the transaction that signs the badge), audited as user.credential_name.
func SetNameInCredentialsTx(ctx context.Context, tx bun.IDB, u *model.User, on bool) error {
	var was bool
	if err := tx.NewSelect().Model((*model.User)(nil)).Column("name_in_credentials").Where("id = ?", u.ID).Scan(ctx, &was); err != nil {
		return err
	}
	if was == on {
		return nil
	}
	if _, err := tx.NewUpdate().Model((*model.User)(nil)).Set("name_in_credentials = ?", on).Where("id = ?", u.ID).Exec(ctx); err != nil {
		return err
	}
	u.NameInCredentials = on
	return audit.Write(ctx, tx, u, "user.credential_name", "user", u.ID,
		map[string]bool{"nameInCredentials": was}, map[string]bool{"nameInCredentials": on})
}

// UpdateProfile validates and saves u's details and returns the stored user.
func (s *Service) UpdateProfile(ctx context.Context, u *model.User, in ProfileInput) (*model.User, error) {
	p, err := CleanProfile(in, u.Email)
	if err != nil {
		return nil, err
	}
	// the public profile, the Hall of Fame and verify pages show these: their cached
	// pages are invalidated in the same transaction
	if err := s.Events.RunInTx(ctx, s.DB, func(ctx context.Context, tx bun.Tx) error {
		if err := updateProfile(ctx, tx, u.ID, p); err != nil {
			return err
		}
		return s.profileChanged(ctx, tx, u.ID)
	}); err != nil {
		return nil, err
	}
	return findUser(ctx, s.DB, u.ID)
}

// SetPicture turns data into the user's new picture: processed, stored under a new
// generated key, recorded, and the old picture deleted. It returns the new URL.
func (s *Service) SetPicture(ctx context.Context, userID string, data []byte) (string, error) {
	select {
	case s.decode <- struct{}{}:
	case <-ctx.Done():
		return "", ctx.Err()
	}
	pic, err := ProcessPicture(data)
	<-s.decode
	if err != nil {
		return "", err
	}
	key := NewPictureKey()
	if err := s.Store.Put(ctx, key, bytes.NewReader(pic), "image/png"); err != nil {
		return "", fmt.Errorf("store picture: %w", err)
	}
	old, err := s.swap(ctx, userID, key)
	if err != nil {
		// the row was not changed: the new file is nobody's
		if derr := s.Store.Delete(context.WithoutCancel(ctx), key); derr != nil {
			slog.Warn("delete unused picture", "key", key, "err", derr)
		}
		return "", err
	}
	if old != "" && ValidPictureKey(old) {
		if err := s.Store.Delete(context.WithoutCancel(ctx), old); err != nil {
			slog.Warn("delete old picture", "key", old, "err", err)
		}
	}
	return "/media/" + key, nil
}

var errBusy = errors.New("profile picture changed concurrently too often")

// swap records key as the user's picture and returns the key it replaced.
func (s *Service) swap(ctx context.Context, userID, key string) (string, error) {
	for range 5 {
		u, err := findUser(ctx, s.DB, userID)
		if err != nil {
			return "", err
		}
		var ok bool
		err = s.Events.RunInTx(ctx, s.DB, func(ctx context.Context, tx bun.Tx) error {
			var err error
			if ok, err = swapPicture(ctx, tx, userID, u.ProfilePicKey, key); err != nil || !ok {
				return err
			}
			return s.profileChanged(ctx, tx, userID)
		})
		if err != nil {
			return "", err
		}
		if ok {
			return u.ProfilePicKey, nil
		}
	}
	return "", errBusy
}

// PublicProfile is what /profile/{id} shows to anyone: no email, no internal ids.
type PublicProfile struct {
	ID            string        `json:"id"`
	Name          string        `json:"name"`
	Position      string        `json:"position"`
	LinkedIn      string        `json:"linkedin"`
	Portfolio     string        `json:"portfolio"`
	ProfilePicURL string        `json:"profilePicUrl"`
	MemberSince   string        `json:"memberSince"`
	Badges        []EarnedBadge `json:"badges"`
	Held          int           `json:"held"` // badges in force (the Hall of Fame's count)
	Categories    int           `json:"categories"`
}

// Public loads the public profile of id (db.ErrNotFound when there is no such user, or
// the account was deleted).
func Public(ctx context.Context, d bun.IDB, id string) (*PublicProfile, error) {
	u, err := findUser(ctx, d, id)
	if err != nil {
		return nil, err
	}
	if u.Deleted() { // a deleted account's tombstone has no public profile
		return nil, db.ErrNotFound
	}
	badges, err := Earned(ctx, d, id, false)
	if err != nil {
		return nil, err
	}
	for i := range badges {
		badges[i].RenewHref = "" // the holder's own action
	}
	return &PublicProfile{ID: u.ID, Name: u.Name, Position: u.Position, LinkedIn: u.LinkedIn, Portfolio: u.Portfolio,
		ProfilePicURL: u.ProfilePicURL(), MemberSince: u.CreatedAt.UTC().Format("2006-01-02T15:04:05Z"),
		Badges: badges, Held: Held(badges), Categories: Categories(badges)}, nil
}

// Categories counts the distinct categories among the badges in force (as the Hall of
// Fame does).
func Categories(badges []EarnedBadge) int {
	seen := map[string]bool{}
	for _, b := range badges {
		if b.Standing.Held {
			seen[b.Category] = true
		}
	}
	return len(seen)
}

// Messages of the score setting.
const (
	MsgHiddenMissing = "Say whether the score is hidden (hidden: true or false)."
	MsgGrantNotFound = "Badge not found."
	MsgScoreHidden   = "Your score is hidden on the public verification page. The signed credential still carries it."
	MsgScoreShown    = "Your score is shown on the public verification page."
	// the choice to be named in credentials (SetNameInCredentials)
	MsgNameChoiceMissing = "Say whether your credentials name you (nameInCredentials: true or false)."
	MsgNameOn            = "Credentials issued from now on show your name. Credentials issued before keep what they say."
	MsgNameOff           = "Credentials issued from now on do not show your name. Credentials issued before keep what they say."
)

// SetScoreHidden records whether the public verify page of the user's grant grantID
// shows the score; the verify pages' caches drop it.
func (s *Service) SetScoreHidden(ctx context.Context, userID, grantID string, hidden bool) error {
	if !model.ValidID(grantID) {
		return web.NotFound(MsgGrantNotFound)
	}
	err := s.Events.RunInTx(ctx, s.DB, func(ctx context.Context, tx bun.Tx) error {
		res, err := tx.NewUpdate().Model((*model.BadgeGrant)(nil)).Set("hide_score = ?", hidden).
			Where("id = ? AND user_id = ?", grantID, userID).Exec(ctx)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil || n != 1 {
			return web.NotFound(MsgGrantNotFound)
		}
		if err := s.profileChanged(ctx, tx, userID); err != nil {
			return err
		}
		return s.Events.Record(ctx, tx, events.GrantDisplayChanged, "grant", grantID, map[string]string{"userId": userID, "grantId": grantID})
	})
	return err
}
