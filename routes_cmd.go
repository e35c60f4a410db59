package main

import (
	"context"
	"encoding/json"
	"os"

	"meritmark/app"
	"meritmark/app/config"
	"meritmark/app/credential"
	"meritmark/app/web"
	"meritmark/db"
)

// routesCmd prints the route table as JSON (`meritmark routes [--pages]`): a hidden command
// the browser tests use to sweep every page route. The features' constructors want a
// database (signing keys, the PayPal simulator's tables), so the table is built on a
// throw-away SQLite database in a temporary directory, never on the configured one.
func routesCmd(args []string) error {
	pagesOnly := false
	var rest []string
	for _, a := range args {
		if a == "--pages" || a == "-pages" {
			pagesOnly = true
			continue
		}
		rest = append(rest, a)
	}
	cfg, err := config.Load(nil, rest)
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "meritmark-routes-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	cfg.DataDir, cfg.DatabaseURL = tmp, ""
	ctx := context.Background()
	d, err := db.Open(ctx, "", tmp)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := db.Migrate(ctx, d); err != nil {
		return err
	}
	// the features are built as main builds them: with an issuer (keys in the temp dir)
	issuer, err := credential.Open(ctx, d, credential.Options{DataDir: tmp})
	if err != nil {
		return err
	}
	rows := app.RouteRows(&app.Deps{Config: cfg, DB: d, Issuer: issuer, Site: &web.Site{BaseURL: cfg.BaseURL, SupportEmail: cfg.SupportEmail}}, pagesOnly)
	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", "  ")
	return enc.Encode(rows)
}
