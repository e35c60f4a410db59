package award

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"
	"unicode/utf8"

	"meritmark/app/auth"
)

// CSV upload limits.
const (
	MaxRows     = 1000
	MaxCSVBytes = 1 << 20
	MaxName     = 100
)

// Messages of the CSV upload.
const (
	MsgFileRequired  = "Please choose a CSV file."
	MsgFileTooLarge  = "The file must be at most 1 MB."
	MsgTooManyRows   = "The file has more than 1,000 rows. Split it into files of at most 1,000 rows."
	MsgNoRows        = "The file has no rows to award."
	MsgNoEmailColumn = "The header row has no email column."
	MsgNameRequired  = "The name is missing."
	MsgNameTooLong   = "The name must be at most 100 characters."
	MsgExpiryFormat  = "The expiry must be a date written YYYY-MM-DD, such as 2027-01-31."
	MsgExpiryPast    = "The expiry must be after today."
	MsgOpenReplaced  = "Will be sent; it replaces the award sent earlier to this address (its link stops working)."
	MsgWillSend      = "Will be sent."
)

// Row is one checked row of an upload.
type Row struct {
	Line      int        `json:"line"` // in the file, the header being line 1
	Email     string     `json:"email"`
	Name      string     `json:"name"`
	Expiry    string     `json:"expiry"`
	Note      string     `json:"note"`
	ExpiresAt *time.Time `json:"expiresAt"`
	OK        bool       `json:"ok"`
	Status    string     `json:"status"` // ok, invalid, duplicate, holder, sent, failed
	Msg       string     `json:"msg"`
	AwardID   string     `json:"awardId,omitempty"`
}

var headerNames = map[string]string{
	"email": "email", "e-mail": "email", "email address": "email", "address": "email",
	"name": "name", "full name": "name", "recipient": "name",
	"expiry": "expiry", "expires": "expiry", "expiry date": "expiry", "expires at": "expiry", "expiresat": "expiry", "expiration": "expiry",
	"note": "note", "evidence": "note", "evidence note": "note", "notes": "note",
}

// ParseCSV reads an upload: a header row naming the columns (email, name, expiry, note;
// any order), or none (then the columns are email, name, expiry, note). Each row is checked
// on its own (the address, the name, the expiry after today, the note's length) and
// repeated addresses are flagged; what the database knows (holders) is checked later. An
// error is a message for the whole file.
func ParseCSV(data []byte, today time.Time) ([]Row, string) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	if !utf8.Valid(data) {
		return nil, "The file must be UTF-8 text."
	}
	r := csv.NewReader(bytes.NewReader(data))
	r.FieldsPerRecord = -1
	r.TrimLeadingSpace = true
	cols := map[string]int{"email": 0, "name": 1, "expiry": 2, "note": 3}
	var rows []Row
	first := true
	seen := map[string]int{}
	for {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				return nil, fmt.Sprintf("The file is not valid CSV: line %d: %v.", pe.Line, pe.Err)
			}
			return nil, "The file is not valid CSV."
		}
		line, _ := r.FieldPos(0)
		if first {
			first = false
			if h, ok := header(rec); ok {
				if _, ok := h["email"]; !ok {
					return nil, MsgNoEmailColumn
				}
				cols = h
				continue
			}
		}
		if blank(rec) {
			continue
		}
		if len(rows) == MaxRows {
			return nil, MsgTooManyRows
		}
		cell := func(k string) string {
			i, ok := cols[k]
			if !ok || i >= len(rec) {
				return ""
			}
			return strings.TrimSpace(rec[i])
		}
		row := Row{Line: line, Email: auth.NormalizeEmail(cell("email")), Name: strings.Join(strings.Fields(cell("name")), " "),
			Expiry: cell("expiry"), Status: "invalid"}
		note, noteOK := CleanNote(cell("note"))
		row.Note = note
		switch {
		case !auth.ValidEmail(row.Email):
			row.Msg = MsgEmailInvalid
		case row.Name == "":
			row.Msg = MsgNameRequired
		case utf8.RuneCountInString(row.Name) > MaxName:
			row.Msg = MsgNameTooLong
		case !noteOK:
			row.Msg = MsgNoteTooLong
		}
		if row.Msg == "" && row.Expiry != "" {
			t, err := time.Parse("2006-01-02", row.Expiry)
			switch {
			case err != nil:
				row.Msg = MsgExpiryFormat
			case !t.After(today):
				row.Msg = MsgExpiryPast
			default:
				row.ExpiresAt = &t
			}
		}
		if row.Msg == "" {
			if l, dup := seen[row.Email]; dup {
				row.Status, row.Msg = "duplicate", fmt.Sprintf("Repeats line %d: this address is already in the file.", l)
			} else {
				seen[row.Email] = row.Line
				row.OK, row.Status, row.Msg = true, "ok", MsgWillSend
			}
		}
		rows = append(rows, row)
	}
	if len(rows) == 0 {
		return nil, MsgNoRows
	}
	return rows, ""
}

// header maps the column names of rec when it is a header row (it names an email column,
// or no cell of it is an address).
func header(rec []string) (map[string]int, bool) {
	h := map[string]int{}
	for i, c := range rec {
		k := strings.ToLower(strings.Join(strings.Fields(c), " "))
		if auth.ValidEmail(auth.NormalizeEmail(c)) {
			return nil, false
		}
		if name, ok := headerNames[k]; ok {
			if _, dup := h[name]; !dup {
				h[name] = i
			}
		}
	}
	return h, true
}

func blank(rec []string) bool {
	for _, c := range rec {
		if strings.TrimSpace(c) != "" {
			return false
		}
	}
	return true
}
