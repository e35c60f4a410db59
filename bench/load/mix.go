package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// op is one kind of request in the mix. Every op sends exactly one request, so the
// weights are shares of requests.
type op struct {
	name   string
	class  string
	weight float64
	run    func(wk *worker) error // errSkip: cannot run now (nothing to resume, no slot left)
}

// quizFlow is one member's running quiz: start, an answer per question, submit.
type quizFlow struct {
	m         *member
	badge     badgeInfo
	attempt   string
	questions []quizQuestion
	answers   map[string]int
	next      int
}

type quizQuestion struct {
	ID      string   `json:"_id"`
	Options []string `json:"options"`
}

// slot is an application a member can still make (no open application, not owned).
type slot struct {
	m     *member
	badge badgeInfo
}

// runner holds the shared state of one database's run.
type runner struct {
	w        *world
	b        *browser   // members and the admin, from 127.0.0.1
	visitors []*browser // visitors, each from its own address
	signups  *ipPool

	flows  chan *quizFlow // quiz attempts between two steps
	idle   chan *member   // members not in a quiz
	slots  chan slot      // applications still possible
	starts sync.Map       // member id -> *atomic.Int32 quiz starts (the server allows 30 per hour)

	mu      sync.RWMutex
	members []*member
	quotes  []slot // applications awaiting payment (for payment quotes)

	ops        []*op
	byClass    map[string][]*op
	classShare map[string]float64

	from, to time.Time // the measured window
	signupN  atomic.Int64
	skipped  map[string]string
}

// maxStartsPerMember keeps each member under the server's 30 quiz starts per hour.
const maxStartsPerMember = 25

// signupsPerAddress keeps each client address under the server's 10 sign-ups per hour.
const signupsPerAddress = 5

func newRunner(w *world, b *browser, pageSignedIn float64, visitorAddrs int) *runner {
	r := &runner{
		w: w, b: b, signups: newIPPool(b.base, 10, signupsPerAddress), visitors: visitorBrowsers(b.base, visitorAddrs),
		flows: make(chan *quizFlow, 1<<14), idle: make(chan *member, len(w.members)+1<<16),
		members: append([]*member(nil), w.members...), skipped: map[string]string{},
	}
	// every member may start quizzes and apply for the proof badges it was not granted
	order := rand.Perm(len(w.members))
	for _, i := range order {
		r.idle <- w.members[i]
	}
	var all []slot
	for _, m := range w.members {
		for _, bd := range w.proof {
			if !w.taken.has(m.id, bd.ID) {
				all = append(all, slot{m, bd})
			}
		}
	}
	rand.Shuffle(len(all), func(i, j int) { all[i], all[j] = all[j], all[i] })
	r.slots = make(chan slot, len(all)+1<<16) // room for the sign-ups' slots too
	for _, s := range all {
		r.slots <- s
	}
	r.buildOps(pageSignedIn)
	return r
}

