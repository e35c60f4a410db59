package application

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"path"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/uptrace/bun"

	"meritmark/app/events"
	"meritmark/app/model"
	"meritmark/app/quiz"
	"meritmark/app/ratelimit"
	"meritmark/app/storage"
	"meritmark/app/web"
	"meritmark/db"
)

// Service submits applications and serves their files.
type Service struct {
	DB      *bun.DB
	Store   storage.Store
	Limiter *ratelimit.Limiter // optional
	Now     func() time.Time   // optional, for tests
	Events  *events.Bus        // a submission records application.submitted
}

func (s *Service) now() time.Time {
	if s.Now != nil {
		return s.Now().UTC().Truncate(time.Microsecond)
	}
	return model.Now()
}

// Content is an uploaded file's bytes (a multipart file satisfies it).
type Content interface {
	io.Reader
	io.ReaderAt
	io.Seeker
}

// Upload is one file of a submission, as the client sent it.
type Upload struct {
	Kind    string // KindResume, KindProfilePic, KindProof
	Name    string // the client's file name (untrusted)
	Size    int64
	Content Content
}

// Submission is what the application form posts. Email is not taken from the client:
// the account's address is recorded. Empty profile fields fall back to the profile.
type Submission struct {
	BadgeID     string
	FullName    string
	Position    string
	LinkedIn    string
	Portfolio   string
	Description string
	Files       []Upload
}

// SubmitLimit is how many submissions one user may make per hour.
const SubmitLimit = 30

// checked is an upload that passed validation.
type checked struct {
	Upload
	name string // sanitized display name
	typ  FileType
}

