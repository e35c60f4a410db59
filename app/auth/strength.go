package auth

import (
	"strings"
	"unicode"

	"github.com/trustelem/zxcvbn"
)

// MinStrength is the lowest zxcvbn score a new password may have: 2 means at least a
// million guesses against zxcvbn's attack model, whose frequency lists (common passwords,
// English words, names, keyboard patterns — shipped inside the binary by the Go port
// github.com/trustelem/zxcvbn) refuse "password", "12345678", "qwertyuiop" and the like.
const MinStrength = 2

// guessable says why pw is too easy to guess for the account of email and name ("" when
// it is not).
func guessable(pw, email, name string) string {
	low := strings.ToLower(strings.TrimSpace(pw))
	var personal []string
	if email != "" {
		personal = append(personal, email)
		if at := strings.LastIndexByte(email, '@'); at > 0 {
			personal = append(personal, email[:at])
		}
	}
	personal = append(personal, strings.FieldsFunc(strings.ToLower(name), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })...)
	if name != "" {
		personal = append(personal, strings.ToLower(name), squeeze(name))
	}
	if at := strings.LastIndexByte(email, '@'); at > 0 {
		personal = append(personal, squeeze(email[:at]))
	}
	for _, p := range personal {
		if len(p) >= 3 && squeeze(low) == squeeze(p) {
			return MsgPasswordPersonal
		}
	}
	if sameRune(low) || isSeasonYear(pw) {
		return MsgPasswordCommon
	}
	if zxcvbn.PasswordStrength(pw, personal).Score < MinStrength {
		return MsgPasswordCommon
	}
	return ""
}

// squeeze drops spaces and punctuation ("ann.lee" and "Ann Lee" are the same name).
func squeeze(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return unicode.ToLower(r)
		}
		return -1
	}, s)
}

func sameRune(s string) bool {
	for _, r := range s {
		if r != []rune(s)[0] {
			return false
		}
	}
	return true
}
