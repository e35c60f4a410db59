package mail

import (
	"html/template"
	"strings"
)

// Letter is a mail written once and sent in two forms: Message renders it as plain text
// and, through html/template (every value escaped by the template, never by hand), as HTML.
type Letter struct {
	To, Subject string
	Greeting    string      // "Hello Ada,"
	Paragraphs  []Paragraph // the body
	Action      *Link       // the main button; the text form gives its URL on a line of its own
	Small       []string    // small print after the button
	SignOff     string      // "The Meritmark team"
}

// Paragraph is a paragraph of text, optionally followed by a list and by links.
type Paragraph struct {
	Text  string
	List  []string
	Links []Link
}

// Link is a labelled URL.
type Link struct{ Label, URL string }

var letterHTML = template.Must(template.New("letter").Parse(`<!doctype html><html><body style="font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;color:#111827;line-height:1.5">
{{with .Greeting}}<p>{{.}}</p>
{{end}}{{range .Paragraphs}}{{$p := .}}{{if or .Text .Links}}<p>{{.Text}}{{range $i, $l := .Links}}{{if or $i $p.Text}}<br>{{end}}<a href="{{$l.URL}}">{{$l.Label}}</a>{{end}}</p>
{{end}}{{with .List}}<ul>{{range .}}<li>{{.}}</li>{{end}}</ul>
{{end}}{{end}}{{with .Action}}<p><a href="{{.URL}}" style="display:inline-block;background:#4f46e5;color:#ffffff;padding:10px 18px;border-radius:8px;text-decoration:none">{{.Label}}</a></p>
<p style="font-size:13px;color:#4b5563">Or paste this address into your browser:<br>{{.URL}}</p>
{{end}}{{range .Small}}<p style="font-size:13px;color:#4b5563">{{.}}</p>
{{end}}{{with .SignOff}}<p>{{.}}</p>
{{end}}</body></html>`))

// Text is the plain-text form.
func (l Letter) Text() string {
	var b strings.Builder
	add := func(s string) {
		if b.Len() > 0 {
			b.WriteString("\n\n")
		}
		b.WriteString(s)
	}
	if l.Greeting != "" {
		add(l.Greeting)
	}
	for _, p := range l.Paragraphs {
		if p.Text != "" {
			add(p.Text)
		}
		if len(p.List) > 0 {
			add("- " + strings.Join(p.List, "\n- "))
		}
		for _, k := range p.Links {
			add(k.Label + ": " + k.URL)
		}
	}
	if l.Action != nil {
		add(l.Action.Label + ":\n\n" + l.Action.URL)
	}
	for _, s := range l.Small {
		add(s)
	}
	if l.SignOff != "" {
		add(l.SignOff)
	}
	b.WriteString("\n")
	return b.String()
}

// HTML is the HTML form.
func (l Letter) HTML() string {
	var b strings.Builder
	if err := letterHTML.Execute(&b, l); err != nil {
		return "" // the template has no failing action; the text form is always there
	}
	return b.String()
}

// Message is the letter as the outbox queues it.
func (l Letter) Message() Message {
	return Message{To: l.To, Subject: l.Subject, Text: l.Text(), HTML: l.HTML()}
}
