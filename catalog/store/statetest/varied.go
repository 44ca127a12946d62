package statetest

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/DreamWeave-MP/ashyams-go/catalog/diff"
	"github.com/DreamWeave-MP/ashyams-go/catalog/protocol"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
)

// Varied writes at root a state of n claims shaped like the real network, only larger, for
// the page-size benchmarks; the same n writes the same bytes. It varies site sizes, releases,
// notes, components, tags, requirements, capabilities, gaps, identity conflicts, unreachable,
// unread, withdrawn and unenrolled sites.
func Varied(tb testing.TB, root string, n int) {
	s := In(tb, root)
	v := &varied{s: s, n: n}
	for size, k := n/8, 0; v.claims < n; k++ {
		if size < 20 {
			size = []int{1, 3, 1, 12, 2, 6, 1, 25, 4, 9}[k%10]
		}
		v.site(k, min(size, n-v.claims))
		size /= 2
	}
}

type varied struct {
	s         *State
	n, claims int
	ids       []string // the project id of each claim written, in order
}

// mix is a deterministic hash of i and salt, the generator's only source of variety.
func mix(i, salt int) int {
	x := uint64(i)*0x9e3779b97f4a7c15 + uint64(salt)*0xbf58476d1ce4e5b9
	x ^= x >> 31
	x *= 0x94d049bb133111eb
	return int((x ^ x>>29) >> 1)
}

func pick[T any](xs []T, i, salt int) T { return xs[mix(i, salt)%len(xs)] }

// site writes site k with size claims; every 37th site is unreachable and site 5 unenrolled.
func (v *varied) site(k, size int) {
	s := v.s
	host := fmt.Sprintf("https://%s-%d.example/mods/dreamweave.json", strings.ToLower(pick(vWords, k, 1)), k)
	id := s.Site(host, pick(vWords, k, 2)+" "+pick(vNouns, k, 3)+" Mods")
	bad := k%37 == 36
	if bad || k == 5 {
		var o store.Origin
		if err := s.Dir.ReadJSON(store.OriginPath(id), &o); err != nil {
			s.TB.Fatal(err)
		}
		if bad {
			o.Health, o.Problem = store.OriginUnreachable, new("HTTP 503 for the site index")
			o.Issues = []string{"the site index lists a project twice"}
		} else {
			o.Sources = []string{}
			src := host[:len(host)-len("dreamweave.json")]
			s.Write(store.SourcePath(store.SourceID(src)), store.Source{URL: src, Health: store.SourceRemoved, Trail: []store.TrailStep{}, LastAttempt: Time})
		}
		s.Write(store.OriginPath(id), o)
	}
	for range size {
		v.claim(id, bad, k == 5)
	}
}

func (v *varied) claim(site string, cached, gone bool) {
	i := v.claims
	v.claims++
	pid := hashID(i)
	if i%150 == 149 { // an identity conflict: an earlier project's id on this site too
		pid = v.ids[mix(i, 4)%len(v.ids)]
	}
	v.ids = append(v.ids, pid)
	m := v.manifest(i, pid)
	edit := func(c *store.Claim) {
		switch {
		case gone || i%100 == 41:
			c.Health, c.Problem = store.ClaimWithdrawn, new("the site index no longer lists the project")
		case cached:
			c.Health, c.Problem = store.ClaimOriginUnavailable, new("HTTP 503 for the site index")
		case i%60 == 17:
			c.Health, c.Problem = store.ClaimInvalid, new("releases[0].version: not a version under the numeric scheme")
			c.AdvertisedSHA256 = store.Digest([]byte(pid))
		}
	}
	if i%250 == 123 { // never read: no manifest held
		v.s.Write(store.ClaimPath(pid, site), store.Claim{Project: pid, Origin: site,
			Entry: protocol.IndexEntry{ID: pid, Name: m.Project.Name, Type: m.Project.Type, Status: m.Project.Status, Page: m.Project.Links.Page,
				Manifest: m.Project.Links.Page + "dreamweave.json", ManifestSHA256: store.Digest([]byte(pid)), Channels: map[string]string{}},
			AdvertisedSHA256: store.Digest([]byte(pid)), Health: store.ClaimManifestUnreachable, Problem: new("HTTP 404 for the manifest"),
			FirstObserved: FirstObserved, LastAttempt: Time})
		return
	}
	d := v.s.Claim(site, m, edit)
	v.s.Event(store.Event{Kind: store.EventObserved, Project: pid, Origin: site, Name: m.Project.Name,
		ObservedAt: fmt.Sprintf("2026-09-%02dT%02d:%02d:00Z", 1+i%28, i%24, i%60), After: &d, Changes: []diff.Change{}})
}

