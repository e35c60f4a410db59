package verify

// Bulk verification for recruiters: many ids or links at once (pasted, a CSV file, or a
// JSON list through the API), answered as one table, downloadable as CSV, and a signed,
// timestamped receipt of the answer that anyone can check later.

import (
	"bytes"
	"context"
	"encoding/csv"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/uptrace/bun"
)

// Limits of one bulk check.
const (
	MaxBulkIDs   = 1000    // entries (ids, links or unreadable rows) per check
	MaxBulkBytes = 1 << 20 // the pasted text or CSV file
	maxBulkCell  = 120     // an unreadable entry is echoed back at most this long
)

// Messages of bulk verification.
const (
	MsgBulkEmpty       = "Paste or upload at least one verification ID or link."
	MsgBulkTooMany     = "Too many entries: check at most 1,000 IDs or links at a time."
	MsgBulkTooLarge    = "The list is too large: upload at most 1 MB."
	MsgBulkNotText     = "The file is not a text or CSV file."
	MsgBulkFormat      = `Send a JSON body {"ids": ["MM-…", "https://…/verify/…"]} or {"csv": "…"}, or a CSV file (text/csv or a multipart field "file").`
	MsgBulkRateLimited = "Too many bulk checks from your network. Please wait a minute and try again."
	MsgBulkMalformed   = "Not a verification ID or link."
)

// Bulk statuses besides the credential statuses (valid, revoked, expired, invalid).
const (
	StatusNotFound  = "not_found"
	StatusMalformed = "malformed"
)

// BulkEntry is one entry of a bulk check as read: its row, the text given and, when it
// reads as an id, the id.
type BulkEntry struct {
	Row   int
	Input string
	Kind  string
	ID    string
}

// OK reports whether the entry reads as an id.
func (e BulkEntry) OK() bool { return e.ID != "" }

// ErrBulk is a parse failure with the message to show.
type ErrBulk struct{ Msg string }

func (e *ErrBulk) Error() string { return e.Msg }

var headerWords = []string{"id", "link", "url", "verif", "badge", "name", "email", "candidate", "credential"}

// ParseBulkText reads pasted text or a CSV file: one entry per line; on each line the
// first cell (separated by commas, semicolons or tabs; quotes removed) that reads as a
// verification id or link is the entry, so a CSV of candidates with an id or link column
// works as it is. A first line without an id that looks like a header (id, link, name…)
// is skipped; blank lines are skipped; any other line without an id is a malformed entry.
func ParseBulkText(text string) ([]BulkEntry, error) {
	if len(text) > MaxBulkBytes {
		return nil, &ErrBulk{MsgBulkTooLarge}
	}
	text = strings.TrimPrefix(text, "\uFEFF")
	if !utf8.ValidString(text) || strings.IndexByte(text, 0) >= 0 {
		return nil, &ErrBulk{MsgBulkNotText}
	}
	var out []BulkEntry
	seenContent := false
	row := 0
	text = strings.ReplaceAll(strings.ReplaceAll(text, "\r\n", "\n"), "\r", "\n")
	for len(text) > 0 {
		line := text
		if i := strings.IndexByte(text, '\n'); i >= 0 {
			line, text = text[:i], text[i+1:]
		} else {
			text = ""
		}
		row++
		cells := splitCells(line)
		if len(cells) == 0 {
			continue
		}
		first := !seenContent
		seenContent = true
		found := false
		for _, c := range cells {
			if kind, id, ok := NormalizeID(c); ok {
				out = append(out, BulkEntry{Row: row, Input: clip(c), Kind: kind, ID: id})
				found = true
				break
			}
		}
		if !found {
			if first && looksLikeHeader(cells) {
				continue
			}
			out = append(out, BulkEntry{Row: row, Input: clip(cells[0])})
		}
		if len(out) > MaxBulkIDs {
			return nil, &ErrBulk{MsgBulkTooMany}
		}
	}
	if len(out) == 0 {
		return nil, &ErrBulk{MsgBulkEmpty}
	}
	return out, nil
}

