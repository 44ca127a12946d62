package protocol

import (
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/DreamWeave-MP/ashyams-go/catalog/corpustest"
)

// Real documents the rule cases edit (paths under ../shared/corpus).
const (
	candlelight  = "www/dreamweave-mp.github.io/DreamWeave-Mod-Template/dreamweave/projects/4d0c9f6e-2b1a-4c8e-9f3a-7e5d1b2c6a90.json" // numeric; 1.1.1-dev.0 development, 1.1.0 and 1.0.0 stable
	openmwConfig = "www/dreamweave-mp.github.io/Openmw_Config/dreamweave/projects/3aaf4fe0-616f-41a3-b520-306eda9347b0.json"           // numeric, a yanked release, crate artifacts
	lightFixes   = "www/dreamweave-mp.github.io/S3LightFixes/dreamweave/projects/55e873c9-1ddc-4b13-b59a-0eb790bb2565.json"            // decimal
	dreamIni     = "www/dreamweave-mp.github.io/dream-ini/dreamweave/projects/b3efde19-438b-4325-bf94-fae56bf1d458.json"               // binary artifacts
	stashIndex   = "www/dreamweave-mp.github.io/S3ctors-S3cret-St4sh/dreamweave.json"                                                  // 31 projects
)

// source is one document a test edits, decoded as a fresh tree: a generated stand-in, or the
// corpus document it stands in for.
type source struct {
	name string
	tree any
}

// trees is the generated stand-in (standIn) of the corpus document rel and, when ../shared is
// present, rel itself.
func trees(t *testing.T, rel string) []source {
	t.Helper()
	srcs := []source{{"generated", nil}}
	bs := [][]byte{generatedCorpus(t)[standIn[rel]]}
	if p, ok := corpustest.Optional(t, rel); ok {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		srcs, bs = append(srcs, source{"corpus", nil}), append(bs, b)
	}
	for i, b := range bs {
		v, fs := parseStrict(b)
		if fs != nil {
			t.Fatalf("%s (%s): %v", rel, srcs[i].name, fs)
		}
		srcs[i].tree = v
	}
	return srcs
}

// eachTree runs check as a subtest on each of trees(t, rel).
func eachTree(t *testing.T, rel string, check func(t *testing.T, v any)) {
	t.Helper()
	for _, src := range trees(t, rel) {
		t.Run(src.name, func(t *testing.T) { check(t, src.tree) })
	}
}

func obj(v any, ptr string) map[string]any { return lookup(v, ptr).(map[string]any) }
func arr(v any, ptr string) []any          { return lookup(v, ptr).([]any) }

// want asserts a finding with that pointer and one of the rules.
func want(t *testing.T, fs []Finding, ptr string, rules ...string) {
	t.Helper()
	for _, f := range fs {
		if f.Pointer != ptr {
			continue
		}
		for _, r := range rules {
			if f.Rule == r {
				if name := fieldName(ptr); !strings.Contains(f.Message, name) {
					t.Errorf("finding at %s does not name the field %q: %s", ptr, name, f.Message)
				}
				return
			}
		}
	}
	t.Errorf("want a %v finding at %s, got %v", rules, ptr, fs)
}

// fieldName is the name a message must mention: the last token, or for an array item the
// array's name.
func fieldName(ptr string) string {
	toks := strings.Split(ptr, "/")
	for i := len(toks) - 1; i > 0; i-- {
		if _, err := strconv.Atoi(toks[i]); err != nil {
			return unescapeToken(toks[i])
		}
	}
	return ""
}

