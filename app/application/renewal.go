package application

import (
	"context"
	"errors"

	"meritmark/app/grant"
	"meritmark/app/model"
	"meritmark/app/storage"
)

// IsRenewal reports whether an application by userID for badge renews a grant: the user
// holds an unrevoked grant of it (one past HeldUntil would have refused the application).
func (s *Service) IsRenewal(ctx context.Context, userID, badgeID string) (bool, error) {
	return s.DB.NewSelect().Model((*model.BadgeGrant)(nil)).
		Where("user_id = ? AND badge_id = ? AND revoked_at IS NULL", userID, badgeID).Exists(ctx)
}

// OnFile is the user's latest uploaded file of kind (from any application), or nil.
func (s *Service) OnFile(ctx context.Context, userID, kind string) (*model.ApplicationFile, error) {
	var fs []model.ApplicationFile
	err := s.DB.NewSelect().Model(&fs).
		Join("JOIN applications AS a ON a.id = application_file.application_id").
		Where("a.user_id = ? AND application_file.kind = ?", userID, kind).
		OrderExpr("application_file.created_at DESC, application_file.id DESC").Limit(1).Scan(ctx)
	if err != nil || len(fs) == 0 {
		return nil, err
	}
	return &fs[0], nil
}

// reusable lists the files on file that a renewal of badge uses again because the
// submission (counts: files sent, by kind) did not send them: the resume (a skill badge,
// or a proof badge that requires one) and the profile picture (a skill badge). Proof of
// work is never reused: a renewal shows current work (grant.RenewalNeeds says so).
func (s *Service) reusable(ctx context.Context, userID string, badge *model.Badge, counts map[string]int) ([]model.ApplicationFile, error) {
	renewal, err := s.IsRenewal(ctx, userID, badge.ID)
	if err != nil || !renewal {
		return nil, err
	}
	var kinds []string
	if (badge.Type == model.TypeSkill || badge.RequiresResume) && counts[KindResume] == 0 {
		kinds = append(kinds, KindResume)
	}
	if badge.Type == model.TypeSkill && counts[KindProfilePic] == 0 {
		kinds = append(kinds, KindProfilePic)
	}
	var out []model.ApplicationFile
	for _, k := range kinds {
		f, err := s.OnFile(ctx, userID, k)
		if err != nil {
			return nil, err
		}
		if f != nil {
			out = append(out, *f)
		}
	}
	return out, nil
}

// copyFile copies a stored file to a new key: each application owns its files (deleting
// one application's files never touches another's).
func (s *Service) copyFile(ctx context.Context, from, to, contentType string) error {
	rc, err := s.Store.Open(ctx, from)
	if errors.Is(err, storage.ErrNotFound) {
		return errors.New("the file on record is missing from storage")
	}
	if err != nil {
		return err
	}
	defer rc.Close()
	return s.Store.Put(ctx, to, rc, contentType)
}

// RenewalInfo is what the application page says about a renewal.
type RenewalInfo struct {
	Label  string    `json:"label"` // the badge's state now
	Needs  string    `json:"needs"` // grant.RenewalNeeds
	Resume *FileView `json:"resume"`
	Pic    *FileView `json:"profilePic"`
}

// Renewal describes the renewal userID would make by applying for badge now (nil when it
// is not one): the badge's state, what it takes, and the files on file it uses again.
func (s *Service) Renewal(ctx context.Context, userID string, badge *model.Badge) (*RenewalInfo, error) {
	var gs []grant.Entry
	if err := s.DB.NewSelect().Model((*model.BadgeGrant)(nil)).
		Column("id", "badge_id", "granted_at", "expires_at", "revoked_at", "previous_grant_id").
		Where("user_id = ? AND badge_id = ? AND revoked_at IS NULL", userID, badge.ID).Scan(ctx, &gs); err != nil {
		return nil, err
	}
	i, st := grant.Current(gs, model.Now())
	if i < 0 {
		return nil, nil
	}
	info := &RenewalInfo{Label: st.Label, Needs: grant.RenewalNeeds(badge.Type)}
	files, err := s.reusable(ctx, userID, badge, map[string]int{})
	if err != nil {
		return nil, err
	}
	for _, f := range files {
		v := fileView(f)
		if f.Kind == KindResume {
			info.Resume = &v
		} else {
			info.Pic = &v
		}
	}
	return info, nil
}