// buildOps is the mix: 70 % public, 20 % signed-in reads, 10 % writes. Public ops whose
// routes do not exist yet are left out and their weight goes to the other public ops.
func (r *runner) buildOps(pageSignedIn float64) {
	w := r.w
	page := func(name string, weight float64, path func(wk *worker) string) *op {
		return &op{name: name, class: ClassPublic, weight: weight, run: func(wk *worker) error {
			// from one of the visitors' addresses, signed in or not: members browse from
			// their own addresses too, and the server keeps verification lookups per address
			// (from 127.0.0.1 alone, members' first views of verify pages met its limit: 429)
			c := call{method: "GET", path: path(wk), kind: kindPage, from: r.visitor(wk)}
			as := name
			if wk.rng.Float64() < pageSignedIn {
				c.token, c.memberPage = r.randomMember(wk).token, true
				as = name + " (member)"
			}
			checkPage(wk, as, c)
			return nil
		}}
	}
	// memberPage is a page only members see (never cached), counted with the signed-in reads.
	memberPage := func(name string, weight float64, path func(wk *worker) string) *op {
		return &op{name: name, class: ClassRead, weight: weight, run: func(wk *worker) error {
			checkPage(wk, name, call{method: "GET", path: path(wk), kind: kindPage, token: r.randomMember(wk).token, memberPage: true})
			return nil
		}}
	}
	publicAPI := func(name string, weight float64, path func(wk *worker) string) *op {
		return &op{name: name, class: ClassPublic, weight: weight, run: func(wk *worker) error {
			wk.send(call{method: "GET", path: path(wk), kind: kindAPI, from: r.visitor(wk)})
			return nil
		}}
	}
	memberRead := func(name string, weight float64, path func(wk *worker, m *member) (string, error)) *op {
		return &op{name: name, class: ClassRead, weight: weight, run: func(wk *worker) error {
			m := r.randomMember(wk)
			p, err := path(wk, m)
			if err != nil {
				return err
			}
			wk.send(call{method: "GET", path: p, kind: kindAPI, token: m.token})
			return nil
		}}
	}
	anyBadge := func(wk *worker) string { return w.badges[wk.rng.IntN(len(w.badges))].ID }
	anyVerify := func(wk *worker) string { return w.verify[wk.rng.IntN(len(w.verify))] }
	categories := []string{"Development", "Design", "Management", "Data Science", "Marketing", "DevOps"}
	queries := []string{"design", "engineer", "data", "cloud", "lead"}

	public := []*op{
		page("page /", 14, func(*worker) string { return "/" }),
		page("page /badges", 12, func(wk *worker) string {
			switch x := wk.rng.IntN(10); {
			case x < 1:
				return "/badges?category=" + url.QueryEscape(categories[wk.rng.IntN(len(categories))])
			case x < 2:
				return "/badges?q=" + queries[wk.rng.IntN(len(queries))]
			}
			return "/badges"
		}),
		page("page /badges/:id", 16, func(wk *worker) string { return "/badges/" + anyBadge(wk) }),
		publicAPI("api GET /badges/with-ownership (visitor)", 4, func(*worker) string { return apiBase + "/badges/with-ownership" }),
		publicAPI("api GET /badges/:id (visitor)", 3, func(wk *worker) string { return apiBase + "/badges/" + anyBadge(wk) }),
	}
	optional := []struct {
		have bool
		op   *op
		why  string
	}{
		{w.hasVerifyPage, page("page /verify/:id", 8, func(wk *worker) string { return "/verify/" + anyVerify(wk) }), "GET /verify/:id does not answer 200 yet"},
		{w.hasHoFPage, page("page /hall-of-fame", 6, func(*worker) string { return "/hall-of-fame" }), "GET /hall-of-fame does not answer 200 yet"},
		{w.hasVerifyAPI, publicAPI("api GET /verify/badge/:id", 4, func(wk *worker) string { return apiBase + "/verify/badge/" + anyVerify(wk) }), "GET /backend/api/v1/verify/badge/:id does not answer 200 yet"},
		{w.hasHoFAPI, publicAPI("api GET /hall-of-fame", 3, func(*worker) string { return apiBase + "/hall-of-fame" }), "GET /backend/api/v1/hall-of-fame does not answer 200 yet"},
	}
	for _, o := range optional {
		if o.have {
			public = append(public, o.op)
		} else {
			r.skipped[o.op.name] = o.why
		}
	}

	reads := []*op{
		memberRead("api GET /auth/me", 6, func(*worker, *member) (string, error) { return apiBase + "/auth/me", nil }),
		memberRead("api GET /badges/with-ownership", 4, func(*worker, *member) (string, error) { return apiBase + "/badges/with-ownership", nil }),
		memberRead("api GET /users/badges", 3, func(*worker, *member) (string, error) { return apiBase + "/users/badges", nil }),
		memberRead("api GET /badges/:id (member)", 1, func(wk *worker, _ *member) (string, error) { return apiBase + "/badges/" + anyBadge(wk), nil }),
		memberRead("api GET /applications/mine", 1.5, func(wk *worker, _ *member) (string, error) {
			return apiBase + "/applications/mine?badgeId=" + w.proof[wk.rng.IntN(len(w.proof))].ID, nil
		}),
		{name: "api GET /quiz/badge/:id (resume)", class: ClassRead, weight: 2.5, run: r.quizResume},
		{name: "api GET /payments/quote/:badgeId", class: ClassRead, weight: 2, run: r.quote},
		memberPage("page /profile (member)", 2, func(*worker) string { return "/profile" }),
		memberPage("page /quiz/:id (member)", 1.5, func(wk *worker) string { return "/quiz/" + w.skill[wk.rng.IntN(len(w.skill))].ID }),
	}
	writes := []*op{
		{name: "quiz", class: ClassWrite, weight: 8, run: r.quizStep},
		{name: "api POST /applications", class: ClassWrite, weight: 1.25, run: r.apply},
		{name: "api POST /users/profile", class: ClassWrite, weight: 0.65, run: r.profile},
		{name: "api POST /auth/register", class: ClassWrite, weight: 0.1, run: r.signup},
	}
	r.classShare = map[string]float64{ClassPublic: 70, ClassRead: 20, ClassWrite: 10}
	r.byClass = map[string][]*op{ClassPublic: public, ClassRead: reads, ClassWrite: writes}
	for _, c := range classes {
		r.ops = append(r.ops, r.byClass[c]...)
	}
}

