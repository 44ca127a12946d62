package names

import (
	"net/url"
	"strings"
	"unicode"

	"github.com/mtibben/confusables"
	"golang.org/x/text/cases"

	"github.com/DreamWeave-MP/ashyams-go/catalog/network"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/pubtext"
)

// Names knows which display names (site_name) more than one site gives itself, compared
// as a reader sees them (Key). Such a site is named with its site id added, as an identity
// conflict's claims are (ClaimSiteText): sites are told apart, none preferred (SPEC
// section 5).
type Names struct {
	shared map[string]bool // each display name, as given, whose Key two or more sites hold
}

// Key is how display names are compared, so names a reader cannot tell apart are one:
// default-ignorable code points dropped, the UTS #39 confusable skeleton taken, case
// folded and the skeleton taken again, and white space runs one space, trimmed.
func Key(s string) string {
	s = strings.Map(func(r rune) rune {
		if unicode.In(r, unicode.Cf, unicode.Variation_Selector, unicode.Other_Default_Ignorable_Code_Point) {
			return -1
		}
		return r
	}, s)
	s = confusables.Skeleton(foldCase.String(confusables.Skeleton(s)))
	return strings.Join(strings.FieldsFunc(s, unicode.IsSpace), " ")
}

// foldCase is Unicode full case folding (golang.org/x/text/cases).
var foldCase = cases.Fold()

// Address is a site's address as this index read it: its index URL's host, with the
// directory when withPath ("lanterns.example/mods/"), telling sites apart whatever they
// call themselves.
func Address(o *network.Origin, withPath bool) string {
	if o == nil {
		return ""
	}
	u, err := url.Parse(o.IndexURL)
	if err != nil || u.Host == "" {
		return o.IndexURL
	}
	if !withPath {
		return u.Host
	}
	return u.Host + u.EscapedPath()[:strings.LastIndexByte(u.EscapedPath(), '/')+1]
}

// New finds the display names shared by sites of n.
func New(n *network.Network) *Names {
	keys, count := map[string]string{}, map[string]int{}
	for _, o := range n.Origins {
		if o.SiteName != nil {
			if k := Key(*o.SiteName); k != "" {
				keys[*o.SiteName] = k
				count[k]++
			}
		}
	}
	s := &Names{shared: map[string]bool{}}
	for name, k := range keys {
		s.shared[name] = count[k] > 1
	}
	return s
}

// OriginShared reports whether another site of the network gives itself o's display name.
func (s *Names) OriginShared(o *network.Origin) bool {
	return s != nil && o != nil && o.SiteName != nil && s.shared[*o.SiteName]
}

// SharedName reports whether c's site must be named with its site id: another site or
// another claim of c's project id is labelled the same.
func (s *Names) SharedName(c *network.Claim) bool {
	if c == nil {
		return false
	}
	if s.OriginShared(c.Origin) {
		return true
	}
	if c.Conflict == nil {
		return false
	}
	l := SiteLabel(c)
	for _, o := range c.Conflict.Claims {
		if o != c && SiteLabel(o) == l {
			return true
		}
	}
	return false
}

// ClaimSiteText is how running text names the site of claim c: its name (SiteLabel), with
// this index's id for the site added when SharedName says so ("Ashfall Collective", or
// "Ashfall (ashfall-example-9c525920)").
func (s *Names) ClaimSiteText(c *network.Claim) string {
	l := SiteLabel(c)
	if s.SharedName(c) && l != c.Site {
		return l + " (" + c.Site + ")"
	}
	return l
}

// OriginText names site o in titles and running text: OriginName, with its id added when
// another site gives itself the same name.
func (s *Names) OriginText(o *network.Origin) string {
	l := OriginName(o)
	if s.OriginShared(o) && l != o.ID {
		return l + " (" + o.ID + ")"
	}
	return l
}

// ClaimText names a claim in plain text (titles, the feed, the graph): "Wickwork (Ashfall
// Collective)", publisher parts made plain (pubtext.Plain).
func (s *Names) ClaimText(c *network.Claim) string {
	return pubtext.Plain(c.Name) + " (" + pubtext.Plain(s.ClaimSiteText(c)) + ")"
}

// Projects groups the catalog's claims by Key, so a claim page can warn that other
// project ids go by a name that looks the same (same ids are an identity conflict).
type Projects map[string][]*network.Claim

// NewProjects groups the listed claims of n by Key, in the catalog's order.
func NewProjects(n *network.Network) Projects {
	p := Projects{}
	for _, c := range n.Listed {
		if k := Key(c.Name); k != "" {
			p[k] = append(p[k], c)
		}
	}
	return p
}

// MaxLookAlikes is how many look-alike claims a claim page names; the rest are counted.
const MaxLookAlikes = 10

// LookAlikes returns the listed claims of other project ids whose name looks like c's (at
// most MaxLookAlikes), and how many more there are.
func (p Projects) LookAlikes(c *network.Claim) (shown []*network.Claim, more int) {
	for _, o := range p[Key(c.Name)] {
		if o.Project == c.Project {
			continue
		}
		if len(shown) < MaxLookAlikes {
			shown = append(shown, o)
		} else {
			more++
		}
	}
	return shown, more
}

// SiteLabel is how a claim's site is named in running text: its own name, else this
// index's id for it.
func SiteLabel(c *network.Claim) string {
	if c == nil {
		return ""
	}
	if o := c.Origin; o != nil && o.SiteName != nil && strings.TrimSpace(*o.SiteName) != "" {
		return *o.SiteName
	}
	return c.Site
}

// OriginName is how a site is named in headings and titles: the name it gives itself, else
// this index's id for it.
func OriginName(o *network.Origin) string {
	if o != nil && o.SiteName != nil && strings.TrimSpace(*o.SiteName) != "" {
		return *o.SiteName
	}
	if o == nil {
		return ""
	}
	return o.ID
}
