package protocol

// Listing is what an index's published catalog says about the network.
type Listing struct {
	Source string // where the catalog was read (a file or URL), for messages
	// Listed reports whether the catalog lists a claim for project id.
	Listed func(id string) bool
	// Elsewhere is the name and index URL of another site the catalog lists as publishing id.
	Elsewhere func(id string) (name, indexURL string, ok bool)
}

// Rule ids of the checks against a published catalog. Neither makes a document invalid.
const (
	RuleUnlistedTarget   = "unlisted-target"   // a relationship to a project id the catalog does not list
	RuleIdentityConflict = "identity-conflict" // a project id another site already publishes
)

// UnlistedTargets finds each relationship, in every release of m, to a project id l does not
// list; known reports ids published beside m.
func UnlistedTargets(m *Manifest, l Listing, known func(id string) bool) []Finding {
	var fs findings
	for i, r := range m.Releases {
		for k, rel := range r.Relationships {
			if rel.Project == "" || l.Listed(rel.Project) || known(rel.Project) {
				continue
			}
			named := phrase{}
			if rel.Name != "" {
				named = phrase{" (%q)", []any{pub(rel.Name)}}
			}
			fs.add(Pointer("releases", i, "relationships", k, "project"), RuleUnlistedTarget,
				"release %q %s project %q%s, which no site in the catalog %s publishes: the index lists it among its gaps",
				pub(r.Version), pub(rel.Kind), pub(rel.Project), named, pub(l.Source))
		}
	}
	return printableFindings(fs)
}

// Conflict is the finding at ptr when another site in l already publishes project id.
func Conflict(ptr, id string, l Listing) (Finding, bool) {
	name, u, ok := l.Elsewhere(id)
	if !ok {
		return Finding{}, false
	}
	f := found(ptr, RuleIdentityConflict,
		"project id %q is already published by the site %q (%s) in the catalog %s: published here too, it makes an identity conflict, and the index shows both claims and prefers neither",
		pub(id), pub(name), pub(u), pub(l.Source))
	return printableFindings([]Finding{f})[0], true
}
