package oid4vci

import (
	"encoding/base64"
	"fmt"
	"strings"

	"github.com/boombuler/barcode/qr"
)

// QRDataURI draws s as a QR code (error correction M) in an SVG data URI: one path of
// unit squares with a four-module quiet zone.
func QRDataURI(s string) (string, error) {
	code, err := qr.Encode(s, qr.M, qr.Auto)
	if err != nil {
		return "", fmt.Errorf("qr code: %w", err)
	}
	b := code.Bounds()
	n := b.Dx()
	var sb strings.Builder
	fmt.Fprintf(&sb, `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %d %d" shape-rendering="crispEdges"><rect width="100%%" height="100%%" fill="#fff"/><path fill="#000" d="`, n+8, n+8)
	for y := 0; y < n; y++ {
		for x := 0; x < n; x++ {
			if r, _, _, _ := code.At(b.Min.X+x, b.Min.Y+y).RGBA(); r == 0 {
				fmt.Fprintf(&sb, "M%d %dh1v1h-1z", x+4, y+4)
			}
		}
	}
	sb.WriteString(`"/></svg>`)
	return "data:image/svg+xml;base64," + base64.StdEncoding.EncodeToString([]byte(sb.String())), nil
}
