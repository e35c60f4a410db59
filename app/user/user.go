// Package user serves a member's own profile (details, picture, earned badges), the public
// profile page /profile/{id} and the stored profile pictures under /media/.
//
// This file holds the pure rules: the user's JSON shape, profile validation and the
// picture pipeline (decode by content, square crop, downscale, PNG without metadata).
package user

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/jpeg"
	"image/png"
	"net/url"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"golang.org/x/image/draw"
	"golang.org/x/image/webp"

	"meritmark/app/grant"
	"meritmark/app/model"
)

// JSON is the user as the API answers it (spec section 3: `_id` on the server).
type JSON struct {
	ID            string      `json:"_id"`
	Name          string      `json:"name"`
	Email         string      `json:"email"`
	Role          string      `json:"role"`
	Position      string      `json:"position"`
	LinkedIn      string      `json:"linkedin"`
	Portfolio     string      `json:"portfolio"`
	ProfilePicURL string      `json:"profilePicUrl"`
	CreatedAt     time.Time   `json:"createdAt"`
	BadgeGrants   []GrantJSON `json:"badgeGrants"`
	// account security state (app/auth)
	EmailVerified      bool `json:"emailVerified"`
	TwoFactorEnabled   bool `json:"twoFactorEnabled"`
	MustChangePassword bool `json:"mustChangePassword"`
	// NameInCredentials: the holder's new credentials name them (PUT /users/credential-name)
	NameInCredentials bool `json:"nameInCredentials"`
}

// GrantJSON is one badge grant of the user (spec section 3, "Badge grant").
type GrantJSON struct {
	ID                   string     `json:"id"`
	BadgeID              string     `json:"badgeId"`
	BadgeName            string     `json:"badgeName"`
	BadgeCategory        string     `json:"badgeCategory"`
	GrantedAt            time.Time  `json:"grantedAt"`
	ExpiresAt            *time.Time `json:"expiresAt"`
	VerificationID       string     `json:"verificationId"`
	PublicVerificationID string     `json:"publicVerificationId"`
}

// EarnedBadge is one line of GET /users/badges (spec section 3, "Earned badge").
//
// VerificationID is the grant's public_verification_id, not its internal verification_id:
// every link a holder shares (/verify/{id}) must use one identifier, and the badge detail
// page's share dialog already builds its link from publicVerificationId (spec section 2).
// The internal verification_id stays between the holder and the administrators (it is in
// the owner's badgeGrants), so publishing a profile link never exposes it.
type EarnedBadge struct {
	ID             string     `json:"id"`
	BadgeID        string     `json:"badgeId"`
	Name           string     `json:"name"`
	Category       string     `json:"category"`
	Icon           string     `json:"icon"`
	Color          string     `json:"color"`
	EarnedDate     time.Time  `json:"earnedDate"`
	ExpiresAt      *time.Time `json:"expiresAt"`
	VerificationID string     `json:"verificationId"`
	// Standing is the badge's state (valid until, expiring soon, expired, revoked; a
	// renewal names its date): app/grant StandingOf, the one rule every page shows.
	Standing grant.Standing `json:"standing"`
	// RenewHref is where the holder renews (set while the badge is renewable).
	RenewHref string `json:"renewHref"`
	// HideScore: the holder keeps the score off the public verify page (the signed
	// credential still carries it).
	HideScore bool `json:"hideScore"`
	// Scored: a skill badge (its credential carries a quiz score).
	Scored bool `json:"scored"`
}

// grantRow is a badge grant joined with its badge.
type grantRow struct {
	ID                   string     `bun:"id"`
	BadgeID              string     `bun:"badge_id"`
	Name                 string     `bun:"name"`
	Category             string     `bun:"category"`
	Icon                 string     `bun:"icon"`
	Color                string     `bun:"color"`
	GrantedAt            time.Time  `bun:"granted_at"`
	ExpiresAt            *time.Time `bun:"expires_at"`
	RevokedAt            *time.Time `bun:"revoked_at"`
	PreviousGrantID      *string    `bun:"previous_grant_id"`
	BadgeType            string     `bun:"badge_type"`
	BadgeActive          bool       `bun:"badge_active"`
	VerificationID       string     `bun:"verification_id"`
	PublicVerificationID string     `bun:"public_verification_id"`
	HideScore            bool       `bun:"hide_score"`
}

