package credential

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"strings"

	xdraw "golang.org/x/image/draw"
	"golang.org/x/image/font"
	"golang.org/x/image/vector"
)

// Social cards (1200x630, og:image / twitter:image) of a badge page and of a public
// profile, in the look of the verify page's Card. Drawn in Go from the data alone: no
// network, no browser.

// cardLayout changes whenever the drawings below change, so that the versioned card URLs
// (and the caches keyed by them) change with them.
const cardLayout = "cards-1"

// CardWidth and CardHeight are the size of every social card.
const CardWidth, CardHeight = 1200, 630

// BadgeCardInput is what a badge's card shows.
type BadgeCardInput struct {
	Name, Category, Level, Type, Color string
}

// Version names this drawing of the card: it changes when anything the card shows does.
func (in BadgeCardInput) Version() string {
	return cardHash(cardLayout, in.Name, in.Category, in.Level, in.Type, in.Color)
}

// ProfileCardInput is what a public profile's card shows. Picture is the decoded profile
// picture (nil: the initials are drawn instead).
type ProfileCardInput struct {
	Name, Position string
	Held           int      // badges in force
	Badges         []string // names of some badges in force, newest first (at most 3 are shown)
	Picture        image.Image
	PictureKey     string // names Picture in Version
}

// Version names this drawing of the card.
func (in ProfileCardInput) Version() string {
	parts := []string{cardLayout, in.Name, in.Position, fmt.Sprint(in.Held), in.PictureKey}
	parts = append(parts, in.Badges[:min(3, len(in.Badges))]...)
	return cardHash(parts...)
}

func cardHash(parts ...string) string {
	h := sha256.New()
	for _, p := range parts {
		h.Write([]byte(p))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil)[:8])
}

// cardBackground paints the dark background, the discs behind the artwork, the bottom bar
// and the brand; (dx, dy) is the discs' centre.
func cardBackground(dx, dy float32) (*canvas, color.RGBA) {
	loadFonts()
	c := newCanvas(CardWidth, CardHeight)
	bg := rgb(0x0b0d1a)
	draw.Draw(c.img, c.img.Bounds(), image.NewUniform(bg), image.Point{}, draw.Src)
	c.disc(dx, dy, 390, rgb(0x171538))
	c.disc(dx, dy, 290, rgb(0x1f1b4d))
	draw.Draw(c.img, image.Rect(0, 622, 1200, 630), image.NewUniform(rgb(0x6d28d9)), image.Point{}, draw.Src)
	c.roundRect(72, 60, 56, 56, 14, rgb(0x4f46e5))
	c.star(100, 88, 17, color.White)
	c.text(face(fontBold, 30), 144, 99, "Meritmark", color.White)
	return c, bg
}

// label draws an upper-case, letter-spaced label at (x, y).
func (c *canvas) label(x, y int, s string, col color.Color) {
	lf := face(fontBold, 20)
	for _, r := range s {
		c.text(lf, x, y, string(r), col)
		x += width(lf, string(r)) + 2
	}
}

// title draws s in the largest size from 60 down to 40 that fits two lines of maxW,
// from baseline y; it returns the baseline after it.
func (c *canvas) title(s string, x, y, maxW int) int {
	size := 60.0
	var lines []string
	var f font.Face
	for ; size >= 40; size -= 4 {
		f = face(fontBold, size)
		lines = wrap(f, s, maxW, 2)
		if len(lines) == 1 || width(f, lines[len(lines)-1]) <= maxW && !strings.HasSuffix(lines[len(lines)-1], "…") {
			break
		}
	}
	for _, l := range lines {
		c.text(f, x, y, l, color.White)
		y += int(size * 1.12)
	}
	return y
}

// chip draws a rounded label with its text, returning its right edge.
func (c *canvas) chip(x, y int, s string) int {
	cf := face(fontMedium, 20)
	w := width(cf, s) + 32
	c.roundRect(float32(x), float32(y), float32(w), 38, 19, rgb(0x272a4a))
	c.text(cf, x+16, y+26, s, rgb(0xe4e4e7))
	return x + w
}

// BadgeCard draws the 1200x630 social card of a badge page: its name, category, level and
// how it is earned beside its medallion.
func BadgeCard(in BadgeCardInput) []byte {
	c, _ := cardBackground(1010, 250)
	c.label(72, 185, "PROFESSIONAL BADGE", rgb(0xc4b5fd))
	y := c.title(in.Name, 72, 262, 640) + 18
	how := "Earned by submitting proof, reviewed by an administrator"
	if in.Type == "skill" {
		how = "Earned by passing an assessed quiz"
	}
	for _, l := range wrap(face(fontMedium, 28), how, 640, 2) {
		c.text(face(fontMedium, 28), 72, y, l, rgb(0xc4b5fd))
		y += 38
	}
	x := 72
	for _, s := range []string{in.Category, levelName(in.Level)} {
		if s != "" {
			x = c.chip(x, y, s) + 12
		}
	}
	c.text(face(fontReg, 20), 72, 590, "Verified, signed Open Badges 3.0 credentials", rgb(0x71717a))
	c.medallion(945, 290, 170, BadgeColor(in.Color), in.Name, in.Category)
	return encodePNG(c.img)
}

