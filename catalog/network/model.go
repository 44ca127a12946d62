// Package network computes the network model from the state and the curation file (SPEC section
// 4): claims with their held manifests, health and current release; identity conflicts; moves;
// resolution with constraint satisfaction; capabilities; gaps; used-by; cycles. Every page and
// machine-readable file reads it, so none computes its own. A claim is (project id, site); names
// are display text, never matched; moves need evidence, never inference. Nothing is ranked.
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
	Project string // the project id, a lowercase UUID as published
	Site    string // the site (origin) id: store.SiteID of the site index URL
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

// Network is the model. Claims holds every claim in the state, withdrawn ones included (their
// record pages stay); Listed only the claims in the catalog (see Claim.Listed).
type Network struct {
	// State is network.json: the last refresh's start time and crawler; nil before any refresh.
	State    *store.Network
	Curation *curation.Curation // the curation file the model was built with (never nil)
	Sources  []store.Source     // the enrolled URLs' records, sorted by file name
	Events   []store.Event      // every recorded event, oldest first (observed_at, then id)

	Origins []*Origin // every site index in the state, by site id
	Claims  []*Claim  // every claim in the state, withdrawn ones included, by (project, site)
	Listed  []*Claim  // the claims in the catalog (Claim.Listed), by (project, site)
	// Projects groups claims by project id: every id with at least one claim, sorted by id.
	Projects []*Project

	// Relationships are the relationships of the current release of every listed claim, by
	// claim then publisher order: the "current relationships" of the catalog, the dependency
	// edge table, and the input of capabilities, gaps, used-by and cycles.
	Relationships []*Relationship

	Conflicts    []*Conflict   // the identity conflicts, by project id
	Moves        []*Move       // the claims that continue at another site on evidence, by From, then To.Site
	Capabilities []*Capability // every capability provided or referenced, by name
	Gaps         Gaps          // the relationship targets nobody listed publishes
	Cycles       []*Cycle      // the requires cycles among listed claims' current releases
	Featured     []*Featured   // the curation file's [[featured]] entries, in file order
	// Unmatched says, in words, which curation entries matched nothing in the state (a
	// migration whose claim is not there, a featured project nobody lists). Shown, not fatal.
	Unmatched []string

	// ByKey holds every claim (Claims) by its key.
	ByKey map[Key]*Claim
	// ByProject holds every project (Projects) by id.
	ByProject map[string]*Project
	// OriginByID holds every origin (Origins) by site id.
	OriginByID map[string]*Origin
	// CapabilityByName holds every capability (Capabilities) by name.
	CapabilityByName map[string]*Capability
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
	store.Origin          // the site's record, origin.json, with Health as a catalog v1 token
	Claims       []*Claim // every claim published by this site, withdrawn ones included, by project id
	Listed       []*Claim // the Claims in the catalog, by project id
}

// Project is every claim for one project id.
type Project struct {
	ID       string    // the project id, a lowercase UUID as published
	Claims   []*Claim  // every claim for the id, by site
	Listed   []*Claim  // the Claims in the catalog, by site
	Conflict *Conflict // set when two or more listed sites claim the id (and neither moved)
	Featured *Featured // set when the curation file features the id
}

