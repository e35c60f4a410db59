// Package account serves a member's data rights (GDPR articles 15, 17 and 20): the
// download of everything the platform holds about them as one zip (export.go), and the
// deletion of the account (delete.go), each by the member from the profile page or by an
// administrator for a member.
//
// This file holds the pure rules: messages, the zip's file names and its README, and the
// tombstone a deleted account's row becomes.
package account

import (
	"strings"
	"time"
	"unicode"

	"meritmark/app/grant"
)

// Messages.
const (
	MsgDeleted        = "Your account has been deleted. Any badges you held are revoked and your personal data is erased."
	MsgAdminDeleted   = "The account has been deleted."
	MsgUserNotFound   = "User not found."
	MsgAlreadyDeleted = "This account has already been deleted."
	MsgNotYourself    = "You cannot delete your own account here. Use Delete account on your profile."
	MsgLastAdmin      = "This is the last administrator account: make another administrator first."
	MsgTooManyExports = "Too many downloads of your data. Please wait an hour and try again."
	// RevokeReason is the reason every grant of a deleted account is revoked with (the
	// public verify page shows it: the label of grant.CategoryAccountDeleted).
	RevokeReason = grant.LabelAccountDeleted
	// exportsPerHour: an export reads every row and stored file of the member and
	// signs credentials not signed yet.
	exportsPerHour = 5
)

// Tombstone values: a deleted account's row keeps only its id, dates and role.
const (
	TombstoneName   = "Deleted member"
	tombstoneDomain = "deleted.invalid" // RFC 2606: never a real mailbox
)

// TombstoneEmail is the address a deleted account's row carries instead of the member's
// (unique, like the column; .invalid cannot receive mail, so no reset link can revive it).
func TombstoneEmail(userID string) string { return "deleted-" + userID + "@" + tombstoneDomain }

// ExportName is the zip's file name for a download at t.
func ExportName(t time.Time) string { return "meritmark-data-" + t.UTC().Format("2006-01-02") + ".zip" }

// safeName turns a member's file name into a plain one for a path inside the zip: ASCII
// letters, digits and ._- only, at most 80 characters, never empty or hidden.
func safeName(name string) string {
	var b strings.Builder
	for _, r := range name {
		if r < 128 && (unicode.IsLetter(r) || unicode.IsDigit(r) || r == '.' || r == '-' || r == '_') {
			b.WriteRune(r)
		} else {
			b.WriteRune('_')
		}
	}
	s := strings.TrimLeft(b.String(), ".")
	if len(s) > 80 {
		s = s[len(s)-80:]
	}
	if s == "" {
		s = "file"
	}
	return s
}

// readme is README.txt in the zip.
const readme = `Your Meritmark data
===================

This archive holds everything Meritmark keeps about your account, as of the date in
its name. The JSON files can be opened with any text editor and read by programs.

profile.json          Your profile: name, e-mail address, position, links, the
                      details on your account, when it was created and whether
                      two-step sign-in is on.
applications.json     Your badge applications: what you entered, their status, the
                      review outcome, and the files you uploaded with them.
quiz-attempts.json    Your quiz attempts: when, score, number of correct answers,
                      pass or fail. The questions' correct answers are not included.
payments.json         Your payments and payment orders: amounts, discounts, coupon
                      codes, dates, provider order and transaction ids.
grants.json           Your badges: verification ids, dates, expiry, revocation, and
                      the names of their credential files below.
sessions.json         The browsers signed in to your account (device, address, dates).
connected-apps.json   The wallet and other apps you allowed to read your badges.
credentials/          Each badge's signed credential in both standard forms:
                      <id>.jwt   the Open Badges 3.0 credential as a VC-JWT;
                      <id>.json  the same credential as JSON-LD with a Data Integrity
                                 proof (eddsa-rdfc-2022).
                      Both verify on their own against the issuer's published keys.
files/                Your uploaded files: your profile picture and the documents
                      (proofs, resume) of your applications, in
                      files/applications/<application id>/.

Not included, because they would let someone act as you or reveal quiz answers: your
password (only a one-way hash is kept), your two-step sign-in secret and recovery codes,
session and app tokens, and the quizzes' answer keys and explanations.
`
