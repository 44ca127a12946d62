package diff

import "github.com/DreamWeave-MP/ashyams-go/catalog/protocol"

func artifactPlatform(p *protocol.ArtifactPlatform) string {
	if p == nil {
		return "none"
	}
	return platformKey(p.OS, p.Arch, p.Variant)
}

func layoutText(l *protocol.Layout) string {
	if l == nil {
		return "none"
	}
	return string(js(l))
}

// artifactChanges matches artifacts by id: added or changed ones in after order, then removed
// ones. Sources and signatures match by URL in amend mode; in head mode, where every URL names
// its version, by what they are.
func artifactChanges(b, a []protocol.Artifact, md mode) []Change {
	amend := md == amendMode
	a2b, b2a := pairByKey(len(b), len(a), func(i int) string { return b[i].ID }, func(j int) string { return a[j].ID })
	var out []Change
	for j := range a {
		aa := &a[j]
		i := a2b[j]
		if i < 0 {
			out = append(out, Change{Change: ChangeArtifactAdded, Artifact: aa.ID, Filename: aa.Filename, Size: uint64(max(aa.Size, 0)), SHA256: aa.Digests.SHA256})
			continue
		}
		ba := &b[i]
		if amend && ba.Digests.SHA256 != aa.Digests.SHA256 {
			out = append(out, Change{Change: ChangeArtifactDigest, Artifact: aa.ID, Before: js(ba.Digests.SHA256), After: js(aa.Digests.SHA256)})
		}
		if ba.Size != aa.Size {
			out = append(out, Change{Change: ChangeArtifactSize, Artifact: aa.ID, Before: js(max(ba.Size, 0)), After: js(max(aa.Size, 0))})
		}
		var details []string
		detail := func(what, bv, av string) {
			if bv != av {
				details = append(details, what+": "+bv+arrow+av)
			}
		}
		detail("format", ba.Format, aa.Format)
		detail("platform", artifactPlatform(ba.Platform), artifactPlatform(aa.Platform))
		if amend {
			detail("file name", ba.Filename, aa.Filename)
		}
		detail("media type", ba.MediaType, aa.MediaType)
		detail("layout", layoutText(ba.Layout), layoutText(aa.Layout))
		if len(details) > 0 {
			out = append(out, Change{Change: ChangeArtifactFile, Artifact: aa.ID, Details: details})
		}

		srcKey := func(s protocol.ArtifactSource) string { return s.URL }
		sigKey := func(s protocol.Signature) string { return s.URL }
		if !amend {
			srcKey = func(s protocol.ArtifactSource) string { return s.Kind + "\x00" + s.Name }
			sigKey = func(s protocol.Signature) string { return s.Format + "\x00" + s.Issuer + "\x00" + s.Identity }
		}
		sadd, srem := multisetDiff(ba.Sources, aa.Sources, srcKey)
		for _, s := range sadd {
			out = append(out, Change{Change: ChangeArtifactSourceAdded, Artifact: aa.ID, URL: s.URL, Kind: s.Kind})
		}
		for _, s := range srem {
			out = append(out, Change{Change: ChangeArtifactSourceRemoved, Artifact: aa.ID, URL: s.URL, Kind: s.Kind})
		}
		gadd, grem := multisetDiff(ba.Signatures, aa.Signatures, sigKey)
		for _, s := range gadd {
			out = append(out, Change{Change: ChangeSignatureAdded, Artifact: aa.ID, Format: s.Format, URL: s.URL})
		}
		for _, s := range grem {
			out = append(out, Change{Change: ChangeSignatureRemoved, Artifact: aa.ID, Format: s.Format, URL: s.URL})
		}
	}
	for i := range b {
		if b2a[i] < 0 {
			out = append(out, Change{Change: ChangeArtifactRemoved, Artifact: b[i].ID, Filename: b[i].Filename})
		}
	}
	return out
}
