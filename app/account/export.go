package account

import (
	"archive/zip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"time"

	"meritmark/app/credential"
	"meritmark/app/model"
	"meritmark/app/storage"
)

// The JSON files of the export. Field names follow the API's (camelCase, money in
// dollars); every time is UTC.

type profileJSON struct {
	ID                 string     `json:"id"`
	Name               string     `json:"name"`
	Email              string     `json:"email"`
	Role               string     `json:"role"`
	Position           string     `json:"position"`
	LinkedIn           string     `json:"linkedin"`
	Portfolio          string     `json:"portfolio"`
	Phone              string     `json:"phone"`
	Bio                string     `json:"bio"`
	Location           string     `json:"location"`
	Company            string     `json:"company"`
	Experience         int        `json:"experience"`
	Education          string     `json:"education"`
	Skills             []string   `json:"skills"`
	ProfilePicture     string     `json:"profilePicture"` // its path in the zip ("" when none)
	PublicProfileURL   string     `json:"publicProfileUrl"`
	EmailVerifiedAt    *time.Time `json:"emailVerifiedAt"`
	TwoStepSignIn      bool       `json:"twoStepSignIn"`
	TwoStepSignInSince *time.Time `json:"twoStepSignInSince"`
	CreatedAt          time.Time  `json:"createdAt"`
	UpdatedAt          time.Time  `json:"updatedAt"`
}

type fileJSON struct {
	Kind         string    `json:"kind"`
	OriginalName string    `json:"originalName"`
	ContentType  string    `json:"contentType"`
	Size         int64     `json:"size"`
	UploadedAt   time.Time `json:"uploadedAt"`
	Path         string    `json:"path"` // in the zip ("" when the stored file is missing)
}

type applicationJSON struct {
	ID                 string     `json:"id"`
	Badge              named      `json:"badge"`
	Type               string     `json:"type"`
	Status             string     `json:"status"`
	PaymentStatus      string     `json:"paymentStatus"`
	FullName           string     `json:"fullName"`
	Email              string     `json:"email"`
	Position           string     `json:"position"`
	LinkedIn           string     `json:"linkedin"`
	Portfolio          string     `json:"portfolio"`
	Description        string     `json:"description"`
	QuizAttemptID      *string    `json:"quizAttemptId"`
	QuizScore          *float64   `json:"quizScore"`
	Price              float64    `json:"price"`
	PaymentCompletedAt *time.Time `json:"paymentCompletedAt"`
	ReviewedAt         *time.Time `json:"reviewedAt"`
	RejectionReason    string     `json:"rejectionReason"`
	CreatedAt          time.Time  `json:"createdAt"`
	UpdatedAt          time.Time  `json:"updatedAt"`
	Files              []fileJSON `json:"files"`
}

type attemptJSON struct {
	ID            string     `json:"id"`
	Quiz          named      `json:"quiz"`
	Badge         named      `json:"badge"`
	StartedAt     time.Time  `json:"startedAt"`
	Deadline      time.Time  `json:"deadline"`
	SubmittedAt   *time.Time `json:"submittedAt"`
	CorrectCount  int        `json:"correctCount"`
	Total         int        `json:"total"`
	Score         float64    `json:"score"`
	PassingScore  int        `json:"passingScore"`
	Passed        bool       `json:"passed"`
	ApplicationID *string    `json:"applicationId"`
}

type paymentJSON struct {
	ID            string     `json:"id"`
	ApplicationID string     `json:"applicationId"`
	Badge         named      `json:"badge"`
	Provider      string     `json:"provider"`
	OrderID       *string    `json:"orderId"`
	CaptureID     *string    `json:"captureId"`
	TransactionID string     `json:"transactionId"`
	Status        string     `json:"status"`
	Amount        float64    `json:"amount"`
	Original      float64    `json:"originalAmount"`
	Discount      float64    `json:"discount"`
	Currency      string     `json:"currency"`
	CouponCode    string     `json:"couponCode"`
	CreatedAt     time.Time  `json:"createdAt"`
	CompletedAt   *time.Time `json:"completedAt"`
}

