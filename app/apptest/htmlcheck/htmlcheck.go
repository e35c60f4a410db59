// Package htmlcheck reads an HTML document the way a browser's tokenizer does and lists
// everything in it that could run script: event-handler attributes, javascript:,
// vbscript: or data: URLs in link and source attributes, inline scripts other than the
// ones allowed, script types other than JSON data and modules, JSON data scripts that do
// not parse (a value that closed its script element), and elements that load or embed
// other documents. Tests use it to prove that user-controlled text never becomes markup.
package htmlcheck

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"golang.org/x/net/html"
)

// urlAttrs are the attributes whose value a browser may navigate to or load.
var urlAttrs = map[string]bool{
	"href": true, "src": true, "action": true, "formaction": true, "xlink:href": true, "poster": true,
	"data": true, "background": true, "cite": true, "srcset": true, "ping": true, "manifest": true,
}

// forbiddenTags load or embed other documents, or change how every link resolves.
var forbiddenTags = map[string]bool{
	"iframe": true, "frame": true, "frameset": true, "object": true, "embed": true, "applet": true, "base": true,
}

// Problems lists what in doc could execute script. allowedInline are the exact bodies of
// the inline (untyped) scripts the document may carry, such as the theme script.
func Problems(doc []byte, allowedInline ...string) []string {
	var out []string
	z := html.NewTokenizer(strings.NewReader(string(doc)))
	inScript := "" // the type of the script element being read, "" when none
	var scriptText strings.Builder
	for {
		tt := z.Next()
		switch tt {
		case html.ErrorToken:
			if z.Err() != io.EOF {
				out = append(out, "tokenizer: "+z.Err().Error())
			}
			if inScript != "" {
				out = append(out, "an unterminated script element")
			}
			return out
		case html.StartTagToken, html.SelfClosingTagToken:
			tok := z.Token()
			name := tok.Data
			if forbiddenTags[name] {
				out = append(out, fmt.Sprintf("a <%s> element", name))
			}
			if name == "meta" && attr(tok, "http-equiv") != "" {
				out = append(out, fmt.Sprintf("<meta http-equiv=%q>", attr(tok, "http-equiv")))
			}
			for _, a := range tok.Attr {
				key := strings.ToLower(a.Key)
				if strings.HasPrefix(key, "on") {
					out = append(out, fmt.Sprintf("<%s %s=%q>: an event handler attribute", name, a.Key, a.Val))
				}
				if urlAttrs[key] && dangerousURL(a.Val) {
					out = append(out, fmt.Sprintf("<%s %s=%q>: a script URL", name, a.Key, a.Val))
				}
				if key == "style" && (strings.Contains(strings.ToLower(a.Val), "javascript:") || strings.Contains(strings.ToLower(a.Val), "expression(")) {
					out = append(out, fmt.Sprintf("<%s style=%q>: script in a style", name, a.Val))
				}
			}
			if name == "script" {
				typ := strings.ToLower(strings.TrimSpace(attr(tok, "type")))
				switch {
				case typ == "" && attr(tok, "src") == "":
					typ = "inline"
				case typ == "module" && attr(tok, "src") != "":
				case typ == "application/json" || typ == "application/ld+json":
				default:
					out = append(out, fmt.Sprintf("a script of type %q (src %q)", typ, attr(tok, "src")))
				}
				if tt == html.StartTagToken {
					inScript = typ
					scriptText.Reset()
				}
			}
		case html.TextToken:
			if inScript != "" {
				scriptText.Write(z.Text())
			}
		case html.EndTagToken:
			tn, _ := z.TagName()
			if string(tn) == "script" && inScript != "" {
				body := scriptText.String()
				switch inScript {
				case "inline":
					if !contains(allowedInline, body) {
						out = append(out, fmt.Sprintf("an inline script that is not allowed: %.200q", body))
					}
				case "application/json", "application/ld+json":
					if !json.Valid([]byte(body)) {
						out = append(out, fmt.Sprintf("a %s script that is not valid JSON (did a value close it?): %.200q", inScript, body))
					}
				case "module":
					if strings.TrimSpace(body) != "" {
						out = append(out, "a module script with inline code")
					}
				}
				inScript = ""
			}
		}
	}
}

// dangerousURL reports a URL a browser would run or render as a document: the scheme is
// read as a browser does, ignoring ASCII whitespace and control characters.
func dangerousURL(v string) bool {
	var b strings.Builder
	for _, r := range v {
		if r <= 0x20 || r == 0x7f {
			continue
		}
		b.WriteRune(r)
	}
	s := strings.ToLower(b.String())
	return strings.HasPrefix(s, "javascript:") || strings.HasPrefix(s, "vbscript:") || strings.HasPrefix(s, "data:text/html") ||
		strings.HasPrefix(s, "data:image/svg") || strings.HasPrefix(s, "data:application")
}

func attr(t html.Token, key string) string {
	for _, a := range t.Attr {
		if strings.EqualFold(a.Key, key) {
			return a.Val
		}
	}
	return ""
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// Text is the document's visible text and attribute values, unescaped: a marker planted
// in a field can be looked for here to prove the field reached the page.
func Text(doc []byte) string {
	var b strings.Builder
	z := html.NewTokenizer(strings.NewReader(string(doc)))
	for {
		switch z.Next() {
		case html.ErrorToken:
			return b.String()
		case html.TextToken:
			b.Write(z.Text())
			b.WriteByte('\n')
		case html.StartTagToken, html.SelfClosingTagToken:
			for _, a := range z.Token().Attr {
				b.WriteString(a.Val)
				b.WriteByte('\n')
			}
		}
	}
}