func (v *varied) manifest(i int, pid string) *protocol.Manifest {
	name := pick(vWords, i, 5) + " " + pick(vNouns, i, 6)
	if i%3 > 0 {
		name += " " + pick(vWords, i, 7)
	}
	name = fmt.Sprintf("%s %d", name, i)
	page := fmt.Sprintf("https://mods.example/%d/", i)
	m := Manifest(pid, name, pick([]string{"numeric", "numeric", "numeric", "decimal"}, i, 8))
	p := &m.Project
	p.Summary = prose(i, 9, 1)
	p.Type = pick([]string{"mod", "mod", "mod", "mod", "library", "framework", "tool", "assets", "total-conversion", "documentation"}, i, 10)
	p.Status = pick([]string{"active", "active", "active", "maintenance", "experimental", "deprecated", "archived"}, i, 11)
	p.Tags = []string{pick(vCommonTags, i, 12)}
	for t := 0; t < mix(i, 13)%4; t++ { // rare tags: most are on one to three claims
		p.Tags = append(p.Tags, fmt.Sprintf("%s %d", pick(vNouns, i, 14+t), mix(i, 18+t)%(v.n/3+1)))
	}
	p.Maintainers = []protocol.Person{{Name: pick(vPeople, i, 22), URL: page + "people/"}}
	if i%4 == 0 {
		p.Credits = []protocol.Credit{{Name: pick(vPeople, i, 23), Role: "textures"}}
	}
	p.Links = protocol.Links{Page: page, Source: "https://git.example/" + pid, Issues: "https://git.example/" + pid + "/issues"}
	k := 2 + mix(i, 24)%4
	for r := k - 1; r >= 0; r-- {
		m.Releases = append(m.Releases, v.release(i, r, k, m.Project.Versioning == "decimal"))
	}
	for _, r := range m.Releases {
		if r.Status == protocol.StatusAvailable {
			if _, ok := m.Channels[r.Channel]; !ok {
				m.Channels[r.Channel] = protocol.ChannelHead{Version: r.Version}
			}
		}
	}
	return m
}

// release is release r (0 the oldest) of claim i's k, some development, beta, yanked or
// deprecated.
func (v *varied) release(i, r, k int, decimal bool) protocol.Release {
	ver, ch := fmt.Sprintf("1.%d.%d", r, mix(i, r)%9), "stable"
	if decimal {
		ver = fmt.Sprintf("1.%02d", r+1)
	}
	switch {
	case r == k-1 && i%3 == 0:
		ver, ch = ver+fmt.Sprintf("-dev.%d", 1+mix(i, 25)%40), "development"
	case r == k-1 && i%5 == 1:
		ver, ch = ver+"-beta.1", "beta"
	}
	rel := Release(ver, ch, nil)
	rel.Artifacts[0].Filename = fmt.Sprintf("varied-%d-%s.zip", i, ver)
	rel.Artifacts[0].Digests.SHA256 = hashHex(i, ver)
	rel.Date = fmt.Sprintf("2026-%02d-%02d", 1+(i+r)%9, 1+mix(i, r+30)%28)
	if r < k-1 && mix(i, r+40)%20 == 0 {
		rel.Status, rel.Deprecated = protocol.StatusDeprecated, &protocol.Notice{Reason: prose(i, r+41, 1)}
	}
	rel.Notes = &protocol.Notes{Summary: prose(i, r+50, 2+mix(i, r+51)%6)}
	if r == k-1 || mix(i, r+52)%2 == 0 {
		rel.Notes.Added = []string{prose(i, r+53, 1), prose(i, r+54, 2)}
		rel.Notes.Fixed = []string{prose(i, r+55, 1)}
		rel.Notes.Notes = "Set it up with:\n\n```\n[Game]\nsetting " + fmt.Sprint(i) + " = true\n```\n\n" + prose(i, r+56, 3)
	}
	rel.Runtimes = map[string]string{"openmw": pick([]string{">=0.49", ">=0.48, <0.50", "*", ">=0.50"}, i, r+60)}
	comps, ext := []protocol.Component{}, protocol.OpenMW{Components: map[string]protocol.OpenMWComponent{}, RequiresContent: []string{}, Settings: []protocol.OpenMWSetting{}}
	for c := 0; c <= mix(i, 61)%3; c++ {
		id := fmt.Sprintf("part%d", c)
		comps = append(comps, protocol.Component{ID: id, Name: "Part " + fmt.Sprint(c), Path: id, Required: c == 0, Default: true,
			Requires: []string{}, Conflicts: []string{}, SuggestedWith: []string{}})
		ext.Components[id] = protocol.OpenMWComponent{DataDirectories: []string{"."}, ContentFiles: []string{fmt.Sprintf("Varied %d-%d.esp", i, c)},
			GroundcoverFiles: []string{}, FallbackArchives: []string{}, FallbackEntries: map[string]string{}, RequiresContent: []string{"Morrowind.esm"}}
	}
	if i%4 == 0 {
		ext.LuaAPI = ">=60"
	}
	b, err := json.Marshal(ext)
	if err != nil {
		v.s.TB.Fatal(err)
	}
	rel.Components, rel.Extensions["openmw"] = comps, b
	if i%25 == 0 {
		rel.Provides = []string{fmt.Sprintf("varied:cap-%d", i/25)}
	}
	if i%200 == 3 {
		rel.Provides = append(rel.Provides, "varied:shared")
	}
	rel.Relationships = v.relationships(i, r)
	return rel
}

