package main

import (
	"context"
	"crypto/rand"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"meritmark/app"
	"meritmark/app/auth"
	"meritmark/app/backup"
	"meritmark/app/config"
	"meritmark/app/model"
	"meritmark/app/ops"
	"meritmark/app/seed"
	"meritmark/db"
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
  rotate-key --retire KID
                         retire a compromised key: it leaves the JWKS and the DID
                         document, and the credentials it signed (listed) no longer verify
  verify <file|url>      verify a credential (--issuer O --jwks F --offline --email E --json)
  check                  list unsafe deployment settings (exit status 1 when any)
  config                 the effective settings, secrets masked
  version                the version of this binary (also --version)
  health                 exit 0 when this instance's /readyz answers 200 (a container's
                         health check; MERITMARK_ADDR says where)
  backup <file>          a consistent copy of the SQLite database (while serving), the
                         secrets, signing keys and local uploads, in one file ("-" for
                         stdout); encrypted when MERITMARK_BACKUP_PASSPHRASE is set
  restore <file> [--force]
                         unpack a backup into the data directory (an empty one, unless --force)

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

// backupCommand is `meritmark backup FILE` and `meritmark restore FILE [--force]`.
func backupCommand(cmd string, args []string) error {
	fs := flag.NewFlagSet(cmd, flag.ContinueOnError)
	force := fs.Bool("force", false, "restore: replace the database of the data directory")
	rest, err := commandFlags(fs, args)
	if err != nil {
		return err
	}
	var file string
	for i, a := range rest {
		if !strings.HasPrefix(a, "-") || a == "-" {
			file, rest = a, append(rest[:i:i], rest[i+1:]...)
			break
		}
	}
	if file == "" {
		return fmt.Errorf("%s needs a file: meritmark %s FILE", cmd, cmd)
	}
	cfg, err := loadConfig(rest)
	if err != nil || cfg == nil {
		return err
	}
	sqlite, _ := db.SQLitePath(cfg.DatabaseURL, cfg.DataDir)
	o := backup.Options{DataDir: cfg.DataDir, SQLitePath: sqlite, Version: app.Version, Passphrase: os.Getenv("MERITMARK_BACKUP_PASSPHRASE")}
	start := time.Now()
	if cmd == "restore" {
		in, err := os.Open(file)
		if err != nil {
			return err
		}
		defer in.Close()
		m, err := backup.Restore(in, o, *force)
		if err != nil {
			return err
		}
		fmt.Fprintf(os.Stderr, "restored %d file(s) from a backup of %s (version %s) into %s in %s\n",
			len(m.Files), m.CreatedAt.Format(time.RFC3339), m.Version, cfg.DataDir, time.Since(start).Round(time.Millisecond))
		if m.Database == "postgres" {
			fmt.Fprintln(os.Stderr, "the database itself is not in it: restore it with pg_restore (docs/deploy.md)")
		}
		return nil
	}
	return withDB(rest, func(ctx context.Context, cfg *config.Config, d *bun.DB) error {
		out := os.Stdout
		if file != "-" {
			f, err := os.OpenFile(file, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
			if err != nil {
				return err
			}
			defer f.Close()
			out = f
		}
		m, err := backup.Create(ctx, d, o, out)
		if err == nil && out != os.Stdout {
			err = out.Sync()
		}
		if err != nil {
			if out != os.Stdout {
				os.Remove(file)
			}
			return err
		}
		fmt.Fprintf(os.Stderr, "backed up %d file(s) to %s in %s\n", len(m.Files), file, time.Since(start).Round(time.Millisecond))
		if m.Database == "postgres" {
			fmt.Fprintln(os.Stderr, "PostgreSQL: the database is not in it; back it up with pg_dump -Fc (docs/deploy.md)")
		}
		if !m.Encrypted {
			fmt.Fprintln(os.Stderr, "not encrypted: it holds the secrets and signing keys in clear (set MERITMARK_BACKUP_PASSPHRASE to encrypt)")
		}
		return nil
	})
}

// health asks the instance at MERITMARK_ADDR whether it is ready (/readyz answers 200).
func health(args []string) error {
	cfg, err := loadConfig(args)
	if err != nil || cfg == nil {
		return err
	}
	host, port, err := net.SplitHostPort(cfg.Addr)
	if err != nil {
		return err
	}
	if host == "" || host == "0.0.0.0" || host == "::" {
		host = "127.0.0.1"
	}
	client := &http.Client{Timeout: 3 * time.Second}
	res, err := client.Get("http://" + net.JoinHostPort(host, port) + "/readyz")
	if err != nil {
		return fmt.Errorf("not ready: %w", err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return fmt.Errorf("not ready: /readyz answered %d", res.StatusCode)
	}
	return nil
}
