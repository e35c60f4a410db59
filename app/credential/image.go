package credential

import (
	"bytes"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"math"
	"strconv"
	"strings"
	"sync"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/gomedium"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"
	"golang.org/x/image/vector"

	"meritmark/app/model"
)

// Images drawn on the server: the badge medallion (the achievement's image, and the PNG a
// credential is baked into) and the social card of a verify page (og:image). Flat colours
// only, so the PNGs stay small.

var (
	fontsOnce                     sync.Once
	fontBold, fontMedium, fontReg *opentype.Font
)

func loadFonts() {
	fontsOnce.Do(func() {
		var err error
		if fontBold, err = opentype.Parse(gobold.TTF); err != nil {
			panic(err)
		}
		if fontMedium, err = opentype.Parse(gomedium.TTF); err != nil {
			panic(err)
		}
		if fontReg, err = opentype.Parse(goregular.TTF); err != nil {
			panic(err)
		}
	})
}

// face makes a face (faces are not safe for concurrent use: one per drawing).
func face(f *opentype.Font, size float64) font.Face {
	fc, err := opentype.NewFace(f, &opentype.FaceOptions{Size: size, DPI: 72, Hinting: font.HintingFull})
	if err != nil {
		panic(err)
	}
	return fc
}

// palette is Tailwind's 600 shade of each colour a badge may name (model.BadgeColorHex).
var palette = func() map[string]color.RGBA {
	p := make(map[string]color.RGBA, len(model.BadgeColorHex))
	for name, hex := range model.BadgeColorHex {
		v, err := strconv.ParseUint(strings.TrimPrefix(hex, "#"), 16, 32)
		if err != nil {
			panic("credential: badge colour " + name + ": " + hex)
		}
		p[name] = rgb(uint32(v))
	}
	return p
}()

func rgb(v uint32) color.RGBA {
	return color.RGBA{R: uint8(v >> 16), G: uint8(v >> 8), B: uint8(v), A: 255}
}

// BadgeColor is the RGB of a badge colour name (indigo when unknown).
func BadgeColor(name string) color.RGBA {
	if c, ok := palette[strings.ToLower(name)]; ok {
		return c
	}
	return palette["indigo"]
}

func shade(c color.RGBA, f float64) color.RGBA {
	return color.RGBA{R: uint8(float64(c.R) * f), G: uint8(float64(c.G) * f), B: uint8(float64(c.B) * f), A: c.A}
}

func withAlpha(c color.RGBA, a uint8) color.NRGBA {
	return color.NRGBA{R: c.R, G: c.G, B: c.B, A: a}
}

// canvas draws anti-aliased shapes and text on an RGBA image. A shape's path is recorded
// and rasterized only over its bounding box (rasterizing the whole canvas for each shape
// costs a hundred times more).
type canvas struct {
	img  *image.RGBA
	r    *vector.Rasterizer
	path []pathOp
}

type pathOp struct {
	kind byte // M, L, C, Z
	pts  [6]float32
}

func newCanvas(w, h int) *canvas {
	return &canvas{img: image.NewRGBA(image.Rect(0, 0, w, h)), r: vector.NewRasterizer(1, 1)}
}

func (c *canvas) moveTo(x, y float32) {
	c.path = append(c.path, pathOp{kind: 'M', pts: [6]float32{x, y}})
}
func (c *canvas) lineTo(x, y float32) {
	c.path = append(c.path, pathOp{kind: 'L', pts: [6]float32{x, y}})
}
func (c *canvas) cubeTo(a, b, d, e, x, y float32) {
	c.path = append(c.path, pathOp{kind: 'C', pts: [6]float32{a, b, d, e, x, y}})
}
func (c *canvas) closePath() { c.path = append(c.path, pathOp{kind: 'Z'}) }

