package pages

import (
	"net/http"
	"net/url"
	"regexp"
	"strings"

	"github.com/gofiber/fiber/v3"

	"meritmark/app/web"
)

// The contact form's messages (views/islands/ContactForm.tsx shows the same in the page).
const (
	MsgContactName         = "Please enter your name."
	MsgContactEmail        = "Please enter your email address."
	MsgContactEmailInvalid = "Please enter a valid email address."
	MsgContactSubject      = "Please enter a subject."
	MsgContactMessage      = "Please enter a message."
)

var contactEmail = regexp.MustCompile(`^[^\s@]+@[^\s@]+\.[^\s@]+$`)

// maxContactField bounds each field of the form (a message of a few pages at most).
const maxContactField = 20000

// POST /contact (name, email, subject, message): the contact form posted without
// JavaScript. Nothing is stored or sent: the page comes back with the messages of the
// fields to fix (400), or with the prefilled mailto link to the support address, as the
// form's script would open it. The answer is never cached.
func (h *Handler) contactForm(c fiber.Ctx) error {
	v := map[string]string{}
	for _, f := range []string{"name", "email", "subject", "message"} {
		s := c.FormValue(f)
		if len(s) > maxContactField {
			s = s[:maxContactField]
		}
		v[f] = s
	}
	errs := map[string]string{}
	if strings.TrimSpace(v["name"]) == "" {
		errs["name"] = MsgContactName
	}
	if e := strings.TrimSpace(v["email"]); e == "" {
		errs["email"] = MsgContactEmail
	} else if !contactEmail.MatchString(e) {
		errs["email"] = MsgContactEmailInvalid
	}
	if strings.TrimSpace(v["subject"]) == "" {
		errs["subject"] = MsgContactSubject
	}
	if strings.TrimSpace(v["message"]) == "" {
		errs["message"] = MsgContactMessage
	}
	mailto, status := "", http.StatusBadRequest
	if len(errs) == 0 {
		mailto, status = ContactMailto(h.site.SupportEmail, v), http.StatusOK
	}
	err := h.site.Render(c, "ContactPage", fiber.Map{"posted": fiber.Map{"values": v, "errors": errs, "mailto": mailto}},
		web.Meta{Title: "Contact", Path: "/contact", NoIndex: true, Status: status})
	c.Set("Cache-Control", "no-store")
	return err
}

// ContactMailto is the prefilled message to the support address, as the form's script
// builds it (RFC 6068: percent-encoded, CRLF line breaks).
func ContactMailto(to string, v map[string]string) string {
	body := strings.TrimSpace(v["message"]) + "\r\n\r\n--\r\n" + strings.TrimSpace(v["name"]) + "\r\n" + strings.TrimSpace(v["email"])
	return "mailto:" + to + "?subject=" + encodeURIComponent(strings.TrimSpace(v["subject"])) + "&body=" + encodeURIComponent(body)
}

// encodeURIComponent escapes as JavaScript's function of that name does.
func encodeURIComponent(s string) string {
	e := url.QueryEscape(s)
	e = strings.ReplaceAll(e, "+", "%20")
	for _, k := range []string{"!", "'", "(", ")", "*"} {
		e = strings.ReplaceAll(e, url.QueryEscape(k), k)
	}
	return e
}