func levelName(l string) string {
	switch strings.ToLower(l) {
	case "":
		return ""
	case "beginner", "intermediate", "advanced", "expert":
		return strings.ToUpper(l[:1]) + strings.ToLower(l[1:])
	}
	return l
}

// ProfileCard draws the 1200x630 social card of a public profile: the picture (or the
// initials), the name, the position and the badges held.
func ProfileCard(in ProfileCardInput) []byte {
	c, _ := cardBackground(930, 315)
	c.label(72, 185, "MERITMARK PROFILE", rgb(0xc4b5fd))
	y := c.title(in.Name, 72, 262, 620) + 10
	if in.Position != "" {
		if l := wrap(face(fontMedium, 30), in.Position, 620, 1); len(l) > 0 {
			c.text(face(fontMedium, 30), 72, y, l[0], rgb(0xc4b5fd))
			y += 50
		}
	}
	held := fmt.Sprintf("%d verified badges", in.Held)
	if in.Held == 1 {
		held = "1 verified badge"
	}
	c.text(face(fontReg, 26), 72, y, held, rgb(0xe4e4e7))
	y += 24
	x := 72
	for i, b := range in.Badges {
		if i == 3 {
			break
		}
		l := wrap(face(fontMedium, 20), b, 300, 1)
		if len(l) == 0 || x+width(face(fontMedium, 20), l[0])+32 > 720 {
			break
		}
		x = c.chip(x, y, l[0]) + 12
	}
	c.text(face(fontReg, 20), 72, 590, "Every badge is a signed credential anyone can verify", rgb(0x71717a))

	// the picture in a ring
	const cx, cy, r = 930, 315, 190
	c.disc(cx, cy, r+10, rgb(0x6d28d9))
	if in.Picture != nil {
		c.picture(in.Picture, cx, cy, r)
	} else {
		c.disc(cx, cy, r, rgb(0x4f46e5))
		f := face(fontBold, 130)
		c.centered(f, cx, cy+47, initials(in.Name), color.White)
	}
	return encodePNG(c.img)
}

// picture draws img scaled to cover a disc of radius r centred at (cx, cy).
func (c *canvas) picture(img image.Image, cx, cy, r int) {
	d := 2 * r
	sq := image.NewRGBA(image.Rect(0, 0, d, d))
	b := img.Bounds()
	src := b
	if b.Dx() > b.Dy() { // centre square crop
		off := (b.Dx() - b.Dy()) / 2
		src = image.Rect(b.Min.X+off, b.Min.Y, b.Min.X+off+b.Dy(), b.Max.Y)
	} else if b.Dy() > b.Dx() {
		off := (b.Dy() - b.Dx()) / 2
		src = image.Rect(b.Min.X, b.Min.Y+off, b.Max.X, b.Min.Y+off+b.Dx())
	}
	draw.Draw(sq, sq.Bounds(), image.NewUniform(rgb(0x4f46e5)), image.Point{}, draw.Src) // under transparent pixels
	xdraw.CatmullRom.Scale(sq, sq.Bounds(), img, src, xdraw.Over, nil)
	mask := image.NewAlpha(sq.Bounds())
	ras := vector.NewRasterizer(d, d)
	const k = 0.5522847498
	fr := float32(r)
	ras.MoveTo(2*fr, fr)
	ras.CubeTo(2*fr, fr+k*fr, fr+k*fr, 2*fr, fr, 2*fr)
	ras.CubeTo(fr-k*fr, 2*fr, 0, fr+k*fr, 0, fr)
	ras.CubeTo(0, fr-k*fr, fr-k*fr, 0, fr, 0)
	ras.CubeTo(fr+k*fr, 0, 2*fr, fr-k*fr, 2*fr, fr)
	ras.ClosePath()
	ras.Draw(mask, mask.Bounds(), image.Opaque, image.Point{})
	draw.DrawMask(c.img, image.Rect(cx-r, cy-r, cx+r, cy+r), sq, image.Point{}, mask, image.Point{}, draw.Over)
}

func initials(name string) string {
	var out []rune
	for _, w := range strings.Fields(name) {
		for _, r := range w {
			out = append(out, r)
			break
		}
		if len(out) == 2 {
			break
		}
	}
	if len(out) == 0 {
		return "?"
	}
	return strings.ToUpper(string(out))
}
