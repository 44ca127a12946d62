package diff

import (
	"encoding/json"
	"maps"
	"slices"
)

// js encodes v as compact JSON without HTML escaping; null when it cannot be encoded.
func js(v any) json.RawMessage {
	b, err := encode(v)
	if err != nil {
		return json.RawMessage("null")
	}
	return b
}

// opt encodes s as a JSON string, or null when empty (an absent optional field).
func opt(s string) json.RawMessage {
	if s == "" {
		return json.RawMessage("null")
	}
	return js(s)
}

func optPtr(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// setDiff returns the strings of a not in b and of b not in a, sorted and distinct: the
// reference compares these lists as sets.
func setDiff(b, a []string) (added, removed []string) {
	distinct := func(l []string) []string { return slices.Compact(slices.Sorted(slices.Values(l))) }
	id := func(s string) string { return s }
	return append([]string{}, minus(distinct(a), b, id)...), append([]string{}, minus(distinct(b), a, id)...)
}

func setChange(out []Change, token string, b, a []string) []Change {
	added, removed := setDiff(b, a)
	if len(added) == 0 && len(removed) == 0 {
		return out
	}
	return append(out, Change{Change: token, Added: added, Removed: removed})
}

func unionKeys[V any](b, a map[string]V) []string {
	keys := slices.Collect(maps.Keys(b))
	for k := range a {
		if _, ok := b[k]; !ok {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	return keys
}

// multisetDiff returns the items of a not in b (in a's order) and of b not in a (in b's
// order), counting duplicates.
func multisetDiff[T any](b, a []T, key func(T) string) (added, removed []T) {
	return minus(a, b, key), minus(b, a, key)
}

// minus returns the items of x not in y, in x's order, counting duplicates.
func minus[T any](x, y []T, key func(T) string) []T {
	count := map[string]int{}
	for _, v := range y {
		count[key(v)]++
	}
	var out []T
	for _, v := range x {
		if k := key(v); count[k] > 0 {
			count[k]--
		} else {
			out = append(out, v)
		}
	}
	return out
}

// pairByKey pairs items with equal keys in order; it returns after -> before and before ->
// after indexes, -1 for none.
func pairByKey(bn, an int, bkey, akey func(int) string) (a2b, b2a []int) {
	a2b, b2a = make([]int, an), make([]int, bn)
	queue := map[string][]int{}
	for i := range bn {
		b2a[i] = -1
		queue[bkey(i)] = append(queue[bkey(i)], i)
	}
	for j := range an {
		a2b[j] = -1
		if q := queue[akey(j)]; len(q) > 0 {
			a2b[j], b2a[q[0]] = q[0], j
			queue[akey(j)] = q[1:]
		}
	}
	return a2b, b2a
}

func present(v string, ok bool) json.RawMessage {
	if !ok {
		return json.RawMessage("null")
	}
	return js(v)
}

// list encodes a slice, nil and empty both as [].
func list[T any](s []T) json.RawMessage {
	if len(s) == 0 {
		return json.RawMessage("[]")
	}
	return js(s)
}
