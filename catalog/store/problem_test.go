package store

import (
	"os"
	"strings"
	"testing"
)

// A health written as the words of the seeds/state.txt table is told apart from an unknown
// one (the network model reads the words, a build refuses the unknown), in the same words.
func TestCheckHealthKinds(t *testing.T) {
	cases := []struct {
		health string
		kind   Kind
	}{
		{"invalid publication", HealthWord},
		{"inconsistent deployment", HealthWord},
		{"fine", UnknownHealth},
		{"", UnknownHealth},
	}
	for _, tc := range cases {
		d := tinyState(t)
		editClaim(t, d, tinyProject, tinySite, func(c *Claim) { c.Health, c.Problem = tc.health, &tc.health })
		got := onlyProblem(t, d, ClaimPath(tinyProject, tinySite))
		if got.Kind != tc.kind || got.Message != `health "`+tc.health+`" is not a claim health value` {
			t.Errorf("health %q: %v %q, want %v", tc.health, got.Kind, got.Message, tc.kind)
		}
	}
	d := tinyState(t)
	var o Origin
	must(t, d.ReadJSON(OriginPath(tinySite), &o))
	o.Health, o.Problem = "no index", &o.ID
	must(t, d.WriteJSON(OriginPath(tinySite), o))
	if got := onlyProblem(t, d, OriginPath(tinySite)); got.Kind != HealthWord || got.Message != `health "no index" is not an origin health value` {
		t.Errorf("origin health words: %v %q", got.Kind, got.Message)
	}
}

// onlyProblem is the one problem Check reports on rel, failing the test unless there is
// exactly one.
func onlyProblem(t *testing.T, d *Dir, rel string) Problem {
	t.Helper()
	var on []Problem
	for _, p := range d.Check() {
		if p.Path == rel {
			on = append(on, p)
		}
	}
	if len(on) != 1 {
		t.Fatalf("want one problem on %s, got %v", rel, on)
	}
	return on[0]
}

// onlyOfKind is the one problem of kind k in ps, or nil unless there is exactly one.
func onlyOfKind(ps []Problem, k Kind) *Problem {
	var out []Problem
	for _, p := range ps {
		if p.Kind == k {
			out = append(out, p)
		}
	}
	if len(out) != 1 {
		return nil
	}
	return &out[0]
}

// The health tokens map to themselves, the words of seeds/state.txt to their tokens, and
// anything else to nothing.
func TestHealthTokens(t *testing.T) {
	for in, want := range map[string]string{"invalid publication": "invalid", "inconsistent deployment": "inconsistent", "refused by crawler policy": "refused", "origin-unavailable": "origin-unavailable"} {
		if got, ok := ClaimHealthToken(in); !ok || got != want {
			t.Errorf("ClaimHealthToken(%q) = %q, %v", in, got, ok)
		}
	}
	for in, want := range map[string]string{"invalid index": "invalid-index", "no-index": "no-index", "healthy": "healthy"} {
		if got, ok := OriginHealthToken(in); !ok || got != want {
			t.Errorf("OriginHealthToken(%q) = %q, %v", in, got, ok)
		}
	}
	for _, bad := range []string{"broken", "", "Healthy"} {
		if got, ok := OriginHealthToken(bad); ok {
			t.Errorf("OriginHealthToken(%q) = %q, accepted", bad, got)
		}
		if got, ok := ClaimHealthToken(bad); ok {
			t.Errorf("ClaimHealthToken(%q) = %q, accepted", bad, got)
		}
	}
}

// renderable replaces the tiny state's manifest with one that decodes whole (the render
// scope decodes it for the network model) and returns its bytes.
func renderable(t *testing.T, d *Dir, document string) []byte {
	t.Helper()
	b := []byte(`{"schema_version":"2","document":"` + document + `","project":{"id":"` + tinyProject + `","name":"Tiny"},"channels":{},"releases":[]}`)
	must(t, os.WriteFile(d.Path(ManifestPath(tinyProject, tinySite)), b, 0o644))
	editClaim(t, d, tinyProject, tinySite, func(c *Claim) { dg := Digest(b); c.IngestedSHA256, c.AdvertisedSHA256 = &dg, dg })
	return b
}

