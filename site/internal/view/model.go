// Package view computes what the pages show of the network model: a claim as every page links
// and lists it (ClaimRef, Summary), sites, sources, relationships, moves and capabilities as
// rows, and the events with their headlines and tags (Derived). Templates print these fields;
// no template computes them.
package view

import (
	"github.com/DreamWeave-MP/ashyams-go/catalog/network"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/cards"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/names"
)

// Model is one build's network with what every page reads of it, computed once.
type Model struct {
	N *network.Network
	// Names are the display names shared by sites: those sites are named with their id.
	Names *names.Names
	// Looks are the projects whose names look alike.
	Looks names.Projects
	// Refs is every claim as the pages link and list it.
	Refs map[*network.Claim]*ClaimRef
	// Cards are the claims' card images.
	Cards map[network.Key]*cards.Image
	// Derived are the events as the pages show them.
	Derived *Derived
	// Health is the health list's entries, in order, and where each is.
	Health *HealthList
	// gaps is where each gap is listed (gapLinks).
	gaps map[*network.Gap]string
}

// NewModel computes the model's names, references and events; the cards are set by the
// caller once they are rendered.
func NewModel(n *network.Network) *Model {
	m := &Model{N: n, Names: names.New(n), Looks: names.NewProjects(n), Health: newHealthList(n)}
	m.Refs = ClaimRefs(n, m.Names, m.Health)
	m.gaps = gapLinks(n.Gaps)
	return m
}
