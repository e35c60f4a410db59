package quizadmin

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"

	"github.com/uptrace/bun"

	"meritmark/app/model"
	"meritmark/app/quiz"
	"meritmark/app/web"
)

// familyLinks is every family link of the bank (question id -> the question it is linked to).
func familyLinks(ctx context.Context, d bun.IDB) (map[string]string, error) {
	var rows []struct {
		ID       string `bun:"id"`
		FamilyOf string `bun:"family_of"`
	}
	if err := d.NewSelect().Model((*model.Question)(nil)).Column("id", "family_of").Where("family_of IS NOT NULL").Scan(ctx, &rows); err != nil {
		return nil, err
	}
	out := make(map[string]string, len(rows))
	for _, r := range rows {
		out[r.ID] = r.FamilyOf
	}
	return out, nil
}

// familyKey is the family of id (its root question), "" when it is in no family.
func familyKey(links map[string]string, id string) string {
	if root := quiz.FamilyRoot(links, id); root != id {
		return root
	}
	for _, to := range links {
		if to == id {
			return id
		}
	}
	return ""
}

func round3(x float64) float64 { return math.Round(x*1000) / 1000 }

// drawProblem says why qz's pool cannot draw a form meeting its blueprint, families and
// difficulty band ("" when it can, or when the quiz has no blueprint). Exposure is left
// out: the cap yields when the pool needs it.
func drawProblem(qz *model.Quiz, p *quiz.Pool) string {
	if len(qz.Blueprint) == 0 {
		return ""
	}
	items := make([]quiz.Item, len(p.Items))
	for i, it := range p.Items {
		it.Exposure = 0
		items[i] = it
	}
	_, err := quiz.Draw(items, quiz.Spec{Blueprint: qz.Blueprint, Target: p.Target, Cap: quiz.ExposureWindow}, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		return err.Error()
	}
	return ""
}

// formView fills the quiz view's form settings, pool per topic and item figures.
func formView(ctx context.Context, d bun.IDB, qz *model.Quiz, v *QuizView, links map[string]string) error {
	p, err := quiz.LoadPool(ctx, d, qz)
	if err != nil {
		return err
	}
	v.Blueprint = qz.Blueprint
	if v.Blueprint == nil {
		v.Blueprint = []model.BlueprintRow{}
	}
	v.TargetDifficulty, v.Target, v.PoolMean = qz.TargetDifficulty, round3(p.Target), round3(p.PoolMean)
	v.MaxExposure, v.ExposureForms, v.ActiveCount = quiz.ExposureRate(qz), p.Forms, len(p.Active)
	v.MinItemSeconds = qz.MinItemSeconds
	v.DrawSize = quiz.FormSize(qz, len(p.Active))
	capCount := quiz.CapCount(v.MaxExposure)
	for i := range v.Questions {
		q := &v.Questions[i]
		q.Family = familyKey(links, q.ID)
		st := p.Stats[q.ID]
		f := &ItemForm{Exposure: p.Exposure[q.ID], AtCap: p.Exposure[q.ID] >= capCount, Answered: st.Answered,
			Estimate: round3(p.P[q.ID]), FromData: st.Answered >= quiz.MinResponses}
		if p.Forms > 0 {
			f.ExposureRate = math.Round(float64(f.Exposure)*1000/float64(p.Forms)) / 10
		}
		q.Form = f
	}
	counts := map[string]int{}
	for _, r := range qz.Blueprint {
		counts[r.Topic] = r.Count
	}
	idx := map[string]int{}
	fams := map[string]map[string]bool{}
	v.Topics = []TopicView{}
	for i := range p.Questions {
		q := &p.Questions[i]
		t := quiz.TopicOf(q)
		k, ok := idx[t]
		if !ok {
			k = len(v.Topics)
			idx[t] = k
			v.Topics = append(v.Topics, TopicView{Topic: t, Count: counts[t]})
			fams[t] = map[string]bool{}
		}
		if q.RetiredAt != nil {
			v.Topics[k].Retired++
			continue
		}
		v.Topics[k].Active++
		fams[t][p.Family[q.ID]] = true
	}
	for _, r := range qz.Blueprint {
		if _, ok := idx[r.Topic]; !ok {
			idx[r.Topic] = len(v.Topics)
			v.Topics = append(v.Topics, TopicView{Topic: r.Topic, Count: r.Count})
		}
	}
	for i := range v.Topics {
		t := &v.Topics[i]
		t.Families = len(fams[t.Topic])
		if have := min(t.Active, t.Families); t.Count > have {
			t.Shortfall = t.Count - have
		}
	}
	v.DrawProblem = drawProblem(qz, p)
	return nil
}

// checkDrawable refuses a change (409; the caller's transaction then rolls back) that
// leaves one of the quizzes unable to draw its forms.
func checkDrawable(ctx context.Context, tx bun.IDB, quizIDs ...string) error {
	for _, id := range quizIDs {
		qz := new(model.Quiz)
		if err := tx.NewSelect().Model(qz).Where("id = ?", id).Scan(ctx); err != nil {
			if isNoRows(err) {
				continue
			}
			return err
		}
		p, err := quiz.LoadPool(ctx, tx, qz)
		if err != nil {
			return err
		}
		if len(qz.Blueprint) == 0 {
			if qz.QuestionsPerAttempt > 0 && len(p.Active) < qz.QuestionsPerAttempt {
				return web.Conflict(fmt.Sprintf(MsgBelowDraw, qz.QuestionsPerAttempt))
			}
			if len(p.Active) == 0 && len(p.Questions) > 0 && qz.IsActive {
				badge := new(model.Badge)
				if err := tx.NewSelect().Model(badge).Column("name", "is_active").Where("id = ?", qz.BadgeID).Scan(ctx); err != nil {
					return err
				}
				if badge.IsActive {
					return web.Conflict(fmt.Sprintf(MsgLastQuestion, badge.Name))
				}
			}
			continue
		}
		if msg := drawProblem(qz, p); msg != "" {
			return web.Conflict(fmt.Sprintf(MsgPoolBreaks, qz.Title, msg))
		}
	}
	return nil
}

