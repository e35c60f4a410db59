package auth

import (
	"regexp"
	"strings"

	"meritmark/app/web"
)

// seasonYear matches the "season + year" passwords that every guessing list tries first:
// a season, a month or the site's name and a year (either way round), with any
// separators between and any punctuation around ("Summer2024!", "winter-2025",
// "2026Meritmark", "Autumn2023?"). Matched lower-case.
var seasonYear = func() *regexp.Regexp {
	words := []string{
		"spring", "summer", "autumn", "fall", "winter",
		"january", "february", "march", "april", "may", "june", "july", "august",
		"september", "october", "november", "december",
		"jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec",
		strings.ToLower(web.SiteName),
	}
	word := "(?:" + strings.Join(words, "|") + ")"
	year := `(?:19|20)?[0-9]{2}`
	sep := `[^a-z0-9]*`
	return regexp.MustCompile(`^` + sep + `(?:` + word + sep + year + `|` + year + sep + word + `)` + sep + `$`)
}()

// isSeasonYear reports whether pw is a season, month or the site's name with a year.
func isSeasonYear(pw string) bool {
	return seasonYear.MatchString(strings.ToLower(strings.TrimSpace(pw)))
}