// checkPage asks for a page and checks that a document came back: an HTML answer of a
// page's size, and one answer in 16, decoded, begins and ends a document. Decoding every
// page took over half of this tool's CPU, which the server shares; the page tests check
// what pages hold.
func checkPage(wk *worker, name string, c call) {
	c.coded = wk.rng.IntN(16) != 0
	resp, ok := wk.sendAs(name, c)
	if !ok {
		return
	}
	least := 2000
	if resp.coding != "" {
		least = 1000 // a page compresses to a sixth or so
	}
	if len(resp.body) < least || !strings.HasPrefix(resp.ctype, "text/html") ||
		!c.coded && (!bytes.HasPrefix(resp.body, []byte("<!doctype html>")) || !bytes.HasSuffix(bytes.TrimSpace(resp.body), []byte("</html>"))) {
		wk.bad(name, "not a complete page")
	}
}

// visitor is a random visitor's browser (the shared one when there are none).
func (r *runner) visitor(wk *worker) *browser {
	if len(r.visitors) == 0 {
		return r.b
	}
	return r.visitors[wk.rng.IntN(len(r.visitors))]
}

func (r *runner) randomMember(wk *worker) *member {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.members[wk.rng.IntN(len(r.members))]
}

// pick chooses the next op: a class by its share, then an op of the class by weight.
func (r *runner) pick(rng *rand.Rand, class string) *op {
	if class == "" {
		x := rng.Float64() * 100
		for _, c := range classes {
			if x < r.classShare[c] {
				class = c
				break
			}
			x -= r.classShare[c]
		}
		if class == "" {
			class = ClassWrite
		}
	}
	ops := r.byClass[class]
	var sum float64
	for _, o := range ops {
		sum += o.weight
	}
	x := rng.Float64() * sum
	for _, o := range ops {
		if x < o.weight {
			return o
		}
		x -= o.weight
	}
	return ops[len(ops)-1]
}

// worker runs ops one after the other.
type worker struct {
	r     *runner
	rng   *rand.Rand
	rec   *recorder
	ctx   context.Context
	op    *op
	sched time.Time // open loop: when this op was due (latency counts from then)
}

// step runs one op of the mix (another of the same class when it cannot run now).
func (wk *worker) step() {
	o := wk.r.pick(wk.rng, "")
	for try := 0; ; try++ {
		wk.op = o
		err := o.run(wk)
		if !errors.Is(err, errSkip) {
			return
		}
		if try > 20 {
			return
		}
		o = wk.r.pick(wk.rng, o.class)
	}
}

// send makes the request, records it and reports whether the status was expected.
func (wk *worker) send(c call) (*response, bool) {
	return wk.sendAs(wk.op.name, c)
}

func (wk *worker) sendAs(name string, c call) (*response, bool) {
	b := c.from
	if b == nil {
		b = wk.r.b
	}
	start := time.Now()
	if !wk.sched.IsZero() {
		start = wk.sched
		wk.sched = time.Time{} // one op, one request
	}
	resp, err := b.do(wk.ctx, c)
	end := time.Now()
	measured := !start.Before(wk.r.from) && start.Before(wk.r.to)
	status := 0
	if err == nil {
		status = resp.status
	}
	if measured {
		wk.rec.samples = append(wk.rec.samples, sample{op: name, class: wk.op.class, memberPage: c.memberPage, status: status, dur: end.Sub(start)})
	}
	if err != nil {
		if measured && wk.ctx.Err() == nil {
			wk.rec.errs[name+": "+shortErr(err)]++
		}
		return nil, false
	}
	ok := status >= 200 && status <= 299
	if c.expect != nil {
		ok = c.expect(status)
	}
	if !ok && (measured || status >= 500) {
		key := fmt.Sprintf("%s: %d %s", name, status, truncate(strings.TrimSpace(string(resp.body)), 120))
		if !measured {
			key = "(warm-up) " + key
			wk.rec.warm5xx++ // a 5xx fails the run wherever it happens
		}
		if status >= 500 || len(wk.rec.errs) < 200 {
			wk.rec.errs[key]++
		}
	}
	return resp, ok
}

