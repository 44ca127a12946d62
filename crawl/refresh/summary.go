package refresh

import (
	"fmt"
	"sort"
	"strings"
)

// Summary is what one refresh did. Counts are of this refresh only. Problems counts the facts
// recorded by kind (claim health values such as "invalid" or "inconsistent", "site
// unreachable" and the other origin health values prefixed "site ", "source unresolved",
// "source removed", "moved", "image"); Failures lists each as "kind: where: what", sorted.
type Summary struct {
	StartedAt string // the refresh's start time (network.json observed_at)
	Sources   int    // enrolled sources read
	SitesRead int    // site indexes read and valid (a 304 counts: the held bytes stand)
	Fetched   int    // manifest downloads made (a re-read after a digest mismatch counts again)
	Unchanged int    // listed claims whose advertised digest equals the held manifest's
	Accepted  int    // manifests that passed every check and replaced or joined the held ones
	Events    int    // events written
	Problems  map[string]int
	Failures  []string
}

func (s *Summary) finish() { sort.Strings(s.Failures) }

// String is the summary as a commit message: a subject line, then problem counts by kind and
// each failure on its own line. The same refresh gives the same text.
func (s *Summary) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "refresh %s: %d sources, %d sites read, %d manifests fetched, %d unchanged, %d accepted, %d events\n",
		s.StartedAt, s.Sources, s.SitesRead, s.Fetched, s.Unchanged, s.Accepted, s.Events)
	if len(s.Problems) == 0 {
		return b.String()
	}
	b.WriteString("\nProblems by kind:\n")
	for _, k := range sortedKeys(s.Problems) {
		fmt.Fprintf(&b, "  %s: %d\n", k, s.Problems[k])
	}
	b.WriteString("\n")
	for _, f := range s.Failures {
		fmt.Fprintf(&b, "- %s\n", f)
	}
	return b.String()
}