func (c *canvas) fill(col color.Color) {
	defer func() { c.path = c.path[:0] }()
	if len(c.path) == 0 {
		return
	}
	minX, minY, maxX, maxY := float32(math.MaxFloat32), float32(math.MaxFloat32), float32(-math.MaxFloat32), float32(-math.MaxFloat32)
	for _, op := range c.path {
		n := map[byte]int{'M': 1, 'L': 1, 'C': 3}[op.kind]
		for i := 0; i < n; i++ {
			x, y := op.pts[2*i], op.pts[2*i+1]
			minX, maxX = min(minX, x), max(maxX, x)
			minY, maxY = min(minY, y), max(maxY, y)
		}
	}
	b := image.Rect(int(math.Floor(float64(minX)))-1, int(math.Floor(float64(minY)))-1, int(math.Ceil(float64(maxX)))+1, int(math.Ceil(float64(maxY)))+1).Intersect(c.img.Bounds())
	if b.Empty() {
		return
	}
	ox, oy := float32(b.Min.X), float32(b.Min.Y)
	c.r.Reset(b.Dx(), b.Dy())
	c.r.DrawOp = draw.Over
	for _, op := range c.path {
		p := op.pts
		switch op.kind {
		case 'M':
			c.r.MoveTo(p[0]-ox, p[1]-oy)
		case 'L':
			c.r.LineTo(p[0]-ox, p[1]-oy)
		case 'C':
			c.r.CubeTo(p[0]-ox, p[1]-oy, p[2]-ox, p[3]-oy, p[4]-ox, p[5]-oy)
		case 'Z':
			c.r.ClosePath()
		}
	}
	c.r.Draw(c.img, b, image.NewUniform(col), image.Point{})
}

// circle adds a circle path (four cubic arcs).
func (c *canvas) circle(cx, cy, r float32) {
	const k = 0.5522847498
	c.moveTo(cx+r, cy)
	c.cubeTo(cx+r, cy+k*r, cx+k*r, cy+r, cx, cy+r)
	c.cubeTo(cx-k*r, cy+r, cx-r, cy+k*r, cx-r, cy)
	c.cubeTo(cx-r, cy-k*r, cx-k*r, cy-r, cx, cy-r)
	c.cubeTo(cx+k*r, cy-r, cx+r, cy-k*r, cx+r, cy)
	c.closePath()
}

func (c *canvas) disc(cx, cy, r float32, col color.Color) {
	c.circle(cx, cy, r)
	c.fill(col)
}

func (c *canvas) roundRect(x, y, w, h, rad float32, col color.Color) {
	const k = 0.5522847498
	c.moveTo(x+rad, y)
	c.lineTo(x+w-rad, y)
	c.cubeTo(x+w-rad+k*rad, y, x+w, y+rad-k*rad, x+w, y+rad)
	c.lineTo(x+w, y+h-rad)
	c.cubeTo(x+w, y+h-rad+k*rad, x+w-rad+k*rad, y+h, x+w-rad, y+h)
	c.lineTo(x+rad, y+h)
	c.cubeTo(x+rad-k*rad, y+h, x, y+h-rad+k*rad, x, y+h-rad)
	c.lineTo(x, y+rad)
	c.cubeTo(x, y+rad-k*rad, x+rad-k*rad, y, x+rad, y)
	c.closePath()
	c.fill(col)
}

func (c *canvas) polygon(col color.Color, pts ...float32) {
	c.moveTo(pts[0], pts[1])
	for i := 2; i+1 < len(pts); i += 2 {
		c.lineTo(pts[i], pts[i+1])
	}
	c.closePath()
	c.fill(col)
}

// star adds a five-pointed star.
func (c *canvas) star(cx, cy, r float32, col color.Color) {
	var pts []float32
	for i := 0; i < 10; i++ {
		rr := r
		if i%2 == 1 {
			rr = r * 0.42
		}
		a := -math.Pi/2 + float64(i)*math.Pi/5
		pts = append(pts, cx+rr*float32(math.Cos(a)), cy+rr*float32(math.Sin(a)))
	}
	c.polygon(col, pts...)
}

// check draws a check mark of stroke width w inside the box at (x, y) of size s.
func (c *canvas) check(x, y, s, w float32, col color.Color) {
	// two thick segments: (0.2,0.55)->(0.42,0.76) and (0.42,0.76)->(0.8,0.3)
	seg := func(x0, y0, x1, y1 float32) {
		dx, dy := x1-x0, y1-y0
		l := float32(math.Hypot(float64(dx), float64(dy)))
		nx, ny := -dy/l*w/2, dx/l*w/2
		c.polygon(col, x0+nx, y0+ny, x1+nx, y1+ny, x1-nx, y1-ny, x0-nx, y0-ny)
		c.disc(x1, y1, w/2, col)
		c.disc(x0, y0, w/2, col)
	}
	seg(x+0.2*s, y+0.55*s, x+0.42*s, y+0.76*s)
	seg(x+0.42*s, y+0.76*s, x+0.8*s, y+0.3*s)
}