// TestRuleCases is one case (at least) per rule of SPEC section 1 on a generated document and
// the corpus document it stands in for.
func TestRuleCases(t *testing.T) {
	type tc struct {
		name     string
		doc      string
		edit     func(t *testing.T, v any)
		expectID string
		ptr      string
		rules    []string
	}
	appendRelease := func(v any, from int, version string) {
		rels := arr(v, "/releases")
		c := deepCopy(rels[from]).(map[string]any)
		c["version"] = version
		obj(v, "")["releases"] = append(rels, c)
	}
	cases := []tc{
		{"id differs from the index entry", candlelight, nil, "00000000-0000-4000-8000-000000000000", "/project/id", []string{RuleIDMatch}},
		{"channel head stated older than the recomputed head", candlelight, func(t *testing.T, v any) {
			obj(v, "/channels/stable")["version"] = "1.0.0"
		}, "", "/channels/stable/version", []string{RuleChannelHeads}},
		{"channel with a head missing from channels", candlelight, func(t *testing.T, v any) {
			delete(obj(v, "/channels"), "development")
		}, "", "/channels/development", []string{RuleChannelHeads}},
		{"channel without an available release present", candlelight, func(t *testing.T, v any) {
			obj(v, "/channels")["beta"] = map[string]any{"version": "1.1.0"}
		}, "", "/channels/beta", []string{RuleChannelHeads}},
		{"yanking the head moves it to the next available release", candlelight, func(t *testing.T, v any) {
			r := obj(v, "/releases/1")
			r["status"], r["yanked"] = "yanked", map[string]any{"reason": "broken save games"}
		}, "", "/channels/stable/version", []string{RuleChannelHeads}},
		{"a channel whose only release is deprecated must be absent", candlelight, func(t *testing.T, v any) {
			r := obj(v, "/releases/0")
			r["status"], r["deprecated"] = "deprecated", map[string]any{"reason": "superseded"}
		}, "", "/channels/development", []string{RuleChannelHeads}},
		{"two releases with the same version", candlelight, func(t *testing.T, v any) {
			appendRelease(v, 2, "1.0.0")
		}, "", "/releases/3/version", []string{RuleUniquePrecedence}},
		{"numeric 1.1 has the precedence of 1.1.0", candlelight, func(t *testing.T, v any) {
			obj(v, "/releases/2")["version"] = "1.1"
		}, "", "/releases/2/version", []string{RuleUniquePrecedence}},
		{"build metadata does not make a new precedence", candlelight, func(t *testing.T, v any) {
			obj(v, "/releases/2")["version"] = "1.1.0+rebuild.2"
		}, "", "/releases/2/version", []string{RuleUniquePrecedence}},
		{"decimal 0.50 has the precedence of 0.5", lightFixes, func(t *testing.T, v any) {
			first := obj(v, "/releases/0")["version"].(string)
			i := strings.IndexAny(first, "-+")
			if i < 0 {
				i = len(first)
			}
			appendRelease(v, 0, first[:i]+"0"+first[i:])
		}, "", "", nil},
		{"numeric version with a leading zero", candlelight, func(t *testing.T, v any) {
			obj(v, "/releases/2")["version"] = "1.00.0"
		}, "", "/releases/2/version", []string{RuleVersionScheme}},
		{"numeric pre-release identifier with a leading zero", candlelight, func(t *testing.T, v any) {
			obj(v, "/releases/0")["version"] = "1.1.1-dev.00"
		}, "", "/releases/0/version", []string{RuleVersionScheme}},
		{"channel version that does not parse under the scheme", candlelight, func(t *testing.T, v any) {
			obj(v, "/channels/stable")["version"] = "1.01.0"
		}, "", "/channels/stable/version", []string{RuleVersionScheme}},
		{"yanked replacement that does not parse under the scheme", openmwConfig, func(t *testing.T, v any) {
			for i, r := range arr(v, "/releases") {
				if y, ok := r.(map[string]any)["yanked"].(map[string]any); ok {
					y["replacement"] = "1.05"
					if i != yankedAt(t, v) {
						t.Fatal("yanked release moved")
					}
				}
			}
		}, "", "", nil},
		{"yanked status without a yanked notice", candlelight, func(t *testing.T, v any) {
			obj(v, "/releases/2")["status"] = "yanked"
		}, "", "/releases/2/yanked", []string{RuleStatusNotice}},
		{"deprecated notice on an available release", candlelight, func(t *testing.T, v any) {
			obj(v, "/releases/2")["deprecated"] = map[string]any{"reason": "old"}
		}, "", "/releases/2/deprecated", []string{RuleStatusNotice}},
		{"yanked notice left on a release made available again", openmwConfig, func(t *testing.T, v any) {
			obj(v, Pointer("releases", yankedAt(t, v)))["status"] = "available"
		}, "", "", nil},
		{"extension namespace neither openmw nor dotted", candlelight, func(t *testing.T, v any) {
			obj(v, "/releases/0/extensions")["tes3mp"] = map[string]any{}
		}, "", "/releases/0/extensions/tes3mp", []string{RuleExtensionNamespace, "propertyNames"}},
		{"critical extension neither openmw nor dotted", candlelight, func(t *testing.T, v any) {
			r := obj(v, "/releases/0")
			r["critical_extensions"] = append(r["critical_extensions"].([]any), "Tes3mp")
		}, "", "/releases/0/critical_extensions/1", []string{RuleExtensionNamespace}},
		{"unknown core field", candlelight, func(t *testing.T, v any) {
			obj(v, "/releases/0")["homepage"] = "https://example.org/"
		}, "", "/releases/0/homepage", []string{"additionalProperties"}},
		{"runtime constraint under the numeric scheme", candlelight, func(t *testing.T, v any) {
			obj(v, "/releases/0/runtimes")["openmw"] = ">=0.049"
		}, "", "/releases/0/runtimes/openmw", []string{RuleConstraint}},
		{"lua_api constraint under the numeric scheme", candlelight, func(t *testing.T, v any) {
			obj(v, "/releases/0/extensions/openmw")["lua_api"] = ">= 0.049"
		}, "", "/releases/0/extensions/openmw/lua_api", []string{RuleConstraint}},
		{"caret constraint", candlelight, func(t *testing.T, v any) {
			obj(v, "/releases/0/runtimes")["openmw"] = "^0.49"
		}, "", "/releases/0/runtimes/openmw", []string{RuleConstraint, "pattern"}},
		{"relationship version without a project", candlelight, func(t *testing.T, v any) {
			obj(v, relWithout(t, v, "project"))["version"] = ">=1.0"
		}, "", "", nil},
		{"capability on a compatible relationship", candlelight, func(t *testing.T, v any) {
			r := obj(v, relWithout(t, v, "project"))
			r["kind"], r["capability"] = "compatible", "lighting"
		}, "", "", nil},
		{"relationship naming both project and capability", candlelight, func(t *testing.T, v any) {
			obj(v, relWith(t, v, "project"))["capability"] = "lighting"
		}, "", "", nil},
		{"binary artifact without platform", dreamIni, func(t *testing.T, v any) {
			delete(obj(v, artifactOf(t, v, "binary")), "platform")
		}, "", "", nil},
		{"crate artifact served as application/zip", openmwConfig, func(t *testing.T, v any) {
			obj(v, artifactOf(t, v, "crate"))["media_type"] = "application/zip"
		}, "", "", nil},
		{"size written as 1.0", candlelight, func(t *testing.T, v any) {
			obj(v, "/releases/0/artifacts/0")["size"] = jsonNumber("1.0")
		}, "", "/releases/0/artifacts/0/size", []string{RuleInteger}},
		{"size beyond int64", candlelight, func(t *testing.T, v any) {
			obj(v, "/releases/0/artifacts/0")["size"] = jsonNumber("9223372036854775808")
		}, "", "/releases/0/artifacts/0/size", []string{"maximum"}},
		{"site index projects not sorted by id", stashIndex, func(t *testing.T, v any) {
			p := arr(v, "/projects")
			p[0], p[1] = p[1], p[0]
		}, "", "/projects/1/id", []string{RuleIndexOrder}},
		{"site index lists an id twice", stashIndex, func(t *testing.T, v any) {
			p := arr(v, "/projects")
			p[1] = deepCopy(p[0])
		}, "", "/projects/1/id", []string{RuleIndexUniqueID}},
		{"site index channel version that is not a version", stashIndex, func(t *testing.T, v any) {
			obj(v, "/projects/0/channels")["development"] = "1.0-01"
		}, "", "/projects/0/channels/development", []string{RuleVersionScheme}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			eachTree(t, c.doc, func(t *testing.T, v any) {
				ptr, rules := c.ptr, c.rules
				if c.edit != nil {
					c.edit(t, v)
				}
				// Cases whose pointer depends on the document compute it after the edit.
				if ptr == "" {
					ptr, rules = dynamicExpectation(t, c.name, v)
				}
				b := encode(nil, v)
				var fs []Finding
				if strings.HasSuffix(c.doc, "/dreamweave.json") {
					_, fs = ValidateIndex(b)
				} else {
					_, fs = ValidateManifest(b, c.expectID)
				}
				want(t, fs, ptr, rules...)
				if IsNewerProtocol(fs) || IsNotDreamWeave(fs) || IsRefused(fs) {
					t.Errorf("an invalid document was classified as newer/not DreamWeave/refused: %v", fs)
				}
			})
		})
	}
}