func (g grantRow) grant() GrantJSON {
	return GrantJSON{ID: g.ID, BadgeID: g.BadgeID, BadgeName: g.Name, BadgeCategory: g.Category, GrantedAt: g.GrantedAt.UTC(),
		ExpiresAt: utcPtr(g.ExpiresAt), VerificationID: g.VerificationID, PublicVerificationID: g.PublicVerificationID}
}

func (g grantRow) earned(st grant.Standing) EarnedBadge {
	e := EarnedBadge{ID: g.ID, BadgeID: g.BadgeID, Name: g.Name, Category: g.Category, Icon: g.Icon, Color: g.Color,
		EarnedDate: g.GrantedAt.UTC(), ExpiresAt: utcPtr(g.ExpiresAt), VerificationID: g.PublicVerificationID, Standing: st,
		HideScore: g.HideScore, Scored: g.BadgeType == model.TypeSkill}
	if st.CanRenew && g.BadgeActive {
		e.RenewHref = grant.RenewPath(g.BadgeType, g.BadgeID)
	}
	return e
}

// PerBadge folds a holder's grants (newest first) into one entry per badge, in that
// order: the grant that stands for the badge (app/grant Current) with its state. A
// renewed badge is one entry.
func PerBadge(rows []grantRow, now time.Time) []EarnedBadge {
	byBadge := map[string][]grant.Entry{}
	var order []string
	idx := map[string][]int{}
	for i, r := range rows {
		if _, ok := byBadge[r.BadgeID]; !ok {
			order = append(order, r.BadgeID)
		}
		byBadge[r.BadgeID] = append(byBadge[r.BadgeID], grant.Entry{ID: r.ID, BadgeID: r.BadgeID, GrantedAt: r.GrantedAt,
			ExpiresAt: r.ExpiresAt, RevokedAt: r.RevokedAt, PreviousGrantID: r.PreviousGrantID})
		idx[r.BadgeID] = append(idx[r.BadgeID], i)
	}
	out := make([]EarnedBadge, 0, len(order))
	for _, b := range order {
		i, st := grant.Current(byBadge[b], now)
		out = append(out, rows[idx[b][i]].earned(st))
	}
	return out
}

// Held counts the badges in force among badges (the profile's and the public profile's
// count, equal to the Hall of Fame's).
func Held(badges []EarnedBadge) int {
	n := 0
	for _, b := range badges {
		if b.Standing.Held {
			n++
		}
	}
	return n
}

func utcPtr(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	u := t.UTC()
	return &u
}

// ToJSON builds the user's JSON with its grants.
func ToJSON(u *model.User, grants []GrantJSON) *JSON {
	if grants == nil {
		grants = []GrantJSON{}
	}
	return &JSON{ID: u.ID, Name: u.Name, Email: u.Email, Role: u.Role, Position: u.Position, LinkedIn: u.LinkedIn,
		Portfolio: u.Portfolio, ProfilePicURL: u.ProfilePicURL(), CreatedAt: u.CreatedAt.UTC(), BadgeGrants: grants,
		EmailVerified: u.EmailVerified(), TwoFactorEnabled: u.TOTPEnabled(), MustChangePassword: u.MustChangePassword,
		NameInCredentials: u.NameInCredentials}
}

// Field limits.
const (
	MaxName     = 100
	MaxPosition = 120
	MaxURL      = 300
)

// Profile messages.
const (
	MsgNameRequired     = "Please enter your name."
	MsgNameTooLong      = "Your name must be at most 100 characters."
	MsgPositionTooLong  = "Your position must be at most 120 characters."
	MsgLinkedInInvalid  = "LinkedIn must be a full http:// or https:// address."
	MsgPortfolioInvalid = "Portfolio must be a full http:// or https:// address."
	MsgEmailReadOnly    = "Your email address cannot be changed."
	MsgProfileUpdated   = "Your details have been saved."
)