// quizzesOf is the ids of the quizzes whose pool holds the question.
func quizzesOf(ctx context.Context, tx bun.IDB, questionID string) ([]string, error) {
	var ids []string
	err := tx.NewSelect().Model((*model.QuizQuestion)(nil)).Column("quiz_id").Where("question_id = ?", questionID).Scan(ctx, &ids)
	return ids, err
}

// formSettings applies the form fields of in (blueprint, targetDifficulty, maxExposure) to
// qz, checking topics against its pool and that the pool can draw the forms. A blueprint
// the pool cannot fill, or a band it cannot meet, is 422 with the reason.
func formSettings(ctx context.Context, tx bun.IDB, qz *model.Quiz, in QuizInput) error {
	if present(in.Blueprint) {
		bp, msg := ParseBlueprint(in.Blueprint)
		if msg != "" {
			return web.BadRequest(msg)
		}
		if len(bp) > 0 {
			p, err := quiz.LoadPool(ctx, tx, qz)
			if err != nil {
				return err
			}
			var topics []string
			for i := range p.Questions {
				topics = append(topics, quiz.TopicOf(&p.Questions[i]))
			}
			if bp, msg = MatchTopics(bp, topics); msg != "" {
				return web.BadRequest(msg)
			}
		}
		qz.Blueprint = bp
	}
	if present(in.TargetDifficulty) {
		t, msg := ParseTarget(in.TargetDifficulty)
		if msg != "" {
			return web.BadRequest(msg)
		}
		qz.TargetDifficulty = t
	}
	if present(in.MaxExposure) {
		n, msg := ParseMaxExposure(in.MaxExposure)
		if msg != "" {
			return web.BadRequest(msg)
		}
		qz.MaxExposure = n
	}
	if present(in.MinItemSeconds) {
		n, msg := ParseMinItemSeconds(in.MinItemSeconds)
		if msg != "" {
			return web.BadRequest(msg)
		}
		qz.MinItemSeconds = n
	}
	if len(qz.Blueprint) == 0 {
		return nil
	}
	p, err := quiz.LoadPool(ctx, tx, qz)
	if err != nil {
		return err
	}
	if msg := drawProblem(qz, p); msg != "" {
		return web.Unprocessable(msg)
	}
	return nil
}

// blueprintJSON is the blueprint as the column keeps it.
func blueprintJSON(bp []model.BlueprintRow) string {
	if bp == nil {
		bp = []model.BlueprintRow{}
	}
	b, _ := json.Marshal(bp)
	return string(b)
}

// familyOf validates a family link for question id: nil clears it.
func familyOf(ctx context.Context, tx bun.IDB, id string, raw json.RawMessage) (*string, error) {
	if isNull(raw) {
		return nil, nil
	}
	var to string
	if err := json.Unmarshal(raw, &to); err != nil {
		return nil, web.BadRequest(MsgFamilyNotFound)
	}
	if to = strings.TrimSpace(to); to == "" {
		return nil, nil
	}
	if to == id {
		return nil, web.BadRequest(MsgFamilySelf)
	}
	if !model.ValidID(to) {
		return nil, web.BadRequest(MsgFamilyNotFound)
	}
	ok, err := tx.NewSelect().Model((*model.Question)(nil)).Where("id = ?", to).Exists(ctx)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, web.BadRequest(MsgFamilyNotFound)
	}
	links, err := familyLinks(ctx, tx)
	if err != nil {
		return nil, err
	}
	if FamilyLoop(links, id, to) {
		return nil, web.BadRequest(MsgFamilyLoop)
	}
	return &to, nil
}

// RetireQuestion retires a question (never drawn again; kept for history and statistics)
// or brings it back. Refused (409) when a quiz using it could no longer draw its forms.
// Attempts already running keep their forms.
func (s *Service) RetireQuestion(ctx context.Context, actor *model.User, id string, retired bool) (*QuestionView, error) {
	var out *QuestionView
	err := s.Events.RunInTx(ctx, s.DB, func(ctx context.Context, tx bun.Tx) error {
		before, err := questionViewByID(ctx, tx, id)
		if isNoRows(err) {
			return web.NotFound(MsgQuestionNotFound)
		}
		if err != nil {
			return err
		}
		if before.Retired == retired {
			out = before
			return nil
		}
		q := tx.NewUpdate().Model((*model.Question)(nil)).Where("id = ?", id)
		if retired {
			q = q.Set("retired_at = ?", model.Now())
		} else {
			q = q.Set("retired_at = NULL")
		}
		if _, err := q.Exec(ctx); err != nil {
			return err
		}
		quizIDs, err := quizzesOf(ctx, tx, id)
		if err != nil {
			return err
		}
		if err := checkDrawable(ctx, tx, quizIDs...); err != nil {
			return err
		}
		if out, err = questionViewByID(ctx, tx, id); err != nil {
			return err
		}
		action := "question.retire"
		if !retired {
			action = "question.restore"
		}
		return s.changed(ctx, tx, actor, action, "question", id, before, out)
	})
	return out, err
}
