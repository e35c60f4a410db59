package admin

import (
	"strings"
	"testing"
	"unicode/utf8"

	"meritmark/app/model"
	"meritmark/app/user"
)

// FuzzListQuery: the admin lists' paging, search and status parameters are either refused
// with a message or give a page and limit in range, a bounded search text and known
// statuses; the search becomes a LIKE pattern with every wildcard escaped.
func FuzzListQuery(f *testing.F) {
	for _, s := range [][4]string{{"", "", "", ""}, {"2", "50", "ann", "review"}, {"0", "0", " ", "all"}, {"-1", "101", "%_\\", "pending,approved"},
		{"1e3", "1.5", strings.Repeat("x", 300), "APPROVED"}, {"99999999999999999999", "+5", "'; DROP TABLE users; --", "rejected"}, {"1000001", " 5", "a%b_c", "awaiting_payment"}} {
		f.Add(s[0], s[1], s[2], s[3])
	}
	f.Fuzz(func(t *testing.T, page, limit, search, status string) {
		p, msg := ParsePage(page, limit)
		if msg == "" {
			if p.Page < 1 || p.Page > 1_000_000 || p.Limit < 1 || p.Limit > MaxLimit || p.Offset() < 0 {
				t.Fatalf("page %+v from %q %q", p, page, limit)
			}
			if page == "" && p.Page != 1 || limit == "" && p.Limit != DefaultLimit {
				t.Fatalf("defaults %+v", p)
			}
		}
		q, msg := ParseSearch(search)
		if msg == "" {
			if utf8.RuneCountInString(q) > MaxSearch || strings.TrimSpace(q) != q {
				t.Fatalf("search %q", q)
			}
			pat := LikePattern(q)
			if !strings.HasPrefix(pat, "%") || !strings.HasSuffix(pat, "%") || len(pat) < 2 {
				t.Fatalf("pattern %q", pat)
			}
			// inside, every % _ and \ is escaped, and unescaping gives the lower-cased text
			var b strings.Builder
			in := pat[1 : len(pat)-1]
			for i := 0; i < len(in); i++ {
				switch in[i] {
				case '\\':
					if i+1 >= len(in) || strings.IndexByte(`\%_`, in[i+1]) < 0 {
						t.Fatalf("pattern %q: a lone escape", pat)
					}
					i++
					b.WriteByte(in[i])
				case '%', '_':
					t.Fatalf("pattern %q for %q: an unescaped wildcard", pat, q)
				default:
					b.WriteByte(in[i])
				}
			}
			if b.String() != strings.ToLower(q) {
				t.Fatalf("pattern %q matches %q, not %q", pat, b.String(), strings.ToLower(q))
			}
		}
		sts, msg := ParseStatuses(status)
		if msg == "" {
			for _, s := range sts {
				if s != model.StatusPending && s != model.StatusAwaitingPayment && s != model.StatusApproved && s != model.StatusRejected {
					t.Fatalf("status %q from %q", s, status)
				}
			}
		}
	})
}

// FuzzReviewInput: a rejection reason and an admin's user edit are bounded, clean and,
// for links, http(s) only.
func FuzzReviewInput(f *testing.F) {
	for _, s := range [][6]string{{"", "Ann", "ann@x.io", "Engineer", "https://linkedin.com/in/ann", "user"},
		{"<script>alert(1)</script>", " ", "ANN@X.IO ", "  a  b ", "javascript:alert(1)", "admin"},
		{strings.Repeat("r", 1001), "x", "not-an-email", "", "https://x.io\"><img src=x>", "root"}} {
		f.Add(s[0], s[1], s[2], s[3], s[4], s[5])
	}
	f.Fuzz(func(t *testing.T, reason, name, email, position, link, role string) {
		r, msg := CleanReason(reason)
		if msg == "" && (r == "" || utf8.RuneCountInString(r) > MaxReason || strings.TrimSpace(r) != r) {
			t.Fatalf("reason %q", r)
		}
		e := UserEdit{Name: &name, Email: &email, Position: &position, LinkedIn: &link, Portfolio: &link, Role: &role}
		if e.Clean() != "" {
			return
		}
		switch {
		case *e.Name == "" || utf8.RuneCountInString(*e.Name) > MaxName || strings.Join(strings.Fields(*e.Name), " ") != *e.Name:
			t.Fatalf("name %q", *e.Name)
		case !ValidEmail(*e.Email) || *e.Email != strings.ToLower(strings.TrimSpace(*e.Email)):
			t.Fatalf("email %q", *e.Email)
		case utf8.RuneCountInString(*e.Position) > MaxPosition:
			t.Fatalf("position %q", *e.Position)
		case *e.LinkedIn != "" && !user.ValidWebURL(*e.LinkedIn):
			t.Fatalf("link %q", *e.LinkedIn)
		case *e.Role != model.RoleUser && *e.Role != model.RoleAdmin:
			t.Fatalf("role %q", *e.Role)
		}
		if low := strings.ToLower(*e.LinkedIn); low != "" && !strings.HasPrefix(low, "http://") && !strings.HasPrefix(low, "https://") {
			t.Fatalf("link %q", *e.LinkedIn)
		}
	})
}
