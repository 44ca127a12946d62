package format_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/DreamWeave-MP/ashyams-go/catalog/corpustest"
	"github.com/DreamWeave-MP/ashyams-go/catalog/diff"

	"github.com/DreamWeave-MP/ashyams-go/catalog/curation"
	"github.com/DreamWeave-MP/ashyams-go/catalog/format"
	"github.com/DreamWeave-MP/ashyams-go/catalog/network"
	"github.com/DreamWeave-MP/ashyams-go/catalog/product"
	"github.com/DreamWeave-MP/ashyams-go/catalog/protocol"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
	nt "github.com/DreamWeave-MP/ashyams-go/catalog/store/statetest"
	rt "github.com/DreamWeave-MP/ashyams-go/crawl/refresh/refreshtest"
	"github.com/DreamWeave-MP/ashyams-go/schemas"
)

var opts = format.Options{
	Index:   format.Index{Name: "AsHyAmS (test)", URL: "https://index.example.org/net/", Repository: "https://github.com/example/ashyams"},
	BaseURL: "https://index.example.org/net",
}

const publishedSchema = "schemas/dreamweave-network-catalog-1.schema.json"

// corpus is the model of the corpus's state and the published catalog schema, and whether
// ../shared is present.
func corpus(t testing.TB) (*network.Network, *format.Schema, bool) {
	t.Helper()
	state, ok := corpustest.Optional(t, "state")
	if !ok {
		return nil, nil, false
	}
	n, err := network.Load(store.Open(state), nil)
	if err != nil {
		t.Fatal(err)
	}
	pub, err := format.CompileSchema(os.DirFS(filepath.Dir(corpustest.Path(t, publishedSchema))), filepath.Base(publishedSchema))
	if err != nil {
		t.Fatal(err)
	}
	return n, pub, true
}

