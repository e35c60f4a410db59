// Package halloffame serves the Hall of Fame: GET /hall-of-fame (the API) and the
// server-rendered /hall-of-fame page, over a summary per earner (hall_of_fame and
// hall_of_fame_categories) that the grant and revoke transactions keep (Refresh), so that
// ranking a million grants is an index walk.
//
// This file holds the pure rules: the query's validation and the answer's shape.
package halloffame

import (
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"meritmark/app/model"
)

// Sorts (spec section 9: badges, recent, name).
const (
	SortBadges = "badges"
	SortRecent = "recent"
	SortName   = "name"
)

// Page sizes.
const (
	DefaultLimit = 24
	MaxLimit     = 100
	MaxSearch    = 100
	// RecentBadges is how many recent badges each earner shows (spec: three).
	RecentBadges = 3
)

// Messages.
const (
	MsgBadSort     = "Sort must be badges, recent or name."
	MsgBadCategory = "Unknown category."
	MsgBadPage     = "Page must be a whole number from 1."
	MsgBadLimit    = "Limit must be a whole number from 1 to 100."
	MsgLongSearch  = "The search is too long (at most 100 characters)."
	// MsgLoadFailed is the spec's message when the Hall of Fame cannot be loaded.
	MsgLoadFailed = "Failed to load Hall of Fame data"
)

// Query is a validated Hall of Fame request.
type Query struct {
	Search   string `json:"search"`
	Category string `json:"category"` // "" = all
	Sort     string `json:"sort"`
	Page     int    `json:"page"`
	Limit    int    `json:"limit"`
}

// Values reads a Query from request parameters (get returns "" for a missing one). The
// search may be given as search or q; category "All" (any case) means every category.
func ParseQuery(get func(string) string) (Query, string) {
	q := Query{Sort: SortBadges, Page: 1, Limit: DefaultLimit}
	s := strings.TrimSpace(get("search"))
	if s == "" {
		s = strings.TrimSpace(get("q"))
	}
	if utf8.RuneCountInString(s) > MaxSearch {
		return q, MsgLongSearch
	}
	q.Search = strings.Join(strings.Fields(s), " ")
	if c := strings.TrimSpace(get("category")); c != "" && !strings.EqualFold(c, "all") {
		found := ""
		for _, k := range model.Categories {
			if strings.EqualFold(k, c) {
				found = k
			}
		}
		if found == "" {
			return q, MsgBadCategory
		}
		q.Category = found
	}
	if v := strings.TrimSpace(get("sort")); v != "" {
		switch strings.ToLower(v) {
		case SortBadges, SortRecent, SortName:
			q.Sort = strings.ToLower(v)
		default:
			return q, MsgBadSort
		}
	}
	if v := strings.TrimSpace(get("page")); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 1_000_000 {
			return q, MsgBadPage
		}
		q.Page = n
	}
	if v := strings.TrimSpace(get("limit")); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > MaxLimit {
			return q, MsgBadLimit
		}
		q.Limit = n
	}
	return q, ""
}

// URL is the page's address for q with page set to page (the default values left out),
// with the parameters in the order the page's island writes them.
func (q Query) URL(page int) string {
	var parts []string
	if q.Search != "" {
		parts = append(parts, "search="+url.QueryEscape(q.Search))
	}
	if q.Category != "" {
		parts = append(parts, "category="+url.QueryEscape(q.Category))
	}
	if q.Sort != SortBadges {
		parts = append(parts, "sort="+url.QueryEscape(q.Sort))
	}
	if page > 1 {
		parts = append(parts, "page="+strconv.Itoa(page))
	}
	if q.Limit != DefaultLimit {
		parts = append(parts, "limit="+strconv.Itoa(q.Limit))
	}
	if len(parts) == 0 {
		return "/hall-of-fame"
	}
	return "/hall-of-fame?" + strings.Join(parts, "&")
}

// Filtered reports whether a search or a category narrows the list.
func (q Query) Filtered() bool { return q.Search != "" || q.Category != "" }

// Badge is one of an earner's recent badges.
type Badge struct {
	ID         string    `json:"id"` // its page: /badges/{id}
	Name       string    `json:"name"`
	Category   string    `json:"category"`
	EarnedDate time.Time `json:"earnedDate"`
}

// User is one earner (spec section 3, Hall of Fame response).
type User struct {
	ID            string    `json:"id"`
	Rank          int       `json:"rank"`
	Name          string    `json:"name"`
	Title         string    `json:"title"`
	Company       string    `json:"company"`
	ProfilePicURL string    `json:"profilePicUrl"`
	LinkedInURL   string    `json:"linkedinUrl"`
	PortfolioURL  string    `json:"portfolioUrl"`
	TotalBadges   int       `json:"totalBadges"`
	JoinedDate    time.Time `json:"joinedDate"`
	LastEarnedAt  time.Time `json:"lastEarnedAt"`
	Badges        []Badge   `json:"badges"`
}

// Stats are the stat cards: every earner, every badge in force, the categories earned.
type Stats struct {
	Earners     int64    `json:"earners"`
	TotalBadges int64    `json:"totalBadges"`
	Categories  []string `json:"categories"`
}

// Pagination describes the page.
type Pagination struct {
	Page       int   `json:"page"`
	Limit      int   `json:"limit"`
	Total      int64 `json:"total"`
	TotalPages int   `json:"totalPages"`
	// TotalCapped: a search matched more than Total-1 earners; Total is a lower bound
	TotalCapped bool `json:"totalCapped"`
}

// Result is the answer of GET /hall-of-fame.
type Result struct {
	Users      []User     `json:"users"`
	Stats      Stats      `json:"stats"`
	Pagination Pagination `json:"pagination"`
	Query      Query      `json:"query"`
}

// safeURL keeps http(s) links only (profile links are shown as hrefs).
func safeURL(s string) string {
	s = strings.TrimSpace(s)
	l := strings.ToLower(s)
	if strings.HasPrefix(l, "https://") || strings.HasPrefix(l, "http://") {
		return s
	}
	return ""
}

// likePattern escapes s for LIKE … ESCAPE '\' and wraps it in %.
func likePattern(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)
	return "%" + r.Replace(strings.ToLower(s)) + "%"
}
