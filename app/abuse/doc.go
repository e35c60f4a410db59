// Package abuse holds no code: its tests attack the whole application the way a hostile
// client would (oversized, compressed and deeply nested bodies, slow clients, floods of
// failed sign-ins) and check that each is answered quickly and without harm.
package abuse
