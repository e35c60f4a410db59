package application

import (
	"time"

	"meritmark/app/model"
)

// View is an application as the API answers it (spec section 3: _id, user, badge,
// status, paymentStatus, paymentId, paymentCompletedAt, createdAt, reviewedAt,
// rejectionReason, quizScore, proofFiles, description, linkedinUrl, portfolioUrl).
type View struct {
	ID                 string     `json:"_id"`
	Type               string     `json:"type"`
	Status             string     `json:"status"`
	PaymentStatus      string     `json:"paymentStatus"`
	PaymentID          *string    `json:"paymentId"`
	PaymentCompletedAt *time.Time `json:"paymentCompletedAt"`
	Price              float64    `json:"price"` // dollars, fixed when the application was made
	User               UserRef    `json:"user"`
	Badge              BadgeRef   `json:"badge"`
	FullName           string     `json:"fullName"`
	Email              string     `json:"email"`
	Position           string     `json:"position"`
	LinkedInURL        string     `json:"linkedinUrl"`
	PortfolioURL       string     `json:"portfolioUrl"`
	Description        string     `json:"description"`
	QuizScore          *float64   `json:"quizScore"`
	ProofFiles         []FileView `json:"proofFiles"`
	Resume             *FileView  `json:"resume"`
	ProfilePic         *FileView  `json:"profilePic"`
	RejectionReason    string     `json:"rejectionReason"`
	ReviewedAt         *time.Time `json:"reviewedAt"`
	CreatedAt          time.Time  `json:"createdAt"`
}

// UserRef is the applicant.
type UserRef struct {
	ID    string `json:"_id"`
	Name  string `json:"name"`
	Email string `json:"email"`
}

// BadgeRef is the badge applied for.
type BadgeRef struct {
	ID    string  `json:"_id"`
	Name  string  `json:"name"`
	Type  string  `json:"type"`
	Price float64 `json:"price"`
}

// FileView is an uploaded file: its display name and the authorised download address.
type FileView struct {
	ID           string `json:"_id"`
	Kind         string `json:"kind"`
	OriginalName string `json:"originalName"`
	ContentType  string `json:"contentType"`
	Size         int64  `json:"size"`
	URL          string `json:"url"`
}

func dollars(cents int64) float64 { return float64(cents) / 100 }

func fileView(f model.ApplicationFile) FileView {
	return FileView{ID: f.ID, Kind: f.Kind, OriginalName: f.OriginalName, ContentType: f.ContentType, Size: f.Size,
		URL: FileURL(f.ApplicationID, f.ID)}
}

func viewOf(a *model.Application, b *model.Badge, u *model.User, files []model.ApplicationFile) View {
	v := View{
		ID: a.ID, Type: a.Type, Status: a.Status, PaymentStatus: a.PaymentStatus, PaymentID: a.PaymentID,
		PaymentCompletedAt: a.PaymentCompletedAt, Price: dollars(a.PriceCents),
		User:     UserRef{ID: u.ID, Name: u.Name, Email: u.Email},
		Badge:    BadgeRef{ID: b.ID, Name: b.Name, Type: b.Type, Price: dollars(b.PriceCents)},
		FullName: a.FullName, Email: a.Email, Position: a.Position, LinkedInURL: a.LinkedIn, PortfolioURL: a.Portfolio,
		Description: a.Description, QuizScore: a.QuizScore, ProofFiles: []FileView{},
		RejectionReason: a.RejectionReason, ReviewedAt: a.ReviewedAt, CreatedAt: a.CreatedAt,
	}
	for _, f := range files {
		fv := fileView(f)
		switch f.Kind {
		case KindResume:
			v.Resume = &fv
		case KindProfilePic:
			v.ProfilePic = &fv
		default:
			v.ProofFiles = append(v.ProofFiles, fv)
		}
	}
	return v
}