// twoSites crawls two fixture sites on loopback with a real refresh, one publishing Candlelight
// and Tallow, the other Tallow again, and returns a function building the state's model.
func twoSites(t testing.TB) (alpha *rt.Site, model func() *network.Network) {
	net := rt.New(t)
	alpha, beta := net.Site("/alpha/"), net.Site("/beta/")
	alpha.Publish(rt.Candlelight(t), rt.Tallow(t))
	beta.Publish(rt.Tallow(t))
	net.Refresh(alpha.URL(""), beta.URL(""))
	return alpha, func() *network.Network {
		n, err := network.Load(store.Open(net.State), nil)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
}

// generated is a network of a generated state for the tests the corpus's also runs: 30
// claims on two sites, three events.
func generated(t testing.TB) *network.Network {
	t.Helper()
	dir := nt.Synthetic(t, 30)
	s := &nt.State{TB: t, Dir: dir}
	for i := 0; i < 3; i++ {
		after := store.Digest([]byte{byte(i)})
		s.Event(store.Event{Kind: store.EventObserved, Project: nt.ID(i), Origin: store.SiteID("https://site0.example.org/mods/dreamweave.json"),
			Name: "Project", ObservedAt: nt.Time, After: &after, Changes: []diff.Change{}})
	}
	n, err := network.Load(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func generate(t testing.TB, n *network.Network) (cat, ev []byte) {
	t.Helper()
	cat, err := format.Catalog(n, opts)
	if err != nil {
		t.Fatal(err)
	}
	ev, err = format.Events(n, opts)
	if err != nil {
		t.Fatal(err)
	}
	return cat, ev
}

func decode(t testing.TB, b []byte) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// Over a state a real refresh of two sites wrote, and over the corpus state: both files validate
// against our schema (and the published one, with the corpus), two generations from two
// separately built models are byte-identical, and the catalog holds the state's claims.
func TestCorpusFiles(t *testing.T) {
	t.Run("generated", func(t *testing.T) {
		alpha, model := twoSites(t)
		// Candlelight's current release states the network's relationships: Tallow has none.
		rels := 0
		for _, r := range rt.Candlelight(t)["releases"].([]any) {
			if r := r.(map[string]any); r["version"] == "1.1.0" {
				rels = len(r["relationships"].([]any))
			}
		}
		if rels == 0 {
			t.Fatal("Candlelight's release 1.1.0 states no relationships")
		}
		c, events := checkFiles(t, model, nil, rt.First.Format(time.RFC3339), product.UserAgent, 3, 2, 1, rels, 1, 3)
		sum := sha256.Sum256(alpha.Bytes(rt.Candlelight(t)))
		origin := candlelight(t, c)["origin"].(string)
		checkCandlelight(t, c, map[string]any{
			"origin": origin, "manifest_sha256": hex.EncodeToString(sum[:]), "advertised_sha256": hex.EncodeToString(sum[:]),
			"manifest_url": alpha.URL("dreamweave/projects/" + rt.CandlelightID + ".json"),
			"network_page": opts.Index.URL + "projects/" + rt.CandlelightID + "/" + origin + "/",
		})
		if !strings.HasPrefix(origin, "127-0-0-1-alpha-") {
			t.Errorf("Candlelight's origin %q is not the alpha site's", origin)
		}
		for _, x := range events {
			if ev := x.(map[string]any); ev["kind"] != string(store.EventObserved) {
				t.Errorf("event %v of a first refresh is %v, want observed", ev["id"], ev["kind"])
			}
		}
	})
	_, pub, ok := corpus(t)
	if !ok {
		return
	}
	t.Run("corpus", func(t *testing.T) {
		model := func() *network.Network { n, _, _ := corpus(t); return n }
		c, _ := checkFiles(t, model, pub, "2026-10-10T12:36:05Z", "AsHyAmS/0.1.0 (+https://github.com/DreamWeave-MP/AsHyAmS)", 45, 14, 0, 7, 1, 15)
		// Candlelight, as the corpus records it (claim.json and its manifest).
		checkCandlelight(t, c, map[string]any{
			"origin":            "dreamweave-mp-github-io-dreamweave-mod-template-439f8bc8",
			"manifest_sha256":   "283d9bccf44186a396f40c28ad06fc0e4f04f7e43b5864d8c4be43991ec658f8",
			"advertised_sha256": "283d9bccf44186a396f40c28ad06fc0e4f04f7e43b5864d8c4be43991ec658f8",
			"manifest_url":      "https://dreamweave-mp.github.io/DreamWeave-Mod-Template/dreamweave/projects/4d0c9f6e-2b1a-4c8e-9f3a-7e5d1b2c6a90.json",
			"network_page":      "https://index.example.org/net/projects/4d0c9f6e-2b1a-4c8e-9f3a-7e5d1b2c6a90/dreamweave-mp-github-io-dreamweave-mod-template-439f8bc8/",
		})
	})
}

// checkFiles generates both files from model twice and checks them: valid against our schema
// and pub (when given), byte-identical, observed at observedAt by crawler, with the counts of
// claims, origins, conflicts, relationships, capabilities and events given, events newest
// first, each with a headline. It returns the catalog and the events, decoded.
func checkFiles(t *testing.T, model func() *network.Network, pub *format.Schema, observedAt, crawler string, claims, origins, conflicts, rels, caps, events int) (map[string]any, []any) {
	cat, ev := generate(t, model())
	for name, b := range map[string][]byte{format.CatalogFile: cat, format.EventsFile: ev} {
		if err := format.Validate(name, b); err != nil {
			t.Errorf("our schema: %v", err)
		}
		if pub == nil {
			continue
		}
		if err := pub.Validate(name, b); err != nil {
			t.Errorf("published schema: %v", err)
		}
	}
	cat2, ev2 := generate(t, model())
	if !bytes.Equal(cat, cat2) || !bytes.Equal(ev, ev2) {
		t.Fatal("two generations differ")
	}
	c := decode(t, cat)
	if c["observed_at"] != observedAt || c["crawler"] != crawler {
		t.Fatalf("observed_at %v crawler %v", c["observed_at"], c["crawler"])
	}
	got := []int{len(c["claims"].([]any)), len(c["origins"].([]any)), len(c["conflicts"].([]any)), len(c["relationships"].([]any)), len(c["capabilities"].([]any))}
	if want := []int{claims, origins, conflicts, rels, caps}; !reflect.DeepEqual(got, want) {
		t.Fatalf("claims, origins, conflicts, relationships, capabilities: %v, want %v", got, want)
	}
	evs := decode(t, ev)["events"].([]any)
	if len(evs) != events {
		t.Fatalf("%d events, want %d", len(evs), events)
	}
	for i := 1; i < len(evs); i++ {
		a, b := evs[i-1].(map[string]any), evs[i].(map[string]any)
		if a["observed_at"].(string) < b["observed_at"].(string) || (a["observed_at"] == b["observed_at"] && a["id"].(string) > b["id"].(string)) {
			t.Fatalf("events %d and %d are not newest first, then by id", i-1, i)
		}
	}
	for _, x := range evs {
		if e := x.(map[string]any); e["headline"] == "" {
			t.Errorf("event %v has no headline", e["id"])
		}
	}
	return c, evs
}

// candlelight is Candlelight's claim in catalog c.
func candlelight(t *testing.T, c map[string]any) map[string]any {
	for _, x := range c["claims"].([]any) {
		if x.(map[string]any)["name"] == "Candlelight" {
			return x.(map[string]any)
		}
	}
	t.Fatal("no Candlelight claim")
	return nil
}

// checkCandlelight checks Candlelight's claim in c: the values of want, a current claim of the
// fixture's releases, neither cached, in conflict nor superseded.
func checkCandlelight(t *testing.T, c map[string]any, want map[string]any) {
	candle := candlelight(t, c)
	want["project"], want["cached"], want["health"], want["conflict"], want["superseded_by"] = rt.CandlelightID, false, "current", false, nil
	for k, v := range want {
		if candle[k] != v {
			t.Errorf("Candlelight %s = %v, want %v", k, candle[k], v)
		}
	}
	if cur := candle["current"].(map[string]any); cur["channel"] != "stable" || cur["version"] != "1.1.0" {
		t.Errorf("Candlelight current = %v", cur)
	}
	if ch := candle["channels"].(map[string]any); ch["stable"] != "1.1.0" || ch["development"] != "1.1.1-dev.0" || len(ch) != 2 {
		t.Errorf("Candlelight channels = %v", ch)
	}
}

// The catalog states the model: conflicts, superseded_by, cached, current relationships with
// resolved/satisfied, capabilities; withdrawn claims are out.
func TestCatalogFromModel(t *testing.T) {
	s := nt.New(t)
	one := s.Origin("https://one.example.org/dreamweave.json", "https://one.example.org/")
	two := s.Origin("https://two.example.org/dreamweave.json")
	three := s.Origin("https://three.example.org/dreamweave.json")
	a, b, c, d, x := nt.ID(1), nt.ID(2), nt.ID(3), nt.ID(4), nt.ID(99)
	s.Claim(one, nt.Manifest(a, "A", "decimal", nt.Release("0.82", "stable", []string{"dw:a"})))
	s.Claim(two, nt.Manifest(a, "A elsewhere", "", nt.Release("1.0.0", "stable", nil)))
	s.Claim(one, nt.Manifest(b, "B", "", nt.Release("1.0.0", "stable", nil)))
	s.Claim(three, nt.Manifest(b, "B", "", nt.Release("1.0.0", "stable", nil)))
	s.Claim(one, nt.Manifest(c, "C", "", nt.Release("1.0.0", "stable", nil,
		nt.Requires(a, ">=0.9"),
		protocol.Relationship{Kind: "recommends", Capability: "dw:a"},
		protocol.Relationship{Kind: "conflicts", Name: "Old lights", URL: "https://old.example.net/"},
		nt.Requires(x, ""),
	), nt.Release("1.1.0-dev.1", "development", nil)), func(cl *store.Claim) {
		cl.AdvertisedSHA256 = strings.Repeat("f", 64)
		cl.Health = store.ClaimInconsistent
	})
	s.Claim(one, nt.Manifest(d, "D", "", nt.Release("1.0.0", "stable", nil)), func(cl *store.Claim) { cl.Health = store.ClaimWithdrawn })
	cur := &curation.Curation{Migrations: []curation.Migration{{Project: b, From: "https://three.example.org/dreamweave.json", To: "https://one.example.org/dreamweave.json", Reason: "r", Reviewed: "2026-10-01", Entry: 1}}}
	n, err := network.Load(s.Dir, cur)
	if err != nil {
		t.Fatal(err)
	}
	cat, err := format.Catalog(n, opts)
	if err != nil {
		t.Fatal(err)
	}
	if err := format.Validate("catalog.json", cat); err != nil {
		t.Fatal(err)
	}
	got := decode(t, cat)
	claims := map[string]map[string]any{}
	for _, x := range got["claims"].([]any) {
		m := x.(map[string]any)
		claims[m["project"].(string)+"/"+m["origin"].(string)] = m
	}
	if len(claims) != 5 || claims[d+"/"+one] != nil {
		t.Fatalf("claims = %d (the withdrawn claim must be out)", len(claims))
	}
	if claims[a+"/"+one]["conflict"] != true || claims[a+"/"+two]["conflict"] != true || claims[b+"/"+one]["conflict"] != false {
		t.Fatal("conflict flags")
	}
	if sb := claims[b+"/"+three]["superseded_by"].(map[string]any); sb["project"] != b || sb["origin"] != one {
		t.Fatalf("superseded_by = %v", sb)
	}
	cc := claims[c+"/"+one]
	if cc["cached"] != true || cc["health"] != "inconsistent" || cc["advertised_sha256"] == cc["manifest_sha256"] {
		t.Fatalf("cached claim: %v %v", cc["cached"], cc["health"])
	}
	if claims[a+"/"+one]["versioning"] != "decimal" || claims[a+"/"+one]["lua_api"] != ">=60" || len(claims[a+"/"+one]["provides"].([]any)) != 1 {
		t.Fatal("versioning / lua_api / provides of the current release")
	}
	conf := got["conflicts"].([]any)
	if len(conf) != 1 || conf[0].(map[string]any)["project"] != a || len(conf[0].(map[string]any)["claims"].([]any)) != 2 {
		t.Fatalf("conflicts = %v", conf)
	}
	rels := got["relationships"].([]any)
	if len(rels) != 4 {
		t.Fatalf("relationships = %d (only C's current release has any)", len(rels))
	}
	r0 := rels[0].(map[string]any)
	// >=0.9 against A at two sites (an identity conflict): decimal 0.82 fails, numeric 1.0.0
	// holds. The targets disagree, so "satisfied" is null, not true: true would prefer one
	// claim of the conflict; "resolved" lists both (case 4).
	if sat, ok := r0["satisfied"]; !ok || sat != nil {
		t.Fatalf("relationship 0 on a conflicted id whose claims disagree: satisfied = %v (present %v), want null", sat, ok)
	}
	if r0["release"] != "1.0.0" || len(r0["resolved"].([]any)) != 2 || r0["capability"] != nil {
		t.Fatalf("relationship 0 = %v", r0)
	}
	r1, r2, r3 := rels[1].(map[string]any), rels[2].(map[string]any), rels[3].(map[string]any)
	if len(r1["resolved"].([]any)) != 1 || r1["satisfied"] != nil || r1["project"] != nil {
		t.Fatalf("capability relationship = %v", r1)
	}
	if len(r2["resolved"].([]any)) != 0 || r2["url"] != "https://old.example.net/" || r2["name"] != "Old lights" {
		t.Fatalf("informational relationship = %v", r2)
	}
	if len(r3["resolved"].([]any)) != 0 || r3["satisfied"] != nil || r3["version"] != nil {
		t.Fatalf("unresolved relationship = %v", r3)
	}
	caps := got["capabilities"].([]any)
	if len(caps) != 1 {
		t.Fatalf("capabilities = %v", caps)
	}
	cp := caps[0].(map[string]any)
	if len(cp["providers"].([]any)) != 1 || len(cp["referenced_by"].([]any)) != 1 || cp["referenced_by"].([]any)[0].(map[string]any)["kind"] != "recommends" {
		t.Fatalf("capability = %v", cp)
	}
	origins := got["origins"].([]any)
	for _, o := range origins {
		om := o.(map[string]any)
		if om["id"] == one && len(om["projects"].([]any)) != 3 {
			t.Fatalf("origin one projects = %v (the withdrawn claim is not listed)", om["projects"])
		}
	}
}

// Every object's keys come in the reference's order (the order of the schema's "required"
// list that object satisfies), the output is two-space indented with exactly one final
// newline, and HTML is not escaped.
func TestReferenceEncoding(t *testing.T) {
	s := nt.New(t)
	one := s.Origin("https://one.example.org/dreamweave.json")
	s.Claim(one, nt.Manifest(nt.ID(1), "<A & B>", "", nt.Release("1.0.0", "stable", nil)))
	after := strings.Repeat("a", 64)
	moved := "old-example-org-12345678"
	s.Event(store.Event{Kind: "observed", Project: nt.ID(1), Origin: one, Name: "<A & B>", ObservedAt: nt.Time, After: &after, MovedFrom: &moved})
	n, err := network.Load(s.Dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	cat, ev := generate(t, n)
	required := schemaRequired(t)
	for _, b := range [][]byte{cat, ev} {
		if !bytes.HasSuffix(b, []byte("}\n")) || bytes.HasSuffix(b, []byte("\n\n")) {
			t.Fatal("output must end in exactly one newline")
		}
		if !bytes.Contains(b, []byte(`"<A & B>"`)) {
			t.Fatal("HTML characters are escaped")
		}
		var ind bytes.Buffer
		if err := json.Indent(&ind, b, "", "  "); err != nil || !bytes.Equal(ind.Bytes(), b) {
			t.Fatalf("not two-space indented as the reference writes it (%v):\n%s", err, b)
		}
		checkKeyOrder(t, b, required)
	}
	if !bytes.Contains(ev, []byte(`"changes": [],
      "moved_from": "old-example-org-12345678",
      "tags": [`)) {
		t.Errorf("moved_from is not between changes and tags, as the reference writes an event:\n%s", ev)
	}
	if !bytes.Contains(cat, []byte(`"url": "https://index.example.org/net",`)) {
		t.Errorf("index.url is not the base URL without its final slash:\n%s", cat)
	}
}

// schemaRequired is every "required" list in our catalog schema.
func schemaRequired(t *testing.T) [][]string {
	t.Helper()
	b, err := schemas.FS.ReadFile(format.SchemaFile)
	if err != nil {
		t.Fatal(err)
	}
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	var out [][]string
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			if r, ok := x["required"].([]any); ok {
				var keys []string
				for _, k := range r {
					keys = append(keys, k.(string))
				}
				out = append(out, keys)
			}
			for _, e := range x {
				walk(e)
			}
		case []any:
			for _, e := range x {
				walk(e)
			}
		}
	}
	walk(v)
	return out
}

// checkKeyOrder reads every object's keys in order and fails when the largest "required" list
// the object holds all of does not appear in it in that list's order.
func checkKeyOrder(t *testing.T, b []byte, required [][]string) {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(b))
	type frame struct {
		obj  bool
		keys []string
		key  bool
	}
	var stack []frame
	check := func(keys []string) {
		pos := map[string]int{}
		for i, k := range keys {
			pos[k] = i
		}
		var best []string
		for _, r := range required {
			all := true
			for _, k := range r {
				if _, ok := pos[k]; !ok {
					all = false
				}
			}
			if all && len(r) > len(best) {
				best = r
			}
		}
		for i := 1; i < len(best); i++ {
			if pos[best[i]] < pos[best[i-1]] {
				t.Fatalf("key %q before %q in an object with keys %v", best[i], best[i-1], keys)
			}
		}
	}
	for {
		tok, err := dec.Token()
		if err != nil {
			break
		}
		top := len(stack) - 1
		switch v := tok.(type) {
		case json.Delim:
			if v == '{' || v == '[' {
				if top >= 0 && stack[top].obj {
					stack[top].key = true
				}
				stack = append(stack, frame{obj: v == '{', key: true})
			} else {
				if stack[top].obj {
					check(stack[top].keys)
				}
				stack = stack[:top]
				if top-1 >= 0 && stack[top-1].obj {
					stack[top-1].key = true
				}
			}
			continue
		case string:
			if top >= 0 && stack[top].obj && stack[top].key {
				stack[top].keys = append(stack[top].keys, v)
				stack[top].key = false
				continue
			}
		}
		if top >= 0 && stack[top].obj {
			stack[top].key = true
		}
	}
}

// A file that breaks the schema is refused with the JSON pointer of the offending value.
func TestValidateNamesThePointer(t *testing.T) {
	t.Run("generated", func(t *testing.T) { validateNamesThePointer(t, generated(t), nil) })
	if n, pub, ok := corpus(t); ok {
		t.Run("corpus", func(t *testing.T) { validateNamesThePointer(t, n, pub) })
	}
}

// validateNamesThePointer breaks n's files one value at a time; ours and, when given, the
// published schema name the pointer.
func validateNamesThePointer(t *testing.T, n *network.Network, pub *format.Schema) {
	cat, ev := generate(t, n)
	cases := []struct {
		name, file string
		doc        []byte
		edit       func(m map[string]any)
		pointer    string
	}{
		{"bad health", format.CatalogFile, cat, func(m map[string]any) {
			m["claims"].([]any)[3].(map[string]any)["health"] = "fine"
		}, "/claims/3/health"},
		{"unknown field", format.CatalogFile, cat, func(m map[string]any) {
			m["claims"].([]any)[0].(map[string]any)["used_by"] = []any{}
		}, "/claims/0"},
		{"missing field", format.CatalogFile, cat, func(m map[string]any) {
			delete(m["origins"].([]any)[1].(map[string]any), "projects")
		}, "/origins/1"},
		{"bad digest", format.EventsFile, ev, func(m map[string]any) {
			m["events"].([]any)[2].(map[string]any)["after"] = "XYZ"
		}, "/events/2/after"},
		{"wrong version", format.EventsFile, ev, func(m map[string]any) {
			m["format_version"] = 2
		}, "/format_version"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m := decode(t, tc.doc)
			tc.edit(m)
			b, _ := json.Marshal(m)
			validators := map[string]func(string, []byte) error{"ours": format.Validate}
			if pub != nil {
				validators["published"] = pub.Validate
			}
			for who, validate := range validators {
				err := validate(tc.file, b)
				var ve *format.ValidationError
				if !errors.As(err, &ve) {
					t.Fatalf("%s: err = %v", who, err)
				}
				if ve.Pointer != tc.pointer || ve.File != tc.file || !strings.Contains(err.Error(), tc.pointer) {
					t.Fatalf("%s: pointer %q in %v, want %q", who, ve.Pointer, err, tc.pointer)
				}
			}
		})
	}
	if err := format.Validate("x.json", []byte("{")); err == nil || !strings.Contains(err.Error(), "x.json: not JSON") {
		t.Fatalf("broken JSON: %v", err)
	}
	if err := format.Validate("x.json", []byte(`{"format":"something-else"}`)); err == nil {
		t.Fatal("a document of neither format validated")
	}
}