// Claim is one (project id, site) pair with its held manifest.
type Claim struct {
	Key                             // the claim's (project, site)
	Record       store.Claim        // claim.json as stored
	Health       string             // Record.Health as a catalog v1 claim_health token (store.ClaimHealthToken)
	Origin       *Origin            // the site that publishes the claim
	Manifest     *protocol.Manifest // the held (last good) manifest; nil when none was ever accepted
	ManifestPath string             // the manifest's path relative to the state directory
	// HeldSHA256 is the held manifest's digest: the record's ingested_sha256, or its
	// pending_sha256 when a refresh was cut short after writing the new manifest (the next
	// refresh settles the record). "" when there is no manifest.
	HeldSHA256 string
	// Name is the manifest's project name, or the index entry's when there is no manifest.
	// Display text: never matched.
	Name   string
	Scheme version.Scheme // the project's versioning scheme
	// Heads are the channel heads recomputed from the releases, sorted: stable first, then
	// other channels by name, development last.
	Heads          []Head
	Current        *Release   // the current release (SPEC section 4); nil when the manifest has no head
	CurrentChannel string     // Current's channel; "" when Current is nil
	Releases       []*Release // every release in manifest order, each with its relationships resolved
	Listed         bool       // the claim is in the catalog (not withdrawn, and a manifest is held)
	// Excluded says, in words, why the claim is not Listed; "" when it is.
	Excluded string
	// Withdrawn: the claim left the catalog (its site's index no longer lists the project, or
	// no enrolled source leads to the site any more; the record's problem says which).
	Withdrawn bool
	// Cached: the held manifest is not the one the site advertises now (HeldSHA256 and the
	// advertised digest differ). False when there is no manifest.
	Cached       bool
	Conflict     *Conflict // set when this claim is part of an identity conflict
	MovedTo      *Move     // the move away from this claim, when there is evidence of one; else nil
	SupersededBy *Claim    // the claim this one continues as, when that claim is listed; else nil
	MovedFrom    []*Move   // the moves to this claim, in Moves order
	// UsedBy are the distinct listed claims whose current release requires this one (by
	// project id or by a capability this claim's current release provides); self-references
	// are not counted. Not a ranking.
	UsedBy []*Claim
	// ReferencedBy are all current relationships of listed claims that resolve to this claim,
	// any kind, self-references included.
	ReferencedBy []*Relationship
	Events       []*store.Event // this claim's events, oldest first
}

// Head is one channel head.
type Head struct {
	Channel string   // the channel name
	Release *Release // its head: the highest-precedence available release (protocol.Heads)
}

// Release is one release of a claim, with its relationships resolved.
type Release struct {
	*protocol.Release        // the release as published, pointing into the claim's Manifest.Releases
	Claim             *Claim // the claim whose manifest holds the release
	Current           bool   // this is the claim's current release
	// Head names the channels whose head this release is, in display order (stable first).
	Head []string
	// Relationships in publisher order.
	Relationships []*Relationship
	// FirstSeen is when this index first saw the release in this claim's manifests (FirstSeenEvent's
	// observed_at), "" when the history does not tell (firstseen.go); never the publisher's Date
	// (SPEC section 4). A moved claim's releases are first seen at its new site.
	FirstSeen string
	// FirstSeenEvent is the event that shows it, one of Claim.Events: the claim's first
	// observed event for a release that was there from the start, else the changed event
	// whose top-level release-added names it. nil exactly when FirstSeen is "".
	FirstSeenEvent *store.Event
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
	// CheckMixed: the project id resolves to more than one claim (an identity conflict) and
	// the checks against them differ (one satisfies, another does not or cannot be checked).
	// Only a Relationship's Check; each Resolution says its own.
	CheckMixed Check = "mixed"
)

// Relationship is one relationship of one release, resolved against the listed claims.
type Relationship struct {
	protocol.Relationship          // the relationship as published
	From                  *Claim   // the claim whose release states the relationship
	Release               *Release // the release that states it
	Index                 int      // the position in the release's relationships (0-based)
	// Target says what the relationship points at.
	Target  TargetKind
	Targets []*Resolution // every listed claim the relationship resolves to, by (project, site)
	// Satisfied: true when every project target's current release satisfies the constraint, false
	// when every one was checked and none does, else nil (Check says why). Any-target-satisfies
	// would prefer one claim of an identity conflict (SPEC section 4); per-target results are in
	// Targets. catalog.json's "satisfied" is this value.
	Satisfied *bool
	Check     Check // how the constraint check came out over the targets
	// Self: the relationship names its own project id, or resolves to its own claim through a
	// capability. Shown; never counted in used-by or cycles.
	Self bool
	// InCycle: a requires relationship of a current release whose target requires, directly
	// or not, the claim back.
	InCycle bool
	// Problems are odd inputs, in words (a project and a capability both named, a version
	// without a project, an unknown kind, ...). Empty for a well-formed relationship.
	Problems []string
	// Gap is the gap that lists the target this relationship of a listed claim leaves
	// unresolved (its project id or capability, else its URL or name); nil otherwise.
	Gap *Gap
}

