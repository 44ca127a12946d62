#!/usr/bin/env bash
# .ci/hugo-compare.sh: the render stage side by side with Hugo on this machine, in one run.
# Not run by CI (it installs a package, builds Hugo and takes minutes). Installs Debian's hugo,
# builds the newest Hugo the Go module proxy builds (HUGO_NEW, below; the go command fetches
# Go 1.27 as its toolchain for it; the binary is kept in ~/.cache/ashyams), generates a
# Hugo site that does the work of BenchmarkBuild10k's synthetic site (10,000 claims on 1,000
# sites, 5 releases each, one event per claim) with the features a Hugo user reaches for:
# front matter, sections, taxonomies, partials, site.GetPage to resolve relationships,
# markdownify for release notes, per-project feeds, a sitemap and --minify. Page kinds, counts
# and sizes follow ours: claim pages ranging over 5 releases (facts, relationships resolved to
# links, artifacts with digests and sources, Markdown notes), project pages with their feeds,
# event pages, site pages, capability pages, the full project list, seven browse lists of all
# claims, the dependencies and releases lists and the health page. Not generated: the JSON
# files (catalog, events, search) that our build also writes and checks. It builds the Hugo
# site once with each Hugo and the synthetic state once (the benchmark), then prints for each
# the HTML pages, their total bytes, all files, the wall time and the pages per second, and
# the ratios.
#   usage: .ci/hugo-compare.sh [CLAIMS]    (default 10000; the benchmark always builds 10,000)
#   HUGO_NEW=v0.166.0 (default): the version of github.com/gohugoio/hugo to build; the later
#   ones need module versions the proxy refuses. HUGO_NEW=none leaves it out.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
claims=${1:-10000}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if ! command -v hugo >/dev/null; then
	sudo=()
	[ "$(id -u)" = 0 ] || sudo=(sudo -n)
	"${sudo[@]}" apt-get update -q
	"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends hugo
fi
hugos=("$(command -v hugo)")
hugo_new=${HUGO_NEW:-v0.166.0}
if [ "$hugo_new" != none ]; then
	bin=${XDG_CACHE_HOME:-$HOME/.cache}/ashyams/hugo-$hugo_new
	if [ ! -x "$bin/hugo" ]; then
		echo "building Hugo $hugo_new from the Go module proxy (minutes, once)"
		GOTOOLCHAIN=go1.27.3 GOBIN=$bin go install "github.com/gohugoio/hugo@$hugo_new"
	fi
	hugos+=("$bin/hugo")
fi
for h in "${hugos[@]}"; do "$h" version; done

site=$tmp/hugo
lay=$site/layouts
mkdir -p "$lay/_default" "$lay/partials" "$lay/projects" "$lay/updates" "$lay/origins" \
	"$lay/capabilities" "$lay/kinds" "$site/content"