type orderJSON struct {
	OrderID       string    `json:"orderId"`
	ApplicationID string    `json:"applicationId"`
	Badge         named     `json:"badge"`
	Amount        float64   `json:"amount"`
	Original      float64   `json:"originalAmount"`
	Discount      float64   `json:"discount"`
	Currency      string    `json:"currency"`
	CouponCode    string    `json:"couponCode"`
	Status        string    `json:"status"`
	CreatedAt     time.Time `json:"createdAt"`
	UpdatedAt     time.Time `json:"updatedAt"`
}

type grantJSON struct {
	ID                   string     `json:"id"`
	Badge                named      `json:"badge"`
	ApplicationID        *string    `json:"applicationId"`
	VerificationID       string     `json:"verificationId"`
	PublicVerificationID string     `json:"publicVerificationId"`
	VerifyURL            string     `json:"verifyUrl"`
	GrantedAt            time.Time  `json:"grantedAt"`
	ExpiresAt            *time.Time `json:"expiresAt"`
	RevokedAt            *time.Time `json:"revokedAt"`
	RevocationReason     string     `json:"revocationReason"`
	RenewsGrantID        *string    `json:"renewsGrantId"`
	CredentialJWT        string     `json:"credentialJwt"`    // path in the zip
	CredentialJSONLD     string     `json:"credentialJsonLd"` // path in the zip
}

func dollars(c int64) float64 { return float64(c) / 100 }

func utc(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	u := t.UTC()
	return &u
}

// exporter writes one member's zip.
type exporter struct {
	s      *Service
	zw     *zip.Writer
	origin string
	now    time.Time
}