func TestOptionsRefused(t *testing.T) {
	n := &network.Network{}
	for _, o := range []format.Options{
		{Index: format.Index{Name: "x", URL: "", Repository: "https://r.example.org/"}},
		{Index: format.Index{Name: "x", URL: "https://i.example.org/", Repository: "git@r:x"}},
		{Index: format.Index{Name: "", URL: "https://i.example.org/", Repository: "https://r.example.org/"}},
	} {
		if _, err := format.Catalog(n, o); err == nil {
			t.Errorf("Catalog accepted %+v", o.Index)
		}
		if _, err := format.Events(n, o); err == nil {
			t.Errorf("Events accepted %+v", o.Index)
		}
	}
}

// An empty state (no refresh yet) gives valid files with null observation time and crawler.
func TestEmptyState(t *testing.T) {
	n, err := network.Load(store.Open(t.TempDir()), nil)
	if err != nil {
		t.Fatal(err)
	}
	cat, ev := generate(t, n)
	for name, b := range map[string][]byte{"catalog.json": cat, "events.json": ev} {
		if err := format.Validate(name, b); err != nil {
			t.Fatal(err)
		}
		if m := decode(t, b); m["observed_at"] != nil {
			t.Fatalf("%s observed_at = %v", name, m["observed_at"])
		}
	}
}