// text draws s with its left baseline at (x, y).
func (c *canvas) text(f font.Face, x, y int, s string, col color.Color) {
	d := &font.Drawer{Dst: c.img, Src: image.NewUniform(col), Face: f, Dot: fixed.P(x, y)}
	d.DrawString(s)
}

func width(f font.Face, s string) int { return font.MeasureString(f, s).Round() }

// centered draws s centred on cx.
func (c *canvas) centered(f font.Face, cx, y int, s string, col color.Color) {
	c.text(f, cx-width(f, s)/2, y, s, col)
}

// spaced draws s with extra letter spacing, centred on cx.
func (c *canvas) spaced(f font.Face, cx, y int, s string, gap int, col color.Color) {
	total := 0
	for _, r := range s {
		total += width(f, string(r)) + gap
	}
	x := cx - (total-gap)/2
	for _, r := range s {
		c.text(f, x, y, string(r), col)
		x += width(f, string(r)) + gap
	}
}

// wrap breaks s into lines no wider than max, at most n lines (the last cut with …).
func wrap(f font.Face, s string, max, n int) []string {
	words := strings.Fields(s)
	var lines []string
	cur := ""
	for i := 0; i < len(words); i++ {
		w := words[i]
		next := w
		if cur != "" {
			next = cur + " " + w
		}
		if width(f, next) <= max || cur == "" {
			cur = next
			for width(f, cur) > max && len([]rune(cur)) > 1 { // a single word too long
				r := []rune(cur)
				cur = string(r[:len(r)-1])
			}
			continue
		}
		lines = append(lines, cur)
		cur = w
		if len(lines) == n {
			cur = ""
			last := lines[n-1]
			for width(f, last+"…") > max && len(last) > 1 {
				r := []rune(last)
				last = strings.TrimSpace(string(r[:len(r)-1]))
			}
			lines[n-1] = last + "…"
			return lines
		}
	}
	if cur != "" {
		lines = append(lines, cur)
	}
	return lines
}

func encodePNG(img image.Image) []byte {
	var b bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.DefaultCompression}
	if err := enc.Encode(&b, img); err != nil {
		panic(err)
	}
	return b.Bytes()
}

// medallion draws the badge medallion centred at (cx, cy) with radius r.
func (c *canvas) medallion(cx, cy, r float32, col color.RGBA, name, category string) {
	loadFonts()
	dark := shade(col, 0.72)
	// ribbon tails behind the disc
	c.polygon(dark, cx-0.55*r, cy+0.55*r, cx-0.18*r, cy+0.72*r, cx-0.32*r, cy+1.18*r, cx-0.47*r, cy+1.02*r, cx-0.66*r, cy+1.1*r)
	c.polygon(dark, cx+0.55*r, cy+0.55*r, cx+0.18*r, cy+0.72*r, cx+0.32*r, cy+1.18*r, cx+0.47*r, cy+1.02*r, cx+0.66*r, cy+1.1*r)
	c.disc(cx, cy, r, dark)
	c.disc(cx, cy, r*0.9, col)
	c.disc(cx, cy, r*0.83, withAlpha(color.RGBA{255, 255, 255, 255}, 70))
	c.disc(cx, cy, r*0.8, col)
	c.star(cx, cy-0.5*r, r*0.11, color.White)

	nameSize := float64(r) * 0.16
	var lines []string
	var fc font.Face
	for ; nameSize >= float64(r)*0.1; nameSize -= 2 {
		fc = face(fontBold, nameSize)
		lines = wrap(fc, name, int(r*1.3), 3)
		if len(lines) <= 2 || nameSize <= float64(r)*0.1+2 {
			break
		}
	}
	lh := int(nameSize * 1.15)
	top := int(cy) - (len(lines)*lh)/2 + int(nameSize*0.8)
	for i, l := range lines {
		c.centered(fc, int(cx), top+i*lh, l, color.White)
	}
	c.polygon(withAlpha(color.RGBA{255, 255, 255, 255}, 110), cx-0.22*r, cy+0.36*r, cx+0.22*r, cy+0.36*r, cx+0.22*r, cy+0.375*r, cx-0.22*r, cy+0.375*r)
	small := face(fontMedium, float64(r)*0.075)
	if category != "" {
		c.spaced(small, int(cx), int(cy+0.52*r), strings.ToUpper(category), int(r*0.012), withAlpha(color.RGBA{255, 255, 255, 255}, 225))
	}
	c.spaced(face(fontBold, float64(r)*0.062), int(cx), int(cy+0.66*r), "MERITMARK", int(r*0.02), withAlpha(color.RGBA{255, 255, 255, 255}, 200))
}