// relationships of release r of claim i: mostly requirements of earlier claims, some
// capabilities, conflicts and names nobody publishes.
func (v *varied) relationships(i, r int) []protocol.Relationship {
	out := []protocol.Relationship{}
	add := func(every, salt int, rel protocol.Relationship) {
		if mix(i, salt)%every == 0 {
			out = append(out, rel)
		}
	}
	if i > 0 {
		add(2, 70, Requires(v.earlier(71), pick([]string{"", ">=1.0", ">=1.1, <2", "<1.2"}, i, 72)))
		add(3, 88, Requires(v.ids[mix(i, 89)%min(i, 40)], "")) // the frameworks many need
	}
	if i > 25 {
		add(4, 73, protocol.Relationship{Kind: protocol.KindRecommends, Capability: fmt.Sprintf("varied:cap-%d", mix(i, 74)%(i/25))})
		add(30, 90, protocol.Relationship{Kind: protocol.KindRequires, Capability: "varied:shared"})
		add(15, 75, protocol.Relationship{Kind: protocol.KindConflicts, Project: v.earlier(76), Reason: prose(i, 77, 1)})
	}
	add(40, 78+r, Requires(hashID(-1-mix(i, 79)%(v.n/20+1)), ">=2"))
	add(60, 80, protocol.Relationship{Kind: protocol.KindRequires, Capability: fmt.Sprintf("varied:missing-%d", mix(i, 81)%50)})
	add(10, 82+r, protocol.Relationship{Kind: protocol.KindRecommends, Name: pick(vNouns, i, 83) + " pack", URL: fmt.Sprintf("https://elsewhere-%d.example/", mix(i, 84)%200)})
	add(12, 85, protocol.Relationship{Kind: protocol.KindCompatible, Name: pick(vWords, i, 86) + " " + pick(vNouns, i, 87)})
	return out
}

// earlier is the project id of a claim written before the last one, chosen by salt.
func (v *varied) earlier(salt int) string {
	i := len(v.ids) - 1
	return v.ids[mix(i, salt)%max(i, 1)]
}

// hashID is a lowercase UUID made from i, spread over the id space as real ids are.
func hashID(i int) string {
	h := hashHex(i, "")
	return h[0:8] + "-" + h[8:12] + "-4" + h[13:16] + "-8" + h[17:20] + "-" + h[20:32]
}

func hashHex(i int, s string) string {
	h := sha256.Sum256([]byte(fmt.Sprint("varied", i, s)))
	return hex.EncodeToString(h[:])
}

// prose is k sentences chained from the word lists, with inline code and emphasis now and then.
func prose(i, salt, k int) string {
	var b strings.Builder
	for s := range k {
		if s > 0 {
			b.WriteByte(' ')
		}
		h := mix(i, salt*31+s)
		fmt.Fprintf(&b, "%s %s %s the %s %s", vOpen[h%len(vOpen)], strings.ToLower(vWords[h/7%len(vWords)]),
			strings.ToLower(vNouns[h/11%len(vNouns)]), vVerbs[h/13%len(vVerbs)], strings.ToLower(vNouns[h/17%len(vNouns)]))
		switch h % 5 {
		case 0:
			fmt.Fprintf(&b, " in `%s_%d.lua`", strings.ToLower(vNouns[h/19%len(vNouns)]), h%97)
		case 1:
			b.WriteString(", which *also* " + vVerbs[h/23%len(vVerbs)] + " the old " + strings.ToLower(vNouns[h/29%len(vNouns)]))
		}
		b.WriteByte('.')
	}
	return b.String()
}

var (
	vWords      = []string{"Ashen", "Glowing", "Silent", "Better", "Ancient", "Hidden", "Dwemer", "Velothi", "Imperial", "Telvanni", "Mournful", "Bright", "Stormy", "Gilded", "Wandering", "Quiet"}
	vNouns      = []string{"Ashlands", "Lanterns", "Markets", "Caves", "Tombs", "Armor", "Spells", "Roads", "Ships", "Towers", "Guilds", "Books", "Skies", "Banners", "Merchants", "Shrines", "Mushrooms", "Bridges", "Docks", "Scrolls"}
	vVerbs      = []string{"rebalances", "replaces", "fixes", "lights", "rewrites", "adds to", "cleans up", "retextures", "speeds up", "documents"}
	vOpen       = []string{"This release", "The new version", "Now it", "A patch for", "Work on", "This build"}
	vPeople     = []string{"Alvura", "Brelyn", "Caius", "Dravasa", "Elone", "Fargoth", "Galbedir", "Hlormar", "Ienas", "Jiub"}
	vCommonTags = []string{"Gameplay", "OpenMW-Lua", "User Interface", "Quests", "Textures", "Lighting", "Audio", "Combat", "Tools", "Framework", "Patches", "Landmass"}
)
