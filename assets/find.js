// The project list's search engine, apart from the page that draws it (site.js): words, an
// index of them, and the entries a query matches. It runs in the page (window.AshyamsFind) and
// in node (require), where assets/engines_test.go checks it against the Go build's own words.
//
// A word is a run of letters and digits, each character lowercased on its own: the same rule
// as site/find.go's findWords, which writes the index of find.json at build time, so the
// browser reads a vocabulary rather than making one. A project id is one word, whole
// ("58cdea27-fca5-..."), so its parts do not crowd the vocabulary; a query's words find it
// by prefix and substring as any other. An index is the sorted distinct words
// (in JavaScript's string order, UTF-16 code units) and, for each, the entries holding it.
// find.json's postings are strings of base-36 gaps between entry numbers, decoded only for
// the words a query reaches.
//
// Every query word must match a word of the entry: one it starts (any length), one that holds
// it (three characters or more), or a word of letters a typo away (from four letters one edit,
// from eight two: insertion, deletion, substitution or adjacent swap) that starts with the
// same character, so "candelight" finds Candlelight. A lookup reads the vocabulary, never
// the entries: prefixes by binary search, the substring scan narrowed to the words that held
// the query less its last character (typing extends a word), typos only among the words
// sharing the first character and within the length. No regular expression here can
// backtrack: each is a single character class.
(function (api) {
  "use strict";
  if (typeof module === "object" && module.exports) {
    module.exports = api;
  } else {
    window.AshyamsFind = api;
  }
})((function () {
  "use strict";
  var wordChar = /[\p{L}\p{N}]/u, letters = /^\p{L}+$/u;

  // lower lowercases each character apart from its neighbours, and keeps the first character
  // of a lowercase that is longer (U+0130 becomes "i"), as Go's unicode.ToLower does.
  function lower(ch) {
    var l = ch.toLowerCase();
    return l.length === ch.length ? l : String.fromCodePoint(l.codePointAt(0));
  }
  // words is s's words, lowercase, in order, repeats kept.
  function words(s) {
    var out = [], cur = "";
    for (var ch of String(s)) {
      if (wordChar.test(ch)) {
        cur += lower(ch);
      } else if (cur) {
        out.push(cur);
        cur = "";
      }
    }
    if (cur) {
      out.push(cur);
    }
    return out;
  }

  function make(n, terms, postings) {
    return {n: n, terms: terms, postings: postings, cache: new Map(), held: new Map()};
  }
  // fromDoc is the index of a find.json document (format ashyams-find-2), or an Error saying
  // what is not as the engine reads it.
  function fromDoc(d) {
    if (!d || d.format !== "ashyams-find-2" || !Array.isArray(d.rows) || !Array.isArray(d.words) ||
      !Array.isArray(d.postings) || d.words.length !== d.postings.length) {
      return new Error("find.json is not an ashyams-find-2 document");
    }
    for (var i = 1; i < d.words.length; i++) {
      if (!(d.words[i - 1] < d.words[i])) {
        return new Error("find.json's words are not sorted at " + i);
      }
    }
    return make(d.rows.length, d.words, d.postings.slice());
  }
  // fromTexts is the index of one text per entry (the entries a page shows, when find.json
  // cannot be read), and of wholes[i], when given: ids the entry is found by, each one word
  // (lowercased), as find.json indexes project ids.
  function fromTexts(texts, wholes) {
    var post = new Map();
    texts.forEach(function (t, i) {
      var ws = words(t);
      if (wholes && wholes[i]) {
        wholes[i].forEach(function (id) { ws.push(String(id).toLowerCase()); });
      }
      ws.forEach(function (w) {
        var p = post.get(w);
        if (!p) {
          post.set(w, [i]);
        } else if (p[p.length - 1] !== i) {
          p.push(i);
        }
      });
    });
    var terms = Array.from(post.keys()).sort();
    return make(texts.length, terms, terms.map(function (t) { return post.get(t); }));
  }
  // entriesOf is the entry numbers of the k-th word, ascending, decoded once.
  function entriesOf(ix, k) {
    var p = ix.postings[k];
    if (typeof p === "string") {
      var out = [], at = 0, gaps = p.split(",");
      for (var i = 0; i < gaps.length; i++) {
        at += parseInt(gaps[i], 36);
        out.push(at);
      }
      ix.postings[k] = p = out;
    }
    return p;
  }

  // firstAtLeast is the index of the first term not below w.
  function firstAtLeast(terms, w) {
    var lo = 0, hi = terms.length;
    while (lo < hi) {
      var mid = (lo + hi) >> 1;
      if (terms[mid] < w) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }
  // distance is the edit distance of a and b (insertions, deletions, substitutions, adjacent
  // swaps), or max+1 once it must pass max.
  function distance(a, b, max) {
    if (Math.abs(a.length - b.length) > max) {
      return max + 1;
    }
    var prev2 = null, prev = [], cur, i, j;
    for (j = 0; j <= b.length; j++) {
      prev.push(j);
    }
    for (i = 1; i <= a.length; i++) {
      cur = [i];
      var low = i;
      for (j = 1; j <= b.length; j++) {
        var c = a[i - 1] === b[j - 1] ? 0 : 1;
        var d = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + c);
        if (prev2 && i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
          d = Math.min(d, prev2[j - 2] + 1);
        }
        cur.push(d);
        low = Math.min(low, d);
      }
      if (low > max) {
        return max + 1;
      }
      prev2 = prev;
      prev = cur;
    }
    return prev[b.length];
  }
  // holding is the numbers of the terms that hold w after their first character, from the
  // terms that held w less its last character when that was looked up.
  function holding(ix, w) {
    var from = w.length > 3 ? ix.held.get(w.slice(0, -1)) : null, out = [], terms = ix.terms, k;
    if (from) {
      for (k = 0; k < from.length; k++) {
        if (terms[from[k]].indexOf(w, 1) > 0) {
          out.push(from[k]);
        }
      }
    } else {
      for (k = 0; k < terms.length; k++) {
        if (terms[k].length > w.length && terms[k].indexOf(w, 1) > 0) {
          out.push(k);
        }
      }
    }
    if (ix.held.size > 200) {
      ix.held.clear();
    }
    ix.held.set(w, out);
    return out;
  }
  // matching is the entries (a Uint8Array by entry, 1 for a match) holding a word w finds.
  function matching(ix, w) {
    var hit = ix.cache.get(w);
    if (hit) {
      return hit;
    }
    var set = new Uint8Array(ix.n), terms = ix.terms, k;
    var mark = function (t) {
      var p = entriesOf(ix, t);
      for (var i = 0; i < p.length; i++) {
        set[p[i]] = 1;
      }
    };
    var lo = firstAtLeast(terms, w);
    for (k = lo; k < terms.length && terms[k].lastIndexOf(w, 0) === 0; k++) {
      mark(k);
    }
    if (w.length >= 3) {
      holding(ix, w).forEach(mark);
    }
    var typos = w.length >= 8 ? 2 : w.length >= 4 ? 1 : 0;
    if (typos) {
      var first = w[0], end = firstAtLeast(terms, String.fromCharCode(first.charCodeAt(0) + 1));
      for (k = firstAtLeast(terms, first); k < end; k++) {
        var t = terms[k];
        if (Math.abs(t.length - w.length) <= typos && t.lastIndexOf(w, 0) !== 0 && letters.test(t) && distance(w, t, typos) <= typos) {
          mark(k);
        }
      }
    }
    if (ix.cache.size > 200) {
      ix.cache.clear();
    }
    ix.cache.set(w, set);
    return set;
  }
  // match is the entries matching every word of query q (a Uint8Array by entry), or null when
  // q has no word (every entry).
  function match(ix, q) {
    var ws = words(q);
    if (!ws.length) {
      return null;
    }
    var out = matching(ix, ws[0]).slice();
    for (var k = 1; k < ws.length; k++) {
      var s = matching(ix, ws[k]);
      for (var i = 0; i < out.length; i++) {
        out[i] &= s[i];
      }
    }
    return out;
  }

  return {words: words, fromDoc: fromDoc, fromTexts: fromTexts, match: match};
})());