// BenchmarkModelAndCatalog builds the model and both files for a synthetic state of 10,000
// claims (networktest.Synthetic), validating both against our schema.
func BenchmarkModelAndCatalog(b *testing.B) {
	dir := nt.Synthetic(b, 10000)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		n, err := network.Load(dir, nil)
		if err != nil {
			b.Fatal(err)
		}
		if len(n.Listed) != 10000 {
			b.Fatalf("%d claims", len(n.Listed))
		}
		cat, err := format.Catalog(n, opts)
		if err != nil {
			b.Fatal(err)
		}
		ev, err := format.Events(n, opts)
		if err != nil {
			b.Fatal(err)
		}
		if err := format.Validate("catalog.json", cat); err != nil {
			b.Fatal(err)
		}
		if err := format.Validate("events.json", ev); err != nil {
			b.Fatal(err)
		}
	}
}

// publishedConstraints is the SHA-256 of the published v1 catalog schema's constraints: the
// schema without its annotations (title, description, $id), as JSON with sorted keys.
const publishedConstraints = "e47f73679c7f84e774c05fcb09f33faf66e5ea7720377449f53de36a4d44a473"

// Our schema is our own text but the same format: with the annotations removed, it states
// exactly the published schema's constraints. Without ../shared the published schema is known
// by the digest of its constraints; with it, the digest is checked to be the published one's.
func TestSchemaSameFormatAsPublished(t *testing.T) {
	ourBytes, err := schemas.FS.ReadFile(format.SchemaFile)
	if err != nil {
		t.Fatal(err)
	}
	ours := corpustest.SchemaConstraints(t, ourBytes)
	if sum := sha256.Sum256(ours); hex.EncodeToString(sum[:]) != publishedConstraints {
		t.Errorf("our catalog schema's constraints hash to %x, not to the published v1 schema's %s", sum, publishedConstraints)
	}
	p, ok := corpustest.Optional(t, publishedSchema)
	if !ok {
		return
	}
	pubBytes, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	theirs := corpustest.SchemaConstraints(t, pubBytes)
	if sum := sha256.Sum256(theirs); hex.EncodeToString(sum[:]) != publishedConstraints {
		t.Errorf("the published schema's constraints hash to %x, not to publishedConstraints", sum)
	}
	if !bytes.Equal(ours, theirs) {
		t.Fatal("our catalog schema's constraints differ from the published v1 schema's")
	}
	if bytes.Equal(ourBytes, pubBytes) {
		t.Fatal("our schema is a copy of the published one; it should be written in our own words")
	}
}

// TestValidateNamesTheBadValue: the corpus's generated files are valid, and one bad value in
// the catalog is refused with an error naming its pointer.
func TestValidateNamesTheBadValue(t *testing.T) {
	cat, ev := generate(t, generated(t))
	for name, b := range map[string][]byte{format.CatalogFile: cat, format.EventsFile: ev} {
		if err := format.Validate(name, b); err != nil {
			t.Fatal(err)
		}
	}
	bad := bytes.Replace(cat, []byte(`"health": "current"`), []byte(`"health": "fine"`), 1)
	var ve *format.ValidationError
	if err := format.Validate(format.CatalogFile, bad); !errors.As(err, &ve) || !strings.HasSuffix(ve.Pointer, "/health") {
		t.Fatalf("a bad health: %v", err)
	}
}
