package user

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"net/url"
	"strings"
	"testing"
	"unicode/utf8"

	"golang.org/x/image/webp"

	"meritmark/app/storage"
)

func fuzzImages() [][]byte {
	img := image.NewNRGBA(image.Rect(0, 0, 7, 3))
	for i := range img.Pix {
		img.Pix[i] = byte(i * 7)
	}
	var p, j bytes.Buffer
	_ = png.Encode(&p, img)
	_ = jpeg.Encode(&j, img, nil)
	gray := image.NewGray(image.Rect(0, 0, 600, 900))
	gray.Set(1, 1, color.White)
	var big bytes.Buffer
	_ = png.Encode(&big, gray)
	webp1x1, _ := base64.StdEncoding.DecodeString("UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==")
	// a PNG header that claims 100000 x 100000 pixels (a decompression bomb)
	bomb := append([]byte{}, p.Bytes()[:8]...)
	ihdr := make([]byte, 13)
	binary.BigEndian.PutUint32(ihdr[0:], 100000)
	binary.BigEndian.PutUint32(ihdr[4:], 100000)
	ihdr[8], ihdr[9] = 8, 6
	bomb = binary.BigEndian.AppendUint32(bomb, 13)
	chunk := append([]byte("IHDR"), ihdr...)
	bomb = append(bomb, chunk...)
	bomb = binary.BigEndian.AppendUint32(bomb, crc32.ChecksumIEEE(chunk))
	return [][]byte{p.Bytes(), j.Bytes(), big.Bytes(), webp1x1, bomb, []byte("GIF89a"), []byte("<svg onload=alert(1)>"), {0xFF, 0xD8, 0xFF}, nil}
}

// pngChunks lists a PNG's chunk types.
func pngChunks(b []byte) []string {
	var out []string
	for i := 8; i+8 <= len(b); {
		n := int(binary.BigEndian.Uint32(b[i:]))
		out = append(out, string(b[i+4:i+8]))
		i += 12 + n
	}
	return out
}

// FuzzProcessPicture: whatever bytes are uploaded as a profile picture, the answer is a
// validation message or a square PNG of at most 512x512 with nothing but pixels in it (no
// EXIF, text or colour-profile chunks); a picture of too many pixels is refused before
// it is decoded.
func FuzzProcessPicture(f *testing.F) {
	for _, b := range fuzzImages() {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var cfg image.Config
		var cerr error
		switch Sniff(data) {
		case "png":
			cfg, cerr = png.DecodeConfig(bytes.NewReader(data))
		case "jpeg":
			cfg, cerr = jpeg.DecodeConfig(bytes.NewReader(data))
		case "webp":
			cfg, cerr = webp.DecodeConfig(bytes.NewReader(data))
		}
		huge := cerr == nil && (cfg.Width > MaxSourceSide || cfg.Height > MaxSourceSide || cfg.Width*cfg.Height > MaxSourcePixels)
		if cerr == nil && !huge && cfg.Width*cfg.Height > 4_000_000 {
			t.Skip("a large but allowed picture: decoding it is slow, not interesting")
		}
		out, err := ProcessPicture(data)
		if err != nil {
			msg, ok := IsValidation(err)
			if !ok {
				t.Fatalf("not a validation error: %v", err)
			}
			if huge && msg != MsgPictureHuge {
				t.Fatalf("a %dx%d picture: %q, want %q", cfg.Width, cfg.Height, msg, MsgPictureHuge)
			}
			return
		}
		if huge {
			t.Fatalf("a %dx%d picture was decoded", cfg.Width, cfg.Height)
		}
		oc, err := png.DecodeConfig(bytes.NewReader(out))
		if err != nil {
			t.Fatalf("the output is not a PNG: %v", err)
		}
		if oc.Width != oc.Height || oc.Width < 1 || oc.Width > MaxPictureSide || oc.Width > min(cfg.Width, cfg.Height) {
			t.Fatalf("a %dx%d source became %dx%d", cfg.Width, cfg.Height, oc.Width, oc.Height)
		}
		for _, c := range pngChunks(out) {
			if c != "IHDR" && c != "IDAT" && c != "IEND" {
				t.Fatalf("the output carries a %s chunk", c)
			}
		}
	})
}

