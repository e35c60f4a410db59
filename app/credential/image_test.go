package credential

import (
	"bytes"
	"image/png"
	"os"
	"path/filepath"
	"testing"
)

// MM_WRITE_IMAGES=dir writes the drawn images there, to look at them.
func TestImagesDraw(t *testing.T) {
	badge := BadgeImage("Kubernetes Platform Engineering Professional", "DevOps", "emerald")
	card := Card(CardInput{BadgeName: "Kubernetes Platform Engineering Professional", Category: "DevOps", Color: "emerald",
		Holder: "Ada Lovelace", IssuedOn: "Nov 22, 2026"})
	revoked := Card(CardInput{BadgeName: "Go", Category: "Development", Color: "blue", Holder: "Grace Hopper", IssuedOn: "Jan 2, 2026", State: CardRevoked})
	for name, b := range map[string][]byte{"badge.png": badge, "card.png": card, "card-revoked.png": revoked} {
		img, err := png.Decode(bytes.NewReader(b))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		want := [2]int{1200, 630}
		if name == "badge.png" {
			want = [2]int{600, 600}
		}
		if got := img.Bounds().Size(); got.X != want[0] || got.Y != want[1] {
			t.Fatalf("%s is %v, want %v", name, got, want)
		}
		if len(b) > 150<<10 {
			t.Fatalf("%s is %d bytes: a social card must stay small", name, len(b))
		}
		if dir := os.Getenv("MM_WRITE_IMAGES"); dir != "" {
			_ = os.WriteFile(filepath.Join(dir, name), b, 0o644)
		}
	}
}
