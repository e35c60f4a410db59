package quizadmin

import (
	"math"
	"sort"

	"meritmark/app/measure"
	"meritmark/app/quiz"
)

// Item analysis: how a quiz and each of its questions behave across submitted attempts.
//
// Per question: times asked, percent correct (the difficulty index p) and discrimination,
// the point-biserial correlation between answering the question right and the attempt's
// score: r = (M1 - M0) / s * sqrt(p * (1 - p)), with M1 and M0 the mean scores of the
// attempts that got it right and wrong and s the (population) standard deviation of the
// scores of the attempts that were asked it. A question almost everyone gets right is
// flagged (leaked or too easy), one almost everyone gets wrong too; one that separates
// strong from weak candidates poorly (r below MinDiscrimination) is flagged as well.

// Analysis thresholds.
const (
	MinSample         = 5    // fewer answers than this: no flags
	EasyAbove         = 0.90 // p >= EasyAbove: too easy or leaked
	HardBelow         = 0.20 // p <= HardBelow: too hard or wrong key
	MinDiscrimination = 0.20
)

// Flags on a question.
const (
	FlagTooEasy = "too_easy"
	FlagTooHard = "too_hard"
	FlagWeak    = "weak_discrimination"
)

// Sitting is one submitted attempt as the analysis reads it (app/quiz reads them for
// the public technical report as well).
type Sitting = quiz.Sitting

// QuizStats is the quiz-level analysis.
type QuizStats struct {
	Attempts        int         `json:"attempts"`
	Passed          int         `json:"passed"`
	PassRate        float64     `json:"passRate"`    // percent, 1 decimal
	MedianScore     float64     `json:"medianScore"` // percent, 1 decimal
	MedianTime      float64     `json:"medianTime"`  // seconds
	Questions       []ItemStats `json:"questions"`
	MinSample       int         `json:"minSample"`
	EasyAbove       float64     `json:"easyAbove"`
	HardBelow       float64     `json:"hardBelow"`
	MinDiscriminate float64     `json:"minDiscrimination"`

	// Measurement (app/measure, docs/measurement.md). Below MinAttempts submitted
	// attempts Enough is false, Message says so and every figure is null.
	Enough              bool             `json:"enough"`
	Message             string           `json:"message,omitempty"`
	MinAttempts         int              `json:"minAttempts"`
	Reliability         ReliabilityStats `json:"reliability"`
	DecisionConsistency DecisionStats    `json:"decisionConsistency"`
}

// ReliabilityStats is KR-20 for a form of FormLength questions and the standard error
// of measurement of a score on such a form.
type ReliabilityStats struct {
	KR20       *float64 `json:"kr20"`       // 3 decimals
	SEM        *float64 `json:"sem"`        // in percent points of the score, 2 decimals
	SEMItems   *float64 `json:"semItems"`   // in questions, 2 decimals
	FormLength int      `json:"formLength"` // questions on the most common form
	N          int      `json:"n"`          // attempts
}

// DecisionStats is the consistency of the pass/fail decision (Subkoviak): P0 the share
// of candidates a parallel form would classify the same, kappa that agreement beyond
// chance. Null as well when the pass mark is unknown (see passMark).
type DecisionStats struct {
	P0    *float64 `json:"p0"`    // 3 decimals
	Kappa *float64 `json:"kappa"` // 3 decimals
}

// ItemStats is one question's analysis.
type ItemStats struct {
	QuestionID     string   `json:"questionId"`
	Text           string   `json:"text"`
	TimesAsked     int      `json:"timesAsked"`
	Correct        int      `json:"correct"`
	PercentCorrect float64  `json:"percentCorrect"` // 1 decimal
	Discrimination *float64 `json:"discrimination"` // point-biserial, 3 decimals; null when undefined
	Flags          []string `json:"flags"`
	// PointBiserial is the corrected point-biserial (against the rest of the form), 3
	// decimals; null below MinAttempts answers or when undefined.
	PointBiserial *float64 `json:"pointBiserial"`
	// Drift is true when the question's percent correct rose significantly in its latest
	// answers (possibly exposed: retire it or replace it with a family sibling); null
	// until each window has enough answers.
	Drift *bool `json:"drift"`
}

