package site

import (
	"bytes"
	"fmt"
	"sort"
	"strings"

	"github.com/DreamWeave-MP/ashyams-go/catalog/network"
)

// GraphFile is the drawn dependency graph, beside the dependencies page.
const GraphFile = "dependencies/graph.svg"

// graphMaxNodes bounds the drawn graph; beyond it the edge table is the only view.
const graphMaxNodes = 120

// graphInfo says what the dependencies page can show of the graph.
type graphInfo struct {
	// File is the SVG's path relative to the output root; "" when no graph was drawn.
	File string
	// Nodes and Edges count what was drawn; Reason says why nothing was drawn.
	Nodes, Edges int
	Reason       string
}

type gnode struct {
	c     *network.Claim
	level int
	row   int
	out   []*network.Claim
}

// graph draws the resolved relationships of current releases (from the model's
// Relationships; self-references left out) as an SVG: one box per claim, dependencies to the
// left of what depends on them, one arrow per (from, to, kind). Layout is deterministic:
// columns by longest path, rows by name.
func (b *builder) graph() (*graphInfo, error) {
	type edge struct {
		from, to *network.Claim
		kind     string
	}
	nodes := map[network.Key]*gnode{}
	var edges []edge
	seen := map[string]bool{}
	for _, r := range b.n.Relationships {
		if r.Self {
			continue
		}
		for _, t := range r.Targets {
			if t.Claim == nil || t.Claim == r.From {
				continue
			}
			k := r.From.Key.String() + ">" + t.Claim.Key.String() + ">" + r.Kind
			if seen[k] {
				continue
			}
			seen[k] = true
			edges = append(edges, edge{r.From, t.Claim, r.Kind})
			for _, c := range []*network.Claim{r.From, t.Claim} {
				if nodes[c.Key] == nil {
					nodes[c.Key] = &gnode{c: c, level: -1}
				}
			}
			nodes[r.From.Key].out = append(nodes[r.From.Key].out, t.Claim)
		}
	}
	if len(edges) == 0 {
		return &graphInfo{Reason: "No current release in the catalog has a relationship that resolves to another claim, so there is nothing to draw."}, nil
	}
	if len(nodes) > graphMaxNodes {
		return &graphInfo{Reason: fmt.Sprintf("%d claims take part in resolved relationships, more than the %d a drawing can show legibly; the table below lists every edge.", len(nodes), graphMaxNodes)}, nil
	}
	// Longest-path levels; an edge back into the current path (a cycle) is ignored.
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
	var all []*gnode
	for _, g := range nodes {
		all = append(all, g)
	}
	sort.Slice(all, func(i, j int) bool {
		a, b := strings.ToLower(all[i].c.Name), strings.ToLower(all[j].c.Name)
		if a != b {
			return a < b
		}
		return all[i].c.Key.Less(all[j].c.Key)
	})
	cols := 0
	for _, g := range all {
		if l := level(g); l+1 > cols {
			cols = l + 1
		}
	}
	rows := make([]int, cols)
	for _, g := range all {
		g.row = rows[g.level]
		rows[g.level]++
	}
	maxRows := 0
	for _, r := range rows {
		if r > maxRows {
			maxRows = r
		}
	}
	const boxW, boxH, colGap, rowGap, pad = 200, 34, 90, 16, 20
	width := pad*2 + cols*boxW + (cols-1)*colGap
	height := pad*2 + maxRows*boxH + (maxRows-1)*rowGap
	pos := func(g *gnode) (x, y int) {
		return pad + g.level*(boxW+colGap), pad + g.row*(boxH+rowGap)
	}
	var s bytes.Buffer
	fmt.Fprintf(&s, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="system-ui, sans-serif" font-size="13">`, width, height, width, height)
	s.WriteString(`<title>Dependencies between current releases in this index</title>`)
	s.WriteString(`<defs><marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0 0 10 5 0 10z" fill="#555"/></marker></defs>`)
	fmt.Fprintf(&s, `<rect width="%d" height="%d" fill="#f7f5f0"/>`, width, height)
	sort.SliceStable(edges, func(i, j int) bool {
		if edges[i].from.Key != edges[j].from.Key {
			return edges[i].from.Key.Less(edges[j].from.Key)
		}
		if edges[i].to.Key != edges[j].to.Key {
			return edges[i].to.Key.Less(edges[j].to.Key)
		}
		return edges[i].kind < edges[j].kind
	})
	for _, e := range edges {
		fx, fy := pos(nodes[e.from.Key])
		tx, ty := pos(nodes[e.to.Key])
		x1, y1 := fx, fy+boxH/2
		x2, y2 := tx+boxW, ty+boxH/2
		if nodes[e.to.Key].level >= nodes[e.from.Key].level { // same column or a cycle: route around the right
			x1, x2 = fx+boxW, tx+boxW
		}
		style := `stroke="#555"`
		switch e.kind {
		case "requires":
		case "recommends":
			style = `stroke="#555" stroke-dasharray="6 4"`
		case "conflicts":
			style = `stroke="#b42318" stroke-dasharray="2 3"`
		default:
			style = `stroke="#999"`
		}
		mx := (x1 + x2) / 2
		if x1 == x2 {
			mx = x1 + colGap/2
		}
		fmt.Fprintf(&s, `<path d="M%d %d C%d %d %d %d %d %d" fill="none" stroke-width="1.5" %s marker-end="url(#arrow)"><title>`, x1, y1, mx, y1, mx, y2, x2, y2, style)
		xmlEscape(&s, e.from.Name+" "+e.kind+" "+e.to.Name)
		s.WriteString(`</title></path>`)
	}
	for _, g := range all {
		x, y := pos(g)
		fmt.Fprintf(&s, `<g><title>`)
		xmlEscape(&s, g.c.Name+" ("+g.c.Site+")")
		fmt.Fprintf(&s, `</title><rect x="%d" y="%d" width="%d" height="%d" rx="5" fill="#fff" stroke="#3b4a6b"/>`, x, y, boxW, boxH)
		fmt.Fprintf(&s, `<text x="%d" y="%d" fill="#1d1f24">`, x+8, y+22)
		xmlEscape(&s, clip(g.c.Name, 26))
		s.WriteString(`</text></g>`)
	}
	s.WriteString(`</svg>`)
	if err := b.write(GraphFile, s.Bytes()); err != nil {
		return nil, err
	}
	return &graphInfo{File: GraphFile, Nodes: len(all), Edges: len(edges)}, nil
}

// clip shortens s to at most n runes, marking the cut.
func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