// ProfileInput is the body of POST /users/profile. Email is accepted only to be compared:
// it is never editable.
type ProfileInput struct {
	Name      string  `json:"name"`
	Email     *string `json:"email"`
	Position  string  `json:"position"`
	LinkedIn  string  `json:"linkedin"`
	Portfolio string  `json:"portfolio"`
}

// ValidationError is a rule broken by the input (answered 400).
type ValidationError struct{ Msg string }

func (e *ValidationError) Error() string { return e.Msg }

func invalid(msg string) error { return &ValidationError{Msg: msg} }

// CleanProfile trims and validates the input for user u, returning what to store.
func CleanProfile(in ProfileInput, currentEmail string) (ProfileInput, error) {
	out := ProfileInput{
		Name:      collapseSpaces(in.Name),
		Position:  collapseSpaces(in.Position),
		LinkedIn:  strings.TrimSpace(in.LinkedIn),
		Portfolio: strings.TrimSpace(in.Portfolio),
	}
	if in.Email != nil && strings.TrimSpace(*in.Email) != "" && !strings.EqualFold(strings.TrimSpace(*in.Email), currentEmail) {
		return out, invalid(MsgEmailReadOnly)
	}
	switch {
	case out.Name == "":
		return out, invalid(MsgNameRequired)
	case utf8.RuneCountInString(out.Name) > MaxName:
		return out, invalid(MsgNameTooLong)
	case utf8.RuneCountInString(out.Position) > MaxPosition:
		return out, invalid(MsgPositionTooLong)
	}
	if out.LinkedIn != "" && !ValidWebURL(out.LinkedIn) {
		return out, invalid(MsgLinkedInInvalid)
	}
	if out.Portfolio != "" && !ValidWebURL(out.Portfolio) {
		return out, invalid(MsgPortfolioInvalid)
	}
	return out, nil
}

// ValidWebURL reports an absolute http(s) URL with a host, no credentials, no spaces and
// at most MaxURL characters.
func ValidWebURL(s string) bool {
	if len(s) > MaxURL || strings.ContainsAny(s, " \t\r\n<>\"") {
		return false
	}
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil {
		return false
	}
	host := u.Hostname()
	return host != "" && !strings.HasPrefix(host, ".") && !strings.HasSuffix(host, "-")
}

// CleanName is how a display name (or any short public text: a position) is stored:
// trimmed, runs of whitespace and control characters folded into one space, and
// invisible format characters dropped (Unicode category Cf: the bidi overrides and
// isolates U+202A–U+202E, U+2066–U+2069, the marks U+200E/U+200F, the zero-width space,
// joiners and no-break space U+200B–U+200D, U+2060, U+FEFF, the soft hyphen), which could
// otherwise reverse or hide text next to a name on public pages, or make two names look
// the same.
func CleanName(s string) string { return collapseSpaces(s) }

// collapseSpaces trims s, folds runs of whitespace (and control characters) into one
// space and drops invisible format characters (see CleanName).
func collapseSpaces(s string) string {
	var b strings.Builder
	space := false
	for _, r := range strings.TrimSpace(s) {
		if unicode.Is(unicode.Cf, r) {
			continue
		}
		if r < 0x20 || r == 0x7f || r == ' ' || r == '\u00a0' || unicode.IsSpace(r) {
			space = true
			continue
		}
		if space && b.Len() > 0 {
			b.WriteByte(' ')
		}
		space = false
		b.WriteRune(r)
	}
	return b.String()
}

// Picture limits.
const (
	MaxPictureBytes  = 10 << 20   // 10 MB (spec section 9)
	MaxPictureSide   = 512        // stored pictures are at most 512x512
	MaxSourcePixels  = 40_000_000 // 40 megapixels: a decoded PNG of that size is 160 MB
	MaxSourceSide    = 12_000
	PictureKeyPrefix = "avatars/"
)

