package main

import (
	"context"
	"crypto/rand"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/uptrace/bun"

	"meritmark/app"
	"meritmark/app/auth"
	"meritmark/app/config"
	"meritmark/app/model"
	"meritmark/app/ops"
	"meritmark/app/seed"
)

// usage lists the commands; `meritmark help` adds every setting.
const usage = `usage: meritmark [command] [flags]

commands:
  serve                  run the web server (the default)
  migrate                bring the database schema up to date
  seed                   add the demo content when the database is empty
  create-admin --email E --password P --name N [--promote]
                         add an administrator (--promote: make an existing member one)
  rotate-key             add a new active credential signing key
  verify <file|url>      verify a credential (--issuer O --jwks F --offline --email E --json)
  check                  list unsafe deployment settings (exit status 1 when any)
  config                 the effective settings, secrets masked
  version                the version of this binary (also --version)

recovery (each signs the account out everywhere and mails the member):
  reset-password --email E [--password P] [--keep]
                         set a password; without --password one is generated and printed,
                         and must be changed at the next sign-in (--keep: need not be)
  reset-2fa --email E    switch two-step sign-in off (a lost authenticator)
  flush-sessions [--email E]
                         end the sessions of one account, or of everyone
  disable-user --email E / enable-user --email E
                         stop an account from signing in, or let it again

Every command takes the settings below as flags or environment variables.
`

// loadConfig is config.Load that prints the settings for -h and answers a nil config.
func loadConfig(args []string) (*config.Config, error) {
	cfg, err := config.Load(nil, args)
	var help *config.HelpError
	if errors.As(err, &help) {
		fmt.Print(usage + "\nsettings:\n" + strings.TrimPrefix(help.Text, "Usage of meritmark:\n"))
		return nil, nil
	}
	return cfg, err
}

func help(args []string) error {
	_, err := loadConfig(append(args, "-h"))
	return err
}

// commandFlags parses the command's own flags (defined on fs) out of args and answers
// the rest, which are the settings' flags.
func commandFlags(fs *flag.FlagSet, args []string) ([]string, error) {
	fs.SetOutput(new(strings.Builder))
	var rest []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		name, _, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		f := fs.Lookup(name)
		if !strings.HasPrefix(a, "-") || f == nil {
			rest = append(rest, a)
			continue
		}
		pair := []string{a}
		if _, isBool := f.Value.(interface{ IsBoolFlag() bool }); !hasValue && !isBool && i+1 < len(args) {
			pair = append(pair, args[i+1])
			i++
		}
		if err := fs.Parse(pair); err != nil {
			return nil, fmt.Errorf("%s: %w", fs.Name(), err)
		}
	}
	return rest, nil
}

func createAdmin(args []string) error {
	fs := flag.NewFlagSet("create-admin", flag.ContinueOnError)
	email := fs.String("email", "", "admin e-mail")
	password := fs.String("password", "", "admin password (8 to 128 characters)")
	name := fs.String("name", "Administrator", "admin name")
	promote := fs.Bool("promote", false, "make an existing member an administrator")
	rest, err := commandFlags(fs, args)
	if err != nil {
		return err
	}
	e := auth.NormalizeEmail(*email)
	if !strings.Contains(e, "@") || len(*password) < 8 || len(*password) > 128 || strings.TrimSpace(*name) == "" {
		return errors.New("create-admin needs --email, --password (8 to 128 characters) and --name")
	}
	return withDB(rest, func(ctx context.Context, cfg *config.Config, d *bun.DB) error {
		var existing model.User
		err := d.NewSelect().Model(&existing).Where("email = ?", e).Scan(ctx)
		if err == nil && !existing.IsAdmin() && !*promote {
			return fmt.Errorf("%s is a member's account: add --promote to make it an administrator (its password is then replaced)", e)
		}
		if err := seed.EnsureAdmin(ctx, d, e, *password, strings.TrimSpace(*name), true); err != nil {
			return err
		}
		fmt.Printf("admin %s is ready\n", e)
		return nil
	})
}

// accountCommand runs one of the recovery commands on the account --email names.
func accountCommand(cmd string, args []string) error {
	fs := flag.NewFlagSet(cmd, flag.ContinueOnError)
	email := fs.String("email", "", "the account's e-mail address")
	password := fs.String("password", "", "the new password (reset-password)")
	keep := fs.Bool("keep", false, "reset-password: the member need not change it at the next sign-in")
	rest, err := commandFlags(fs, args)
	if err != nil {
		return err
	}
	if *email == "" && cmd != "flush-sessions" {
		return fmt.Errorf("%s needs --email", cmd)
	}
	return withDB(rest, func(ctx context.Context, cfg *config.Config, d *bun.DB) error {
		switch cmd {
		case "reset-password":
			pw, mustChange := *password, !*keep
			if pw == "" {
				pw, mustChange = generatedPassword(), true
			}
			if err := ops.ResetPassword(ctx, d, *email, pw, mustChange); err != nil {
				return err
			}
			if *password == "" {
				fmt.Printf("new password for %s: %s\n", *email, pw)
			}
			fmt.Printf("%s: password reset, signed out everywhere", *email)
			if mustChange {
				fmt.Print("; it must be changed at the next sign-in")
			}
			fmt.Println()
		case "reset-2fa":
			if err := ops.Reset2FA(ctx, d, *email); err != nil {
				return err
			}
			fmt.Printf("%s: two-step sign-in is off, signed out everywhere\n", *email)
		case "flush-sessions":
			n, err := ops.FlushSessions(ctx, d, *email)
			if err != nil {
				return err
			}
			fmt.Printf("%d session(s) ended\n", n)
		case "disable-user", "enable-user":
			if err := ops.SetDisabled(ctx, d, *email, cmd == "disable-user"); err != nil {
				return err
			}
			fmt.Printf("%s: %sd\n", *email, strings.TrimSuffix(cmd, "-user"))
		}
		return nil
	})
}

// generatedPassword is a temporary password of 16 letters and digits (about 95 bits).
func generatedPassword() string {
	const alphabet = "abcdefghijkmnpqrstuvwxyzACDEFGHJKLMNPQRTUVWXY346789"
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	for i := range b {
		b[i] = alphabet[int(b[i])%len(alphabet)]
	}
	return string(b)
}

// showConfig prints the effective settings, secrets masked, and where each shared secret
// comes from.
func showConfig(args []string) error {
	cfg, err := loadConfig(args)
	if err != nil || cfg == nil {
		return err
	}
	fmt.Printf("meritmark %s\n\n", app.BuildVersion())
	for _, s := range cfg.Settings {
		v := s.Value
		if v == "" {
			v = "(empty)"
		}
		fmt.Printf("  %-36s %s\n", s.Env, v)
	}
	fmt.Println("\nsecrets (the same on every instance that shares the database):")
	for _, name := range []string{"key", "oauth-hmac"} {
		env := "MERITMARK_SECRET_" + strings.ToUpper(strings.ReplaceAll(name, "-", "_"))
		from := "generated into " + filepath.Join(cfg.DataDir, "secrets", name) + " at first use"
		if os.Getenv(env) != "" {
			from = "set (hidden)"
		} else if _, err := os.Stat(filepath.Join(cfg.DataDir, "secrets", name)); err == nil {
			from = "from " + filepath.Join(cfg.DataDir, "secrets", name)
		}
		fmt.Printf("  %-36s %s\n", env, from)
	}
	return nil
}
