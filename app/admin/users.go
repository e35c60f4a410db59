package admin

import (
	"bytes"
	"context"
	"log/slog"

	"github.com/uptrace/bun"

	"meritmark/app/audit"
	"meritmark/app/events"
	"meritmark/app/model"
	"meritmark/app/storage"
	"meritmark/app/web"
	"meritmark/db"
)

// UserList is the answer of GET /admin/users.
type UserList struct {
	Users []UserJSON `json:"users"`
	Stats UserStats  `json:"stats"`
	PageInfo
}

// UserStats are User Management's stat cards.
type UserStats struct {
	TotalUsers        int64 `json:"totalUsers"`
	TotalAdmins       int64 `json:"totalAdmins"`
	TotalBadgesEarned int64 `json:"totalBadgesEarned"` // grants in force
	VerificationIDs   int64 `json:"verificationIds"`   // every verification id issued
}

// ListUsers pages the users matching search (and role, when given) with their grants.
func (s *Service) ListUsers(ctx context.Context, role, search string, pg Page) (*UserList, error) {
	us, total, err := s.st.users(ctx, s.DB, role, search, pg)
	if err != nil {
		return nil, err
	}
	ids := make([]string, len(us))
	for i := range us {
		ids[i] = us[i].ID
	}
	grants, err := s.st.grantsByUser(ctx, s.DB, ids)
	if err != nil {
		return nil, err
	}
	out := &UserList{Users: make([]UserJSON, 0, len(us)), PageInfo: pg.Info(total)}
	for i := range us {
		out.Users = append(out.Users, userJSON(&us[i], grants[us[i].ID]))
	}
	if out.Stats.TotalUsers, err = s.DB.NewSelect().Model((*model.User)(nil)).Count(ctx); err != nil {
		return nil, err
	}
	if out.Stats.TotalAdmins, err = s.DB.NewSelect().Model((*model.User)(nil)).Where("role = ?", model.RoleAdmin).Count(ctx); err != nil {
		return nil, err
	}
	if out.Stats.TotalBadgesEarned, err = s.DB.NewSelect().Model((*model.BadgeGrant)(nil)).Where("revoked_at IS NULL").Count(ctx); err != nil {
		return nil, err
	}
	if out.Stats.VerificationIDs, err = s.DB.NewSelect().Model((*model.BadgeGrant)(nil)).Where("verification_id <> ''").Count(ctx); err != nil {
		return nil, err
	}
	return out, nil
}

// User is one user with their grants (the users table's side panel, a deep link to a
// user on another page).
func (s *Service) User(ctx context.Context, id string) (*UserJSON, error) {
	if !model.ValidID(id) {
		return nil, web.NotFound(MsgUserMissing)
	}
	var u model.User
	if err := s.DB.NewSelect().Model(&u).Where("id = ?", id).Scan(ctx); err != nil {
		if db.IsNoRows(err) {
			return nil, web.NotFound(MsgUserMissing)
		}
		return nil, err
	}
	out, err := s.userWithGrants(ctx, &u)
	if err != nil {
		return nil, err
	}
	return &out, nil
}

func (s *Service) userWithGrants(ctx context.Context, u *model.User) (UserJSON, error) {
	grants, err := s.st.grantsByUser(ctx, s.DB, []string{u.ID})
	if err != nil {
		return UserJSON{}, err
	}
	return userJSON(u, grants[u.ID]), nil
}

// userState is a user as the audit log records it (no secrets).
type userState struct {
	Name          string `json:"name"`
	Email         string `json:"email"`
	Role          string `json:"role"`
	Position      string `json:"position"`
	LinkedIn      string `json:"linkedin"`
	Portfolio     string `json:"portfolio"`
	ProfilePicKey string `json:"profilePicKey,omitempty"`
}

func userStateOf(u *model.User) userState {
	return userState{Name: u.Name, Email: u.Email, Role: u.Role, Position: u.Position, LinkedIn: u.LinkedIn,
		Portfolio: u.Portfolio, ProfilePicKey: u.ProfilePicKey}
}

func lockUser(ctx context.Context, tx bun.Tx, id string) (*model.User, error) {
	var u model.User
	if err := db.ForUpdate(tx, tx.NewSelect().Model(&u).Where("id = ?", id)).Scan(ctx); err != nil {
		if db.IsNoRows(err) {
			return nil, web.NotFound(MsgUserMissing)
		}
		return nil, err
	}
	return &u, nil
}