// dynamicExpectation gives pointer and rules for cases whose target is found in the document.
func dynamicExpectation(t *testing.T, name string, v any) (string, []string) {
	switch name {
	case "decimal 0.50 has the precedence of 0.5":
		return Pointer("releases", len(arr(v, "/releases"))-1, "version"), []string{RuleUniquePrecedence}
	case "yanked replacement that does not parse under the scheme":
		return Pointer("releases", yankedAt(t, v), "yanked", "replacement"), []string{RuleVersionScheme}
	case "yanked notice left on a release made available again":
		return Pointer("releases", yankedNoticeAt(t, v), "yanked"), []string{RuleStatusNotice}
	case "relationship version without a project":
		return findKey(t, v, "/releases", "relationships", "version", func(r map[string]any) bool { return r["project"] == nil }), []string{RuleRelationshipVersion}
	case "capability on a compatible relationship":
		return findKey(t, v, "/releases", "relationships", "capability", func(r map[string]any) bool { return r["kind"] == "compatible" }), []string{RuleRelationshipCapabity}
	case "relationship naming both project and capability":
		return findKey(t, v, "/releases", "relationships", "capability", func(r map[string]any) bool { return r["project"] != nil }), []string{RuleRelationshipTarget}
	case "binary artifact without platform":
		return artifactOf(t, v, "binary") + "/platform", []string{"required"}
	case "crate artifact served as application/zip":
		return artifactOf(t, v, "crate") + "/media_type", []string{"const"}
	}
	t.Fatalf("no expectation for %q", name)
	return "", nil
}