// ParseBulkList reads the API's JSON list: each string is one entry.
func ParseBulkList(ids []string) ([]BulkEntry, error) {
	if len(ids) > MaxBulkIDs {
		return nil, &ErrBulk{MsgBulkTooMany}
	}
	var out []BulkEntry
	size := 0
	for i, s := range ids {
		size += len(s)
		if size > MaxBulkBytes {
			return nil, &ErrBulk{MsgBulkTooLarge}
		}
		if strings.TrimSpace(s) == "" {
			continue
		}
		if !utf8.ValidString(s) {
			out = append(out, BulkEntry{Row: i + 1, Input: clip(strings.ToValidUTF8(s, "\uFFFD"))})
			continue
		}
		e := BulkEntry{Row: i + 1, Input: clip(strings.TrimSpace(s))}
		if kind, id, ok := NormalizeID(s); ok {
			e.Kind, e.ID = kind, id
		}
		out = append(out, e)
	}
	if len(out) == 0 {
		return nil, &ErrBulk{MsgBulkEmpty}
	}
	return out, nil
}

func splitCells(line string) []string {
	var cells []string
	for _, c := range strings.FieldsFunc(line, func(r rune) bool { return r == ',' || r == ';' || r == '\t' }) {
		c = strings.TrimSpace(c)
		c = strings.Trim(c, `"'`)
		c = strings.TrimSpace(c)
		if c != "" {
			cells = append(cells, c)
		}
	}
	return cells
}

func looksLikeHeader(cells []string) bool {
	for _, c := range cells {
		l := strings.ToLower(c)
		for _, w := range headerWords {
			if strings.Contains(l, w) {
				return true
			}
		}
	}
	return false
}

func clip(s string) string {
	s = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return ' '
		}
		return r
	}, s)
	if utf8.RuneCountInString(s) <= maxBulkCell {
		return s
	}
	return string([]rune(s)[:maxBulkCell]) + "…"
}

// BulkRow is one line of the answer.
type BulkRow struct {
	Row       int        `json:"row"`
	Input     string     `json:"input"`
	Status    string     `json:"status"`
	IsValid   bool       `json:"isValid"`
	Reason    string     `json:"reason,omitempty"`
	Holder    string     `json:"holder,omitempty"`
	Badge     string     `json:"badge,omitempty"`
	BadgeType string     `json:"badgeType,omitempty"`
	IssuedAt  *time.Time `json:"issuedAt,omitempty"`
	ExpiresAt *time.Time `json:"expiresAt,omitempty"`
	VerifyURL string     `json:"verifyUrl,omitempty"`
	Checks    *Checks    `json:"checks,omitempty"`
}

// BulkSummary counts the rows by status.
type BulkSummary struct {
	Total     int `json:"total"`
	Valid     int `json:"valid"`
	Revoked   int `json:"revoked"`
	Expired   int `json:"expired"`
	Invalid   int `json:"invalid"`
	NotFound  int `json:"notFound"`
	Malformed int `json:"malformed"`
}

// BulkResult is the answer of a bulk check.
type BulkResult struct {
	CheckedAt time.Time   `json:"checkedAt"`
	Summary   BulkSummary `json:"summary"`
	Rows      []BulkRow   `json:"rows"`
	// Receipt is the answer signed by the issuer (a compact JWS, see Receipt).
	Receipt string `json:"receipt,omitempty"`
}

