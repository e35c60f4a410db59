package user_test

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"strings"
	"testing"

	"meritmark/app/apptest"
	"meritmark/app/model"
	"meritmark/app/user"
)

// testImage is a w x h picture: left half red, right half blue (so a wrong crop shows).
func testImage(w, h int) *image.NRGBA {
	m := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			c := color.NRGBA{R: 220, G: 30, B: 30, A: 255}
			if x >= w/2 {
				c = color.NRGBA{R: 30, G: 30, B: 220, A: 255}
			}
			m.SetNRGBA(x, y, c)
		}
	}
	return m
}

func pngBytes(t testing.TB, m image.Image) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, m); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func jpegBytes(t testing.TB, m image.Image) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := jpeg.Encode(&b, m, &jpeg.Options{Quality: 90}); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// chunk builds a PNG chunk.
func chunk(typ string, data []byte) []byte {
	var b bytes.Buffer
	_ = binary.Write(&b, binary.BigEndian, uint32(len(data)))
	b.WriteString(typ)
	b.Write(data)
	_ = binary.Write(&b, binary.BigEndian, crc32.ChecksumIEEE(append([]byte(typ), data...)))
	return b.Bytes()
}

// withTextChunk inserts a tEXt chunk (metadata) right after IHDR.
func withTextChunk(p []byte, text string) []byte {
	const ihdrEnd = 8 + 8 + 13 + 4
	out := append([]byte{}, p[:ihdrEnd]...)
	out = append(out, chunk("tEXt", []byte("Comment\x00"+text))...)
	return append(out, p[ihdrEnd:]...)
}

// withExif inserts an APP1 Exif segment after SOI.
func withExif(j []byte, text string) []byte {
	payload := append([]byte("Exif\x00\x00"), []byte(text)...)
	seg := []byte{0xFF, 0xE1, byte((len(payload) + 2) >> 8), byte(len(payload) + 2)}
	out := append([]byte{}, j[:2]...)
	out = append(out, seg...)
	out = append(out, payload...)
	return append(out, j[2:]...)
}

// hugePNG is a PNG header claiming w x h pixels (no pixel data).
func hugePNG(w, h int) []byte {
	ihdr := make([]byte, 13)
	binary.BigEndian.PutUint32(ihdr[0:], uint32(w))
	binary.BigEndian.PutUint32(ihdr[4:], uint32(h))
	ihdr[8], ihdr[9] = 8, 6
	out := []byte("\x89PNG\r\n\x1a\n")
	out = append(out, chunk("IHDR", ihdr)...)
	return append(out, chunk("IDAT", []byte{0x78, 0x9c, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01})...)
}

// tinyWebP is a 1x1 lossless WebP.
var tinyWebP, _ = base64.StdEncoding.DecodeString("UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==")

