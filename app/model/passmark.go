package model

import (
	"fmt"
	"regexp"
	"strconv"
	"time"
)

// AngoffMethod is a quiz's pass_mark_method after a modified-Angoff panel's cut was
// adopted: "modified Angoff, 6 raters, 2026-12-01" (the raters whose ratings made the cut,
// the day it was adopted, UTC).
func AngoffMethod(raters int, on time.Time) string {
	return fmt.Sprintf("modified Angoff, %s, %s", raterCount(raters), on.UTC().Format("2006-01-02"))
}

func raterCount(n int) string {
	if n == 1 {
		return "1 rater"
	}
	return strconv.Itoa(n) + " raters"
}

var angoffMethodRe = regexp.MustCompile(`^modified Angoff, (\d+) raters?, (\d{4}-\d{2}-\d{2})$`)

// PassMarkSentence says how the pass mark was set, for a credential's evaluationMethod
// and the public report: "Pass mark: 68%, set by a modified-Angoff panel of 6 raters on
// 2026-12-01." or, without a method, "Pass mark: 70%, a fixed percentage set by the
// administrator."
func PassMarkSentence(passMark int, method string) string {
	if method == "" {
		return fmt.Sprintf("Pass mark: %d%%, a fixed percentage set by the administrator.", passMark)
	}
	if m := angoffMethodRe.FindStringSubmatch(method); m != nil {
		n, _ := strconv.Atoi(m[1])
		return fmt.Sprintf("Pass mark: %d%%, set by a modified-Angoff panel of %s on %s.", passMark, raterCount(n), m[2])
	}
	return fmt.Sprintf("Pass mark: %d%%, set by %s.", passMark, method)
}