// Bulk verifies every entry: the records are read in a few queries, each credential's
// signature, revocation and expiry are checked as for one id.
func (s *Service) Bulk(ctx context.Context, entries []BulkEntry, requestOrigin string) (*BulkResult, error) {
	now := s.now()
	recs, err := s.loadMany(ctx, entries)
	if err != nil {
		return nil, err
	}
	// grants made before credentials were signed are signed on their first verification
	for k, r := range recs {
		if r.CredentialJWT != "" {
			continue
		}
		if err := s.signLazily(ctx, r, requestOrigin, false); err != nil {
			return nil, err
		}
		kind := KindVerification
		if k[0] == 'p' {
			kind = KindPublic
		}
		if recs[k], err = s.load(ctx, kind, k[2:]); err != nil {
			return nil, err
		}
	}
	computed := map[string]*Result{}
	out := &BulkResult{CheckedAt: now.UTC().Truncate(time.Second), Rows: make([]BulkRow, 0, len(entries))}
	for _, e := range entries {
		row := BulkRow{Row: e.Row, Input: e.Input}
		var r *record
		if e.OK() {
			r = recs[recKey(e.Kind, e.ID)]
		}
		switch {
		case !e.OK():
			row.Status, row.Reason = StatusMalformed, MsgBulkMalformed
			out.Summary.Malformed++
		case r == nil:
			row.Status, row.Reason = StatusNotFound, MsgNotVerified
			out.Summary.NotFound++
		default:
			res := computed[r.GrantID]
			if res == nil {
				v := s.compute(ctx, r, now)
				res = &v
				computed[r.GrantID] = res
			}
			row.Status, row.IsValid, row.Reason = res.Status, res.IsValid, res.Reason
			row.Holder, row.Badge, row.BadgeType = res.User.Name, res.Badge.Name, res.Badge.Type
			issued := res.IssuedAt
			row.IssuedAt, row.ExpiresAt = &issued, res.ExpiresAt
			row.VerifyURL = res.Credential.VerifyURL
			checks := res.Checks
			row.Checks = &checks
			switch res.Status {
			case StatusValid:
				out.Summary.Valid++
			case StatusRevoked:
				out.Summary.Revoked++
			case StatusExpired:
				out.Summary.Expired++
			default:
				out.Summary.Invalid++
			}
		}
		out.Rows = append(out.Rows, row)
	}
	out.Summary.Total = len(out.Rows)
	return out, nil
}

func recKey(kind, id string) string {
	if kind == KindPublic {
		return "p:" + id
	}
	return "v:" + id
}

// loadMany reads the records the entries name, in chunks, keyed by recKey.
func (s *Service) loadMany(ctx context.Context, entries []BulkEntry) (map[string]*record, error) {
	var priv, pub []string
	seen := map[string]bool{}
	for _, e := range entries {
		if !e.OK() || seen[recKey(e.Kind, e.ID)] {
			continue
		}
		seen[recKey(e.Kind, e.ID)] = true
		if e.Kind == KindPublic {
			pub = append(pub, e.ID)
		} else {
			priv = append(priv, e.ID)
		}
	}
	out := make(map[string]*record, len(seen))
	load := func(col, kind string, ids []string) error {
		for len(ids) > 0 {
			n := min(len(ids), 500)
			var rows []record
			if err := s.DB.NewRaw(recordSelect+"WHERE "+col+" IN (?)", bun.List(ids[:n])).Scan(ctx, &rows); err != nil {
				return err
			}
			for i := range rows {
				r := &rows[i]
				id := r.VerificationID
				if kind == KindPublic {
					id = r.PublicVerificationID
				}
				out[recKey(kind, id)] = r
			}
			ids = ids[n:]
		}
		return nil
	}
	if err := load("g.verification_id", KindVerification, priv); err != nil {
		return nil, err
	}
	if err := load("g.public_verification_id", KindPublic, pub); err != nil {
		return nil, err
	}
	return out, nil
}

// BulkCSVHeader is the CSV download's first line.
var BulkCSVHeader = []string{"row", "input", "status", "holder", "badge", "issued", "expires", "signature", "not revoked", "not expired", "reason", "verify url"}

// BulkCSV writes the rows as CSV. Cells that a spreadsheet would run as a formula are
// prefixed with an apostrophe.
func BulkCSV(res *BulkResult) []byte {
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	_ = w.Write(BulkCSVHeader)
	date := func(t *time.Time) string {
		if t == nil {
			return ""
		}
		return t.UTC().Format("2006-01-02")
	}
	yes := func(ok bool) string {
		if ok {
			return "yes"
		}
		return "no"
	}
	for _, r := range res.Rows {
		sig, nr, ne := "", "", ""
		if r.Checks != nil {
			sig, nr, ne = yes(r.Checks.Signature), yes(r.Checks.NotRevoked), yes(r.Checks.NotExpired)
		}
		rec := []string{strconv.Itoa(r.Row), r.Input, r.Status, r.Holder, r.Badge, date(r.IssuedAt), date(r.ExpiresAt), sig, nr, ne, r.Reason, r.VerifyURL}
		for i, c := range rec {
			rec[i] = safeCell(c)
		}
		_ = w.Write(rec)
	}
	w.Flush()
	return b.Bytes()
}

func safeCell(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}
