package apptest

import (
	"strings"
	"testing"
)

// recorder is a testing.TB that keeps what Expect and Want report.
type recorder struct {
	testing.TB
	fatal, errs []string
}

func (r *recorder) Helper()           {}
func (r *recorder) Fatal(args ...any) { r.fatal = append(r.fatal, args[0].(string)) }
func (r *recorder) Error(args ...any) { r.errs = append(r.errs, args[0].(string)) }

type quote struct {
	Code  string
	Final float64
	Free  bool
}

func TestExpectNamesEachFailedCheck(t *testing.T) {
	q := quote{Code: "DEV20", Final: 30}
	r := &recorder{}
	Expect(r, "DEV20", q, Eq("q.Code", q.Code, "DEV20"), Eq("q.Final", q.Final, 29), True("q.Free", q.Free))
	if len(r.fatal) != 1 || len(r.errs) != 0 {
		t.Fatalf("fatal %q errors %q", r.fatal, r.errs)
	}
	want := "DEV20: q.Final = 30, want 29; q.Free does not hold\n(in {Code:DEV20 Final:30 Free:false})"
	if r.fatal[0] != want {
		t.Fatalf("message\n%s\nwant\n%s", r.fatal[0], want)
	}
	Expect(r, "DEV20", q, Eq("q.Code", q.Code, "DEV20"))
	if len(r.fatal) != 1 {
		t.Fatalf("a check that holds failed the test: %q", r.fatal[1:])
	}
}

func TestWantReportsAndGoesOn(t *testing.T) {
	r := &recorder{}
	if Want(r, "code", "x", Eq("code", "x", "y")) || len(r.errs) != 1 || len(r.fatal) != 0 {
		t.Fatalf("fatal %q errors %q", r.fatal, r.errs)
	}
	if !strings.HasPrefix(r.errs[0], `code: code = "x", want "y"`) {
		t.Fatalf("message %q", r.errs[0])
	}
	if !Want(r, "code", "x", Eq("code", "x", "x"), True("holds", true)) || len(r.errs) != 1 {
		t.Fatalf("checks that hold reported %q", r.errs[1:])
	}
}