func yankedAt(t *testing.T, v any) int {
	for i, r := range arr(v, "/releases") {
		if r.(map[string]any)["status"] == "yanked" {
			return i
		}
	}
	t.Fatal("no yanked release")
	return -1
}

func yankedNoticeAt(t *testing.T, v any) int {
	for i, r := range arr(v, "/releases") {
		if r.(map[string]any)["yanked"] != nil {
			return i
		}
	}
	t.Fatal("no yanked notice")
	return -1
}

// relWithout/relWith return the pointer of the first relationship without/with field key.
func relWithout(t *testing.T, v any, key string) string { return relWhere(t, v, key, false) }
func relWith(t *testing.T, v any, key string) string    { return relWhere(t, v, key, true) }

func relWhere(t *testing.T, v any, key string, has bool) string {
	for i, r := range arr(v, "/releases") {
		for j, rel := range r.(map[string]any)["relationships"].([]any) {
			if _, ok := rel.(map[string]any)[key]; ok == has {
				return Pointer("releases", i, "relationships", j)
			}
		}
	}
	t.Fatalf("no relationship with %s=%v", key, has)
	return ""
}

// findKey returns the pointer of field key in the first item of list under each release that
// has key and satisfies ok.
func findKey(t *testing.T, v any, releases, list, key string, ok func(map[string]any) bool) string {
	for i, r := range arr(v, releases) {
		for j, x := range r.(map[string]any)[list].([]any) {
			m := x.(map[string]any)
			if _, has := m[key]; has && ok(m) {
				return Pointer("releases", i, list, j, key)
			}
		}
	}
	t.Fatalf("no %s with %s", list, key)
	return ""
}

