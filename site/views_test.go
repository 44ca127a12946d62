package site

import (
	"strings"
	"testing"

	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
)

// TestRejectedOtherReason: when the manifest the crawler refused was refused for a reason
// other than the claim's recorded problem, the staleness banner says that reason, as the
// page words problems (a claim that holds no manifest keeps nothing); when the reasons are
// the same, it points at the reason above instead of repeating it.
func TestRejectedOtherReason(t *testing.T) {
	state := t.TempDir()
	f := newFakeState(t, state)
	site := f.origin("https://a.example/mods/dreamweave.json", "Site A")
	other, same := uuid(1), uuid(2)
	f.claim(site, sampleManifest(other, "Other Reason", 1), func(r *store.Claim) {
		r.Health, r.Problem = store.ClaimInvalid, ptr("/releases/0/version: does not parse")
		r.AdvertisedSHA256 = sha([]byte("newer"))
		r.Rejected = &store.Rejected{SHA256: sha([]byte("newer")), Problem: "over the 16 MiB document limit", Crawler: "test"}
	})
	f.claim(site, sampleManifest(same, "Same Reason", 1), func(r *store.Claim) {
		r.Health, r.Problem = store.ClaimInvalid, ptr("/releases/0/version: does not parse")
		r.AdvertisedSHA256 = sha([]byte("newest"))
		r.Rejected = &store.Rejected{SHA256: sha([]byte("newest")), Problem: "/releases/0/version: does not parse", Crawler: "test"}
	})
	_, out := build(t, state, Options{})
	text := page(t, out, claimPath(other, site))
	if want := "was refused by crawler version test: over the 16 MiB document limit."; !strings.Contains(text, want) {
		t.Errorf("the claim page does not say %q: %.900s", want, text)
	}
	if strings.Contains(text, "for the reason above") {
		t.Error("the claim page says the refusal had the reason above, which is another")
	}
	if text := page(t, out, claimPath(same, site)); !strings.Contains(text, "was refused by crawler version test, for the reason above.") {
		t.Errorf("the claim refused for its recorded problem does not point at it: %.900s", text)
	}
}