// Picture messages.
const (
	MsgPictureMissing  = "Please choose an image file to upload."
	MsgPictureTooLarge = "The picture must be at most 10 MB."
	MsgPictureType     = "Only PNG, JPEG or WebP images can be used as a profile picture."
	MsgPictureBroken   = "The image could not be read. Please choose another file."
	MsgPictureHuge     = "The image has too many pixels. Please choose one of at most 40 megapixels."
	MsgPictureUpdated  = "Profile picture updated"
)

// Sniff names the image format from the first bytes ("png", "jpeg", "webp" or "").
func Sniff(b []byte) string {
	switch {
	case len(b) >= 8 && bytes.Equal(b[:8], []byte("\x89PNG\r\n\x1a\n")):
		return "png"
	case len(b) >= 3 && b[0] == 0xFF && b[1] == 0xD8 && b[2] == 0xFF:
		return "jpeg"
	case len(b) >= 12 && string(b[:4]) == "RIFF" && string(b[8:12]) == "WEBP":
		return "webp"
	}
	return ""
}

// ProcessPicture decodes data by its content (PNG, JPEG or WebP, whatever the file was
// called), crops the centre square, scales it down to at most 512x512 and encodes it as
// a PNG. Only pixels are copied, so EXIF, XMP, ICC and text chunks are all dropped.
func ProcessPicture(data []byte) ([]byte, error) {
	format := Sniff(data)
	if format == "" {
		return nil, invalid(MsgPictureType)
	}
	var cfg image.Config
	var err error
	switch format {
	case "png":
		cfg, err = png.DecodeConfig(bytes.NewReader(data))
	case "jpeg":
		cfg, err = jpeg.DecodeConfig(bytes.NewReader(data))
	case "webp":
		cfg, err = webp.DecodeConfig(bytes.NewReader(data))
	}
	if err != nil || cfg.Width <= 0 || cfg.Height <= 0 {
		return nil, invalid(MsgPictureBroken)
	}
	// refuse decompression bombs before allocating the pixels
	if cfg.Width > MaxSourceSide || cfg.Height > MaxSourceSide || cfg.Width*cfg.Height > MaxSourcePixels {
		return nil, invalid(MsgPictureHuge)
	}
	var src image.Image
	switch format {
	case "png":
		src, err = png.Decode(bytes.NewReader(data))
	case "jpeg":
		src, err = jpeg.Decode(bytes.NewReader(data))
	case "webp":
		src, err = webp.Decode(bytes.NewReader(data))
	}
	if err != nil {
		return nil, invalid(MsgPictureBroken)
	}
	return encodeSquare(src)
}

func encodeSquare(src image.Image) ([]byte, error) {
	b := src.Bounds()
	side := min(b.Dx(), b.Dy())
	crop := image.Rect(b.Min.X+(b.Dx()-side)/2, b.Min.Y+(b.Dy()-side)/2, 0, 0)
	crop.Max = crop.Min.Add(image.Pt(side, side))
	out := min(side, MaxPictureSide)
	dst := image.NewNRGBA(image.Rect(0, 0, out, out))
	if out == side {
		draw.Draw(dst, dst.Bounds(), src, crop.Min, draw.Src)
	} else {
		draw.CatmullRom.Scale(dst, dst.Bounds(), src, crop, draw.Src, nil)
	}
	// image/png writes 8-bit RGB when every pixel is opaque (NRGBA.Opaque), else RGBA
	var buf bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.DefaultCompression}
	if err := enc.Encode(&buf, dst); err != nil {
		return nil, fmt.Errorf("encode picture: %w", err)
	}
	return buf.Bytes(), nil
}

// ValidPictureKey reports a key this package generates: avatars/<id>.png.
func ValidPictureKey(key string) bool {
	rest, ok := strings.CutPrefix(key, PictureKeyPrefix)
	if !ok {
		return false
	}
	id, ok := strings.CutSuffix(rest, ".png")
	return ok && model.ValidID(id)
}

// NewPictureKey generates the storage key of a new picture.
func NewPictureKey() string { return PictureKeyPrefix + model.NewID() + ".png" }

// IsValidation reports a *ValidationError.
func IsValidation(err error) (string, bool) {
	var v *ValidationError
	if errors.As(err, &v) {
		return v.Msg, true
	}
	return "", false
}