// Resolution is one claim a relationship resolves to, with the constraint checked against that
// claim's current release under that claim's versioning scheme.
type Resolution struct {
	Claim   *Claim         // the listed claim the relationship resolves to
	By      string         // "project" or "capability": how the claim was found
	Version string         // the target's current release version ("" when none)
	Scheme  version.Scheme // the target's versioning scheme, under which the constraint is read
	// SchemeDiffers: the target's scheme is not the referring project's, so the constraint
	// is read under a scheme its author may not have had in mind. Shown, not an error.
	SchemeDiffers bool
	// Satisfied is whether the target's current release meets the constraint; nil when it
	// could not be checked (Check says why).
	Satisfied *bool
	Check     Check  // how the check against this target came out
	Detail    string // the parse error for CheckBadConstraint / CheckBadVersion
}

// Conflict is an identity conflict: one project id claimed by two or more listed sites that
// did not move. All are shown; none is hidden, merged or preferred.
type Conflict struct {
	Project string   // the project id claimed by more than one site
	Claims  []*Claim // the listed claims for it that did not move away, by site
}

// Move is a claim that continues at another site, on evidence.
type Move struct {
	Project   string // the project id
	From      Key    // the claim the project moved away from
	To        Key    // the claim it continues as
	FromClaim *Claim // the From claim when the state has it; else nil
	ToClaim   *Claim // the To claim when the state has it; else nil
	// Evidence, in words, sorted: what the crawler recorded or the reviewed migration entry.
	Evidence []Evidence
}

// Evidence is one reason to believe a move.
type Evidence struct {
	// Kind is "crawler" (recorded by a refresh: claim moved_to/moved_from, origin previous,
	// an event's moved_from) or "migration" (a reviewed curation entry).
	Kind string
	// Detail says where the evidence is, in words.
	Detail    string
	Migration *curation.Migration // the curation entry for Kind "migration"
}

// Capability is a capability name with the listed claims whose current release provides it
// and the current relationships that reference it.
type Capability struct {
	// Name is the capability as published (e.g. "dreamweave:dynamic-lights").
	Name      string
	Providers []*Claim // the listed claims whose current release provides it, by (project, site)
	// References are the current relationships that name it, by claim then publisher order.
	References []*Relationship
	Users      []CapabilityUse // the distinct (claim, kind) pairs among References, by claim then kind
}

// CapabilityUse is one claim referencing a capability with one relationship kind.
type CapabilityUse struct {
	From *Claim // the referring claim
	Kind string // the relationship kind (requires, recommends, conflicts)
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
	// Kind says what the missing target is named by.
	Kind GapKind
	Key  string // the project id, capability, URL or name text, exactly as published
	// Label says how the gap was grouped, in words; for name-only gaps it says that identical
	// text is not an identity.
	Label string
	Names []string // the distinct display names the references give, sorted
	URLs  []string // the distinct URLs the references give, sorted
	// References are the relationships naming the target, one per claim and kind (its current
	// release's when that names it, else its first release's in manifest order), by claim.
	References []*Relationship
}

// Candidate is a URL named by a gap that lies outside every enrolled site: a site that might
// publish the missing target. Never followed; Command is what a maintainer can run to look.
type Candidate struct {
	URL     string // the URL as published in the relationships
	Command string // the ashyams inspect command line that reads the URL as the crawler would
	Gaps    []*Gap // the gaps whose references give this URL
}

// Gaps are the relationship targets nobody in the index publishes, from every release of the
// listed claims.
type Gaps struct {
	ByProject    []*Gap // GapProject gaps, by project id
	ByCapability []*Gap // GapCapability gaps, by capability
	ByURL        []*Gap // GapURL gaps, by URL
	ByName       []*Gap // GapName gaps, by name text
	// Empty are the current releases' informational relationships with no name and no URL:
	// nothing to group by.
	Empty      []*Relationship
	Candidates []*Candidate // the gap URLs outside every enrolled site, by URL
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
	curation.Featured          // the curation entry: the project and the index's note
	Claims            []*Claim // the listed claims for the project, by site; empty when nobody lists it
}
