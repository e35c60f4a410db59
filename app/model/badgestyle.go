package model

import (
	_ "embed"
	"encoding/json"
	"fmt"
)

//go:embed badge-style.json
var badgeStyleJSON []byte

// BadgeIcons and BadgeColors are what a badge may name, in the order the admin form offers
// them; BadgeColorHex maps a colour to its RGB (#rrggbb, Tailwind's 600 shade) for the
// images the server draws. The one source is badge-style.json, which the views and the
// build (the icon sprite) read too.
var (
	BadgeIcons    []string
	BadgeColors   []string
	BadgeColorHex = map[string]string{}
)

func init() {
	var s struct {
		Icons  [][2]string `json:"icons"`
		Colors [][2]string `json:"colors"`
	}
	if err := json.Unmarshal(badgeStyleJSON, &s); err != nil {
		panic(fmt.Sprintf("model: badge-style.json: %v", err))
	}
	for _, i := range s.Icons {
		BadgeIcons = append(BadgeIcons, i[0])
	}
	for _, c := range s.Colors {
		BadgeColors = append(BadgeColors, c[0])
		BadgeColorHex[c[0]] = c[1]
	}
}