func (wk *worker) bad(name, why string) {
	if time.Now().Before(wk.r.to) {
		wk.rec.errs[name+": "+why]++
	}
}

func shortErr(err error) string {
	s := err.Error()
	if i := strings.LastIndex(s, ": "); i >= 0 {
		s = s[i+2:]
	}
	return truncate(s, 80)
}

// quote prices an application awaiting payment (what the payment page asks).
func (r *runner) quote(wk *worker) error {
	r.mu.RLock()
	n := len(r.quotes)
	var s slot
	if n > 0 {
		s = r.quotes[wk.rng.IntN(n)]
	}
	r.mu.RUnlock()
	if n == 0 {
		return errSkip
	}
	p := apiBase + "/payments/quote/" + s.badge.ID
	if wk.rng.IntN(3) == 0 {
		p += "?coupon=WELCOME10"
	}
	wk.send(call{method: "GET", path: p, kind: kindAPI, token: s.m.token})
	return nil
}

// apply submits a proof application with a small PDF.
func (r *runner) apply(wk *worker) error {
	var s slot
	select {
	case s = <-r.slots:
	default:
		return errSkip
	}
	body, ctype := applicationForm(s.badge.ID, s.m.name, s.m.n)
	if _, ok := wk.send(call{method: "POST", path: apiBase + "/applications", kind: kindAPI, token: s.m.token, body: body, ctype: ctype}); ok && s.badge.Price > 0 {
		r.mu.Lock()
		r.quotes = append(r.quotes, s)
		r.mu.Unlock()
	}
	return nil
}

// profile saves a member's profile details.
func (r *runner) profile(wk *worker) error {
	m := r.randomMember(wk)
	wk.send(call{method: "POST", path: apiBase + "/users/profile", kind: kindAPI, token: m.token, ctype: "application/json",
		body: jsonBody(map[string]any{"name": m.name, "email": m.email, "position": "Engineer " + strconv.Itoa(wk.rng.IntN(100)),
			"linkedin": "https://linkedin.com/in/load-" + m.n, "portfolio": "https://portfolio.example/" + m.n})})
	return nil
}

// signup registers a new visitor from its own client address. A sign-up is confirmed by
// e-mail before it signs in, so it answers 201 without a session; were it ever to sign in
// at once, the new member would join the pool (quizzes, applications, reads).
func (r *runner) signup(wk *worker) error {
	n := r.signupN.Add(1)
	suffix := fmt.Sprintf("s%d-%s", n, randHex(3))
	email := "load-signup-" + suffix + "@load.test"
	resp, ok := wk.send(call{method: "POST", path: apiBase + "/auth/register", kind: kindAPI, ctype: "application/json", from: r.signups.get(),
		body: jsonBody(map[string]string{"name": "Signup " + suffix, "email": email, "password": "load-signup-pw-" + suffix})})
	if !ok {
		return nil
	}
	tok := sessionCookie(resp)
	if tok == "" {
		return nil // waiting for the confirmation mail
	}
	var u struct {
		User struct {
			ID string `json:"id"`
		} `json:"user"`
	}
	_ = json.Unmarshal(resp.body, &u)
	m := &member{id: u.User.ID, n: suffix, name: "Signup " + suffix, email: email, token: tok}
	if m.id == "" {
		m.id = "signup-" + suffix
	}
	r.mu.Lock()
	r.members = append(r.members, m)
	r.mu.Unlock()
	select {
	case r.idle <- m:
	default:
	}
	for _, i := range rand.Perm(len(r.w.proof)) {
		select {
		case r.slots <- slot{m, r.w.proof[i]}:
		default:
		}
	}
	return nil
}

func (r *runner) close() {
	r.signups.close()
	for _, v := range r.visitors {
		v.close()
	}
}