cat >"$site/hugo.toml" <<'TOML'
baseURL = "https://dreamweave-mp.example/ashyams-go/"
title = "AsHyAmS"
disableKinds = ["robotsTXT"]
rssLimit = 20
[taxonomies]
type = "types"
status = "statuses"
tag = "tags"
origin = "origins"
capability = "capabilities"
kind = "kinds"
[outputs]
home = ["HTML"]
section = ["HTML", "RSS"]
page = ["HTML"]
taxonomy = ["HTML"]
term = ["HTML"]
[markup.goldmark.renderer]
unsafe = false
TOML
cat >"$lay/_default/baseof.html" <<'HTML'
<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src 'self'; style-src 'self'; script-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'">
<title>{{ .Title }} · {{ site.Title }}</title><meta name="description" content="{{ with .Params.summary }}{{ . }}{{ else }}{{ .Title }}, as this index observed it.{{ end }}">
<link rel="canonical" href="{{ .Permalink }}"><link rel="icon" href="{{ relURL "assets/icon.svg" }}" type="image/svg+xml"><link rel="stylesheet" href="{{ relURL "assets/site.css" }}">
<link rel="alternate" type="application/rss+xml" title="AsHyAmS updates" href="{{ relURL "updates/index.xml" }}">
{{ with .Params.project }}<link rel="alternate" type="application/rss+xml" title="Updates of this project" href="{{ relURL (printf "projects/%s/index.xml" .) }}">{{ end }}</head>
<body><a class="skip" href="#main">Skip to the content</a><header class="site"><a class="brand" href="{{ relURL "" }}">AsHyAmS</a><nav aria-label="Sections"><ul>
{{ $here := .Section }}{{ range (slice "projects" "updates" "origins" "setup" "about") }}<li><a href="{{ relURL . }}/"{{ if eq . $here }} aria-current="true"{{ end }}>{{ . | humanize }}</a></li>{{ end }}</ul></nav></header>
<main id="main">{{ block "main" . }}{{ end }}</main>
<footer class="site"><p>AsHyAmS is an independent index of the DreamWeave mod network. It reads the sites in its source list and shows what each one published; every page says which site published what. Being listed is not an endorsement (<a href="{{ relURL "about/listing/" }}">what being listed means</a>).</p>
<p>Last refresh started <time datetime="2026-10-10T12:00:00Z">2026-10-10 12:00:00 UTC</time> by <span data-pub>AsHyAmS/test</span>.</p>
<ul>{{ range (slice "about/" "about/publishers/" "network-data/catalog.json" "network-data/events.json" "network-data/search.json" "updates/index.xml" "schemas/dreamweave-network-catalog-1.schema.json") }}<li><a href="{{ relURL . }}">{{ path.Base . | humanize }}</a></li>{{ end }}<li><a href="https://github.com/DreamWeave-MP/ashyams-go">Source code and state</a></li></ul></footer></body></html>
HTML
cat >"$lay/partials/claimlink.html" <<'HTML'
<a href="{{ .RelPermalink }}"><bdi data-pub>{{ .Title }}</bdi></a> <span class="muted claimed-by">from <bdi data-pub>{{ .Params.sitename }}</bdi></span>{{ if eq .Params.health "stale" }} <span class="badge stale">cached: origin unavailable</span>{{ end }}
HTML
cat >"$lay/partials/entry.html" <<'HTML'
{{ $r := index .Params.releases 0 }}<li class="entry" data-key="{{ .Params.project }}/{{ index .Params.origins 0 }}" data-type="{{ .Params.kind0 }}" data-status="{{ .Params.status0 }}" data-game="{{ .Params.game }}" data-tags="{{ delimit .Params.taglist "\n" }}" data-health="{{ .Params.health }}" data-conflict="no" data-updated="{{ .Lastmod.Format "2006-01-02T15:04:05Z" }}" data-first="{{ .Date.Format "2006-01-02T15:04:05Z" }}" data-runtime="constraint" data-openmw="{{ $r.openmw }}"><div class="thumb"></div><div class="entry-body">
<a class="result-title" href="{{ .RelPermalink }}"><bdi data-pub>{{ .Title }}</bdi></a> <span class="badge"><bdi data-pub>{{ $r.version }}</bdi></span>
<div class="meta"><span data-pub>{{ .Params.kind0 }}</span><span data-pub>{{ .Params.status0 }}</span><span><bdi data-pub>{{ .Params.game }}</bdi></span><span>from <bdi data-pub>{{ .Params.sitename }}</bdi></span></div>
<p class="summary" data-pub>{{ .Params.summary }}</p><div class="meta"><span class="runs-on">OpenMW <bdi data-pub>{{ $r.openmw }}</bdi></span></div>
<div class="meta">{{ range .Params.taglist }}<span class="badge" data-pub>{{ . }}</span>{{ end }}</div></div></li>
HTML
cat >"$lay/partials/entries.html" <<'HTML'
<h1>{{ .page.Title }}</h1><p class="lede">{{ .page.Params.summary }} In name order. {{ len .list }} claims.</p><ul class="results">{{ range .list }}{{ partial "entry.html" . }}{{ end }}</ul>
HTML
cat >"$lay/partials/release.html" <<'HTML'
{{ $r := .r }}{{ $p := .page }}<details id="release-{{ $r.version }}"{{ if eq .i 0 }} open{{ end }}><summary><bdi data-pub>{{ $r.version }}</bdi> on <bdi data-pub>{{ $r.channel }}</bdi> · <bdi data-pub>{{ $r.date }}</bdi>{{ if eq .i 0 }} · <span class="badge">current</span> · <span class="badge">head of <bdi data-pub>{{ $r.channel }}</bdi></span>{{ end }}</summary>
<section class="release"><h3>Release <bdi data-pub>{{ $r.version }}</bdi></h3><dl class="facts"><dt>Status</dt><dd><bdi data-pub>available</bdi></dd><dt>Publisher's date</dt><dd><bdi data-pub>{{ $r.date }}</bdi></dd>
<dt>First seen by this index</dt><dd><time datetime="{{ $p.Date.Format "2006-01-02T15:04:05Z" }}">{{ $p.Date.Format "2006-01-02 15:04:05 UTC" }}</time> (<a href="{{ relURL (printf "updates/%s/" $p.Params.event) }}">update</a>)</dd>
<dt>Source</dt><dd><a href="{{ $p.Params.source }}" rel="nofollow noopener noreferrer" data-pub><bdi data-pub>{{ $p.Params.source }}</bdi></a>, tag <code data-pub>{{ $r.version }}</code></dd><dt>Runtimes</dt><dd><bdi data-pub>openmw</bdi> <code data-pub>{{ $r.openmw }}</code></dd></dl>
<h4>Release notes <span class="note">(the publisher's words)</span></h4><div class="pub-notes"><div data-pub>{{ $r.notes | markdownify }}</div></div>
{{ with $r.relationships }}<h4>Relationships</h4><ul class="list">{{ range . }}<li><strong data-pub>{{ .kind }}</strong> {{ if .project }}project <code data-pub>{{ .project }}</code> version <code data-pub>{{ .version }}</code>{{ else }}capability <a href="{{ relURL (printf "capabilities/%s/" .term) }}"><code data-pub>{{ .capability }}</code></a>{{ end }}<ul>
{{ $rel := . }}{{ range .resolve }}{{ with site.GetPage . }}{{ $cur := index .Params.releases 0 }}<li>resolves to {{ partial "claimlink.html" . }} by {{ if $rel.project }}project{{ else }}capability{{ end }}, current <bdi data-pub>{{ $cur.version }}</bdi>: {{ if $rel.version }}<span class="yes">satisfied</span>{{ else }}no version constraint{{ end }}</li>{{ end }}{{ end }}</ul></li>{{ end }}</ul>{{ end }}
<h4>Artifacts</h4><p class="note">Sizes and SHA-256 digests are the publisher's claim: this index never downloads artifacts. Check what you download against them.</p>
{{ range $r.artifacts }}<dl class="facts"><dt>File</dt><dd><bdi data-pub>{{ .file }}</bdi> <code data-pub>main</code></dd><dt>Format</dt><dd><bdi data-pub>flat</bdi>, <bdi data-pub>application/zip</bdi></dd><dt>Size, as the publisher declares</dt><dd><bdi data-pub>{{ lang.FormatNumber 0 .size }} bytes ({{ div .size 1024.0 | lang.FormatNumber 1 }} KiB)</bdi></dd>
<dt>SHA-256, as the publisher declares</dt><dd><code class="digest" data-pub>{{ .sha256 }}</code></dd><dt>Download sources</dt><dd><ul class="plain">{{ range .sources }}<li>publisher's source: <a href="{{ . }}" rel="nofollow noopener noreferrer" data-pub><bdi data-pub>{{ . }}</bdi></a></li>{{ end }}</ul></dd><dt>Signatures</dt><dd>none published</dd></dl>{{ end }}</section></details>
HTML
cat >"$lay/projects/single.html" <<'HTML'
{{ define "main" }}{{ $p := . }}{{ $cur := index .Params.releases 0 }}{{ $origin := site.GetPage (printf "/origins/%s" (index .Params.origins 0)) }}
<p class="muted"><a href="{{ relURL "projects/" }}">Projects</a> › <a href="{{ .Parent.RelPermalink }}"><bdi data-pub>{{ .Parent.Title }}</bdi> (project <code data-pub>{{ .Params.project }}</code>)</a> › claim from <bdi data-pub>{{ .Params.sitename }}</bdi></p>
<h1><bdi data-pub>{{ .Title }}</bdi></h1><div class="claim-top"><div class="claim-head"><p class="lede" data-pub>{{ .Params.summary }}</p>
<p class="note">Published by the site <a href="{{ $origin.RelPermalink }}"><bdi data-pub>{{ $origin.Title }}</bdi></a>. This page shows what that site's manifest says; nothing here is this index's endorsement.</p>
<section aria-labelledby="current" class="current"><h2 id="current">Current release <bdi data-pub>{{ $cur.version }}</bdi></h2><dl class="facts"><dt>Channel</dt><dd><bdi data-pub>{{ $cur.channel }}</bdi></dd><dt>Publisher's date</dt><dd><bdi data-pub>{{ $cur.date }}</bdi></dd><dt>Runs on</dt><dd>OpenMW <code data-pub>{{ $cur.openmw }}</code></dd>
{{ range $cur.relationships }}{{ if .project }}<dt>Requires</dt><dd><ul class="plain">{{ $rel := . }}{{ range .resolve }}{{ with site.GetPage . }}<li>{{ partial "claimlink.html" . }} <code data-pub>{{ $rel.version }}</code> <span class="yes">(satisfied)</span></li>{{ end }}{{ end }}</ul></dd>{{ end }}{{ end }}</dl>
<h3 id="download">Download</h3><ul class="downloads">{{ range $cur.artifacts }}<li><span class="file"><bdi data-pub>{{ .file }}</bdi></span> <span class="muted"><bdi data-pub>{{ lang.FormatNumber 0 .size }} bytes</bdi></span> <span class="sources">{{ range first 1 .sources }}<a class="download" href="{{ . }}" rel="nofollow noopener noreferrer">Download from the publisher</a>{{ end }}</span></li>{{ end }}</ul>
<p class="note">File names, sizes and addresses are the publisher's; this index never downloads artifacts. Check a download against the SHA-256 the publisher lists <a href="#release-{{ $cur.version }}">with the release</a>.</p>
<h3>Latest notes <span class="note">(the publisher's words)</span></h3><div class="pub-notes" data-pub>{{ .Content }}</div></section></div></div>
<section aria-labelledby="facts"><h2 id="facts">About the project</h2><dl class="facts"><dt>Type</dt><dd><bdi data-pub>{{ .Params.kind0 }}</bdi></dd><dt>Status</dt><dd><bdi data-pub>{{ .Params.status0 }}</bdi> <span class="note">(the publisher's word)</span></dd><dt>Game</dt><dd><bdi data-pub>{{ .Params.game }}</bdi></dd><dt>License</dt><dd><bdi data-pub>{{ .Params.license }}</bdi></dd><dt>Versioning</dt><dd><bdi data-pub>numeric</bdi></dd><dt>Tags</dt><dd data-pub>{{ delimit .Params.taglist ", " }}</dd><dt>Project id</dt><dd><a href="{{ .Parent.RelPermalink }}"><code data-pub>{{ .Params.project }}</code></a></dd></dl></section>
<section aria-labelledby="links"><h2 id="links">Links and people</h2><h3>Links</h3><ul class="list">{{ range .Params.links }}<li>{{ .label }}: <a href="{{ .url }}" rel="nofollow noopener noreferrer" data-pub><bdi data-pub>{{ .url }}</bdi></a></li>{{ end }}</ul>
<h3>Maintainers</h3><ul class="list">{{ range .Params.maintainers }}<li><a href="{{ .url }}" rel="nofollow noopener noreferrer" data-pub><bdi data-pub>{{ .name }}</bdi></a></li>{{ end }}</ul></section>
{{ with .Params.usedby }}<section aria-labelledby="used-by"><h2 id="used-by">Used by</h2><p>Claims in the catalog whose current release requires this one, by project id or through a capability. Not a ranking.</p><ul class="list">{{ range . }}{{ with site.GetPage . }}<li>{{ partial "claimlink.html" . }}</li>{{ end }}{{ end }}</ul></section>{{ end }}
<section aria-labelledby="releases"><h2 id="releases">Releases</h2><p>{{ len .Params.releases }} releases: the current release first, then the heads of the other channels. Each release's date is the publisher's; the time this index first saw it is this index's own observation, and the two are different facts.</p>
{{ range $i, $r := first 1 .Params.releases }}{{ partial "release.html" (dict "r" $r "i" $i "page" $p) }}{{ end }}
<details class="more" id="more-releases"><summary>Development builds and older releases ({{ sub (len .Params.releases) 1 }})</summary>{{ range $i, $r := after 1 .Params.releases }}{{ partial "release.html" (dict "r" $r "i" (add $i 1) "page" $p) }}{{ end }}</details></section>
<section aria-labelledby="history"><h2 id="history">Updates recorded for this claim</h2><ul class="list">{{ with site.GetPage (printf "/updates/%s" .Params.event) }}<li><time datetime="{{ .Date.Format "2006-01-02T15:04:05Z" }}">{{ .Date.Format "2006-01-02 15:04:05 UTC" }}</time>: <a href="{{ .RelPermalink }}"><bdi data-pub>{{ .Title }}</bdi></a> {{ range .Params.kinds }}<a class="badge" href="{{ relURL (printf "kinds/%s/" .) }}">{{ . }}</a>{{ end }}</li>{{ end }}</ul></section>
<section aria-labelledby="seen"><h2 id="seen">How this index saw it</h2><dl class="facts"><dt>Site</dt><dd><a href="{{ $origin.RelPermalink }}"><bdi data-pub>{{ $origin.Title }}</bdi></a> (<code data-pub>{{ index .Params.origins 0 }}</code>, this index's name for it), index <a href="{{ $origin.Params.index }}" rel="nofollow noopener noreferrer" data-pub><bdi data-pub>{{ $origin.Params.index }}</bdi></a></dd>
<dt>Manifest</dt><dd><a href="{{ .Params.manifest }}" rel="nofollow noopener noreferrer" data-pub><bdi data-pub>{{ .Params.manifest }}</bdi></a></dd><dt>Health</dt><dd>{{ .Params.health }}</dd><dt>First observed</dt><dd><time datetime="{{ .Date.Format "2006-01-02T15:04:05Z" }}">{{ .Date.Format "2006-01-02 15:04:05 UTC" }}</time></dd><dt>Last changed</dt><dd><time datetime="{{ .Lastmod.Format "2006-01-02T15:04:05Z" }}">{{ .Lastmod.Format "2006-01-02 15:04:05 UTC" }}</time></dd>
<dt>Last successful observation</dt><dd><time datetime="2026-10-10T12:00:00Z">2026-10-10 12:00:00 UTC</time></dd><dt>Last attempt</dt><dd><time datetime="2026-10-10T12:00:00Z">2026-10-10 12:00:00 UTC</time></dd><dt>Held manifest SHA-256</dt><dd><code class="digest">{{ .Params.digest }}</code></dd><dt>Advertised SHA-256</dt><dd><code class="digest" data-pub>{{ .Params.digest }}</code> <span class="note">(what the site index says now; <a href="{{ relURL "about/digests/" }}">what a digest proves</a>)</span></dd></dl></section>{{ end }}
HTML
cat >"$lay/projects/list.html" <<'HTML'
{{ define "main" }}{{ if .Params.project }}<h1><bdi data-pub>{{ .Title }}</bdi> <span class="muted">(project <code data-pub>{{ .Params.project }}</code>)</span></h1><p class="lede">A project id is chosen by the project's author. It names the project; it is never proof of who publishes it. Every site that lists this id is shown below, and none is preferred.</p>
<h2>Claims</h2><ul class="results">{{ range .Pages }}{{ $origin := site.GetPage (printf "/origins/%s" (index .Params.origins 0)) }}<li><a class="result-title" href="{{ .RelPermalink }}"><bdi data-pub>{{ .Title }}</bdi></a> <span class="badge"><bdi data-pub>{{ (index .Params.releases 0).version }}</bdi></span><div class="meta"><span>from <a href="{{ $origin.RelPermalink }}"><bdi data-pub>{{ $origin.Title }}</bdi></a> <code data-pub>{{ index .Params.origins 0 }}</code></span><span data-pub>{{ .Params.kind0 }}</span><span data-pub>{{ .Params.status0 }}</span></div><p data-pub>{{ .Params.summary }}</p></li>{{ end }}</ul>
{{ else }}{{ partial "entries.html" (dict "page" . "list" .RegularPagesRecursive.ByTitle) }}{{ end }}{{ end }}
HTML
cat >"$lay/updates/single.html" <<'HTML'
{{ define "main" }}<p class="muted"><a href="{{ relURL "updates/" }}">Updates</a> › {{ .File.ContentBaseName }}</p><h1><bdi data-pub>{{ .Title }}</bdi></h1>
<dl class="facts"><dt>Observed</dt><dd><time datetime="{{ .Date.Format "2006-01-02T15:04:05Z" }}">{{ .Date.Format "2006-01-02 15:04:05 UTC" }}</time></dd><dt>Kind</dt><dd>{{ delimit .Params.kinds ", " }}</dd>
<dt>Claim</dt><dd>{{ with site.GetPage .Params.claim }}{{ partial "claimlink.html" . }}{{ end }}</dd><dt>Manifest before</dt><dd>none</dd><dt>Manifest after</dt><dd><code class="digest">{{ .Params.digest }}</code></dd>
<dt>Tags</dt><dd>{{ range .Params.kinds }}<a class="badge" href="{{ relURL (printf "kinds/%s/" .) }}">{{ . }}</a>{{ end }}</dd></dl><h2>Differences</h2>{{ .Content }}{{ end }}
HTML
cat >"$lay/partials/event.html" <<'HTML'
<li><time datetime="{{ .Date.Format "2006-01-02T15:04:05Z" }}">{{ .Date.Format "2006-01-02 15:04:05 UTC" }}</time>: <a href="{{ .RelPermalink }}"><bdi data-pub>{{ .Title }}</bdi></a> {{ range .Params.kinds }}<a class="badge" href="{{ relURL (printf "kinds/%s/" .) }}">{{ . }}</a>{{ end }}</li>
HTML
cat >"$lay/updates/list.html" <<'HTML'
{{ define "main" }}<h1>{{ .Title }}</h1><p class="lede">{{ .Params.summary }}</p><ul class="list">{{ range first 200 .Pages.ByDate.Reverse }}{{ partial "event.html" . }}{{ end }}</ul>{{ end }}
HTML
cat >"$lay/kinds/term.html" <<'HTML'
{{ define "main" }}<h1>Updates: {{ .Title }}</h1><p class="lede">Every update of this kind, newest first. {{ len .Pages }} updates.</p><ul class="list">{{ range .Pages.ByDate.Reverse }}{{ partial "event.html" . }}{{ end }}</ul>{{ end }}
HTML
cat >"$lay/_default/term.html" <<'HTML'
{{ define "main" }}{{ partial "entries.html" (dict "page" . "list" .Pages.ByTitle) }}{{ end }}
HTML
cat >"$lay/_default/taxonomy.html" <<'HTML'
{{ define "main" }}<h1>{{ .Title }}</h1><ul class="list">{{ range .Data.Terms.Alphabetical }}<li><a href="{{ .Page.RelPermalink }}">{{ .Page.Title }}</a> ({{ .Count }})</li>{{ end }}</ul>{{ end }}
HTML
cat >"$lay/origins/term.html" <<'HTML'
{{ define "main" }}<p class="muted"><a href="{{ relURL "origins/" }}">Sites</a> › <bdi data-pub>{{ .Title }}</bdi></p><h1>Site <bdi data-pub>{{ .Title }}</bdi></h1><p class="lede">One DreamWeave site index, as this index read it. The site's own name and address are the site's words.</p>
<div class="banner" role="note" id="problem"><p><strong>Healthy.</strong> The site index was read on the last crawl. <a href="{{ relURL "health/" }}#site-{{ .Data.Term }}">This site on the health page</a>. If you publish this site: <a href="{{ relURL "about/publishers/" }}">when changes show here, and how to check your files before deploying</a>.</p></div>
<dl class="facts"><dt>Site index</dt><dd><a href="{{ .Params.index }}" rel="nofollow noopener noreferrer" data-pub><bdi data-pub>{{ .Params.index }}</bdi></a></dd><dt>Site address, as the site gives it</dt><dd><a href="{{ .Params.home }}" rel="nofollow noopener noreferrer" data-pub><bdi data-pub>{{ .Params.home }}</bdi></a></dd><dt>This index's file name for it</dt><dd><code data-pub>{{ .Data.Term }}</code> <span class="note">(made from the site index's address)</span></dd><dt>Generator</dt><dd><bdi data-pub>test generator</bdi></dd><dt>Held site index SHA-256</dt><dd><code class="digest">{{ .Params.digest }}</code></dd></dl>
<h2>Projects it lists</h2><p>{{ len .Pages }} claims, in name order.</p><ul class="results">{{ range .Pages.ByTitle }}<li><a class="result-title" href="{{ .RelPermalink }}"><bdi data-pub>{{ .Title }}</bdi></a> <span class="badge"><bdi data-pub>{{ (index .Params.releases 0).version }}</bdi></span> <code data-pub>{{ .Params.project }}</code><div class="meta"><span data-pub>{{ .Params.kind0 }}</span><span data-pub>{{ .Params.status0 }}</span><span>{{ .Params.health }}</span></div><p data-pub>{{ .Params.summary }}</p></li>{{ end }}</ul>{{ end }}
HTML
cat >"$lay/origins/taxonomy.html" <<'HTML'
{{ define "main" }}<h1>Sites</h1><p class="lede">Every site in the source list, in name order.</p><div class="table-wrap"><table><thead><tr><th scope="col">Site</th><th scope="col">Site index</th><th scope="col">Claims</th><th scope="col">Health</th></tr></thead><tbody>{{ range .Data.Terms.Alphabetical }}<tr><td><a href="{{ .Page.RelPermalink }}"><bdi data-pub>{{ .Page.Title }}</bdi></a></td><td><a href="{{ .Page.Params.index }}" rel="nofollow noopener noreferrer" data-pub><bdi data-pub>{{ .Page.Params.index }}</bdi></a></td><td>{{ .Count }}</td><td>healthy</td></tr>{{ end }}</tbody></table></div>{{ end }}
HTML
cat >"$lay/capabilities/term.html" <<'HTML'
{{ define "main" }}<p class="muted"><a href="{{ relURL "capabilities/" }}">Capabilities</a> › <code>{{ .Title }}</code></p><h1>Capability <code data-pub>{{ .Title }}</code></h1><h2 id="providers">Provided by</h2><ul class="list">{{ range .Params.providers }}{{ with site.GetPage . }}<li>{{ partial "claimlink.html" . }}</li>{{ end }}{{ end }}</ul>
<h2 id="references">Referenced by</h2><ul class="list">{{ range .Pages.ByTitle }}<li>{{ partial "claimlink.html" . }}, release <a href="{{ .RelPermalink }}#release-{{ (index .Params.releases 0).version }}"><bdi data-pub>{{ (index .Params.releases 0).version }}</bdi></a>: <strong data-pub>recommends</strong></li>{{ end }}</ul>{{ end }}
HTML
cat >"$lay/capabilities/taxonomy.html" <<'HTML'
{{ define "main" }}<h1>Capabilities</h1><p class="lede">Capabilities that current releases provide or reference.</p>{{ range .Data.Terms.Alphabetical }}<h2 id="{{ .Page.Data.Term }}"><a href="{{ .Page.RelPermalink }}"><code data-pub>{{ .Page.Title }}</code></a></h2><ul class="list">{{ range .Pages.ByTitle }}<li>{{ partial "claimlink.html" . }}</li>{{ end }}</ul>{{ end }}{{ end }}
HTML
cat >"$lay/_default/recent.html" <<'HTML'
{{ define "main" }}{{ $claims := where (where site.RegularPages "Section" "projects") "Params.health" "ne" "withdrawn" }}{{ $list := $claims.ByLastmod.Reverse }}{{ if eq .Params.order "released" }}{{ $list = sort $claims "Params.released" "desc" }}{{ else if eq .Params.order "foundations" }}{{ $list = sort $claims "Params.usedbycount" "desc" }}{{ end }}{{ partial "entries.html" (dict "page" . "list" $list) }}{{ end }}
HTML
cat >"$lay/_default/dependencies.html" <<'HTML'
{{ define "main" }}{{ $claims := (where site.RegularPages "Section" "projects").ByTitle }}<h1>Dependencies</h1><p class="lede">Every relationship that a current release declares, and what it resolves to.</p><h2 id="used-by">Used by</h2><ul class="list">
{{ range $claims }}{{ if .Params.usedby }}<li>{{ partial "claimlink.html" . }} is required by: {{ range $i, $u := .Params.usedby }}{{ with site.GetPage $u }}{{ if $i }}, {{ end }}<a href="{{ .RelPermalink }}"><bdi data-pub>{{ .Title }}</bdi></a> <span class="muted">(<bdi data-pub>{{ .Params.sitename }}</bdi>)</span>{{ end }}{{ end }}</li>{{ end }}{{ end }}</ul>
<h2 id="edges">Every relationship</h2><div class="table-wrap" tabindex="0"><table><thead><tr><th scope="col">From</th><th scope="col">Kind</th><th scope="col">Target</th><th scope="col">Constraint</th><th scope="col">Resolves to</th><th scope="col">Satisfied</th></tr></thead><tbody>
{{ range $claims }}{{ $c := . }}{{ range (index .Params.releases 0).relationships }}<tr><td><a href="{{ $c.RelPermalink }}"><bdi data-pub>{{ $c.Title }}</bdi></a> <bdi data-pub>{{ (index $c.Params.releases 0).version }}</bdi> <span class="muted">(<bdi data-pub>{{ $c.Params.sitename }}</bdi>)</span></td><td data-pub>{{ .kind }}</td><td>{{ if .project }}project <code data-pub>{{ .project }}</code>{{ else }}capability <code data-pub>{{ .capability }}</code>{{ end }}</td><td>{{ with .version }}<code data-pub>{{ . }}</code>{{ end }}</td><td>{{ range .resolve }}{{ with site.GetPage . }}{{ partial "claimlink.html" . }}{{ end }}{{ end }}</td><td>{{ if .version }}<span class="yes">satisfied</span>{{ else }}no constraint{{ end }}</td></tr>{{ end }}{{ end }}</tbody></table></div>{{ end }}
HTML
cat >"$lay/_default/releases.html" <<'HTML'
{{ define "main" }}<h1>Releases</h1><p class="lede">The current release of every claim, with the head of each channel.</p><div class="table-wrap" tabindex="0"><table><thead><tr><th scope="col">Claim</th><th scope="col">Current</th><th scope="col">Date</th><th scope="col">Channels</th></tr></thead><tbody>
{{ range (where site.RegularPages "Section" "projects").ByTitle }}{{ $r := index .Params.releases 0 }}<tr><td>{{ partial "claimlink.html" . }}</td><td><a href="{{ .RelPermalink }}#release-{{ $r.version }}"><bdi data-pub>{{ $r.version }}</bdi></a></td><td><bdi data-pub>{{ $r.date }}</bdi></td><td><bdi data-pub>{{ $r.channel }}</bdi> <bdi data-pub>{{ $r.version }}</bdi></td></tr>{{ end }}</tbody></table></div>{{ end }}
HTML
cat >"$lay/_default/health.html" <<'HTML'
{{ define "main" }}<h1>Network health</h1><p class="lede">Every site with its last problem, every claim that is not current and why.</p><h2 id="sites">Sites</h2><div class="table-wrap"><table><tbody>{{ range site.Taxonomies.origins.Alphabetical }}<tr id="site-{{ .Page.Data.Term }}"><td><a href="{{ .Page.RelPermalink }}"><bdi data-pub>{{ .Page.Title }}</bdi></a></td><td>healthy</td><td><time datetime="2026-10-10T12:00:00Z">2026-10-10 12:00:00 UTC</time></td><td>{{ .Count }} claims</td></tr>{{ end }}</tbody></table></div>
<h2 id="claims">Claims that are not current</h2><ul class="list">{{ range where (where site.RegularPages "Section" "projects") "Params.health" "ne" "current" }}<li id="claim-{{ .Params.project }}-{{ index .Params.origins 0 }}">{{ partial "claimlink.html" . }}<br>{{ if eq .Params.health "stale" }}Origin unavailable: HTTP <bdi data-pub>503</bdi>.{{ else }}Withdrawn by the site.{{ end }} Last success <time datetime="2026-10-10T12:00:00Z">2026-10-10 12:00:00 UTC</time>; last attempt <time datetime="2026-10-10T12:00:00Z">2026-10-10 12:00:00 UTC</time>.</li>{{ end }}</ul>{{ end }}
HTML
cat >"$lay/_default/single.html" <<'HTML'
{{ define "main" }}<h1>{{ .Title }}</h1><p class="lede">{{ .Params.summary }}</p>{{ .Content }}{{ end }}
HTML
cat >"$lay/_default/list.html" <<'HTML'
{{ define "main" }}<h1>{{ .Title }}</h1>{{ .Content }}<ul class="list">{{ range .Pages }}<li><a href="{{ .RelPermalink }}">{{ .Title }}</a>: {{ .Params.summary }}</li>{{ end }}</ul>{{ end }}
HTML
cat >"$lay/index.html" <<'HTML'
{{ define "main" }}<h1>AsHyAmS</h1><p class="lede">An independent index of the DreamWeave mod network.</p>{{ .Content }}<h2 id="lately">What changed lately</h2><ul class="list">{{ range first 40 (where site.RegularPages "Section" "updates").ByDate.Reverse }}{{ partial "event.html" . }}{{ end }}</ul>
<h2 id="explore">Explore</h2><ul class="list">{{ range (slice "projects/" "browse/" "capabilities/" "dependencies/" "releases/" "origins/" "health/") }}<li><a href="{{ relURL . }}">{{ . | humanize }}</a></li>{{ end }}</ul>{{ end }}
HTML
cat >"$lay/404.html" <<'HTML'
{{ define "main" }}<h1>Not found</h1><p>No page at this address. <a href="{{ relURL "" }}">The index</a> lists every project.</p>{{ end }}
HTML
# The content: the synthetic state of BenchmarkBuild10k as Hugo content files (n/10 sites of
# 10 claims, 5 releases per claim, every claim requiring the previous project and recommending
# a capability that one claim in 100 provides, one in 50 stale, one in 100 withdrawn, one in
# 200 a second site's claim of the previous project's id, one event per claim). awk writes them
# all: a shell loop would dominate the run.
awk -v n="$claims" -v dir="$site/content" '
function h32(x) { return (x * 2654435761 + 40503) % 4294967296 }
function hex64(   s, k) { s = ""; for (k = 0; k < 8; k++) s = s sprintf("%08x", int(rand() * 4294967296)); return s }
function slug(s) { return sprintf("site%04d-example-mods-%08x", s, h32(s + 1)) }
function uuid(i) { return sprintf("%08x-%04x-4%03x-8%03x-%012x", h32(i), i % 65536, i % 4096, (i * 7) % 4096, h32(i * 3 + 1)) }
function cid(i) { return i % 200 == 199 ? uuid(i - 1) : uuid(i) }
function csite(i) { return i % 200 == 199 ? (int(i / 10) + 1) % sites : int(i / 10) }
function cname(i) { return i % 200 == 199 ? sprintf("Synthetic project %05d, again", i - 1) : sprintf("Synthetic project %05d", i) }
function cpath(i) { return "/projects/" cid(i) "/" slug(csite(i)) }
function evid(i) { return sprintf("%08x%012x", h32(i + 7), i) }
function page(f, title, fm, body) { printf "---\ntitle: \"%s\"\n%s---\n%s\n", title, fm, body > f; close(f) }
function prose(k,   s, j) {
	s = ""
	for (j = 0; j < k; j++) s = s "This index reads the **site indexes** in its source list and shows what each one published, [as the protocol says](https://example.org/protocol). Paragraph " j " of the page.\n\n"
	return s
}
BEGIN {
	srand(1)
	sites = int((n + 9) / 10)
	mkdir = "mkdir -p"
	for (s = 0; s < sites; s++) mkdir = mkdir " " dir "/origins/" slug(s)
	for (c = 0; c * 100 < n; c++) mkdir = mkdir " " dir "/capabilities/synthetic-cap-" c
	system(mkdir " " dir "/updates " dir "/browse " dir "/about")
	for (i = 0; i < n; i += 500) {
		mkdir = "mkdir -p"
		for (j = i; j < n && j < i + 500; j++) mkdir = mkdir " " dir "/projects/" uuid(j)
		system(mkdir)
	}
	for (s = 0; s < sites; s++)
		page(dir "/origins/" slug(s) "/_index.md", "Site " s, sprintf("index: https://site%04d.example/mods/dreamweave.json\nhome: https://site%04d.example/mods/\ndigest: %s\n", s, s, hex64()), "")
	for (c = 0; c * 100 < n; c++)
		page(dir "/capabilities/synthetic-cap-" c "/_index.md", "synthetic:cap-" c, "providers: [\"" cpath(c * 100) "\"]\n", "")
	page(dir "/_index.md", "AsHyAmS", "", prose(6))
	page(dir "/projects/_index.md", "Projects", "summary: \"Every claim in the catalog.\"\n", "")
	page(dir "/updates/_index.md", "Updates", "summary: \"What this index observed, newest first.\"\n", "")
	page(dir "/browse/_index.md", "Browse", "summary: \"Ready-made lists of the catalog.\"\n", "")
	page(dir "/browse/recently-updated.md", "Recently updated", "layout: recent\norder: updated\nsummary: \"Claims by the time their manifest last changed.\"\n", "")
	page(dir "/browse/recently-released.md", "Recently released", "layout: recent\norder: released\nsummary: \"Claims by the date of their current release.\"\n", "")
	page(dir "/browse/foundations.md", "Foundations", "layout: recent\norder: foundations\nsummary: \"Claims that others require, most required first.\"\n", "")
	page(dir "/dependencies.md", "Dependencies", "layout: dependencies\n", "")
	page(dir "/releases.md", "Releases", "layout: releases\n", "")
	page(dir "/health.md", "Network health", "layout: health\n", "")
	page(dir "/about/_index.md", "About", "summary: \"What this index is.\"\n", prose(20))
	split("listing digests updates publishers state trust join network setup gaps conflicts", about, " ")
	for (k = 1; k <= 11; k++)
		page(dir (k <= 6 ? "/about/" : "/") about[k] ".md", about[k], "summary: \"About " about[k] ".\"\n", prose(k <= 6 ? 12 : 4))
	for (i = 0; i < n; i++) {
		id = cid(i); s = csite(i); name = cname(i); ev = evid(i); digest = hex64()
		health = (i % 100 == 7 ? "withdrawn" : (i % 50 == 3 ? "stale" : "current"))
		pdir = dir "/projects/" id
		if (i % 200 != 199)
			page(pdir "/_index.md", name, "project: " id "\nsummary: \"Every site that lists project id " id ".\"\n", "")
		fm = sprintf("project: %s\nsitename: \"Site %d\"\nsummary: \"A project called %s.\"\nhealth: %s\ngame: morrowind\nlicense: MIT\nkind0: mod\nstatus0: active\ntaglist: [Lua, Test]\n", id, s, name, health)
		fm = fm sprintf("date: 2026-09-01T00:00:00Z\nlastmod: 2026-09-15T00:00:00Z\nreleased: 2026-09-%02d\nevent: %s\ndigest: %s\n", 1 + i % 28, ev, digest)
		fm = fm sprintf("manifest: https://example.org/%s/%s.json\nsource: https://example.org/src/%s\n", slug(s), id, id)
		fm = fm sprintf("links:\n  - {label: Project page, url: \"https://example.org/%s/\"}\n  - {label: Source, url: \"https://example.org/src/%s\"}\n  - {label: Issues, url: \"https://example.org/src/%s/issues\"}\nmaintainers:\n  - {name: Someone, url: \"https://example.org/someone\"}\n", id, id, id)
		fm = fm "origins: [" slug(s) "]\n"
		if (health != "withdrawn") fm = fm "types: [mod]\nstatuses: [active]\ntags: [Lua, Test]\n"
		if (i > 0) fm = fm "capabilities: [synthetic-cap-" int(i / 100) "]\n"
		used = ""; nused = 0
		if (i + 1 < n && i % 200 != 199) { used = used "\n  - " cpath(i + 1); nused++ }
		if (i % 100 == 0) for (j = i + 2; j < n && j < i + 100; j++) { used = used "\n  - " cpath(j); nused++ }
		if (nused) fm = fm "usedby:" used "\n"
		fm = fm "usedbycount: " nused "\nreleases:\n"
		for (r = 4; r >= 0; r--) {
			fm = fm sprintf("  - version: 1.0.%d\n    channel: stable\n    date: 2026-09-01\n    openmw: \">=0.49\"\n    notes: \"Release 1.0.%d with **bold** notes and a [link](https://example.org/notes).\"\n", r, r)
			if (r == 4 && i > 0) {
				req = "\"" cpath(i - 1) "\""
				if (i % 200 == 199) req = req ", \"" cpath(i) "\""
				if ((i - 1) % 200 == 199) req = ""
				fm = fm sprintf("    relationships:\n      - {kind: requires, project: %s, version: \">=1.0.0\", resolve: [%s]}\n      - {kind: recommends, capability: \"synthetic:cap-%d\", term: synthetic-cap-%d, resolve: [\"%s\"]}\n", uuid(i - 1), req, int(i / 100), int(i / 100), cpath(int(i / 100) * 100))
			}
			fm = fm sprintf("    artifacts:\n      - {file: \"%s-1.0.%d.zip\", size: 12345, sha256: %s, sources: [\"https://example.org/dl/1.0.%d.zip\"]}\n", name, r, hex64(), r)
		}
		page(pdir "/" slug(s) ".md", name, fm, "Release 1.0.4 with **bold** notes and a [link](https://example.org/notes).")
		page(dir "/updates/" ev ".md", name " (Site " s "): first observed",
			sprintf("date: 2026-09-%02dT%02d:%02d:00Z\nclaim: %s\ndigest: %s\nkinds: [observed]\nsummary: \"One observed change to one claim.\"\n", 1 + i % 28, i % 24, i % 60, cpath(i), digest),
			"The first observation of this claim: nothing to compare with.")
	}
}'

# bash's time keyword gives hugo's user and system CPU seconds: on a shared machine they vary
# less than the wall clock (the benchmark reports its own as cpu-s/op).
TIMEFORMAT='%U %S'
results=()
for h in "${hugos[@]}"; do
	v=$("$h" version | awk '{print $2}')
	echo "hugo $v: building the site of $claims claims"
	rm -rf "$tmp/hugo-public"
	start=$(date +%s%N)
	{ time "$h" --quiet --minify --source "$site" --destination "$tmp/hugo-public" 2>&3; } 3>&2 2>"$tmp/hugo-time"
	end=$(date +%s%N)
	cpu=$(awk '{print $1 + $2}' "$tmp/hugo-time")
	files=$(find "$tmp/hugo-public" -type f | wc -l)
	read -r pages bytes < <(find "$tmp/hugo-public" -name '*.html' -printf '%s\n' | awk '{b += $1} END {print NR, b}')
	results+=("$v $pages $bytes $files $((end - start)) $cpu")
done

echo "ashyams: building the synthetic state of BenchmarkBuild10k (10,000 claims) once"
# tee to a file of its own: reopening /dev/stderr would truncate a log that stderr goes to.
go test ./site -run '^$' -bench 'BenchmarkBuild10k$' -benchtime 1x | tee "$tmp/bench" >&2
bench=$(grep '^BenchmarkBuild10k' "$tmp/bench")
metric() { echo "$bench" | awk -v unit="$1" '{for (i = 2; i < NF; i++) if ($(i+1) == unit) print $i}'; }

printf '%s\n' "${results[@]}" | awk -v ap="$(metric pages)" -v ab="$(metric html-bytes)" -v af="$(metric files)" \
	-v an="$(metric ns/op)" -v ac="$(metric cpu-s/op)" -v am="$(metric alloc-MB/op)" -v ar="$(metric maxrss-MB)" '
BEGIN {
	arate = ap / (an / 1e9)
	printf "ashyams: %d pages, %d bytes of HTML (%.0f MB), %d files, in %.1f s (%.1f CPU-s): %.0f pages/s; %.0f MB allocated, %.0f MB max RSS\n", ap, ab, ab / 1e6, af, an / 1e9, ac, arate, am, ar
}
{
	hr = $2 / ($5 / 1e9)
	printf "hugo %s: %d pages, %d bytes of HTML (%.0f MB), %d files, in %.1f s (%.1f CPU-s): %.0f pages/s\n", $1, $2, $3, $3 / 1e6, $4, $5 / 1e9, $6, hr
	printf "ashyams / hugo %s: %.2fx pages/s, %.2fx pages per CPU-second\n", $1, arate / hr, (ap / ac) / ($2 / $6)
}'