// The render scope hands the held manifests that pass every check to the network model,
// decoded, and finds no problem where Check finds none.
func TestCheckLoadForRenderKeepsManifests(t *testing.T) {
	d := tinyState(t)
	b := renderable(t, d, "project")
	s, ps := d.CheckLoadForRender()
	if len(ps) != 0 {
		t.Fatalf("problems: %v", ps)
	}
	key := ClaimsDir + "/" + tinyProject + "/" + tinySite
	m := s.Manifests[key]
	if m == nil || m.Project.ID != tinyProject || m.Project.Name != "Tiny" || s.ManifestDigests[key] != Digest(b) {
		t.Fatalf("manifests %v, digests %v", s.Manifests, s.ManifestDigests)
	}
	if s, _ := d.CheckLoad(); s.Manifests != nil {
		t.Error("the full scope keeps manifests")
	}
}

// The render scope refuses to hand over a held manifest that is not a project manifest (its
// bytes hash to the recorded digest, so only decoding tells), or that does not hash to the
// recorded digest.
func TestCheckLoadForRenderManifestContent(t *testing.T) {
	d := tinyState(t)
	renderable(t, d, "index")
	s, ps := d.CheckLoadForRender()
	rel := ManifestPath(tinyProject, tinySite)
	if len(ps) != 1 || ps[0].Path != rel || ps[0].Kind != ManifestContent || ps[0].Message != `has document "index", not "project"` {
		t.Fatalf("problems: %v", ps)
	}
	if len(s.Manifests) != 0 {
		t.Errorf("a manifest that is not a project's was kept: %v", s.Manifests)
	}

	d = tinyState(t)
	renderable(t, d, "project")
	editClaim(t, d, tinyProject, tinySite, func(c *Claim) { z := strings.Repeat("0", 64); c.IngestedSHA256 = &z })
	s, ps = d.CheckLoadForRender()
	if p := onlyOfKind(ps, ManifestDigest); p == nil || p.Path != rel || len(s.Manifests) != 0 {
		t.Fatalf("problems %v, manifests %v", ps, s.Manifests)
	}
}

// The render scope leaves media/'s bytes to the build; the full scope hashes them.
func TestCheckLoadForRenderSkipsMediaBytes(t *testing.T) {
	d := tinyState(t) // its manifest is a valid one
	rel := MediaDir + "/" + strings.Repeat("b", 64) + ".png"
	must(t, d.WriteBytes(rel, []byte("not it")))
	if _, ps := d.CheckLoadForRender(); len(ps) != 0 {
		t.Errorf("render scope: %v", ps)
	}
	if ps := d.Check(); len(ps) != 1 || ps[0].Kind != MediaDigest || ps[0].Path != rel {
		t.Errorf("full scope: %v", ps)
	}
}

// MediaProblem accepts bytes that hash to the file's name and words the mismatch otherwise.
func TestMediaProblem(t *testing.T) {
	b := []byte("image")
	if got, p := MediaProblem("media/"+Digest(b)+".png", b); p != nil || got != Digest(b) {
		t.Errorf("matching bytes: %q %v", got, p)
	}
	rel := "media/" + Digest([]byte("other")) + ".png"
	_, p := MediaProblem(rel, b)
	if p == nil || p.Kind != MediaDigest || p.String() != rel+": hashes to "+Digest(b)+", not the digest its name gives" {
		t.Errorf("mismatch: %v", p)
	}
}

// Every kind has a name, and a value outside them says so.
func TestKindString(t *testing.T) {
	for k := NoState; k <= MediaDigest; k++ {
		if s := k.String(); s == "" || strings.HasPrefix(s, "kind(") {
			t.Errorf("kind %d has no name", k)
		}
	}
	if s := Kind(200).String(); s != "kind(200)" {
		t.Errorf("Kind(200) = %q", s)
	}
}
