// Package network computes the network model from the state and the curation file (SPEC section
// 4), so that every page and machine-readable file reads one model. A claim is (project id,
// site); names are display text, never matched; moves need evidence. Nothing is ranked.
// Everything exported is sorted by (project, site), origins by site, capabilities and gaps by key.
package network

import (
	"github.com/DreamWeave-MP/ashyams-go/catalog/curation"
	"github.com/DreamWeave-MP/ashyams-go/catalog/protocol"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
	"github.com/DreamWeave-MP/ashyams-go/catalog/version"
)

// Key names a claim: the project id and the site (origin) id.
type Key struct {
	Project string
	Site    string // the site (origin) id
}

// String is "<project>/<site>", the claim's path below projects/ on the site.
func (k Key) String() string { return k.Project + "/" + k.Site }

// Less orders keys by project id, then site id.
func (k Key) Less(o Key) bool {
	if k.Project != o.Project {
		return k.Project < o.Project
	}
	return k.Site < o.Site
}

// Network is the model.
type Network struct {
	State    *store.Network     // network.json; nil before any refresh
	Curation *curation.Curation // never nil
	Sources  []store.Source     // by file name
	Events   []store.Event      // oldest first

	Origins  []*Origin  // by site id
	Claims   []*Claim   // withdrawn ones included, by (project, site)
	Listed   []*Claim   // Claim.Listed, by (project, site)
	Projects []*Project // by id

	// Relationships are the current relationships of the catalog: those of every listed
	// claim's current release, by claim then publisher order.
	Relationships []*Relationship

	Conflicts    []*Conflict   // by project id
	Moves        []*Move       // by From, then To.Site
	Capabilities []*Capability // provided or referenced, by name
	Gaps         Gaps
	Cycles       []*Cycle
	Featured     []*Featured // in file order
	// Unmatched says, in words, which curation entries matched nothing in the state. Shown,
	// not fatal.
	Unmatched []string

	ByKey            map[Key]*Claim         // Claims by key
	ByProject        map[string]*Project    // Projects by id
	OriginByID       map[string]*Origin     // Origins by site id
	CapabilityByName map[string]*Capability // Capabilities by name
}

// Claim returns the claim (project, site), or nil.
func (n *Network) Claim(project, site string) *Claim { return n.ByKey[Key{project, site}] }

// Project returns the project with this id, or nil.
func (n *Network) Project(id string) *Project { return n.ByProject[id] }

// Origin returns the site with this id, or nil.
func (n *Network) Origin(id string) *Origin { return n.OriginByID[id] }

// Capability returns the capability with this name, or nil.
func (n *Network) Capability(name string) *Capability { return n.CapabilityByName[name] }

// Origin is a site index: its record, and its claims.
type Origin struct {
	store.Origin          // Health as a catalog v1 token
	Claims       []*Claim // withdrawn ones included, by project id
	Listed       []*Claim // by project id
}

// Project is every claim for one project id.
type Project struct {
	ID       string   // the project id, a lowercase UUID as published
	Claims   []*Claim // by site
	Listed   []*Claim // by site
	Conflict *Conflict
	Featured *Featured
}

// Claim is one (project id, site) pair with its held manifest.
type Claim struct {
	Key
	Record       store.Claim
	Health       string // a catalog v1 claim_health token
	Origin       *Origin
	Manifest     *protocol.Manifest // the held (last good) manifest; nil when none
	ManifestPath string             // relative to the state directory
	// HeldSHA256 is the held manifest's digest: the record's ingested_sha256, or its
	// pending_sha256 when a refresh was cut short after writing the manifest. "" without one.
	HeldSHA256 string
	Name       string // the manifest's project name, else the index entry's; display text
	Scheme     version.Scheme
	// Heads are the channel heads recomputed from the releases: stable first, then other
	// channels by name, development last.
	Heads          []Head
	Current        *Release   // the current release (SPEC section 4); nil when the manifest has no head
	CurrentChannel string     // Current's channel; "" when Current is nil
	Releases       []*Release // every release in manifest order, each with its relationships resolved
	Listed         bool       // the claim is in the catalog (not withdrawn, and a manifest is held)
	Excluded       string     // why the claim is not Listed, in words; "" when it is
	// Withdrawn: the claim left the catalog (its site's index or every enrolled source lost
	// it; the record's problem says which).
	Withdrawn bool
	// Cached: the held manifest is not the one the site advertises now. False without one.
	Cached       bool
	Conflict     *Conflict
	MovedTo      *Move   // the move away from this claim; else nil
	SupersededBy *Claim  // the listed claim this one continues as; else nil
	MovedFrom    []*Move // in Moves order
	// UsedBy are the distinct listed claims whose current release requires this one (by
	// project id or a capability it provides), self-references not counted. Not a ranking.
	UsedBy []*Claim
	// ReferencedBy are all current relationships of listed claims that resolve to this claim.
	ReferencedBy []*Relationship
	Events       []*store.Event // oldest first
}

