package view

import (
	"sort"
	"strings"

	"github.com/DreamWeave-MP/ashyams-go/catalog/network"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/pubtext"
)

func Keys(m map[string]bool) []string {
	var out []string
	for k := range m {
		if k != "" {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

// ClaimNames are the distinct names claims publish, in order. Names are display text, and
// two sites may name one project id differently: every name is shown, none is chosen.
func ClaimNames(cs []*network.Claim) []string {
	var out []string
	seen := map[string]bool{}
	for _, c := range cs {
		n := strings.TrimSpace(c.Name)
		if n != "" && !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	return out
}

// ProjectKind is the template of p's project page: "project-one" for an id one site lists,
// a redirect to its claim's page (the page would list that one claim), else "project".
func ProjectKind(p *network.Project) string {
	if len(p.Claims) == 1 {
		return "project-one"
	}
	return "project"
}

// ProjectTitle is a project page's title: the names its claims publish, then the id.
func ProjectTitle(p *network.Project) string {
	names := ClaimNames(p.Claims)
	if len(names) == 0 {
		return "A project no site names"
	}
	plain := make([]string, len(names))
	for i, n := range names {
		plain[i] = pubtext.Plain(n)
	}
	return strings.Join(plain, " / ")
}