// Analyze computes the quiz statistics over sittings for the questions ids (in that
// order; a question never asked has zero counts).
func Analyze(sittings []Sitting, ids []string, texts map[string]string) QuizStats {
	st := QuizStats{Attempts: len(sittings), Questions: []ItemStats{}, MinSample: MinSample, EasyAbove: EasyAbove,
		HardBelow: HardBelow, MinDiscriminate: MinDiscrimination}
	scores := make([]float64, 0, len(sittings))
	times := make([]float64, 0, len(sittings))
	for _, s := range sittings {
		if s.Passed {
			st.Passed++
		}
		scores = append(scores, s.Score)
		times = append(times, float64(s.TimeSpent))
	}
	if st.Attempts > 0 {
		st.PassRate = round(float64(st.Passed)*100/float64(st.Attempts), 1)
	}
	st.MedianScore = round(Median(scores), 1)
	st.MedianTime = round(Median(times), 1)
	// the scores of the sittings that got each question right and wrong, in one pass over
	// the answers
	at := make(map[string]int, len(ids))
	for k, id := range ids {
		at[id] = k
	}
	right, wrong := make([][]float64, len(ids)), make([][]float64, len(ids))
	for _, s := range sittings {
		for id, ok := range s.Items {
			k, listed := at[id]
			switch {
			case !listed:
			case ok:
				right[k] = append(right[k], s.Score)
			default:
				wrong[k] = append(wrong[k], s.Score)
			}
		}
	}
	for k, id := range ids {
		it := ItemStats{QuestionID: id, Text: texts[id], Flags: []string{}}
		right, wrong := right[k], wrong[k]
		it.TimesAsked, it.Correct = len(right)+len(wrong), len(right)
		if it.TimesAsked > 0 {
			p := float64(it.Correct) / float64(it.TimesAsked)
			it.PercentCorrect = round(p*100, 1)
			if r, ok := PointBiserial(right, wrong); ok {
				r = round(r, 3)
				it.Discrimination = &r
			}
			if it.TimesAsked >= MinSample {
				switch {
				case p >= EasyAbove:
					it.Flags = append(it.Flags, FlagTooEasy)
				case p <= HardBelow:
					it.Flags = append(it.Flags, FlagTooHard)
				}
				if it.Discrimination != nil && *it.Discrimination < MinDiscrimination {
					it.Flags = append(it.Flags, FlagWeak)
				}
			}
		}
		st.Questions = append(st.Questions, it)
	}
	addMeasurement(&st, sittings, ids)
	return st
}

// addMeasurement adds the figures of app/measure to st.
func addMeasurement(st *QuizStats, sittings []Sitting, ids []string) {
	st.MinAttempts = measure.MinAttempts
	mark, known := quiz.PassMark(sittings)
	rep := measure.Analyze(quiz.Responses(sittings, ids, mark), ids)
	st.Enough = rep.Enough
	st.Reliability.N = rep.N
	if !rep.Enough {
		st.Message = measure.NotEnough
		return
	}
	st.Reliability.KR20 = roundPtr(rep.KR20, 3)
	st.Reliability.SEM = roundPtr(rep.SEMPercent, 2)
	st.Reliability.SEMItems = roundPtr(rep.SEM, 2)
	st.Reliability.FormLength = rep.FormLength
	if known {
		st.DecisionConsistency = DecisionStats{P0: roundPtr(rep.P0, 3), Kappa: roundPtr(rep.Kappa, 3)}
	}
	byID := make(map[string]*measure.Item, len(rep.Items))
	for i := range rep.Items {
		byID[rep.Items[i].Item] = &rep.Items[i]
	}
	for i := range st.Questions {
		it := byID[st.Questions[i].QuestionID]
		if it == nil {
			continue
		}
		if it.Enough {
			st.Questions[i].PointBiserial = roundPtr(it.PointBiserial, 3)
		}
		if it.Drift.Tested {
			flag := it.Drift.Flagged
			st.Questions[i].Drift = &flag
		}
	}
}

// PointBiserial is the correlation between being in group right (1) or wrong (0) and the
// score: (M1 - M0) / s * sqrt(p q), s the population standard deviation of all scores.
// It is undefined (false) when either group is empty or all scores are equal.
func PointBiserial(right, wrong []float64) (float64, bool) {
	n1, n0 := float64(len(right)), float64(len(wrong))
	if n1 == 0 || n0 == 0 {
		return 0, false
	}
	n := n1 + n0
	m1, m0 := mean(right), mean(wrong)
	all := (m1*n1 + m0*n0) / n
	var ss float64
	for _, x := range right {
		ss += (x - all) * (x - all)
	}
	for _, x := range wrong {
		ss += (x - all) * (x - all)
	}
	sd := math.Sqrt(ss / n)
	if sd == 0 {
		return 0, false
	}
	p := n1 / n
	return (m1 - m0) / sd * math.Sqrt(p*(1-p)), true
}

// Median of xs (0 for none).
func Median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func mean(xs []float64) float64 {
	var t float64
	for _, x := range xs {
		t += x
	}
	return t / float64(len(xs))
}

func roundPtr(x *float64, places int) *float64 {
	if x == nil {
		return nil
	}
	r := round(*x, places)
	return &r
}

func round(x float64, places int) float64 {
	f := math.Pow(10, float64(places))
	return math.Round(x*f) / f
}
