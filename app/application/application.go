package application

import (
	"archive/zip"
	"bytes"
	"fmt"
	"io"
	"net/url"
	"path"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Limits (spec section 5 and 9: 10 MB each; PDF, DOC, DOCX, JPG, JPEG, PNG).
const (
	MaxFileBytes   = 10 << 20 // one file
	MaxProofFiles  = 10
	MaxDescription = 5000 // characters
	MaxNameLen     = 100
	MaxFieldLen    = 200
	MaxURLLen      = 500
	// MaxRequestBytes is the body limit of POST /applications: every file at its
	// largest (proof files, resume, profile picture) plus room for the fields.
	MaxRequestBytes = (MaxProofFiles+2)*MaxFileBytes + 1<<20
)

// Messages the server answers (the first four are the spec's, quoted exactly).
const (
	MsgProfileIncomplete = "Please fill in all required fields in your profile."
	MsgProofRequired     = "Please upload proof files or provide a portfolio URL in your profile."
	MsgStillReviewed     = "Your application is still being reviewed."
	MsgSubmitted         = "Application Submitted Successfully!"

	MsgAwaitingPayment = "You already have an application for this badge waiting for payment. Continue to payment to complete it."
	MsgAlreadyOwned    = "You already own this badge!"
	MsgBadgeNotFound   = "Badge not found"
	MsgBadgeRequired   = "Please choose a badge to apply for."
	MsgQuizRequired    = "You need to pass the quiz for this badge before applying."
	MsgQuizUsed        = "Your passing quiz attempt has already been used for an application. Pass the quiz again to reapply."
	MsgResumeRequired  = "Please upload your resume (PDF, DOC or DOCX)."
	MsgPictureRequired = "Please upload a profile picture (JPG or PNG)."
	MsgTooManyFiles    = "You can upload at most 10 proof files."
	MsgNotMultipart    = "Please send the application as multipart/form-data."
	MsgDescTooLong     = "The description can be at most 5000 characters."
	MsgFileNotFound    = "File not found"
	MsgNotFound        = "Application not found"
)

// File kinds, as kept in application_files.kind.
const (
	KindResume     = "resume"
	KindProfilePic = "profilePic"
	KindProof      = "proof"
)

// FileType is an accepted upload type.
type FileType struct {
	Ext         string // canonical extension used in storage keys
	Label       string // shown in messages
	ContentType string
	Image       bool
	Document    bool
}

var (
	TypePDF  = FileType{"pdf", "PDF", "application/pdf", false, true}
	TypeDOC  = FileType{"doc", "DOC", "application/msword", false, true}
	TypeDOCX = FileType{"docx", "DOCX", "application/vnd.openxmlformats-officedocument.wordprocessingml.document", false, true}
	TypeJPEG = FileType{"jpg", "JPEG", "image/jpeg", true, false}
	TypePNG  = FileType{"png", "PNG", "image/png", true, false}
)

// byExt maps the extensions people use to the type they promise.
var byExt = map[string]FileType{
	".pdf": TypePDF, ".doc": TypeDOC, ".docx": TypeDOCX,
	".jpg": TypeJPEG, ".jpeg": TypeJPEG, ".png": TypePNG,
}

// TypeForName is the accepted type a file name's extension promises (ok false when the
// extension is not accepted).
func TypeForName(name string) (FileType, bool) {
	t, ok := byExt[strings.ToLower(path.Ext(name))]
	return t, ok
}

// FileError is a refused upload: its message names the file; Status is 400 or 413.
type FileError struct {
	Status int
	Msg    string
}

func (e *FileError) Error() string { return e.Msg }

// CheckFile decides whether an upload of kind with this (already sanitized) display name
// and size is accepted: the extension must be allowed for the kind, and the content must
// really be of that type (magic numbers, and for DOCX a Word package inside the zip).
// ra reads the file's content.
func CheckFile(kind, name string, size int64, ra io.ReaderAt) (FileType, *FileError) {
	q := quote(name)
	if size > MaxFileBytes {
		return FileType{}, &FileError{413, q + " is larger than 10 MB. Each file can be at most 10 MB."}
	}
	t, ok := TypeForName(name)
	switch kind {
	case KindResume:
		if !ok || !t.Document {
			return FileType{}, &FileError{400, "Your resume " + q + " must be a PDF, DOC or DOCX file."}
		}
	case KindProfilePic:
		if !ok || !t.Image {
			return FileType{}, &FileError{400, "Your profile picture " + q + " must be a JPG or PNG image."}
		}
	default:
		if !ok {
			return FileType{}, &FileError{400, q + " is not an accepted file type. Upload PDF, DOC, DOCX, JPG, JPEG or PNG files."}
		}
	}
	if size == 0 {
		return FileType{}, &FileError{400, q + " is empty."}
	}
	if !contentMatches(t, size, ra) {
		return FileType{}, &FileError{400, q + " is not a real " + t.Label + " file: its content does not match its extension."}
	}
	return t, nil
}

var (
	magicPDF  = []byte("%PDF-")
	magicOLE  = []byte{0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1}
	magicZIP  = []byte("PK\x03\x04")
	magicJPEG = []byte{0xFF, 0xD8, 0xFF}
	magicPNG  = []byte{0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'}
)

func contentMatches(t FileType, size int64, ra io.ReaderAt) bool {
	head := make([]byte, 16)
	n, err := ra.ReadAt(head, 0)
	if err != nil && err != io.EOF {
		return false
	}
	head = head[:n]
	switch t {
	case TypePDF:
		return bytes.HasPrefix(head, magicPDF)
	case TypeDOC:
		return bytes.HasPrefix(head, magicOLE)
	case TypeJPEG:
		return bytes.HasPrefix(head, magicJPEG)
	case TypePNG:
		return bytes.HasPrefix(head, magicPNG)
	case TypeDOCX:
		if !bytes.HasPrefix(head, magicZIP) {
			return false
		}
		// A Word document is a zip package with word/document.xml; only the central
		// directory is read, nothing is decompressed.
		zr, err := zip.NewReader(ra, size)
		if err != nil {
			return false
		}
		hasTypes, hasDoc := false, false
		for _, f := range zr.File {
			switch f.Name {
			case "[Content_Types].xml":
				hasTypes = true
			case "word/document.xml":
				hasDoc = true
			}
		}
		return hasTypes && hasDoc
	}
	return false
}

// SanitizeName turns a client's file name into display text: the last path element only
// (no folders, no '..'), without control or bidi characters, at most 120 characters
// keeping the extension. It is never used to build a storage key or a path.
func SanitizeName(raw string) string {
	if i := strings.LastIndexAny(raw, `/\`); i >= 0 {
		raw = raw[i+1:]
	}
	if !utf8.ValidString(raw) {
		raw = strings.ToValidUTF8(raw, "")
	}
	var b strings.Builder
	for _, r := range raw {
		switch {
		case unicode.IsControl(r), unicode.Is(unicode.Cf, r): // includes bidi overrides
		case r == '"' || r == '<' || r == '>' || r == ':' || r == '*' || r == '?' || r == '|':
			b.WriteRune('_')
		default:
			b.WriteRune(r)
		}
	}
	// no leading dots or spaces (". . .x" is not hidden either), no trailing spaces
	name := strings.TrimLeftFunc(b.String(), func(r rune) bool { return r == '.' || unicode.IsSpace(r) })
	name = strings.TrimRightFunc(name, unicode.IsSpace)
	if name == "" || strings.Trim(name, ".") == "" {
		name = "file"
	}
	if utf8.RuneCountInString(name) > 120 {
		ext := path.Ext(name)
		if utf8.RuneCountInString(ext) > 10 {
			ext = ""
		}
		runes := []rune(strings.TrimSuffix(name, ext))
		name = strings.TrimRightFunc(string(runes[:120-utf8.RuneCountInString(ext)]), unicode.IsSpace) + ext
	}
	return name
}

// ASCIIName is a plain-ASCII version of a display name for the Content-Disposition
// fallback parameter.
func ASCIIName(name string) string {
	var b strings.Builder
	for _, r := range name {
		if r < 128 && (unicode.IsLetter(r) || unicode.IsDigit(r) || strings.ContainsRune("._- ()", r)) {
			b.WriteRune(r)
		} else {
			b.WriteRune('_')
		}
	}
	s := strings.TrimSpace(b.String())
	if s == "" {
		s = "file"
	}
	return s
}

// ContentDisposition builds an attachment header carrying name safely (RFC 6266).
func ContentDisposition(name string) string {
	return fmt.Sprintf(`attachment; filename="%s"; filename*=UTF-8''%s`, ASCIIName(name), extValue(name))
}

// extValue percent-encodes everything but RFC 5987 attr-chars.
func extValue(s string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 128 && (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("!#$&+-.^_`|~", c) >= 0) {
			b.WriteByte(c)
		} else {
			b.WriteByte('%')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&15])
		}
	}
	return b.String()
}

func quote(name string) string { return `"` + name + `"` }

// NormalizeURL accepts a web address as people type it ("linkedin.com/in/ada") and
// returns it with https://, or ok false when it is not a usable http(s) address.
func NormalizeURL(raw string) (string, bool) {
	s := strings.TrimSpace(raw)
	if s == "" {
		return "", true
	}
	if len(s) > MaxURLLen || strings.ContainsAny(s, " \t\r\n<>\"") {
		return "", false
	}
	if !strings.Contains(s, "://") {
		s = "https://" + s
	}
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || !strings.Contains(u.Hostname(), ".") {
		return "", false
	}
	return u.String(), true
}
