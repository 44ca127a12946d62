// Package graph lays out and draws the dependency graph of the listed claims as SVG.
package graph

import (
	"bytes"
	"fmt"
	"sort"
	"strings"

	"github.com/DreamWeave-MP/ashyams-go/catalog/network"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/pubtext"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/render"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/wording"
)

// GraphFile is the drawn dependency graph, beside the dependencies page.
const GraphFile = "dependencies/graph.svg"

// graphMaxNodes bounds the drawn graph; beyond it the edge table is the only view.
const graphMaxNodes = 120

// Info says what the dependencies page can show of the graph, and counts what is drawn
// and what is not, so the drawing's alt text matches the table beside it.
type Info struct {
	// File is the SVG's path relative to the output root; "" when no graph was drawn.
	File string
	// Width and Height are the drawing's natural size in CSS pixels.
	Width, Height int
	// Nodes and Edges count the boxes and arrows drawn; Reason says why nothing was drawn.
	Nodes, Edges int
	Reason       string
	// Total counts the relationships the page's table lists (network.Relationships); Drawn
	// those with an arrow (resolved to another claim). The rest are not drawn: Unresolved
	// (a project or capability nobody in this index publishes), Informational (no project
	// or capability to resolve) and Self (resolving only to the claim itself).
	Total, Drawn, Unresolved, Informational, Self int
}

type gnode struct {
	c     *network.Claim
	level int
	row   int
	out   []*network.Claim
}

// gedge is one drawn arrow: from depends on to by kind.
type gedge struct {
	from, to *network.Claim
	kind     string
}

// graph draws the resolved relationships of current releases (from the model's
// Relationships; self-references left out) as an SVG: one box per claim naming the claim and
// its site, dependencies to the left of what depends on them, one arrow per (from, to, kind).
// The returned Info counts what is drawn and what is not, even when nothing is.
func Graph(b *render.Site) (*Info, error) {
	nodes, edges, gi := graphEdges(b.N.Relationships)
	if len(edges) == 0 {
		gi.Reason = "No current release in the catalog has a relationship that resolves to another claim, so there is nothing to draw."
		return gi, nil
	}
	if len(nodes) > graphMaxNodes {
		gi.Reason = fmt.Sprintf("%d claims take part in resolved relationships, more than the %d a drawing can show legibly; the table below lists every relationship.", len(nodes), graphMaxNodes)
		return gi, nil
	}
	l := layoutGraph(nodes, edges)
	if err := b.Write(GraphFile, drawGraph(b, l)); err != nil {
		return nil, err
	}
	gi.File, gi.Width, gi.Height, gi.Nodes, gi.Edges = GraphFile, l.width, l.height, len(l.all), len(l.edges)
	return gi, nil
}

// graphEdges collects the arrows to draw, one per (from, to, kind), the claims they join,
// and counts every relationship as drawn or why not (Info).
func graphEdges(rels []*network.Relationship) (map[network.Key]*gnode, []gedge, *Info) {
	nodes := map[network.Key]*gnode{}
	var edges []gedge
	seen := map[string]bool{}
	gi := &Info{Total: len(rels)}
	for _, r := range rels {
		drawn := false
		for _, t := range r.Targets {
			if r.Self || t.Claim == nil || t.Claim == r.From {
				continue
			}
			drawn = true
			k := r.From.Key.String() + ">" + t.Claim.Key.String() + ">" + r.Kind
			if seen[k] {
				continue
			}
			seen[k] = true
			edges = append(edges, gedge{r.From, t.Claim, r.Kind})
			for _, c := range []*network.Claim{r.From, t.Claim} {
				if nodes[c.Key] == nil {
					nodes[c.Key] = &gnode{c: c, level: -1}
				}
			}
			nodes[r.From.Key].out = append(nodes[r.From.Key].out, t.Claim)
		}
		switch {
		case drawn:
			gi.Drawn++
		case r.Target == network.TargetNeither:
			gi.Informational++
		case len(r.Targets) == 0:
			gi.Unresolved++
		default:
			gi.Self++
		}
	}
	return nodes, edges, gi
}