// Submit validates everything first, then writes the files under generated keys, then
// records the application, its files and the used quiz attempt in one transaction. On
// any failure after the first write every written file is deleted again.
func (s *Service) Submit(ctx context.Context, user *model.User, sub Submission) (*View, error) {
	if s.Limiter != nil {
		ok, err := s.Limiter.Allow(ctx, "apply:"+user.ID, SubmitLimit, time.Hour)
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, web.TooMany("Too many applications in a short time. Please try again later.")
		}
	}
	badgeID := strings.TrimSpace(sub.BadgeID)
	if badgeID == "" {
		return nil, web.BadRequest(MsgBadgeRequired)
	}
	if !model.ValidID(badgeID) {
		return nil, web.NotFound(MsgBadgeNotFound)
	}
	badge, err := badgeByID(ctx, s.DB, badgeID)
	if err != nil {
		return nil, err
	}
	if badge == nil || !badge.IsActive {
		return nil, web.NotFound(MsgBadgeNotFound)
	}
	now := s.now()
	if owned, err := ownsBadge(ctx, s.DB, user.ID, badge.ID, now); err != nil {
		return nil, err
	} else if owned {
		return nil, web.Conflict(MsgAlreadyOwned)
	}
	if open, err := openApplication(ctx, s.DB, user.ID, badge.ID); err != nil {
		return nil, err
	} else if open != nil {
		return nil, openConflict(open.Status)
	}

	var attempt *model.QuizAttempt
	if badge.Type == model.TypeSkill {
		if attempt, err = quiz.PassingAttempt(ctx, s.DB, user.ID, badge.ID); errors.Is(err, quiz.ErrNoPassingAttempt) {
			attempt = nil
		} else if err != nil {
			return nil, err
		}
		if attempt == nil {
			used, err := hasUsedPass(ctx, s.DB, user.ID, badge.ID)
			if err != nil {
				return nil, err
			}
			if used {
				return nil, web.Unprocessable(MsgQuizUsed)
			}
			return nil, web.Unprocessable(MsgQuizRequired)
		}
	}

	app, err := s.profileFields(user, sub)
	if err != nil {
		return nil, err
	}
	files, err := checkUploads(sub.Files)
	if err != nil {
		return nil, err
	}
	counts := map[string]int{}
	for _, f := range files {
		counts[f.Kind]++
	}
	// a renewal does not ask again for the resume and picture already on file
	onFile, err := s.reusable(ctx, user.ID, badge, counts)
	if err != nil {
		return nil, err
	}
	for _, f := range onFile {
		counts[f.Kind]++
	}
	if badge.Type == model.TypeProof && counts[KindProof] == 0 && app.Portfolio == "" {
		return nil, web.BadRequest(MsgProofRequired)
	}
	if (badge.Type == model.TypeSkill || badge.RequiresResume) && counts[KindResume] == 0 {
		return nil, web.BadRequest(MsgResumeRequired)
	}
	if badge.Type == model.TypeSkill && counts[KindProfilePic] == 0 {
		return nil, web.BadRequest(MsgPictureRequired)
	}

	// Everything is valid: build the rows, write the files, record it all at once.
	app.ID = model.NewID()
	app.UserID = user.ID
	app.BadgeID = badge.ID
	app.Type = badge.Type
	app.PriceCents = badge.PriceCents
	app.Status = InitialStatus(badge.PriceCents)
	app.PaymentStatus = model.PaymentPending
	if badge.PriceCents == 0 {
		// a free badge needs no payment: it is complete at 0 and goes straight to review
		app.PaymentStatus = model.PaymentCompleted
		app.PaymentCompletedAt = &now
	}
	if attempt != nil {
		app.QuizAttemptID = &attempt.ID
		score := attempt.Score
		app.QuizScore = &score
	}
	app.CreatedAt, app.UpdatedAt = now, now

	rows := make([]model.ApplicationFile, 0, len(files))
	var written []string
	cleanup := func() {
		// the request may be gone; the files must go anyway
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
		defer cancel()
		for _, k := range written {
			if err := s.Store.Delete(cctx, k); err != nil {
				slog.Warn("application: could not delete an uploaded file after a failed submission", "key", k, "err", err)
			}
		}
	}
	for _, f := range onFile {
		id := model.NewID()
		key := StorageKey(app.ID, id, path.Ext(f.StorageKey)[1:])
		written = append(written, key)
		if err := s.copyFile(ctx, f.StorageKey, key, f.ContentType); err != nil {
			cleanup()
			return nil, fmt.Errorf("reuse %s: %w", f.Kind, err)
		}
		rows = append(rows, model.ApplicationFile{ID: id, ApplicationID: app.ID, Kind: f.Kind, StorageKey: key,
			OriginalName: f.OriginalName, ContentType: f.ContentType, Size: f.Size, CreatedAt: now})
	}
	for _, f := range files {
		id := model.NewID()
		key := StorageKey(app.ID, id, f.typ.Ext)
		if _, err := f.Content.Seek(0, io.SeekStart); err != nil {
			cleanup()
			return nil, err
		}
		if err := s.Store.Put(ctx, key, f.Content, f.typ.ContentType); err != nil {
			// a partly written object may exist under key: delete it too
			written = append(written, key)
			cleanup()
			return nil, fmt.Errorf("store upload: %w", err)
		}
		written = append(written, key)
		rows = append(rows, model.ApplicationFile{ID: id, ApplicationID: app.ID, Kind: f.Kind, StorageKey: key,
			OriginalName: f.name, ContentType: f.typ.ContentType, Size: f.Size, CreatedAt: now})
	}

	err = s.Events.RunInTx(ctx, s.DB, func(ctx context.Context, tx bun.Tx) error {
		if _, err := tx.NewInsert().Model(app).Exec(ctx); err != nil {
			return err
		}
		if err := s.Events.Record(ctx, tx, events.ApplicationSubmit, "application", app.ID,
			map[string]string{"applicationId": app.ID, "badgeId": app.BadgeID, "userId": app.UserID}); err != nil {
			return err
		}
		if len(rows) > 0 {
			if _, err := tx.NewInsert().Model(&rows).Exec(ctx); err != nil {
				return err
			}
		}
		if attempt != nil {
			// the guard in its WHERE clause makes an attempt usable once
			if err := quiz.UseAttempt(ctx, tx, user.ID, attempt.ID, app.ID); errors.Is(err, quiz.ErrAttemptUsed) {
				return web.Unprocessable(MsgQuizUsed)
			} else if err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		cleanup()
		if db.IsUniqueViolation(err) {
			// another submission for this badge won the race: the unique index on open
			// applications is the final guard
			status := model.StatusPending
			if open, _ := openApplication(context.WithoutCancel(ctx), s.DB, user.ID, badge.ID); open != nil {
				status = open.Status
			}
			return nil, openConflict(status)
		}
		return nil, err
	}
	v := viewOf(app, badge, user, rows)
	return &v, nil
}

func openConflict(status string) error {
	if status == model.StatusAwaitingPayment {
		return web.Conflict(MsgAwaitingPayment)
	}
	return web.Conflict(MsgStillReviewed)
}

// profileFields validates the applicant's details: name, email, position and LinkedIn
// are required (the form's values, else the profile's), the addresses must be web
// addresses.
func (s *Service) profileFields(user *model.User, sub Submission) (*model.Application, error) {
	pick := func(form, profile string) string {
		if v := strings.TrimSpace(form); v != "" {
			return v
		}
		return strings.TrimSpace(profile)
	}
	a := &model.Application{
		FullName:    pick(sub.FullName, user.Name),
		Email:       user.Email,
		Position:    pick(sub.Position, user.Position),
		LinkedIn:    pick(sub.LinkedIn, user.LinkedIn),
		Portfolio:   pick(sub.Portfolio, user.Portfolio),
		Description: strings.TrimSpace(sub.Description),
	}
	if a.FullName == "" || a.Email == "" || a.Position == "" || a.LinkedIn == "" {
		return nil, web.BadRequest(MsgProfileIncomplete)
	}
	if utf8.RuneCountInString(a.FullName) > MaxNameLen {
		return nil, web.BadRequest("Your name can be at most 100 characters.")
	}
	if utf8.RuneCountInString(a.Position) > MaxFieldLen {
		return nil, web.BadRequest("Your position can be at most 200 characters.")
	}
	var ok bool
	if a.LinkedIn, ok = NormalizeURL(a.LinkedIn); !ok {
		return nil, web.BadRequest("Please enter a valid LinkedIn profile URL (for example https://linkedin.com/in/your-name).")
	}
	if a.Portfolio, ok = NormalizeURL(a.Portfolio); !ok {
		return nil, web.BadRequest("Please enter a valid portfolio URL (for example https://your-site.com).")
	}
	if utf8.RuneCountInString(a.Description) > MaxDescription {
		return nil, web.BadRequest(MsgDescTooLong)
	}
	if !utf8.ValidString(a.Description) || strings.ContainsRune(a.Description, 0) {
		return nil, web.BadRequest("The description contains characters that are not allowed.")
	}
	return a, nil
}

// checkUploads validates the files: counts, then each file's size, extension and
// content. The first refused file answers with its own message.
func checkUploads(ups []Upload) ([]checked, error) {
	counts := map[string]int{}
	for _, u := range ups {
		counts[u.Kind]++
	}
	if counts[KindProof] > MaxProofFiles {
		return nil, web.BadRequest(MsgTooManyFiles)
	}
	if counts[KindResume] > 1 {
		return nil, web.BadRequest("Please upload a single resume.")
	}
	if counts[KindProfilePic] > 1 {
		return nil, web.BadRequest("Please upload a single profile picture.")
	}
	out := make([]checked, 0, len(ups))
	for _, u := range ups {
		name := SanitizeName(u.Name)
		t, ferr := CheckFile(u.Kind, name, u.Size, u.Content)
		if ferr != nil {
			return nil, web.E(ferr.Status, ferr.Msg)
		}
		out = append(out, checked{Upload: u, name: name, typ: t})
	}
	return out, nil
}

// StorageKey is where a file of an application is kept: generated ids only, never
// anything the client sent.
func StorageKey(appID, fileID, ext string) string {
	return "applications/" + appID + "/" + fileID + "." + ext
}

// FileURL is the authorised download address of an application's file.
func FileURL(appID, fileID string) string {
	return web.APIBase + "/applications/" + appID + "/files/" + fileID
}

// ErrNoFile is returned by OpenFile for a file the viewer may not see or that does
// not exist (the two are not told apart).
var ErrNoFile = errors.New("application: no such file")

// OpenFile opens an application's file for its owner or an administrator.
func (s *Service) OpenFile(ctx context.Context, viewer *model.User, appID, fileID string) (*model.ApplicationFile, io.ReadCloser, error) {
	if viewer == nil || !model.ValidID(appID) || !model.ValidID(fileID) {
		return nil, nil, ErrNoFile
	}
	f, owner, err := fileOf(ctx, s.DB, appID, fileID)
	if err != nil {
		return nil, nil, err
	}
	if f == nil || (owner != viewer.ID && !viewer.IsAdmin()) {
		return nil, nil, ErrNoFile
	}
	rc, err := s.Store.Open(ctx, f.StorageKey)
	if errors.Is(err, storage.ErrNotFound) {
		slog.Error("application: a recorded file is missing from storage", "key", f.StorageKey, "application", appID)
		return nil, nil, ErrNoFile
	}
	if err != nil {
		return nil, nil, err
	}
	return f, rc, nil
}

// Latest is the user's latest application for the badge with its files (nil when none).
func (s *Service) Latest(ctx context.Context, user *model.User, badge *model.Badge) (*View, error) {
	a, err := latestApplication(ctx, s.DB, user.ID, badge.ID)
	if err != nil || a == nil {
		return nil, err
	}
	files, err := filesOf(ctx, s.DB, a.ID)
	if err != nil {
		return nil, err
	}
	v := viewOf(a, badge, user, files[a.ID])
	return &v, nil
}

// FilesFor loads the file views of several applications (for review screens), keyed by
// application id.
func FilesFor(ctx context.Context, d bun.IDB, appIDs ...string) (map[string][]FileView, error) {
	m, err := filesOf(ctx, d, appIDs...)
	if err != nil {
		return nil, err
	}
	out := make(map[string][]FileView, len(m))
	for id, fs := range m {
		for _, f := range fs {
			out[id] = append(out[id], fileView(f))
		}
	}
	return out, nil
}
