package auth_test

import (
	"testing"

	"meritmark/app/auth"
)

// "Season + year" passwords, and the site's name with a year, are the first guesses of
// every spraying attack: refused with the common-password message, whatever the case,
// separators and trailing punctuation. Passwords that merely contain such a word stay.
func TestSeasonAndYearPasswordsAreRefused(t *testing.T) {
	for _, pw := range []string{
		"Summer2024!", "Meritmark2026", "winter-2025", "Autumn2023?", "SPRING 2024", "fall_2025!!",
		"December2025", "Sept.2024#", "2026Meritmark", "meritmark_26!", "  July2024  ",
	} {
		if got := auth.PasswordProblem(pw); got != auth.MsgPasswordCommon {
			t.Errorf("PasswordProblem(%q) = %q, want %q", pw, got, auth.MsgPasswordCommon)
		}
	}
	for _, pw := range []string{"summer kettle lamp 2024", "Meritmark is my 2026 badge", "wintergreen-lamp-91"} {
		if got := auth.PasswordProblem(pw); got != "" {
			t.Errorf("PasswordProblem(%q) = %q, want none", pw, got)
		}
	}
}