func (x *exporter) json(name string, v any) error {
	w, err := x.zw.CreateHeader(&zip.FileHeader{Name: name, Method: zip.Deflate, Modified: x.now})
	if err != nil {
		return err
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

func (x *exporter) bytes(name string, b []byte) error {
	w, err := x.zw.CreateHeader(&zip.FileHeader{Name: name, Method: zip.Deflate, Modified: x.now})
	if err != nil {
		return err
	}
	_, err = w.Write(b)
	return err
}

// stored copies the stored file key into the zip as name; a missing file is left out
// (false) rather than failing the whole download.
func (x *exporter) stored(ctx context.Context, name, key string) (bool, error) {
	if !storage.ValidKey(key) {
		return false, nil
	}
	rc, err := x.s.Store.Open(ctx, key)
	if errors.Is(err, storage.ErrNotFound) {
		slog.Warn("export: stored file missing", "key", key)
		return false, nil
	}
	if err != nil {
		return false, err
	}
	defer rc.Close()
	w, err := x.zw.CreateHeader(&zip.FileHeader{Name: name, Method: zip.Store, Modified: x.now})
	if err != nil {
		return false, err
	}
	_, err = io.Copy(w, rc)
	return err == nil, err
}

// Export writes u's data as a zip to w: the JSON files README.txt describes, each
// grant's credential in both forms and the member's uploaded files. origin is the
// request's (for links, and for credentials signed now for the first time).
func (s *Service) Export(ctx context.Context, u *model.User, origin string, w io.Writer) error {
	x := &exporter{s: s, zw: zip.NewWriter(w), origin: origin, now: model.Now()}
	if err := x.bytes("README.txt", []byte(readme)); err != nil {
		return err
	}
	steps := []func(context.Context, *model.User) error{x.profile, x.applications, x.attempts, x.payments, x.grants, x.sessions, x.consents}
	for _, step := range steps {
		if err := step(ctx, u); err != nil {
			return err
		}
	}
	return x.zw.Close()
}

func (x *exporter) profile(ctx context.Context, u *model.User) error {
	p := profileJSON{ID: u.ID, Name: u.Name, Email: u.Email, Role: u.Role, Position: u.Position, LinkedIn: u.LinkedIn,
		Portfolio: u.Portfolio, Phone: u.Phone, Bio: u.Bio, Location: u.Location, Company: u.Company, Experience: u.Experience,
		Education: u.Education, Skills: u.Skills, PublicProfileURL: credential.ProfileURL(x.origin, u.ID),
		EmailVerifiedAt: utc(u.EmailVerifiedAt), TwoStepSignIn: u.TOTPEnabled(), CreatedAt: u.CreatedAt.UTC(), UpdatedAt: u.UpdatedAt.UTC()}
	if u.TOTPEnabled() {
		p.TwoStepSignInSince = utc(u.TOTPEnabledAt)
	}
	if p.Skills == nil {
		p.Skills = []string{}
	}
	if u.ProfilePicKey != "" {
		name := "files/profile-picture.png"
		ok, err := x.stored(ctx, name, u.ProfilePicKey)
		if err != nil {
			return err
		}
		if ok {
			p.ProfilePicture = name
		}
	}
	return x.json("profile.json", p)
}

func (x *exporter) applications(ctx context.Context, u *model.User) error {
	apps, err := applications(ctx, x.s.DB, u.ID)
	if err != nil {
		return err
	}
	files, err := filesOf(ctx, x.s.DB, u.ID)
	if err != nil {
		return err
	}
	byApp := map[string][]fileJSON{}
	for i, f := range files {
		name := fmt.Sprintf("files/applications/%s/%02d-%s-%s", f.ApplicationID, i+1, safeName(f.Kind), safeName(f.OriginalName))
		ok, err := x.stored(ctx, name, f.StorageKey)
		if err != nil {
			return err
		}
		if !ok {
			name = ""
		}
		byApp[f.ApplicationID] = append(byApp[f.ApplicationID], fileJSON{Kind: f.Kind, OriginalName: f.OriginalName,
			ContentType: f.ContentType, Size: f.Size, UploadedAt: f.CreatedAt.UTC(), Path: name})
	}
	out := make([]applicationJSON, 0, len(apps))
	for _, a := range apps {
		fs := byApp[a.ID]
		if fs == nil {
			fs = []fileJSON{}
		}
		out = append(out, applicationJSON{ID: a.ID, Badge: named{a.BadgeID, a.BadgeName}, Type: a.Type, Status: a.Status,
			PaymentStatus: a.PaymentStatus, FullName: a.FullName, Email: a.Email, Position: a.Position, LinkedIn: a.LinkedIn,
			Portfolio: a.Portfolio, Description: a.Description, QuizAttemptID: a.QuizAttemptID, QuizScore: a.QuizScore,
			Price: dollars(a.PriceCents), PaymentCompletedAt: utc(a.PaymentCompletedAt), ReviewedAt: utc(a.ReviewedAt),
			RejectionReason: a.RejectionReason, CreatedAt: a.CreatedAt.UTC(), UpdatedAt: a.UpdatedAt.UTC(), Files: fs})
	}
	return x.json("applications.json", out)
}

func (x *exporter) attempts(ctx context.Context, u *model.User) error {
	rows, err := attempts(ctx, x.s.DB, u.ID)
	if err != nil {
		return err
	}
	out := make([]attemptJSON, 0, len(rows))
	for _, r := range rows {
		out = append(out, attemptJSON{ID: r.ID, Quiz: named{r.QuizID, r.QuizTitle}, Badge: named{r.BadgeID, r.BadgeName},
			StartedAt: r.StartedAt.UTC(), Deadline: r.Deadline.UTC(), SubmittedAt: utc(r.SubmittedAt), CorrectCount: r.CorrectCount,
			Total: r.Total, Score: r.Score, PassingScore: r.PassingScore, Passed: r.Passed, ApplicationID: r.ApplicationID})
	}
	return x.json("quiz-attempts.json", out)
}

func (x *exporter) payments(ctx context.Context, u *model.User) error {
	ps, err := payments(ctx, x.s.DB, u.ID)
	if err != nil {
		return err
	}
	os, err := orders(ctx, x.s.DB, u.ID)
	if err != nil {
		return err
	}
	out := struct {
		Payments []paymentJSON `json:"payments"`
		Orders   []orderJSON   `json:"orders"`
	}{make([]paymentJSON, 0, len(ps)), make([]orderJSON, 0, len(os))}
	for _, p := range ps {
		out.Payments = append(out.Payments, paymentJSON{ID: p.ID, ApplicationID: p.ApplicationID, Badge: named{p.BadgeID, p.BadgeName},
			Provider: p.Provider, OrderID: p.OrderID, CaptureID: p.CaptureID, TransactionID: p.TransactionID, Status: p.Status,
			Amount: dollars(p.AmountCents), Original: dollars(p.OriginalCents), Discount: dollars(p.DiscountCents), Currency: p.Currency,
			CouponCode: p.CouponCode, CreatedAt: p.CreatedAt.UTC(), CompletedAt: utc(p.CompletedAt)})
	}
	for _, o := range os {
		out.Orders = append(out.Orders, orderJSON{OrderID: o.OrderID, ApplicationID: o.ApplicationID, Badge: named{o.BadgeID, o.BadgeName},
			Amount: dollars(o.AmountCents), Original: dollars(o.OriginalCents), Discount: dollars(o.DiscountCents), Currency: o.Currency,
			CouponCode: o.CouponCode, Status: o.Status, CreatedAt: o.CreatedAt.UTC(), UpdatedAt: o.UpdatedAt.UTC()})
	}
	return x.json("payments.json", out)
}

func (x *exporter) grants(ctx context.Context, u *model.User) error {
	rows, err := grants(ctx, x.s.DB, u.ID)
	if err != nil {
		return err
	}
	out := make([]grantJSON, 0, len(rows))
	for _, g := range rows {
		j := grantJSON{ID: g.ID, Badge: named{g.BadgeID, g.BadgeName}, ApplicationID: g.ApplicationID, VerificationID: g.VerificationID,
			PublicVerificationID: g.PublicVerificationID, VerifyURL: x.origin + "/verify/" + g.PublicVerificationID,
			GrantedAt: g.GrantedAt.UTC(), ExpiresAt: utc(g.ExpiresAt), RevokedAt: utc(g.RevokedAt), RevocationReason: g.RevocationReason,
			RenewsGrantID: g.PreviousGrantID}
		// the same documents as /credentials/{id}.jwt and .json (signed now if never yet)
		tok, err := x.s.Credentials.CredentialJWT(ctx, g.PublicVerificationID, x.origin)
		if err != nil {
			return fmt.Errorf("export credential %s: %w", g.ID, err)
		}
		ld, _, err := x.s.Credentials.CredentialJSON(ctx, g.PublicVerificationID, x.origin)
		if err != nil {
			return fmt.Errorf("export credential %s: %w", g.ID, err)
		}
		j.CredentialJWT = "credentials/" + g.PublicVerificationID + ".jwt"
		j.CredentialJSONLD = "credentials/" + g.PublicVerificationID + ".json"
		if err := x.bytes(j.CredentialJWT, []byte(tok)); err != nil {
			return err
		}
		if err := x.bytes(j.CredentialJSONLD, ld); err != nil {
			return err
		}
		out = append(out, j)
	}
	return x.json("grants.json", out)
}

func (x *exporter) sessions(ctx context.Context, u *model.User) error {
	rows, err := sessions(ctx, x.s.DB, u.ID)
	if err != nil {
		return err
	}
	if rows == nil {
		rows = []sessionRow{}
	}
	for i := range rows {
		r := &rows[i]
		r.CreatedAt, r.LastSeenAt, r.ExpiresAt = r.CreatedAt.UTC(), r.LastSeenAt.UTC(), r.ExpiresAt.UTC()
	}
	return x.json("sessions.json", rows)
}

func (x *exporter) consents(ctx context.Context, u *model.User) error {
	rows, err := consents(ctx, x.s.DB, u.ID)
	if err != nil {
		return err
	}
	if rows == nil {
		rows = []consentRow{}
	}
	for i := range rows {
		rows[i].GrantedAt, rows[i].LastUsedAt = rows[i].GrantedAt.UTC(), utc(rows[i].LastUsedAt)
	}
	return x.json("connected-apps.json", rows)
}
