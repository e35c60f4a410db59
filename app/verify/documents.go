package verify

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"meritmark/app/credential"
	"meritmark/app/model"
	"meritmark/db"
)

// credentialRecord loads a credential by public id, signing it first if needed (needLD:
// the JSON-LD form is wanted too).
func (s *Service) credentialRecord(ctx context.Context, pvid, requestOrigin string, needLD bool) (*record, error) {
	if !publicRe.MatchString(pvid) {
		return nil, ErrNotFound
	}
	r, err := s.load(ctx, KindPublic, pvid)
	if err != nil {
		return nil, err
	}
	if r.CredentialJWT == "" || (needLD && r.CredentialLD == "") {
		if err := s.signLazily(ctx, r, requestOrigin, needLD); err != nil {
			return nil, err
		}
		return s.load(ctx, KindPublic, pvid)
	}
	return r, nil
}

// CredentialJWT is the signed credential.
func (s *Service) CredentialJWT(ctx context.Context, pvid, requestOrigin string) (string, error) {
	r, err := s.credentialRecord(ctx, pvid, requestOrigin, false)
	if err != nil {
		return "", err
	}
	return r.CredentialJWT, nil
}

// CredentialJSON is the credential as a JSON-LD document with its Data Integrity proof
// (eddsa-rdfc-2022, signed with the VC-JWT; a grant signed before that form existed is
// signed again first).
func (s *Service) CredentialJSON(ctx context.Context, pvid, requestOrigin string) ([]byte, string, error) {
	r, err := s.credentialRecord(ctx, pvid, requestOrigin, true)
	if err != nil {
		return nil, "", err
	}
	return []byte(r.CredentialLD), r.CredentialJWT, nil
}

// BakedPNG is the badge image with the credential baked in.
func (s *Service) BakedPNG(ctx context.Context, pvid, requestOrigin string) ([]byte, string, error) {
	r, err := s.credentialRecord(ctx, pvid, requestOrigin, false)
	if err != nil {
		return nil, "", err
	}
	key := "baked:" + r.GrantID + ":" + hash(r.CredentialJWT)
	b, err := s.images.Make(key, func() ([]byte, error) {
		return credential.Bake(s.badgeImage(r.BadgeID, r.BadgeName, r.BadgeCategory, r.BadgeColor), r.CredentialJWT)
	})
	if err != nil {
		return nil, "", err
	}
	return b, r.CredentialJWT, nil
}

func (s *Service) badgeImage(id, name, category, color string) []byte {
	key := "badge:" + id + ":" + hash(name+"\x00"+category+"\x00"+color)
	b, _ := s.images.Make(key, func() ([]byte, error) { return credential.BadgeImage(name, category, color), nil })
	return b
}

// IssuerImage is the issuer's image (the Meritmark medallion).
func (s *Service) IssuerImage() []byte {
	b, _ := s.images.Make("issuer", func() ([]byte, error) { return credential.BadgeImage(credential.IssuerName, "Issuer", ""), nil })
	return b
}

// AchievementImage is a badge's medallion.
func (s *Service) AchievementImage(ctx context.Context, badgeID string) ([]byte, error) {
	if !model.ValidID(badgeID) {
		return nil, ErrNotFound
	}
	var b model.Badge
	if err := s.DB.NewSelect().Model(&b).Where("id = ?", badgeID).Scan(ctx); err != nil {
		if db.IsNoRows(err) {
			return nil, ErrNotFound
		}
		return nil, err
	}
	return s.badgeImage(b.ID, b.Name, b.Category, b.Color), nil
}

// Card is the social card (og:image) of a credential's verify page: drawn once per
// version of the grant, kept in memory and under DataDir/cache/cards.
func (s *Service) Card(ctx context.Context, pvid string) ([]byte, string, error) {
	if !publicRe.MatchString(pvid) {
		return nil, "", ErrNotFound
	}
	r, err := s.load(ctx, KindPublic, pvid)
	if err != nil {
		return nil, "", err
	}
	now := s.now()
	st := credential.CardValid
	switch r.statusAt(now) {
	case StatusRevoked:
		st = credential.CardRevoked
	case StatusExpired:
		st = credential.CardExpired
	}
	version := hash(fmt.Sprint(st) + "\x00" + r.BadgeName + "\x00" + r.BadgeCategory + "\x00" + r.BadgeColor + "\x00" + r.UserName + "\x00" + r.GrantedAt.UTC().String())
	b, err := s.storedCard(r.GrantID+"-"+version, func() []byte {
		return credential.Card(credential.CardInput{BadgeName: r.BadgeName, Category: r.BadgeCategory, Color: r.BadgeColor,
			Holder: r.UserName, IssuedOn: day(r.GrantedAt), State: st})
	})
	return b, version, err
}

// storedCard is the card named name (unique per drawing): from memory, from
// DataDir/cache/cards, or drawn and kept in both.
func (s *Service) storedCard(name string, drawCard func() []byte) ([]byte, error) {
	return s.images.Make("card:"+name, func() ([]byte, error) {
		var path string
		if s.DataDir != "" {
			path = filepath.Join(s.DataDir, "cache", "cards", name+".png")
			if b, err := os.ReadFile(path); err == nil && len(b) > 0 {
				return b, nil
			}
		}
		b := drawCard()
		if path != "" {
			if err := os.MkdirAll(filepath.Dir(path), 0o750); err == nil {
				tmp := fmt.Sprintf("%s.%d.tmp", path, time.Now().UnixNano())
				if os.WriteFile(tmp, b, 0o640) == nil {
					_ = os.Rename(tmp, path)
				}
			}
		}
		return b, nil
	})
}

// BadgeCardInput is what a badge's social card shows.
func BadgeCardInput(b *model.Badge) credential.BadgeCardInput {
	return credential.BadgeCardInput{Name: b.Name, Category: b.Category, Level: b.Level, Type: b.Type, Color: b.Color}
}

// BadgeCard is the social card (og:image) of a badge's page, with its version: drawn once
// per version, kept in memory and under DataDir/cache/cards.
func (s *Service) BadgeCard(ctx context.Context, badgeID string) ([]byte, string, error) {
	if !model.ValidID(badgeID) {
		return nil, "", ErrNotFound
	}
	var b model.Badge
	if err := s.DB.NewSelect().Model(&b).Where("id = ?", badgeID).Scan(ctx); err != nil {
		if db.IsNoRows(err) {
			return nil, "", ErrNotFound
		}
		return nil, "", err
	}
	in := BadgeCardInput(&b)
	version := in.Version()
	out, err := s.storedCard("badge-"+b.ID+"-"+version, func() []byte { return credential.BadgeCard(in) })
	return out, version, err
}

// IssuerDocument is the issuer's Profile (its id is our did:web).
func IssuerDocument(origin, supportEmail string) credential.Profile {
	p := credential.IssuerProfile(origin)
	p.Context = credential.Contexts
	p.Email = supportEmail
	return p
}

// AchievementDocument is a badge's Achievement.
func (s *Service) AchievementDocument(ctx context.Context, origin, badgeID string) (*credential.Achievement, error) {
	if !model.ValidID(badgeID) {
		return nil, ErrNotFound
	}
	var b model.Badge
	if err := s.DB.NewSelect().Model(&b).Where("id = ?", badgeID).Scan(ctx); err != nil {
		if db.IsNoRows(err) {
			return nil, ErrNotFound
		}
		return nil, err
	}
	a := credential.AchievementOf(origin, b.ID, b.Name, b.Description, b.Criteria, b.Category, b.Level)
	a.Context = credential.Contexts
	return &a, nil
}