// Head is one channel head.
type Head struct {
	Channel string
	Release *Release // protocol.Heads
}

// Release is one release of a claim, with its relationships resolved.
type Release struct {
	*protocol.Release // pointing into the claim's Manifest.Releases
	Claim             *Claim
	Current           bool
	Head              []string        // the channels whose head this release is, in display order
	Relationships     []*Relationship // in publisher order
	// FirstSeen is when this index first saw the release in this claim's manifests (the
	// observed_at of FirstSeenEvent, see firstSeen), "" when the history does not tell; never
	// the publisher's Date (SPEC section 4).
	FirstSeen      string
	FirstSeenEvent *store.Event // one of Claim.Events; nil exactly when FirstSeen is ""
	openmw         *protocol.OpenMW
}

// OpenMWExtension is protocol.Release's, decoded once as the model is built: no reader
// changes it.
func (r *Release) OpenMWExtension() *protocol.OpenMW {
	if r.openmw == nil {
		return r.Release.OpenMWExtension()
	}
	return r.openmw
}

// TargetKind says what a relationship points at.
type TargetKind string

// Target kinds. Both and Neither-with-a-version are outside the protocol and shown as such.
const (
	TargetProject    TargetKind = "project"
	TargetCapability TargetKind = "capability"
	TargetBoth       TargetKind = "both"    // names a project and a capability: resolved by each
	TargetNeither    TargetKind = "neither" // informational, display only
)

// Check says how a constraint check came out, and why Satisfied is null when it is.
type Check string

// Check values.
const (
	CheckSatisfied     Check = "satisfied"
	CheckUnsatisfied   Check = "unsatisfied"
	CheckNoConstraint  Check = "no-constraint"          // no version given
	CheckNotApplicable Check = "not-applicable"         // a version without a project target
	CheckUnresolved    Check = "unresolved"             // nobody listed publishes the target (said even without a constraint)
	CheckNoCurrent     Check = "no-current-release"     // the target has no current release
	CheckBadConstraint Check = "constraint-unparseable" // the constraint does not parse under the target's scheme
	CheckBadVersion    Check = "version-unparseable"    // the target's current version does not parse under its scheme
	// CheckMixed: the id resolves to claims of an identity conflict whose checks differ.
	// Only a Relationship's Check; each Resolution says its own.
	CheckMixed Check = "mixed"
)

// Relationship is one relationship of one release, resolved against the listed claims.
type Relationship struct {
	protocol.Relationship
	From    *Claim
	Release *Release
	Index   int // 0-based
	Target  TargetKind
	Targets []*Resolution // every listed claim it resolves to, by (project, site)
	// Satisfied: true when every project target's current release satisfies the constraint,
	// false when every one was checked and none does, else nil (Check says why). Any-target
	// would prefer one claim of an identity conflict (SPEC section 4). catalog.json's
	// "satisfied".
	Satisfied *bool
	Check     Check // over the targets
	// Self: the relationship resolves to its own claim, by id or capability. Never counted in
	// used-by or cycles.
	Self    bool
	InCycle bool // a requires relationship whose target requires the claim back
	// Problems are odd inputs, in words; empty for a well-formed relationship.
	Problems []string
	Gap      *Gap // the gap this relationship of a listed claim leaves unresolved; else nil
}

