package quiz

import (
	"context"
	"math"
	"time"

	"github.com/uptrace/bun"

	"meritmark/app/measure"
	"meritmark/app/model"
)

// Report is the public technical report of a skill badge's quiz (/badges/{id}/assessment):
// what the badge page says about the quiz (Assessment, for a visitor), its exposure
// control, and the measurement figures computed from the submitted attempts with
// app/measure. No question text and no answer key is in it.
type Report struct {
	Assessment     *Assessment   `json:"assessment"`
	ExposureRate   int           `json:"exposureRate"`   // percent of the last ExposureWindow forms an item may appear in
	ExposureWindow int           `json:"exposureWindow"` // forms
	Figures        ReportFigures `json:"figures"`
}

// ReportFigures are the measurement figures. Below measure.MinAttempts attempts Enough
// is false, Message is measure.NotEnough and every figure (the distribution too) is
// null; a figure that cannot be computed is null as well.
type ReportFigures struct {
	N           int      `json:"n"` // submitted attempts
	MinAttempts int      `json:"minAttempts"`
	Enough      bool     `json:"enough"`
	Message     string   `json:"message,omitempty"`
	FormLength  int      `json:"formLength"`  // questions on the most common form (0 below the minimum)
	Reliability *float64 `json:"reliability"` // KR-20 on forms of FormLength, 2 decimals
	SEM         *float64 `json:"sem"`         // standard error of measurement, percent points, 1 decimal
	// DecisionConsistency is Subkoviak's P0 in percent (1 decimal): the share of
	// candidates a second form would pass or fail the same; Kappa is that agreement
	// beyond chance (2 decimals).
	DecisionConsistency *float64   `json:"decisionConsistency"`
	Kappa               *float64   `json:"kappa"`
	PassRate            *float64   `json:"passRate"` // percent, 1 decimal
	From                *time.Time `json:"from"`     // the first and the latest submitted attempt counted
	Until               *time.Time `json:"until"`
	Distribution        []ScoreBin `json:"distribution"`
	// DemoAttempts counts the attempts by the demo seed's simulated candidates (app/seed).
	DemoAttempts int `json:"demoAttempts"`
}

// ScoreBin is one bar of the score distribution: attempts scoring From% up to To%
// (To included only in the last bin, 90-100).
type ScoreBin struct {
	From  int `json:"from"`
	To    int `json:"to"`
	Count int `json:"count"`
}

// PublicReport is the technical report of the badge's active quiz (nil when the badge
// has none). Five queries: the assessment's three, the pool, the attempts (and the
// questions that have left the pool, if attempts asked any), the demo count.
func PublicReport(ctx context.Context, d bun.IDB, badgeID string, now time.Time) (*Report, error) {
	a, err := PublicAssessment(ctx, d, badgeID, nil, now)
	if err != nil || a == nil {
		return nil, err
	}
	var st store
	qz, err := st.quizOfBadge(ctx, d, badgeID)
	if err != nil {
		return nil, err
	}
	pool, err := st.quizQuestions(ctx, d, qz.ID)
	if err != nil {
		return nil, err
	}
	rec, err := ReadRecord(ctx, d, qz.ID, pool)
	if err != nil {
		return nil, err
	}
	rep := &Report{Assessment: a, ExposureRate: ExposureRate(qz), ExposureWindow: ExposureWindow, Figures: Figures(rec)}
	if rep.Figures.N > 0 {
		demo, err := d.NewSelect().Model((*model.QuizAttempt)(nil)).
			Join("JOIN users AS u ON u.id = quiz_attempt.user_id").
			Where("quiz_attempt.quiz_id = ? AND quiz_attempt.submitted_at IS NOT NULL AND u.email LIKE ?", qz.ID, "%@"+model.DemoEmailDomain).
			Count(ctx)
		if err != nil {
			return nil, err
		}
		rep.Figures.DemoAttempts = int(demo)
	}
	return rep, nil
}

// Figures computes the report's figures from a quiz's record.
func Figures(rec *Sittings) ReportFigures {
	mark, known := PassMark(rec.Sittings)
	m := measure.Analyze(Responses(rec.Sittings, rec.IDs, mark), rec.IDs)
	f := ReportFigures{N: m.N, MinAttempts: measure.MinAttempts, Enough: m.Enough}
	if !m.Enough {
		f.Message = measure.NotEnough
		return f
	}
	f.FormLength = m.FormLength
	f.Reliability = roundTo(m.KR20, 1, 2)
	f.SEM = roundTo(m.SEMPercent, 1, 1)
	if known {
		f.DecisionConsistency = roundTo(m.P0, 100, 1)
		f.Kappa = roundTo(m.Kappa, 1, 2)
	}
	f.PassRate = roundTo(m.PassRate, 100, 1)
	f.Distribution = Distribution(rec.Sittings)
	f.From, f.Until = rec.First, rec.Last
	return f
}

// Distribution counts the sittings' scores in ten bins of ten points (0-10, ..., 90-100).
func Distribution(sittings []Sitting) []ScoreBin {
	bins := make([]ScoreBin, 10)
	for i := range bins {
		bins[i] = ScoreBin{From: i * 10, To: i*10 + 10}
	}
	for _, s := range sittings {
		i := int(math.Floor(s.Score / 10))
		bins[min(max(i, 0), 9)].Count++
	}
	return bins
}

// roundTo is x times scale rounded to places decimals (nil stays nil).
func roundTo(x *float64, scale float64, places int) *float64 {
	if x == nil {
		return nil
	}
	f := math.Pow(10, float64(places))
	r := math.Round(*x*scale*f) / f
	return &r
}
