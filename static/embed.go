// Package static embeds the images and the built client assets (dist/, made by
// esbuild.config.mjs) into the binary.
package static

import "embed"

//go:embed all:dist images
var FS embed.FS