// Resolution is one claim a relationship resolves to, with the constraint checked against that
// claim's current release under that claim's versioning scheme.
type Resolution struct {
	Claim         *Claim
	By            string         // "project" or "capability": how the claim was found
	Version       string         // the target's current version, "" when none
	Scheme        version.Scheme // the target's scheme: the constraint is read under it
	SchemeDiffers bool           // the target's scheme is not the referring project's; shown
	Satisfied     *bool          // the target's current release meets the constraint; nil: see Check
	Check         Check
	Detail        string // the parse error for CheckBadConstraint / CheckBadVersion
}

// Conflict is an identity conflict: one project id claimed by two or more listed sites that
// did not move. None is hidden, merged or preferred.
type Conflict struct {
	Project string
	Claims  []*Claim // listed and not moved away, by site
}

// Move is a claim that continues at another site, on evidence.
type Move struct {
	Project   string
	From      Key
	To        Key
	FromClaim *Claim     // nil when the state lacks it
	ToClaim   *Claim     // nil when the state lacks it
	Evidence  []Evidence // sorted
}

// Evidence is one reason to believe a move.
type Evidence struct {
	Kind      string              // "crawler" (recorded by a refresh) or "migration" (curation)
	Detail    string              // where the evidence is, in words
	Migration *curation.Migration // the curation entry for Kind "migration"
}

// Capability is a capability name with the listed claims whose current release provides it
// and the current relationships that reference it.
type Capability struct {
	Name       string          // as published, e.g. "dreamweave:dynamic-lights"
	Providers  []*Claim        // the listed claims whose current release provides it, by (project, site)
	References []*Relationship // the current relationships that name it, by claim then publisher order
	Users      []CapabilityUse // the distinct (claim, kind) pairs among References, by claim then kind
}

// CapabilityUse is one claim referencing a capability with one relationship kind.
type CapabilityUse struct {
	From *Claim
	Kind string // requires, recommends or conflicts
}

// GapKind groups gaps.
type GapKind string

// Gap kinds.
const (
	GapProject    GapKind = "project"    // a project id nobody listed publishes
	GapCapability GapKind = "capability" // a capability no listed current release provides
	GapURL        GapKind = "url"        // no project or capability, but a URL
	GapName       GapKind = "name"       // no project, capability or URL: grouped by identical name text
)

// Gap is one missing target and the relationships of listed claims' releases that name it.
type Gap struct {
	Kind  GapKind
	Key   string   // the project id, capability, URL or name text, exactly as published
	Label string   // how the gap was grouped, in words
	Names []string // the distinct display names the references give, sorted
	URLs  []string // the distinct URLs the references give, sorted
	// References name the target, one per claim and kind (the current release's when it names
	// it, else the first in manifest order), by claim.
	References []*Relationship
}

// Candidate is a URL named by a gap that lies outside every enrolled site: a site that might
// publish the missing target. Never followed; Command is what a maintainer can run to look.
type Candidate struct {
	URL     string // as published
	Command string // the ashyams inspect command line for the URL
	Gaps    []*Gap
}

// Gaps are the relationship targets nobody in the index publishes, from every release of the
// listed claims.
type Gaps struct {
	ByProject    []*Gap          // GapProject gaps, by project id
	ByCapability []*Gap          // GapCapability gaps, by capability
	ByURL        []*Gap          // GapURL gaps, by URL
	ByName       []*Gap          // GapName gaps, by name text
	Empty        []*Relationship // current informational relationships with no name and no URL
	Candidates   []*Candidate    // the gap URLs outside every enrolled site, by URL
}

// Count is the number of gap groups (not counting Empty or Candidates).
func (g Gaps) Count() int {
	return len(g.ByProject) + len(g.ByCapability) + len(g.ByURL) + len(g.ByName)
}

// Cycle is a set of listed claims whose current releases require each other, directly or not
// (a strongly connected component of the requires graph with two or more claims).
type Cycle struct {
	Claims []*Claim // two or more, by (project, site)
}

// Featured is a curation [[featured]] entry with the listed claims for its project.
type Featured struct {
	curation.Featured
	Claims []*Claim // by site
}