// FuzzCleanProfile: an accepted profile has a name, fields within their limits, no
// control characters, and links that are http(s) addresses a page can put in an href;
// cleaning it again changes nothing.
func FuzzCleanProfile(f *testing.F) {
	for _, s := range [][5]string{
		{"Ann Lee", "ann@x.io", "Engineer", "https://linkedin.com/in/ann", "https://ann.dev"},
		{"  Ann \t\n Lee ", "", "", "", ""},
		{"<script>alert(1)</script>", "ANN@X.IO", `"><img src=x onerror=alert(1)>`, "javascript:alert(1)", "JAVASCRIPT:alert(1)"},
		{"x", "other@x.io", "", "https://user:pw@x.io", "data:text/html,<script>"},
		{"\u202eevil", "", "", " https://x.io/\u2028", "https://x.io\"onmouseover=alert(1)"},
		{"", "", "", "http://", "https://.x"},
	} {
		f.Add(s[0], s[1], s[2], s[3], s[4])
	}
	f.Fuzz(func(t *testing.T, name, email, position, linkedin, portfolio string) {
		in := ProfileInput{Name: name, Position: position, LinkedIn: linkedin, Portfolio: portfolio}
		if email != "" {
			in.Email = &email
		}
		out, err := CleanProfile(in, "ann@x.io")
		if err != nil {
			if _, ok := IsValidation(err); !ok {
				t.Fatalf("not a validation error: %v", err)
			}
			return
		}
		if out.Name == "" || utf8.RuneCountInString(out.Name) > MaxName || utf8.RuneCountInString(out.Position) > MaxPosition {
			t.Fatalf("accepted %+v", out)
		}
		for _, s := range []string{out.Name, out.Position} {
			if strings.TrimSpace(s) != s || strings.Contains(s, "  ") || strings.ContainsFunc(s, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
				t.Fatalf("accepted text %q", s)
			}
		}
		for _, l := range []string{out.LinkedIn, out.Portfolio} {
			if l == "" {
				continue
			}
			u, err := url.Parse(l)
			low := strings.ToLower(l)
			if err != nil || !(strings.HasPrefix(low, "http://") || strings.HasPrefix(low, "https://")) || u.Host == "" || u.User != nil ||
				strings.ContainsAny(l, " \t\r\n<>\"") || len(l) > MaxURL {
				t.Fatalf("accepted link %q", l)
			}
		}
		again, err := CleanProfile(out, "ann@x.io")
		if err != nil || again != out {
			t.Fatalf("not stable: %+v -> %+v (%v)", out, again, err)
		}
	})
}

// FuzzValidPictureKey: /media/* serves only the keys the picture pipeline generates.
func FuzzValidPictureKey(f *testing.F) {
	for _, k := range []string{NewPictureKey(), "avatars/../secrets/x.png", "applications/0123456789abcdef01234567/x.pdf", "avatars/0123456789abcdef01234567.png/../x",
		"avatars/0123456789ABCDEF01234567.png", "avatars//0123456789abcdef01234567.png", "avatars/0123456789abcdef01234567.PNG"} {
		f.Add(k)
	}
	f.Fuzz(func(t *testing.T, key string) {
		if !ValidPictureKey(key) {
			return
		}
		if !storage.ValidKey(key) || !strings.HasPrefix(key, PictureKeyPrefix) || strings.Count(key, "/") != 1 || !strings.HasSuffix(key, ".png") ||
			len(key) != len(PictureKeyPrefix)+24+4 {
			t.Fatalf("accepted picture key %q", key)
		}
	})
}
