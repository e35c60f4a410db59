package credential

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"testing"
)

func decodeCard(t *testing.T, b []byte) image.Image {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("not a PNG: %v", err)
	}
	if s := img.Bounds().Size(); s.X != CardWidth || s.Y != CardHeight {
		t.Fatalf("card is %dx%d, want 1200x630", s.X, s.Y)
	}
	if dir := os.Getenv("MERITMARK_CARD_DIR"); dir != "" { // to look at them
		_ = os.WriteFile(filepath.Join(dir, t.Name()+"-"+filepath.Base(t.TempDir())+".png"), b, 0o644)
	}
	return img
}

func TestBadgeCardPerBadge(t *testing.T) {
	a := BadgeCardInput{Name: "Kubernetes Platform Engineer", Category: "DevOps", Level: "advanced", Type: "skill", Color: "blue"}
	b := BadgeCardInput{Name: "Certified Data Analyst", Category: "Data", Level: "intermediate", Type: "proof", Color: "emerald"}
	ca, cb := BadgeCard(a), BadgeCard(b)
	decodeCard(t, ca)
	decodeCard(t, cb)
	if bytes.Equal(ca, cb) {
		t.Fatal("two badges drew the same card")
	}
	if a.Version() == b.Version() {
		t.Fatal("two badges share a card version")
	}
	a2 := a
	a2.Name += " II"
	if a2.Version() == a.Version() {
		t.Fatal("renaming a badge kept its card version")
	}
	if len(ca) > 150<<10 {
		t.Fatalf("card is %d KB, over 150", len(ca)>>10)
	}
	// a very long name still fits: no panic, still 1200x630
	decodeCard(t, BadgeCard(BadgeCardInput{Name: "An Extraordinarily Long Badge Name That Goes On And On Well Past Two Lines Of Text", Type: "skill"}))
}

func TestProfileCard(t *testing.T) {
	pic := image.NewRGBA(image.Rect(0, 0, 300, 200))
	for y := 0; y < 200; y++ {
		for x := 0; x < 300; x++ {
			pic.Set(x, y, color.RGBA{R: uint8(x), G: 200, B: uint8(y), A: 255})
		}
	}
	in := ProfileCardInput{Name: "Avery Quinn", Position: "Site Reliability Engineer", Held: 2,
		Badges: []string{"Kubernetes Platform Engineer", "Certified Data Analyst"}, Picture: pic, PictureKey: "k1"}
	with := decodeCard(t, ProfileCard(in))
	// the picture is drawn inside its ring, centred at (930, 315)
	if r, g, _, _ := with.At(930, 315).RGBA(); g>>8 < 190 || r>>8 > 200 {
		t.Fatalf("picture centre is %v, want the picture's colours", with.At(930, 315))
	}
	noPic := in
	noPic.Picture, noPic.PictureKey = nil, ""
	without := decodeCard(t, ProfileCard(noPic))
	if with.At(930, 315) == without.At(930, 315) {
		t.Fatal("the card without a picture looks like the one with it")
	}
	if in.Version() == noPic.Version() {
		t.Fatal("a new picture kept the card version")
	}
}
