package credential

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"meritmark/app/model"
)

// The result inside the credential (issue 35, item 4): a skill badge's credential carries
// the score against the pass mark and the Assessment Extension fields, in both forms, and
// the JSON-LD form canonicalizes every one of them (no term dropped) and verifies.
func TestCredentialCarriesTheResult(t *testing.T) {
	in := stdInput()
	score := 85.456
	method := ExamMethod(20, 60, []model.BlueprintRow{{Topic: "Syntax", Count: 12}, {Topic: "Concurrency", Count: 8}}, 70, "")
	in.Result = &ResultInput{AssessmentType: AssessmentExam, Name: "Score on the Go quiz", Score: &score, PassMark: 70,
		EvaluationMethod: method, ReportURL: "http://localhost:8443/badges/b1/assessment"}
	ed, err := KeyFromSeed(NewSeed())
	if err != nil {
		t.Fatal(err)
	}
	es, err := ES256KeyFromSecret(strings.TrimPrefix(NewES256Secret(), ES256Prefix))
	if err != nil {
		t.Fatal(err)
	}
	s, err := SignBoth(ed, es, in, time.Date(2026, 11, 1, 10, 0, 1, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	p, err := ParseJWT(s.JWT)
	if err != nil {
		t.Fatal(err)
	}
	for name, raw := range map[string][]byte{"JSON-LD": s.LD, "VC-JWT": p.Payload} {
		var c Credential
		if err := json.Unmarshal(raw, &c); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(c.Context, append(append([]string{}, Contexts...), ContextOBAssessment)) {
			t.Errorf("%s @context %v", name, c.Context)
		}
		rd := c.CredentialSubject.Achievement.ResultDescription
		rs := c.CredentialSubject.Result
		if len(rd) != 1 || len(rs) != 1 {
			t.Fatalf("%s: resultDescription %v result %v", name, rd, rs)
		}
		want := ResultDescription{ID: "http://localhost:8443/achievements/b1#result", Type: []string{"ResultDescription", "AssessmentResultDescription"},
			Name: "Score on the Go quiz", Description: "The percentage of questions answered correctly; 70 or more passes.",
			ResultType: "Percent", RequiredValue: "70", ValueMin: "0", ValueMax: "100", AssessmentType: "Exam",
			EvaluationMethod:     "Multiple-choice exam scored automatically: each candidate answers a form of 20 questions drawn at random from a pool of 60 to a fixed blueprint (questions per topic: Syntax 12, Concurrency 8). The score is the percentage answered correctly. Pass mark: 70%, a fixed percentage set by the administrator.",
			AssessmentEvaluation: "http://localhost:8443/badges/b1/assessment"}
		if got, _ := json.Marshal(rd[0]); string(got) != string(mustJSON(t, want)) {
			t.Errorf("%s resultDescription\n got %s\nwant %s", name, got, mustJSON(t, want))
		}
		if rs[0].ResultDescription != want.ID || rs[0].Value != "85.46" || rs[0].Status != "Completed" || !slices.Equal(rs[0].Type, []string{"Result"}) {
			t.Errorf("%s result %+v", name, rs[0])
		}
	}
	// every new term is defined by a context: the canonical N-Quads name each IRI
	var doc map[string]any
	if err := json.Unmarshal(s.LD, &doc); err != nil {
		t.Fatal(err)
	}
	delete(doc, "proof")
	nq, err := Canonicalize(doc)
	if err != nil {
		t.Fatal(err)
	}
	for _, iri := range []string{
		"<https://w3id.org/openbadges/extensions#assessmentType> \"Exam\"",
		"<https://w3id.org/openbadges/extensions#assessmentEvaluationMethod> \"Multiple-choice exam",
		"<https://w3id.org/openbadges/extensions#assessmentEvaluation> \"http://localhost:8443/badges/b1/assessment\"",
		"<https://purl.imsglobal.org/spec/vc/ob/vocab.html#requiredValue> \"70\"",
		"<https://purl.imsglobal.org/spec/vc/ob/vocab.html#resultType> \"Percent\"",
		"<https://purl.imsglobal.org/spec/vc/ob/vocab.html#valueMax> \"100\"",
		"<https://schema.org/value> \"85.46\"",
		"<https://purl.imsglobal.org/spec/vc/ob/vocab.html#status> \"Completed\"",
		"<http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <https://purl.imsglobal.org/spec/vc/ob/vocab.html#AssessmentResultDescription>",
	} {
		if !strings.Contains(nq, iri) {
			t.Errorf("the canonical form lacks %s", iri)
		}
	}
	if _, err := VerifyProof(s.LD, func(string) *Key { return ed }); err != nil {
		t.Fatalf("the proof does not verify: %v", err)
	}
	// one changed score fails the proof
	var changed map[string]any
	if err := json.Unmarshal(s.LD, &changed); err != nil {
		t.Fatal(err)
	}
	changed["credentialSubject"].(map[string]any)["result"].([]any)[0].(map[string]any)["value"] = "95.46"
	if _, err := VerifyProof(mustJSON(t, changed), func(string) *Key { return ed }); err == nil {
		t.Fatal("a changed score still verifies")
	}
	// a credential without a result names neither the extension context nor a result
	plain := Build(stdInput())
	if slices.Contains(plain.Context, ContextOBAssessment) || plain.CredentialSubject.Result != nil || plain.CredentialSubject.Achievement.ResultDescription != nil {
		t.Fatalf("a result appeared without one: %+v", plain.CredentialSubject)
	}
}

// A proof badge's result is a reviewed artifact: status only, no score.
func TestArtifactResult(t *testing.T) {
	d, r := resultOf("http://x.io", "b2", proofResult())
	if d.ResultType != "Status" || d.AssessmentType != "Artifact" || d.RequiredValue != "" || d.ValueMax != "" || d.AssessmentEvaluation != "" ||
		r.Value != "" || r.Status != "Completed" || r.ResultDescription != "http://x.io/achievements/b2#result" {
		t.Fatalf("%+v %+v", d, r)
	}
	in := stdInput()
	in.Result = proofResult()
	ed, _ := KeyFromSeed(NewSeed())
	raw, err := AddProof(LDCredential(Build(in)), ed, "did:web:localhost%3A8443#"+ed.KID, time.Date(2026, 11, 1, 10, 0, 1, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := VerifyProof(raw, func(string) *Key { return ed }); err != nil {
		t.Fatal(err)
	}
}

func TestPercent(t *testing.T) {
	for x, want := range map[float64]string{85: "85", 85.456: "85.46", 66.666: "66.67", 100: "100", 0: "0", 70.5: "70.5"} {
		if got := Percent(x); got != want {
			t.Errorf("Percent(%v) = %s, want %s", x, got, want)
		}
	}
}

// A pass mark adopted from a modified-Angoff panel is named in evaluationMethod, with its
// raters and date; an unknown method text is quoted as it is.
func TestExamMethodNamesTheStandardSettingMethod(t *testing.T) {
	on := time.Date(2026, 12, 1, 23, 30, 0, 0, time.UTC)
	got := ExamMethod(10, 24, nil, 68, model.AngoffMethod(6, on))
	want := "Multiple-choice exam scored automatically: each candidate answers a form of 10 questions drawn at random from a pool of 24. The score is the percentage answered correctly. Pass mark: 68%, set by a modified-Angoff panel of 6 raters on 2026-12-01."
	if got != want {
		t.Errorf("method\n got %s\nwant %s", got, want)
	}
	if s := model.PassMarkSentence(55, model.AngoffMethod(1, on)); s != "Pass mark: 55%, set by a modified-Angoff panel of 1 rater on 2026-12-01." {
		t.Errorf("one rater: %s", s)
	}
	if s := model.PassMarkSentence(55, "a Hofstee compromise"); s != "Pass mark: 55%, set by a Hofstee compromise." {
		t.Errorf("other method: %s", s)
	}
	if s := ExamMethod(10, 24, nil, 70, ""); !strings.HasSuffix(s, "Pass mark: 70%, a fixed percentage set by the administrator.") {
		t.Errorf("fixed: %s", s)
	}
}