func decodePNG(t testing.TB, b []byte) image.Image {
	t.Helper()
	if user.Sniff(b) != "png" {
		t.Fatalf("not a PNG: % x", b[:min(len(b), 16)])
	}
	m, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestSniff(t *testing.T) {
	for name, tc := range map[string]struct {
		b    []byte
		want string
	}{
		"png":    {pngBytes(t, testImage(2, 2)), "png"},
		"jpeg":   {jpegBytes(t, testImage(2, 2)), "jpeg"},
		"webp":   {tinyWebP, "webp"},
		"text":   {[]byte("hello, I am a PNG"), ""},
		"gif":    {[]byte("GIF89a\x01\x00\x01\x00"), ""},
		"svg":    {[]byte(`<svg xmlns="http://www.w3.org/2000/svg"></svg>`), ""},
		"riff":   {[]byte("RIFF\x00\x00\x00\x00WAVEfmt "), ""},
		"empty":  {nil, ""},
		"header": {[]byte("\x89PN"), ""},
	} {
		if got := user.Sniff(tc.b); got != tc.want {
			t.Errorf("%s: Sniff = %q, want %q", name, got, tc.want)
		}
	}
}

func TestProcessPictureCropsScalesAndStripsMetadata(t *testing.T) {
	// landscape 800x600: the centre 600x600 square, scaled to 512
	out, err := user.ProcessPicture(withTextChunk(pngBytes(t, testImage(800, 600)), "GPS 51.5N SECRET-META"))
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(out, []byte("SECRET-META")) || bytes.Contains(out, []byte("tEXt")) {
		t.Fatal("metadata survived")
	}
	m := decodePNG(t, out)
	apptest.Expect(t, "size", m.Bounds(),
		apptest.Eq("m.Bounds().Dx()", m.Bounds().Dx(), 512),
		apptest.Eq("m.Bounds().Dy()", m.Bounds().Dy(), 512))
	// centred crop: the left quarter is red, the right quarter blue
	if r, _, b, _ := m.At(100, 256).RGBA(); r>>8 < 180 || b>>8 > 80 {
		t.Errorf("left side is not red: %v", m.At(100, 256))
	}
	if r, _, b, _ := m.At(400, 256).RGBA(); b>>8 < 180 || r>>8 > 80 {
		t.Errorf("right side is not blue: %v", m.At(400, 256))
	}

	// a small portrait picture is cropped but not enlarged
	out, err = user.ProcessPicture(pngBytes(t, testImage(100, 300)))
	if err != nil {
		t.Fatal(err)
	}
	if b := decodePNG(t, out).Bounds(); b.Dx() != 100 || b.Dy() != 100 {
		t.Fatalf("portrait %v", b)
	}

	// JPEG with EXIF
	out, err = user.ProcessPicture(withExif(jpegBytes(t, testImage(640, 640)), "SECRET-EXIF camera serial"))
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(out, []byte("SECRET-EXIF")) || bytes.Contains(out, []byte("Exif")) {
		t.Fatal("EXIF survived")
	}
	if b := decodePNG(t, out).Bounds(); b.Dx() != 512 {
		t.Fatalf("jpeg %v", b)
	}

	// WebP
	out, err = user.ProcessPicture(tinyWebP)
	if err != nil {
		t.Fatal(err)
	}
	if b := decodePNG(t, out).Bounds(); b.Dx() != 1 || b.Dy() != 1 {
		t.Fatalf("webp %v", b)
	}
}

func TestProcessPictureRefusals(t *testing.T) {
	good := pngBytes(t, testImage(40, 40))
	for name, tc := range map[string]struct {
		b   []byte
		msg string
	}{
		"text named .png": {[]byte("this is not an image at all, just text"), user.MsgPictureType},
		"html":            {[]byte("<html><script>alert(1)</script></html>"), user.MsgPictureType},
		"gif":             {[]byte("GIF89a\x01\x00\x01\x00\x00\x00\x00;"), user.MsgPictureType},
		"truncated png":   {good[:len(good)/2], user.MsgPictureBroken},
		"png header only": {good[:8], user.MsgPictureBroken},
		"broken jpeg":     {[]byte{0xFF, 0xD8, 0xFF, 0xE0, 0, 0}, user.MsgPictureBroken},
		"huge png":        {hugePNG(20000, 20000), user.MsgPictureHuge},
		"too many pixels": {hugePNG(8000, 8000), user.MsgPictureHuge},
	} {
		_, err := user.ProcessPicture(tc.b)
		msg, ok := user.IsValidation(err)
		if !ok || msg != tc.msg {
			t.Errorf("%s: err %v, want %q", name, err, tc.msg)
		}
	}
}

func TestCleanProfile(t *testing.T) {
	email := "ann@example.com"
	ptr := func(s string) *string { return &s }
	p, err := user.CleanProfile(user.ProfileInput{Name: "  Ann \n Lee ", Position: " Staff  Engineer ", LinkedIn: " https://www.linkedin.com/in/ann ", Portfolio: "", Email: ptr(" ANN@example.com ")}, email)
	if err != nil || p.Name != "Ann Lee" || p.Position != "Staff Engineer" || p.LinkedIn != "https://www.linkedin.com/in/ann" || p.Portfolio != "" {
		t.Fatalf("%+v %v", p, err)
	}
	for name, tc := range map[string]struct {
		in  user.ProfileInput
		msg string
	}{
		"no name":             {user.ProfileInput{Name: "  "}, user.MsgNameRequired},
		"long name":           {user.ProfileInput{Name: strings.Repeat("a", 101)}, user.MsgNameTooLong},
		"long position":       {user.ProfileInput{Name: "A", Position: strings.Repeat("p", 121)}, user.MsgPositionTooLong},
		"javascript linkedin": {user.ProfileInput{Name: "A", LinkedIn: "javascript:alert(1)"}, user.MsgLinkedInInvalid},
		"bare linkedin":       {user.ProfileInput{Name: "A", LinkedIn: "linkedin.com/in/ann"}, user.MsgLinkedInInvalid},
		"ftp portfolio":       {user.ProfileInput{Name: "A", Portfolio: "ftp://files.example.com"}, user.MsgPortfolioInvalid},
		"hostless portfolio":  {user.ProfileInput{Name: "A", Portfolio: "https://"}, user.MsgPortfolioInvalid},
		"credentials":         {user.ProfileInput{Name: "A", Portfolio: "https://user:pw@example.com"}, user.MsgPortfolioInvalid},
		"spaces":              {user.ProfileInput{Name: "A", Portfolio: "https://exa mple.com"}, user.MsgPortfolioInvalid},
		"long url":            {user.ProfileInput{Name: "A", Portfolio: "https://example.com/" + strings.Repeat("x", 300)}, user.MsgPortfolioInvalid},
		"other email":         {user.ProfileInput{Name: "A", Email: ptr("eve@example.com")}, user.MsgEmailReadOnly},
	} {
		_, err := user.CleanProfile(tc.in, email)
		if msg, ok := user.IsValidation(err); !ok || msg != tc.msg {
			t.Errorf("%s: %v, want %q", name, err, tc.msg)
		}
	}
}

func TestPictureKeys(t *testing.T) {
	k := user.NewPictureKey()
	if !user.ValidPictureKey(k) || !strings.HasPrefix(k, "avatars/") || !strings.HasSuffix(k, ".png") {
		t.Fatalf("key %q", k)
	}
	for _, bad := range []string{"", "avatars/", "avatars/x.png", "avatars/../secrets/x", "applications/" + model.NewID() + ".png",
		"avatars/" + model.NewID() + ".PNG", "avatars/" + model.NewID() + ".png/x", "/avatars/" + model.NewID() + ".png",
		"avatars/" + strings.ToUpper(model.NewID()) + ".png"} {
		if user.ValidPictureKey(bad) {
			t.Errorf("ValidPictureKey(%q) = true", bad)
		}
	}
}