// The drawing's measures, in CSS pixels: a box, the gaps between columns and rows, the margin.
const graphBoxW, graphBoxH, graphColGap, graphRowGap, graphPad = 210, 46, 90, 16, 20

// graphLayout is where everything goes: each node's column (level) and row, the nodes in name
// order, the edges in key order, and the drawing's size.
type graphLayout struct {
	nodes         map[network.Key]*gnode
	all           []*gnode
	edges         []gedge
	width, height int
}

// layoutGraph places the nodes deterministically: columns by longest path (an edge back into
// the current path, a cycle, is ignored), rows by name within a column.
func layoutGraph(nodes map[network.Key]*gnode, edges []gedge) *graphLayout {
	onPath := map[network.Key]bool{}
	var level func(g *gnode) int
	level = func(g *gnode) int {
		if g.level >= 0 {
			return g.level
		}
		onPath[g.c.Key] = true
		lv := 0
		for _, t := range g.out {
			if onPath[t.Key] {
				continue
			}
			if l := level(nodes[t.Key]) + 1; l > lv {
				lv = l
			}
		}
		onPath[g.c.Key] = false
		g.level = lv
		return lv
	}
	l := &graphLayout{nodes: nodes, edges: edges}
	for _, g := range nodes {
		l.all = append(l.all, g)
	}
	sort.Slice(l.all, func(i, j int) bool {
		a, b := strings.ToLower(l.all[i].c.Name), strings.ToLower(l.all[j].c.Name)
		if a != b {
			return a < b
		}
		return l.all[i].c.Key.Less(l.all[j].c.Key)
	})
	cols := 0
	for _, g := range l.all {
		if lv := level(g); lv+1 > cols {
			cols = lv + 1
		}
	}
	rows := make([]int, cols)
	for _, g := range l.all {
		g.row = rows[g.level]
		rows[g.level]++
	}
	maxRows := 0
	for _, r := range rows {
		if r > maxRows {
			maxRows = r
		}
	}
	l.width = graphPad*2 + cols*graphBoxW + (cols-1)*graphColGap
	l.height = graphPad*2 + maxRows*graphBoxH + (maxRows-1)*graphRowGap
	sort.SliceStable(l.edges, func(i, j int) bool {
		if l.edges[i].from.Key != l.edges[j].from.Key {
			return l.edges[i].from.Key.Less(l.edges[j].from.Key)
		}
		if l.edges[i].to.Key != l.edges[j].to.Key {
			return l.edges[i].to.Key.Less(l.edges[j].to.Key)
		}
		return l.edges[i].kind < l.edges[j].kind
	})
	return l
}

// pos is the top left corner of g's box.
func (l *graphLayout) pos(g *gnode) (x, y int) {
	return graphPad + g.level*(graphBoxW+graphColGap), graphPad + g.row*(graphBoxH+graphRowGap)
}

