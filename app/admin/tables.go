package admin

// The dashboard's dense tables (issue 37, item 1): the list endpoints take a page size,
// a whitelisted sort and ?format=csv, which answers every row the filter shows.

import (
	"bytes"
	"context"
	"encoding/csv"
	"strconv"
	"strings"
	"time"

	"github.com/gofiber/fiber/v3"

	"meritmark/app/web"
)

// PageSizes are the page sizes a table offers (pageSize=).
var PageSizes = []int{10, 25, 50, 100}

// Messages of the table parameters.
const (
	MsgBadPageSize = "pageSize must be 10, 25, 50 or 100."
	MsgBadFormat   = "format must be json or csv."
)

// ParsePageSize reads pageSize ("" = keep the limit already parsed).
func ParsePageSize(s string, pg Page) (Page, string) {
	if s == "" {
		return pg, ""
	}
	n, err := strconv.Atoi(s)
	if err == nil {
		for _, v := range PageSizes {
			if v == n {
				pg.Limit = n
				return pg, ""
			}
		}
	}
	return pg, MsgBadPageSize
}

// SortCol is one sortable column: the key a client sends and the SQL column it orders by
// (never NULL, so both databases order it alike).
type SortCol struct{ Key, Col string }

// Sort is a validated sort: a whitelisted column and a direction.
type Sort struct {
	Key, Col string
	Desc     bool
}

// String is the sort as a client sends it ("-createdAt" is descending).
func (s Sort) String() string {
	if s.Desc {
		return "-" + s.Key
	}
	return s.Key
}

// Order is the ORDER BY expression on table alias t (empty: the model's own), ties broken
// by id in the same direction so that pages never overlap.
func (s Sort) Order(t string) string {
	dir := " ASC"
	if s.Desc {
		dir = " DESC"
	}
	if t != "" {
		t += "."
	}
	return t + s.Col + dir + ", " + t + "id" + dir
}

// SortMsg is the 400 answer naming the columns a list sorts by.
func SortMsg(cols []SortCol) string {
	keys := make([]string, len(cols))
	for i, c := range cols {
		keys[i] = c.Key
	}
	return "sort must be one of " + strings.Join(keys, ", ") + " (a leading - sorts descending)."
}

// ParseSort reads sort=key or sort=-key against the whitelist ("" = def).
func ParseSort(s string, cols []SortCol, def Sort) (Sort, string) {
	s = strings.TrimSpace(s)
	if s == "" {
		return def, ""
	}
	desc := false
	if k, ok := strings.CutPrefix(s, "-"); ok {
		s, desc = k, true
	}
	for _, c := range cols {
		if c.Key == s {
			return Sort{Key: c.Key, Col: c.Col, Desc: desc}, ""
		}
	}
	return def, SortMsg(cols)
}

// TableQuery reads what a dashboard table sends beside its filters: page (or limit),
// pageSize, sort (against cols) and format. table is false when none of page, pageSize,
// sort and format is there: the spec's clients, who get the plain array. A bad value is a
// 400 with its message.
func TableQuery(c fiber.Ctx, cols []SortCol) (pg Page, asCSV, table bool, err error) {
	args := c.RequestCtx().QueryArgs()
	if !args.Has("page") && !args.Has("pageSize") && !args.Has("sort") && !args.Has("format") {
		return Page{}, false, false, nil
	}
	pg, msg := ParsePage(c.Query("page"), c.Query("limit"))
	if msg == "" {
		pg, msg = ParsePageSize(c.Query("pageSize"), pg)
	}
	if msg == "" {
		pg.Sort, msg = ParseSort(c.Query("sort"), cols, Sort{})
	}
	if msg != "" {
		return pg, false, true, web.BadRequest(msg)
	}
	asCSV, err = wantsCSV(c)
	return pg, asCSV, true, err
}

// wantsCSV reads format= (json by default).
func wantsCSV(c fiber.Ctx) (bool, error) {
	switch c.Query("format") {
	case "", "json":
		return false, nil
	case "csv":
		return true, nil
	}
	return false, web.BadRequest(MsgBadFormat)
}

// SafeCell keeps a spreadsheet from running a cell as a formula: a cell starting with
// = + - @, a tab or a carriage return gets a leading apostrophe.
func SafeCell(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}

// CSVTable is a CSV download for the other packages' tables (the awards register).
type CSVTable = csvTable

// NewCSV starts a CSV download with its header line.
func NewCSV(header []string) *CSVTable { return newCSV(header) }

// Send answers the CSV as a download named meritmark-name-YYYYMMDD-hhmmss.csv.
func (t *csvTable) Send(c fiber.Ctx, name string) error { return t.send(c, name) }

// WantsCSV reads format= (json by default; anything else is a 400).
func WantsCSV(c fiber.Ctx) (bool, error) { return wantsCSV(c) }

// CSVTime is a time as the exports write it (RFC 3339, UTC; "" for none).
func CSVTime(t *time.Time) string { return csvTime(t) }

// csvTable builds a CSV download: the header, then rows added with Row.
type csvTable struct {
	buf bytes.Buffer
	w   *csv.Writer
}

func newCSV(header []string) *csvTable {
	t := &csvTable{}
	t.w = csv.NewWriter(&t.buf)
	_ = t.w.Write(header)
	return t
}

// Row writes one record, every cell made safe.
func (t *csvTable) Row(cells ...string) {
	for i, c := range cells {
		cells[i] = SafeCell(c)
	}
	_ = t.w.Write(cells)
}

