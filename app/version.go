package app

import (
	"runtime/debug"
	"sync"
)

// Version is this build's release; a release bumps it together with CHANGELOG.md.
const Version = "0.10.0-dev"

// BuildVersion is Version with the commit the binary was built from, when Go recorded it
// (a build inside the git checkout): "0.10.0-dev (ee4ddfa)", "+dirty" for local changes.
var BuildVersion = sync.OnceValue(func() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return Version
	}
	var rev string
	var dirty bool
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if len(rev) > 7 {
		rev = rev[:7]
	}
	if rev == "" {
		return Version
	}
	if dirty {
		rev += "+dirty"
	}
	return Version + " (" + rev + ")"
})
