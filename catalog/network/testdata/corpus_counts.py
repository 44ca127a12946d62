#!/usr/bin/env python3
"""Independent count over ../shared/corpus/state, used to establish the numbers corpus_test.go
asserts. Written without the Go model: plain JSON reading. The corpus versions compared here are
all numeric-scheme X.Y.Z releases and the constraints are "=X.Y.Z" or ">=X.Y", so a tuple
comparison is exact for them. Run: python3 testdata/corpus_counts.py ../../../shared/corpus/state
"""
import collections, glob, json, os, sys

root = sys.argv[1] if len(sys.argv) > 1 else "../../../shared/corpus/state"
claims = {}
for p in sorted(glob.glob(os.path.join(root, "claims/*/*/claim.json"))):
    c = json.load(open(p))
    m = json.load(open(os.path.join(os.path.dirname(p), "manifest.json")))
    claims[(c["project"], c["origin"])] = (c, m)

def current(m):
    heads = {}
    def key(v):
        rel, _, pre = v.partition("-")
        return (tuple(int(x) for x in rel.split(".")), pre == "", pre)
    for r in m["releases"]:
        if r["status"] == "available" and (r["channel"] not in heads or key(r["version"]) > key(heads[r["channel"]]["version"])):
            heads[r["channel"]] = r
    if "stable" in heads: return heads["stable"]
    others = [r for ch, r in heads.items() if ch != "development"]
    if others: return max(others, key=lambda r: key(r["version"]))
    return heads.get("development")

listed = {k: v for k, v in claims.items() if v[0]["health"] != "withdrawn"}
by_id = collections.defaultdict(list)
for (pid, site) in listed: by_id[pid].append(site)
cur = {k: current(m) for k, (c, m) in listed.items()}
print("claims", len(claims), "listed", len(listed), "sites", len({s for _, s in claims}),
      "ids", len(by_id), "conflicts", sum(1 for v in by_id.values() if len(v) > 1))
print("claims per site", sorted(collections.Counter(s for _, s in claims).values(), reverse=True))
print("no current release", sorted(m["project"]["name"] for k, (c, m) in listed.items() if cur[k] is None))
print("current channels", collections.Counter((cur[k] or {}).get("channel") for k in listed))

def num(v): return tuple(int(x) for x in v.split("-")[0].split("."))
def sat(constraint, v):
    op = ">=" if constraint.startswith(">=") else "="
    want = num(constraint[len(op):])
    n = max(len(want), len(num(v)))
    a, b = num(v) + (0,) * (n - len(num(v))), want + (0,) * (n - len(want))
    return a >= b if op == ">=" else a == b

caps = collections.defaultdict(lambda: {"providers": set(), "users": set()})
rels = []
for k, r in cur.items():
    if r is None: continue
    for c in r.get("provides", []): caps[c]["providers"].add(k)
    for rel in r.get("relationships", []):
        rels.append((k, rel))
        if rel.get("capability"): caps[rel["capability"]]["users"].add((k, rel["kind"]))
print("current relationships", len(rels))
print("capabilities", {c: (len(v["providers"]), len(v["users"])) for c, v in caps.items()})
gaps = collections.defaultdict(set)
for k, rel in rels:
    if rel.get("project") and rel["project"] not in by_id: gaps["id"].add(rel["project"])
    if rel.get("capability") and not caps[rel["capability"]]["providers"]: gaps["capability"].add(rel["capability"])
    if not rel.get("project") and not rel.get("capability"):
        gaps["url" if rel.get("url") else "name"].add(rel.get("url") or rel.get("name"))
print("gaps", {g: sorted(v) for g, v in gaps.items()})
used_by = collections.defaultdict(set)
for k, rel in rels:
    if rel["kind"] == "requires" and rel.get("project") and rel["project"] != k[0]:
        for site in by_id.get(rel["project"], []): used_by[(rel["project"], site)].add(k)
print("used by", {listed[k][1]["project"]["name"]: sorted(listed[u][1]["project"]["name"] for u in v) for k, v in used_by.items()})
checks = collections.Counter()
for k, (c, m) in listed.items():
    for r in m["releases"]:
        for rel in r.get("relationships", []):
            if not rel.get("version"): checks["no-constraint"] += 1; continue
            targets = by_id.get(rel["project"], [])
            if not targets: checks["unresolved"] += 1; continue
            checks["satisfied" if any(sat(rel["version"], cur[(rel["project"], s)]["version"]) for s in targets) else "unsatisfied"] += 1
print("every release's relationships", dict(checks))
print("current relationship checks", collections.Counter(
    "no-constraint" if not rel.get("version") else
    ("satisfied" if sat(rel["version"], cur[(rel["project"], by_id[rel["project"]][0])]["version"]) else "unsatisfied")
    for k, rel in rels))