// drawGraph writes the laid-out graph as SVG: the styles, the arrow heads, one path per edge
// and one box per node, each with a title naming its claims in plain text.
func drawGraph(b *render.Site, l *graphLayout) []byte {
	var s bytes.Buffer
	fmt.Fprintf(&s, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="system-ui, sans-serif" font-size="13">`, l.width, l.height, l.width, l.height)
	s.WriteString(`<title>Dependencies between current releases in this index</title>`)
	// The colours follow the reader's light or dark scheme, as the pages do (assets/site.css),
	// whether the drawing is shown in the page or opened on its own.
	s.WriteString(`<style>` +
		`.bg{fill:#fbfaf7}.box{fill:#fff;stroke:#3b4a6b}.name{fill:#1d1f24}.site{fill:#555b66}` +
		`.edge{stroke:#555;fill:none}.edge.conflicts{stroke:#b42318}.edge.other{stroke:#999}.head{fill:#555}.head.conflicts{fill:#b42318}.head.other{fill:#999}` +
		`@media (prefers-color-scheme:dark){.bg{fill:#15171b}.box{fill:#1e2127;stroke:#8ab4ff}.name{fill:#e6e4df}.site{fill:#a4a9b3}` +
		`.edge{stroke:#a4a9b3}.edge.conflicts{stroke:#ff8a80}.edge.other{stroke:#6b7280}.head{fill:#a4a9b3}.head.conflicts{fill:#ff8a80}.head.other{fill:#6b7280}}` +
		`</style>`)
	s.WriteString(`<defs>`)
	for _, m := range []struct{ id, class string }{{"arrow", "head"}, {"arrow-conflicts", "head conflicts"}, {"arrow-other", "head other"}} {
		fmt.Fprintf(&s, `<marker id="%s" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0 0 10 5 0 10z" class="%s"/></marker>`, m.id, m.class)
	}
	s.WriteString(`</defs>`)
	fmt.Fprintf(&s, `<rect class="bg" width="%d" height="%d"/>`, l.width, l.height)
	for _, e := range l.edges {
		drawEdge(b, &s, l, e)
	}
	for _, g := range l.all {
		x, y := l.pos(g)
		s.WriteString(`<g><title>`)
		render.XMLEscape(&s, b.Names.ClaimText(g.c)+", site "+g.c.Site)
		fmt.Fprintf(&s, `</title><rect x="%d" y="%d" width="%d" height="%d" rx="5" class="box"/>`, x, y, graphBoxW, graphBoxH)
		fmt.Fprintf(&s, `<text x="%d" y="%d" class="name">`, x+8, y+19)
		render.XMLEscape(&s, pubtext.Plain(wording.Clip(g.c.Name, 27)))
		fmt.Fprintf(&s, `</text><text x="%d" y="%d" class="site" font-size="11">`, x+8, y+36)
		render.XMLEscape(&s, "from "+pubtext.Plain(wording.Clip(b.Names.ClaimSiteText(g.c), 29)))
		s.WriteString(`</text></g>`)
	}
	s.WriteString(`</svg>`)
	return s.Bytes()
}

// drawEdge writes one arrow: from the left of the depending box to the right of its
// dependency, or around the right when both are in one column or the edge closes a cycle;
// dashed for recommends, dotted red for conflicts, grey for the other kinds.
func drawEdge(b *render.Site, s *bytes.Buffer, l *graphLayout, e gedge) {
	from, to := l.nodes[e.from.Key], l.nodes[e.to.Key]
	fx, fy := l.pos(from)
	tx, ty := l.pos(to)
	x1, y1 := fx, fy+graphBoxH/2
	x2, y2 := tx+graphBoxW, ty+graphBoxH/2
	if to.level >= from.level {
		x1, x2 = fx+graphBoxW, tx+graphBoxW
	}
	class, marker, dash := "edge", "arrow", ""
	switch e.kind {
	case "requires":
	case "recommends":
		dash = ` stroke-dasharray="6 4"`
	case "conflicts":
		class, marker, dash = "edge conflicts", "arrow-conflicts", ` stroke-dasharray="2 3"`
	default:
		class, marker = "edge other", "arrow-other"
	}
	mx := (x1 + x2) / 2
	if x1 == x2 {
		mx = x1 + graphColGap/2
	}
	fmt.Fprintf(s, `<path d="M%d %d C%d %d %d %d %d %d" class="%s" stroke-width="1.5"%s marker-end="url(#%s)"><title>`, x1, y1, mx, y1, mx, y2, x2, y2, class, dash, marker)
	render.XMLEscape(s, b.Names.ClaimText(e.from)+" "+e.kind+" "+b.Names.ClaimText(e.to))
	s.WriteString(`</title></path>`)
}