// BadgeImage draws a badge's medallion as a 600x600 PNG with a transparent background.
func BadgeImage(name, category, colorName string) []byte {
	c := newCanvas(600, 600)
	c.medallion(300, 265, 235, BadgeColor(colorName), name, category)
	return encodePNG(c.img)
}

// CardState is what the social card says about the credential.
type CardState int

const (
	CardValid CardState = iota
	CardRevoked
	CardExpired
)

// CardInput is what the social card shows.
type CardInput struct {
	BadgeName, Category, Color string
	Holder                     string
	IssuedOn                   string // "Nov 22, 2026"
	State                      CardState
}

// Card draws the 1200x630 social card of a verify page (og:image / twitter:image).
func Card(in CardInput) []byte {
	loadFonts()
	c := newCanvas(1200, 630)
	bg := rgb(0x0b0d1a)
	draw.Draw(c.img, c.img.Bounds(), image.NewUniform(bg), image.Point{}, draw.Src)
	c.disc(1010, 250, 390, rgb(0x171538))
	c.disc(1010, 250, 290, rgb(0x1f1b4d))
	draw.Draw(c.img, image.Rect(0, 622, 1200, 630), image.NewUniform(rgb(0x6d28d9)), image.Point{}, draw.Src)

	// brand
	c.roundRect(72, 60, 56, 56, 14, rgb(0x4f46e5))
	c.star(100, 88, 17, color.White)
	c.text(face(fontBold, 30), 144, 99, "Meritmark", color.White)

	// state label
	label, tone := "VERIFIED CREDENTIAL", rgb(0x34d399)
	switch in.State {
	case CardRevoked:
		label, tone = "REVOKED CREDENTIAL", rgb(0xf87171)
	case CardExpired:
		label, tone = "EXPIRED CREDENTIAL", rgb(0xfbbf24)
	}
	c.disc(86, 178, 14, tone)
	if in.State == CardValid {
		c.check(74, 166, 24, 3.6, bg)
	} else {
		c.polygon(bg, 79, 176, 93, 176, 93, 180, 79, 180)
	}
	lf := face(fontBold, 20)
	x := 112
	for _, r := range label {
		c.text(lf, x, 185, string(r), tone)
		x += width(lf, string(r)) + 2
	}

	// badge name
	nameSize := 60.0
	var lines []string
	var nf font.Face
	for ; nameSize >= 40; nameSize -= 4 {
		nf = face(fontBold, nameSize)
		lines = wrap(nf, in.BadgeName, 660, 2)
		if len(lines) == 1 || width(nf, lines[len(lines)-1]) <= 660 && !strings.HasSuffix(lines[len(lines)-1], "…") {
			break
		}
	}
	y := 262
	for _, l := range lines {
		c.text(nf, 72, y, l, color.White)
		y += int(nameSize * 1.12)
	}
	y += 18
	hf := face(fontMedium, 30)
	holder := wrap(hf, "Awarded to "+in.Holder, 660, 1)
	if len(holder) > 0 {
		c.text(hf, 72, y, holder[0], rgb(0xc4b5fd))
	}
	y += 46
	c.text(face(fontReg, 24), 72, y, "Issued "+in.IssuedOn+"  ·  by Meritmark", rgb(0xa1a1aa))
	if in.Category != "" {
		cf := face(fontMedium, 20)
		w := float32(width(cf, in.Category) + 32)
		c.roundRect(72, float32(y+30), w, 38, 19, rgb(0x272a4a))
		c.text(cf, 88, y+56, in.Category, rgb(0xe4e4e7))
	}
	c.text(face(fontReg, 20), 72, 590, "Signed Open Badges 3.0 credential · verify at the link", rgb(0x71717a))

	c.medallion(945, 290, 170, BadgeColor(in.Color), in.BadgeName, in.Category)
	return encodePNG(c.img)
}
