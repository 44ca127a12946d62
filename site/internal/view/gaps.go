package view

import (
	"crypto/sha256"
	"encoding/hex"

	"github.com/DreamWeave-MP/ashyams-go/catalog/network"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/paths"
)

// GapsPage is the gaps list's first page.
const GapsPage = "gaps/index.html"

// GapRow is one line of the gaps list: a reference to a gap (nil for a gap without one). A
// gap's references are consecutive, so the list pages by reference, not by gap.
type GapRow struct {
	Gap *network.Gap
	Ref *network.Relationship
}

// GapRows are the rows of the four gap sections, by project id, capability, address and name.
func GapRows(g network.Gaps) [4][]GapRow {
	var out [4][]GapRow
	for i, gs := range [4][]*network.Gap{g.ByProject, g.ByCapability, g.ByURL, g.ByName} {
		for _, gap := range gs {
			if len(gap.References) == 0 {
				out[i] = append(out[i], GapRow{Gap: gap})
			}
			for _, r := range gap.References {
				out[i] = append(out[i], GapRow{gap, r})
			}
		}
	}
	return out
}

// GapAnchor is the id of a gap on the gaps list.
func GapAnchor(g *network.Gap) string {
	s := sha256.Sum256([]byte(string(g.Kind) + "\x00" + g.Key))
	return "gap-" + hex.EncodeToString(s[:4])
}

// gapLinks is where each gap is: the page holding its first row, with its anchor.
func gapLinks(g network.Gaps) map[*network.Gap]string {
	out := map[*network.Gap]string{}
	i := 0
	for _, rows := range GapRows(g) {
		for _, r := range rows {
			if out[r.Gap] == "" {
				out[r.Gap] = paths.PageOf(GapsPage, i) + "#" + GapAnchor(r.Gap)
			}
			i++
		}
	}
	return out
}