func artifactOf(t *testing.T, v any, format string) string {
	for i, r := range arr(v, "/releases") {
		for j, a := range r.(map[string]any)["artifacts"].([]any) {
			if a.(map[string]any)["format"] == format {
				return Pointer("releases", i, "artifacts", j)
			}
		}
	}
	t.Fatalf("no %s artifact", format)
	return ""
}

// TestAcceptedVariations: edits of documents the protocol allows must stay valid.
func TestAcceptedVariations(t *testing.T) {
	for _, tc := range []struct {
		name, doc string
		edit      func(t *testing.T, v any)
	}{
		{"dotted extension namespace, also critical", candlelight, func(t *testing.T, v any) {
			r := obj(v, "/releases/0")
			obj(v, "/releases/0/extensions")["org.tes3mp"] = map[string]any{"anything": []any{jsonNumber("1")}}
			r["critical_extensions"] = append(r["critical_extensions"].([]any), "org.tes3mp")
		}},
		{"a platform variant no client knows yet", dreamIni, func(t *testing.T, v any) {
			obj(v, artifactOf(t, v, "binary")+"/platform")["variant"] = "retroarch"
		}},
		{"versioning absent means numeric", candlelight, func(t *testing.T, v any) {
			delete(obj(v, "/project"), "versioning")
		}},
		{"constraint with whitespace and several comparators", candlelight, func(t *testing.T, v any) {
			obj(v, "/releases/0/runtimes")["openmw"] = " >= 0.48 , < 0.51 , != 0.49.1-rc.1 "
		}},
		{"informational relationship with neither project nor capability", candlelight, func(t *testing.T, v any) {
			r := obj(v, "/releases/0")
			r["relationships"] = append(r["relationships"].([]any), map[string]any{"kind": "compatible", "name": "Some mod"})
		}},
		{"index entry never updated", stashIndex, func(t *testing.T, v any) {
			obj(v, "/projects/0")["updated"] = nil
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			eachTree(t, tc.doc, func(t *testing.T, v any) {
				tc.edit(t, v)
				b := encode(nil, v)
				var fs []Finding
				if strings.HasSuffix(tc.doc, "/dreamweave.json") {
					_, fs = ValidateIndex(b)
				} else {
					_, fs = ValidateManifest(b, "")
				}
				if len(fs) != 0 {
					t.Errorf("findings: %v", fs)
				}
			})
		})
	}
}

// An id listed twice is found wherever the repeat sits: in an index whose projects are not
// sorted the two entries need not be neighbours.
func TestIndexDuplicateIDApart(t *testing.T) {
	eachTree(t, stashIndex, func(t *testing.T, v any) {
		p := arr(v, "/projects")
		p[2] = deepCopy(p[0])
		_, fs := ValidateIndex(encode(nil, v))
		want(t, fs, "/projects/2/id", RuleIndexUniqueID)
		for _, f := range fs {
			if f.Rule == RuleIndexUniqueID && !strings.Contains(f.Message, "also at /projects/0") {
				t.Errorf("the duplicate does not name its first entry: %s", f.Message)
			}
		}
	})
}
