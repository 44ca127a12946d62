#!/usr/bin/env bash
# .ci/hugo-compare.sh: the render stage side by side with Hugo on this machine, in one run.
# Not run by CI (it installs a package and takes minutes). Installs Debian's hugo, generates a
# Hugo site comparable to BenchmarkBuild10k's synthetic state (10,000 claims, 3 pages per
# claim: the claim, its project and one release, each with front matter, a summary, a
# Markdown body and links to the others, rendered through one layout with a navigation
# header), builds it once with hugo and builds the synthetic state once with ashyams (the
# benchmark), then prints the pages per second of each and their ratio.
#   usage: .ci/hugo-compare.sh [CLAIMS]    (default 10000)
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
hugo version

site=$tmp/hugo
mkdir -p "$site/layouts/_default" "$site/content/claims" "$site/content/projects" "$site/content/releases"
cat >"$site/hugo.toml" <<'TOML'
baseURL = "https://example.org/index/"
title = "Comparison"
disableKinds = ["taxonomy", "term", "RSS", "sitemap", "robotsTXT", "404"]
[markup.goldmark.renderer]
unsafe = false
TOML
cat >"$site/layouts/_default/baseof.html" <<'HTML'
<!doctype html><html lang="en"><head><meta charset="utf-8"><title>{{ .Title }} · Comparison</title><meta name="description" content="{{ .Params.summary }}"><link rel="canonical" href="{{ .Permalink }}"></head>
<body><header><nav><ul>{{ range (slice "claims" "projects" "releases") }}<li><a href="{{ relURL . }}/">{{ . }}</a></li>{{ end }}</ul></nav></header>
<main>{{ block "main" . }}{{ end }}</main><footer><p>Generated for a side-by-side build.</p></footer></body></html>
HTML
cat >"$site/layouts/_default/single.html" <<'HTML'
{{ define "main" }}<h1><bdi>{{ .Title }}</bdi></h1><p class="lede">{{ .Params.summary }}</p>
<dl>{{ range $k, $v := .Params.facts }}<dt>{{ $k }}</dt><dd><bdi>{{ $v }}</bdi></dd>{{ end }}</dl>
<ul>{{ range .Params.links }}<li><a href="{{ relURL . }}">{{ . }}</a></li>{{ end }}</ul>
{{ .Content }}{{ end }}
HTML
cat >"$site/layouts/_default/list.html" <<'HTML'
{{ define "main" }}<h1>{{ .Title }}</h1><ul>{{ range .Pages }}<li><a href="{{ .RelPermalink }}"><bdi>{{ .Title }}</bdi></a></li>{{ end }}</ul>{{ end }}
HTML
# One claim's three pages; awk writes them all (a shell loop would dominate the run).
awk -v n="$claims" -v dir="$site/content" 'BEGIN {
	for (i = 0; i < n; i++) {
		id = sprintf("%08d-0000-4000-8000-%012d", i, i)
		for (k = 0; k < 3; k++) {
			kind = (k == 0 ? "claims" : (k == 1 ? "projects" : "releases"))
			f = dir "/" kind "/" id ".md"
			printf "---\ntitle: \"Synthetic project %05d (%s)\"\nsummary: \"Synthetic project %d, one of %d, as site %d publishes it.\"\n", i, kind, i, n, int(i / 10) > f
			printf "facts:\n  type: mod\n  status: active\n  game: morrowind\n  license: MIT\n  site: site%04d\n  version: 1.0.%d\n", int(i / 10), i % 5 > f
			printf "links:\n  - /claims/%s/\n  - /projects/%s/\n  - /releases/%s/\n---\n", id, id, id > f
			printf "## Release notes\n\nThe **1.0.%d** release of synthetic project %d.\n\n- requires project %d (>=1.0.0)\n- recommends `synthetic:cap-%d`\n- fixes [an issue](https://site%04d.example/mods/issues/%d)\n", i % 5, i, (i > 0 ? i - 1 : 0), int(i / 100), int(i / 10), i > f
			close(f)
		}
	}
}'

echo "hugo: building $((claims * 3)) content pages"
start=$(date +%s%N)
hugo --quiet --source "$site" --destination "$tmp/hugo-public"
end=$(date +%s%N)
hugo_pages=$(find "$tmp/hugo-public" -name '*.html' | wc -l)
hugo_ns=$((end - start))

echo "ashyams: building the synthetic state of BenchmarkBuild10k (10,000 claims) once"
bench=$(go test ./site -run '^$' -bench 'BenchmarkBuild10k$' -benchtime 1x | tee /dev/stderr | grep '^BenchmarkBuild10k')
ash_ns=$(echo "$bench" | awk '{print $3}')
ash_pages=$(echo "$bench" | awk '{for (i = 1; i < NF; i++) if ($(i+1) == "pages") print $i}')

awk -v hp="$hugo_pages" -v hn="$hugo_ns" -v ap="$ash_pages" -v an="$ash_ns" 'BEGIN {
	hr = hp / (hn / 1e9); ar = ap / (an / 1e9)
	printf "hugo:    %d pages in %.1f s: %.0f pages/s\n", hp, hn / 1e9, hr
	printf "ashyams: %d pages in %.1f s: %.0f pages/s\n", ap, an / 1e9, ar
	printf "ashyams / hugo: %.2fx pages/s\n", ar / hr
}'
