package main

import (
	"encoding/json"
	"sync/atomic"
)

// quizStep advances a running attempt (an answer, or the submit after the last one), or
// starts a new attempt when none is waiting.
func (r *runner) quizStep(wk *worker) error {
	select {
	case f := <-r.flows:
		if f.next < len(f.questions) {
			q := f.questions[f.next]
			choice := wk.rng.IntN(len(q.Options))
			_, ok := wk.sendAs("api PUT /quiz/attempts/:id/answers", call{method: "PUT", path: apiBase + "/quiz/attempts/" + f.attempt + "/answers",
				kind: kindAPI, token: f.m.token, body: jsonBody(map[string]any{"questionId": q.ID, "optionIndex": choice}), ctype: "application/json"})
			if ok {
				f.answers[q.ID] = choice
			}
			f.next++
			r.flows <- f
			return nil
		}
		_, _ = wk.sendAs("api POST /quiz/attempts/:id/submit", call{method: "POST", path: apiBase + "/quiz/attempts/" + f.attempt + "/submit",
			kind: kindAPI, token: f.m.token, body: jsonBody(map[string]any{"answers": f.answers}), ctype: "application/json"})
		r.release(f.m)
		return nil
	default:
	}
	var m *member
	select {
	case m = <-r.idle:
	default:
		return errSkip
	}
	bd := r.w.skill[wk.rng.IntN(len(r.w.skill))]
	r.startCount(m).Add(1)
	// the start is a POST; a retake the quiz's rule refuses (429 with the time it opens) is
	// an expected answer, and the member leaves the quiz pool
	resp, ok := wk.sendAs("api POST /quiz/badge/:id/start", call{method: "POST", path: apiBase + "/quiz/badge/" + bd.ID + "/start", kind: kindAPI, token: m.token,
		expect: func(st int) bool { return st == 200 || st == 429 }})
	if ok && resp.status == 429 {
		return nil
	}
	if !ok {
		r.release(m)
		return nil
	}
	var v struct {
		Questions []quizQuestion `json:"questions"`
		Attempt   *struct {
			ID      string         `json:"_id"`
			Answers map[string]int `json:"answers"`
		} `json:"attempt"`
	}
	if err := json.Unmarshal(resp.body, &v); err != nil || v.Attempt == nil || len(v.Questions) == 0 {
		wk.bad("api POST /quiz/badge/:id/start", "no attempt or no questions")
		r.release(m)
		return nil
	}
	f := &quizFlow{m: m, badge: bd, attempt: v.Attempt.ID, questions: v.Questions, answers: map[string]int{}}
	for k, x := range v.Attempt.Answers {
		f.answers[k] = x
	}
	r.flows <- f
	return nil
}

func (r *runner) startCount(m *member) *atomic.Int32 {
	v, _ := r.starts.LoadOrStore(m.id, new(atomic.Int32))
	return v.(*atomic.Int32)
}

// release returns a member to the idle queue unless it used up its quiz starts.
func (r *runner) release(m *member) {
	if r.startCount(m).Load() < maxStartsPerMember {
		select {
		case r.idle <- m:
		default:
		}
	}
}

// quizResume reloads a running quiz (what the quiz screen does on a reload).
func (r *runner) quizResume(wk *worker) error {
	select {
	case f := <-r.flows:
		wk.send(call{method: "GET", path: apiBase + "/quiz/badge/" + f.badge.ID, kind: kindAPI, token: f.m.token})
		r.flows <- f
		return nil
	default:
		return errSkip
	}
}
