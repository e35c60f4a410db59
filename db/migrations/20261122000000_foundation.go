package migrations

import (
	"context"

	"github.com/uptrace/bun"
)

func init() {
	Migrations.MustRegister(func(ctx context.Context, d *bun.DB) error {
		return Exec(ctx, d, `
CREATE TABLE users (
	id TEXT PRIMARY KEY,
	name TEXT NOT NULL,
	email TEXT NOT NULL UNIQUE,
	password_hash TEXT NOT NULL,
	role TEXT NOT NULL DEFAULT 'user',
	position TEXT NOT NULL DEFAULT '',
	linkedin TEXT NOT NULL DEFAULT '',
	portfolio TEXT NOT NULL DEFAULT '',
	profile_pic_key TEXT NOT NULL DEFAULT '',
	phone TEXT NOT NULL DEFAULT '',
	bio TEXT NOT NULL DEFAULT '',
	location TEXT NOT NULL DEFAULT '',
	company TEXT NOT NULL DEFAULT '',
	experience INTEGER NOT NULL DEFAULT 0,
	education TEXT NOT NULL DEFAULT '',
	skills TEXT NOT NULL DEFAULT '[]',
	created_at {ts} NOT NULL,
	updated_at {ts} NOT NULL
)`, `
CREATE TABLE sessions (
	id TEXT PRIMARY KEY,
	user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
	created_at {ts} NOT NULL,
	last_seen_at {ts} NOT NULL,
	expires_at {ts} NOT NULL,
	ip TEXT NOT NULL DEFAULT '',
	user_agent TEXT NOT NULL DEFAULT ''
)`,
			`CREATE INDEX sessions_user_idx ON sessions (user_id)`, `
CREATE TABLE badges (
	id TEXT PRIMARY KEY,
	name TEXT NOT NULL UNIQUE,
	description TEXT NOT NULL DEFAULT '',
	category TEXT NOT NULL,
	type TEXT NOT NULL,
	level TEXT NOT NULL DEFAULT 'beginner',
	price_cents BIGINT NOT NULL DEFAULT 0,
	icon TEXT NOT NULL DEFAULT 'Award',
	color TEXT NOT NULL DEFAULT 'blue',
	criteria TEXT NOT NULL DEFAULT '',
	requires_resume {bool} NOT NULL DEFAULT FALSE,
	is_active {bool} NOT NULL DEFAULT TRUE,
	valid_days INTEGER,
	created_by TEXT REFERENCES users(id) ON DELETE SET NULL,
	created_at {ts} NOT NULL,
	updated_at {ts} NOT NULL
)`,
			`CREATE INDEX badges_active_idx ON badges (is_active, category)`, `
CREATE TABLE quizzes (
	id TEXT PRIMARY KEY,
	badge_id TEXT NOT NULL UNIQUE REFERENCES badges(id) ON DELETE CASCADE,
	title TEXT NOT NULL,
	description TEXT NOT NULL DEFAULT '',
	passing_score INTEGER NOT NULL DEFAULT 70,
	time_limit INTEGER NOT NULL DEFAULT 15,
	is_active {bool} NOT NULL DEFAULT TRUE,
	created_at {ts} NOT NULL
)`, `
CREATE TABLE questions (
	id TEXT PRIMARY KEY,
	text TEXT NOT NULL,
	options TEXT NOT NULL,
	correct_index INTEGER NOT NULL,
	difficulty TEXT NOT NULL DEFAULT 'medium',
	explanation TEXT NOT NULL DEFAULT '',
	topic TEXT NOT NULL DEFAULT '',
	category TEXT NOT NULL DEFAULT 'General',
	created_at {ts} NOT NULL
)`, `
CREATE TABLE quiz_questions (
	quiz_id TEXT NOT NULL REFERENCES quizzes(id) ON DELETE CASCADE,
	question_id TEXT NOT NULL REFERENCES questions(id) ON DELETE CASCADE,
	position INTEGER NOT NULL DEFAULT 0,
	PRIMARY KEY (quiz_id, question_id)
)`,
			`CREATE INDEX quiz_questions_question_idx ON quiz_questions (question_id)`, `
CREATE TABLE rate_limits (
	key TEXT NOT NULL,
	window_start BIGINT NOT NULL,
	count INTEGER NOT NULL,
	PRIMARY KEY (key, window_start)
)`, `
CREATE TABLE outbox (
	id TEXT PRIMARY KEY,
	to_addr TEXT NOT NULL,
	subject TEXT NOT NULL,
	body_text TEXT NOT NULL,
	body_html TEXT NOT NULL DEFAULT '',
	status TEXT NOT NULL DEFAULT 'pending',
	attempts INTEGER NOT NULL DEFAULT 0,
	last_error TEXT NOT NULL DEFAULT '',
	created_at {ts} NOT NULL,
	sent_at {ts}
)`,
			`CREATE INDEX outbox_status_idx ON outbox (status, created_at)`, `
CREATE TABLE secrets (
	name TEXT PRIMARY KEY,
	value TEXT NOT NULL,
	created_at {ts} NOT NULL
)`)
	}, noDown)
}