// send answers the CSV as a download named name-YYYYMMDD-hhmmss.csv.
func (t *csvTable) send(c fiber.Ctx, name string) error {
	t.w.Flush()
	c.Set("Content-Type", "text/csv; charset=utf-8")
	c.Set("Content-Disposition", `attachment; filename="meritmark-`+name+`-`+time.Now().UTC().Format("20060102-150405")+`.csv"`)
	c.Set("Cache-Control", "no-store")
	return c.Send(t.buf.Bytes())
}

func csvTime(t *time.Time) string {
	if t == nil {
		return ""
	}
	return t.UTC().Format(time.RFC3339)
}

// exportChunk is how many rows an export reads at a time.
const exportChunk = 500

// MaxExportRows bounds one CSV download.
const MaxExportRows = 1_000_000

// order is the page's ORDER BY on alias t: its sort, else newest first.
func (p Page) order(t string) string { return p.orderBy(t, "created_at") }

// orderBy is the page's ORDER BY on alias t: its sort, else newest first by col.
func (p Page) orderBy(t, col string) string {
	if p.Sort.Col == "" {
		return Sort{Col: col, Desc: true}.Order(t)
	}
	return p.Sort.Order(t)
}

// ApplicationSorts are the columns the applications table sorts by.
var ApplicationSorts = []SortCol{
	{"createdAt", "created_at"}, {"updatedAt", "updated_at"}, {"name", "full_name"}, {"email", "email"},
	{"status", "status"}, {"price", "price_cents"},
}

// tableQuery reads the table parameters shared by the lists: page, limit or pageSize,
// search, sort (against cols) and format.
func tableQuery(c fiber.Ctx, cols []SortCol) (Page, string, bool, error) {
	pg, q, err := pageOf(c)
	if err != nil {
		return pg, "", false, err
	}
	var msg string
	if pg, msg = ParsePageSize(c.Query("pageSize"), pg); msg != "" {
		return pg, "", false, web.BadRequest(msg)
	}
	if pg.Sort, msg = ParseSort(c.Query("sort"), cols, Sort{}); msg != "" {
		return pg, "", false, web.BadRequest(msg)
	}
	asCSV, err := wantsCSV(c)
	return pg, q, asCSV, err
}

// ApplicationCSVHeader is the applications export's first line.
var ApplicationCSVHeader = []string{"id", "applicant", "email", "badge", "type", "status", "payment status",
	"price", "transaction id", "quiz score", "submitted", "reviewed", "reviewed by", "rejection reason", "verification id"}

// ExportApplications is every application the filter shows (all pages, in the table's
// order) as CSV.
func (s *Service) ExportApplications(ctx context.Context, statuses []string, search string, sort Sort) (*csvTable, error) {
	t := newCSV(ApplicationCSVHeader)
	for pg := (Page{Page: 1, Limit: exportChunk, Sort: sort}); pg.Offset() < MaxExportRows; pg.Page++ {
		apps, _, err := s.st.applicationsOnly(ctx, s.DB, statuses, search, pg, len(statuses) > 1)
		if err != nil {
			return nil, err
		}
		items, err := s.buildApplications(ctx, s.DB, apps)
		if err != nil {
			return nil, err
		}
		for _, a := range items {
			name, email, badge, tx, score, reviewer, vid := a.FullName, a.Email, "", "", "", "", ""
			if a.User != nil {
				name, email = a.User.Name, a.User.Email
			}
			if a.Badge != nil {
				badge = a.Badge.Name
			}
			if a.PaymentID != nil {
				tx = a.PaymentID.TransactionID
			}
			if a.QuizScore != nil {
				score = strconv.FormatFloat(*a.QuizScore, 'f', 1, 64)
			}
			if a.ReviewedBy != nil {
				reviewer = a.ReviewedBy.Email
			}
			if a.Grant != nil {
				vid = a.Grant.VerificationID
			}
			created := a.CreatedAt
			t.Row(a.ID, name, email, badge, a.Type, a.Status, a.PaymentStatus, strconv.FormatFloat(a.Price, 'f', 2, 64),
				tx, score, csvTime(&created), csvTime(a.ReviewedAt), reviewer, a.RejectionReason, vid)
		}
		if len(apps) < pg.Limit {
			break
		}
	}
	return t, nil
}

// UserSorts are the columns the users table sorts by.
var UserSorts = []SortCol{{"createdAt", "created_at"}, {"name", "name"}, {"email", "email"}, {"role", "role"}}

// UserCSVHeader is the users export's first line.
var UserCSVHeader = []string{"id", "name", "email", "role", "position", "joined", "badges held"}

// ExportUsers is every user the filter shows as CSV (no secrets: the columns above only).
func (s *Service) ExportUsers(ctx context.Context, role, search string, sort Sort) (*csvTable, error) {
	t := newCSV(UserCSVHeader)
	for pg := (Page{Page: 1, Limit: exportChunk, Sort: sort, noCount: true}); pg.Offset() < MaxExportRows; pg.Page++ {
		us, _, err := s.st.users(ctx, s.DB, role, search, pg)
		if err != nil {
			return nil, err
		}
		ids := make([]string, len(us))
		for i := range us {
			ids[i] = us[i].ID
		}
		grants, err := s.st.grantsByUser(ctx, s.DB, ids)
		if err != nil {
			return nil, err
		}
		for i := range us {
			u := &us[i]
			held := 0
			for _, g := range grants[u.ID] {
				if g.RevokedAt == nil {
					held++
				}
			}
			joined := u.CreatedAt
			t.Row(u.ID, u.Name, u.Email, u.Role, u.Position, csvTime(&joined), strconv.Itoa(held))
		}
		if len(us) < pg.Limit {
			break
		}
	}
	return t, nil
}

// TablePageSize is the page size the dashboard's tables start with (the API's default
// stays DefaultLimit for the clients that send none).
const TablePageSize = 25