// UpdateUser applies an admin's edit (already cleaned) to user id in one transaction,
// enforcing the role rules (no self-demotion, never zero admins) and e-mail uniqueness.
// Profile changes and a role change are audited as separate entries.
//
// A new e-mail address is not set at once: it waits as the user's pending address, a
// confirmation link goes to it and a notice to the current one; the address changes when
// its owner follows the link (auth.VerifyEmail). origin is the site's address for the link.
func (s *Service) UpdateUser(ctx context.Context, actor *model.User, id string, e UserEdit, origin string) (*UserJSON, error) {
	var updated *model.User
	mailed := false
	err := s.Events.RunInTx(ctx, s.DB, func(ctx context.Context, tx bun.Tx) error {
		admins := 0
		if e.Role != nil && *e.Role != model.RoleAdmin {
			// A possible demotion: lock every admin row first, always in id order (so two
			// admins demoting each other wait for one another instead of deadlocking);
			// the one who waited counts again after the other's commit.
			var ids []string
			q := tx.NewSelect().Model((*model.User)(nil)).Column("id").Where("role = ?", model.RoleAdmin).OrderExpr("id")
			if err := db.ForUpdate(tx, q).Scan(ctx, &ids); err != nil {
				return err
			}
			admins = len(ids)
		}
		u, err := lockUser(ctx, tx, id)
		if err != nil {
			return err
		}
		before := userStateOf(u)
		if e.Role != nil && *e.Role != u.Role {
			if msg := RoleChangeRule(actor.ID, u, *e.Role, admins); msg != "" {
				return web.Conflict(msg)
			}
		}
		if e.Email != nil && *e.Email != u.Email {
			n, err := tx.NewSelect().Model((*model.User)(nil)).Where("email = ? AND id <> ?", *e.Email, u.ID).Count(ctx)
			if err != nil {
				return err
			}
			if n > 0 {
				return web.Conflict(MsgEmailTaken)
			}
		}
		set := func(dst *string, v *string) {
			if v != nil {
				*dst = *v
			}
		}
		var newEmail string
		if e.Email != nil && *e.Email != u.Email && *e.Email != u.PendingEmail {
			newEmail = *e.Email
		}
		e.Email = nil
		set(&u.Name, e.Name)
		set(&u.Position, e.Position)
		set(&u.LinkedIn, e.LinkedIn)
		set(&u.Portfolio, e.Portfolio)
		set(&u.Role, e.Role)
		if newEmail != "" {
			if err := requestEmailChange(ctx, tx, actor, u, newEmail, origin); err != nil {
				return err
			}
			mailed = true
		}
		after := userStateOf(u)
		if after == before {
			updated = u
			return nil
		}
		u.UpdatedAt = model.Now()
		if _, err := tx.NewUpdate().Model(u).Column("name", "email", "position", "linkedin", "portfolio", "role", "updated_at", "email_verified_at").WherePK().Exec(ctx); err != nil {
			if db.IsUniqueViolation(err) {
				return web.Conflict(MsgEmailTaken)
			}
			return err
		}
		if err := s.Events.Record(ctx, tx, events.ProfileChanged, "user", u.ID, map[string]string{"userId": u.ID}); err != nil {
			return err
		}
		profileBefore, profileAfter := before, after
		profileBefore.Role, profileAfter.Role = "", ""
		if profileBefore != profileAfter {
			if err := audit.Write(ctx, tx, actor, "user.update", "user", u.ID, profileBefore, profileAfter); err != nil {
				return err
			}
		}
		if before.Role != after.Role {
			if err := audit.Write(ctx, tx, actor, "user.role_change", "user", u.ID,
				map[string]string{"role": before.Role}, map[string]string{"role": after.Role}); err != nil {
				return err
			}
		}
		updated = u
		return nil
	})
	if err != nil {
		return nil, err
	}
	if mailed {
		s.kick()
	}
	j, err := s.userWithGrants(ctx, updated)
	if err != nil {
		return nil, err
	}
	return &j, nil
}

// SetProfilePic stores png (already processed) as user id's picture: the file is written
// first, the row and the audit entry in one transaction (the file is removed again when
// that fails), and the old picture is deleted after the commit.
func (s *Service) SetProfilePic(ctx context.Context, actor *model.User, id string, png []byte, newKey string) (string, error) {
	if err := s.Storage.Put(ctx, newKey, bytes.NewReader(png), "image/png"); err != nil {
		return "", err
	}
	var oldKey, url string
	err := s.Events.RunInTx(ctx, s.DB, func(ctx context.Context, tx bun.Tx) error {
		u, err := lockUser(ctx, tx, id)
		if err != nil {
			return err
		}
		oldKey = u.ProfilePicKey
		u.ProfilePicKey, u.UpdatedAt = newKey, model.Now()
		if _, err := tx.NewUpdate().Model(u).Column("profile_pic_key", "updated_at").WherePK().Exec(ctx); err != nil {
			return err
		}
		if err := s.Events.Record(ctx, tx, events.ProfileChanged, "user", u.ID, map[string]string{"userId": u.ID}); err != nil {
			return err
		}
		url = u.ProfilePicURL()
		return audit.Write(ctx, tx, actor, "user.profile_pic", "user", u.ID,
			map[string]string{"profilePicKey": oldKey}, map[string]string{"profilePicKey": newKey})
	})
	if err != nil {
		if derr := s.Storage.Delete(context.WithoutCancel(ctx), newKey); derr != nil {
			slog.Warn("admin: could not remove an unused picture", "key", newKey, "err", derr)
		}
		return "", err
	}
	if oldKey != "" && oldKey != newKey && storage.ValidKey(oldKey) {
		if err := s.Storage.Delete(context.WithoutCancel(ctx), oldKey); err != nil {
			slog.Warn("admin: could not remove the old picture", "key", oldKey, "err", err)
		}
	}
	return url, nil
}
