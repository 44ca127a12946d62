// The search engine of the project list (site.js) and the plan page's project box: words,
// their index, and how well the rows match a query; engines_test.go checks it in node
// against the Go build. A word is a run of letters and digits, each character lowercased
// alone, as site/find.go writes the index (network-data/find/): the "terms" part holds the
// sorted words (UTF-16 order), each with its rows as base-36 gaps, decoded when reached.
// Project ids have parts of their own by first character ("i0".."if"), read only for a
// query holding an id's start (needs).
//
// A query word matches a row's word it starts, one it is inside (from 3 characters), or one
// of letters a typo away (one edit from 4 letters, two from 8; same first character).
// Hyphen-joined hex words of 4+ characters are also an id's start. Lookups read the
// vocabulary, never the rows; a query is read to 200 characters; no pattern backtracks.
(function (api) {
  "use strict";
  if (typeof module === "object" && module.exports) {
    module.exports = api;
  } else {
    window.AshyamsFind = api;
  }
})((function () {
  "use strict";
  var wordChar = /[\p{L}\p{N}]/u, letters = /^\p{L}+$/u, MAXQ = 200;
  var START = 3, INSIDE = 2, TYPO = 1; // how well a word matches, best first

  // lowerChar lowercases one character alone, keeping the first of a longer lowercase
  // (U+0130 is "i"), as Go's unicode.ToLower.
  function lowerChar(ch) {
    var l = ch.toLowerCase();
    return l.length === ch.length ? l : String.fromCodePoint(l.codePointAt(0));
  }
  // lower is s lowercased a character at a time (site/find.go lowercases tags so).
  function lower(s) {
    var out = [];
    for (var ch of String(s)) {
      out.push(lowerChar(ch));
    }
    return out.join("");
  }
  // words is s's words, lowercase, in order, repeats kept.
  function words(s) {
    var out = [];
    tokens(s).forEach(function (t) { out.push.apply(out, t.words); });
    return out;
  }
  function isHex(w) {
    for (var i = 0; i < w.length; i++) {
      var c = w.charCodeAt(i);
      if (!(c >= 48 && c <= 57 || c >= 97 && c <= 102)) {
        return false;
      }
    }
    return true;
  }
  // tokens is s's words as a query reads them: each alone, but hex words joined by single
  // hyphens are one token, whose id is their text (4+ characters).
  function tokens(s) {
    var out = [], cur = [], sep = "", run = null; // sep: the characters between two words, up to two
    var end = function () {
      var w = cur.join(""), hex = isHex(w);
      if (hex && run && sep === "-") {
        run.words.push(w);
      } else {
        run = {words: [w], id: hex};
        out.push(run);
        if (!hex) {
          run = null;
        }
      }
      cur = [];
      sep = "";
    };
    for (var ch of String(s)) {
      if (wordChar.test(ch)) {
        cur.push(lowerChar(ch));
      } else {
        if (cur.length) {
          end();
        }
        sep = sep.length < 2 ? sep + ch : sep;
      }
    }
    if (cur.length) {
      end();
    }
    out.forEach(function (t) {
      t.id = t.id ? t.words.join("-") : null;
      if (t.id && t.id.length < 4) {
        t.id = null;
      }
    });
    return out;
  }

  function make(n, terms, postings) {
    return {n: n, terms: terms, postings: postings, ids: new Map(), allIDs: false, cache: new Map(), held: new Map()};
  }
  function sorted(ws) {
    for (var i = 1; i < ws.length; i++) {
      if (!(ws[i - 1] < ws[i])) {
        return i;
      }
    }
    return 0;
  }
  // fromTerms is the index of a "terms" part (ashyams-find-terms-1), or an Error.
  function fromTerms(d) {
    if (!d || d.format !== "ashyams-find-terms-1" || typeof d.rows !== "number" || !Array.isArray(d.words) ||
      !Array.isArray(d.postings) || d.words.length !== d.postings.length) {
      return new Error("the search index's terms are not an ashyams-find-terms-1 document");
    }
    var at = sorted(d.words);
    if (at) {
      return new Error("the search index's words are not sorted at " + at);
    }
    return make(d.rows, d.words, d.postings.slice());
  }
  // addIDs adds an "i<c>" part (format ashyams-find-ids-1) to ix, or returns an Error.
  function addIDs(ix, c, d) {
    if (!d || d.format !== "ashyams-find-ids-1" || !Array.isArray(d.ids) || !Array.isArray(d.postings) || d.ids.length !== d.postings.length) {
      return new Error("the search index's part i" + c + " is not an ashyams-find-ids-1 document");
    }
    var at = sorted(d.ids);
    if (at) {
      return new Error("the search index's ids of i" + c + " are not sorted at " + at);
    }
    ix.ids.set(c, {terms: d.ids, postings: d.postings.slice()});
    ix.cache.clear();
    return undefined;
  }
  // fromTexts indexes one text per entry (the page's, when the index does not load), and
  // wholes[i], the project ids entry i is found by.
  function fromTexts(texts, wholes) {
    var post = new Map(), ids = new Map();
    var add = function (m, w, i) {
      var p = m.get(w);
      if (!p) {
        m.set(w, [i]);
      } else if (p[p.length - 1] !== i) {
        p.push(i);
      }
    };
    texts.forEach(function (t, i) {
      words(t).forEach(function (w) { add(post, w, i); });
      ((wholes && wholes[i]) || []).forEach(function (id) { add(ids, String(id).toLowerCase(), i); });
    });
    var terms = Array.from(post.keys()).sort();
    var ix = make(texts.length, terms, terms.map(function (t) { return post.get(t); }));
    Array.from(ids.keys()).sort().forEach(function (id) {
      if (!ix.ids.has(id[0])) {
        ix.ids.set(id[0], {terms: [], postings: []});
      }
      var part = ix.ids.get(id[0]);
      part.terms.push(id);
      part.postings.push(ids.get(id));
    });
    ix.allIDs = true;
    return ix;
  }
  // rows decodes postings (a string of base-36 gaps, or an array already) to row numbers.
  function rows(p) {
    if (typeof p !== "string") {
      return p;
    }
    var out = [], at = 0;
    if (p === "") {
      return out;
    }
    var gaps = p.split(",");
    for (var i = 0; i < gaps.length; i++) {
      at += parseInt(gaps[i], 36);
      out.push(at);
    }
    return out;
  }
  // entriesOf is the rows of the k-th word of table t, ascending, decoded once.
  function entriesOf(t, k) {
    var p = t.postings[k];
    if (typeof p === "string") {
      t.postings[k] = p = rows(p);
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
  // distance is the edit distance of a and b (with adjacent swaps), or max+1 past max.
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
  // holding is the terms holding w after their first character, narrowed to those that
  // held w less its last character (typing extends a word).
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
  function remember(ix, key, set) {
    if (ix.cache.size > 200) {
      ix.cache.clear();
    }
    ix.cache.set(key, set);
    return set;
  }
  // matching is how well each row holds a word w finds (Uint8Array: START, INSIDE, TYPO, 0).
  function matching(ix, w) {
    var hit = ix.cache.get("w" + w);
    if (hit) {
      return hit;
    }
    var set = new Uint8Array(ix.n), terms = ix.terms, k;
    var mark = function (t, how) {
      var p = entriesOf(ix, t);
      for (var i = 0; i < p.length; i++) {
        if (set[p[i]] < how) {
          set[p[i]] = how;
        }
      }
    };
    var lo = firstAtLeast(terms, w);
    for (k = lo; k < terms.length && terms[k].lastIndexOf(w, 0) === 0; k++) {
      mark(k, START);
    }
    if (w.length >= 3) {
      holding(ix, w).forEach(function (t) { mark(t, INSIDE); });
    }
    var typos = w.length >= 8 ? 2 : w.length >= 4 ? 1 : 0;
    if (typos) {
      var first = w[0], end = firstAtLeast(terms, String.fromCharCode(first.charCodeAt(0) + 1));
      for (k = firstAtLeast(terms, first); k < end; k++) {
        var t = terms[k];
        if (Math.abs(t.length - w.length) <= typos && t.lastIndexOf(w, 0) !== 0 && letters.test(t) && distance(w, t, typos) <= typos) {
          mark(k, TYPO);
        }
      }
    }
    return remember(ix, "w" + w, set);
  }
  // idMatching is the rows found by a project id that id starts (START, else 0).
  function idMatching(ix, id) {
    var hit = ix.cache.get("i" + id);
    if (hit) {
      return hit;
    }
    var set = new Uint8Array(ix.n), part = ix.ids.get(id[0]);
    if (part) {
      for (var k = firstAtLeast(part.terms, id); k < part.terms.length && part.terms[k].lastIndexOf(id, 0) === 0; k++) {
        var p = entriesOf(part, k);
        for (var i = 0; i < p.length; i++) {
          set[p[i]] = START;
        }
      }
    }
    return remember(ix, "i" + id, set);
  }
  // needs is the names of the id parts query q reads that ix does not hold yet.
  function needs(ix, q) {
    if (ix.allIDs) {
      return [];
    }
    var out = new Set();
    tokens(String(q).slice(0, MAXQ)).forEach(function (t) {
      if (t.id && !ix.ids.has(t.id[0])) {
        out.add("i" + t.id[0]);
      }
    });
    return Array.from(out);
  }
  // and keeps in out the rows set holds too, adding how well (at most 255).
  function and(out, set) {
    for (var i = 0; i < out.length; i++) {
      out[i] = out[i] && set[i] ? Math.min(255, out[i] + set[i]) : 0;
    }
    return out;
  }
  // match is how well each row matches every word of q (Uint8Array, 0 none, more better), or
  // null when q has no word.
  function match(ix, q) {
    var toks = tokens(String(q).slice(0, MAXQ)), out = null;
    toks.forEach(function (t) {
      var s = matching(ix, t.words[0]).slice();
      for (var k = 1; k < t.words.length; k++) {
        and(s, matching(ix, t.words[k]));
      }
      if (t.id) {
        var ids = idMatching(ix, t.id), w = t.words.length * START;
        for (var i = 0; i < s.length; i++) {
          if (ids[i] && s[i] < w) {
            s[i] = Math.min(255, w);
          }
        }
      }
      out = out ? and(out, s) : s;
    });
    return out;
  }
  // best is at most limit rows of scores that skip(i) does not refuse, best first, then in
  // row order.
  function best(scores, limit, skip) {
    var by = [], out = [];
    for (var i = 0; i < scores.length; i++) {
      if (scores[i] && !(skip && skip(i))) {
        (by[scores[i]] = by[scores[i]] || []).push(i);
      }
    }
    for (var want = 255; want > 0 && out.length < limit; want--) {
      out.push.apply(out, (by[want] || []).slice(0, limit - out.length));
    }
    return out;
  }

  return {words: words, lower: lower, tokens: tokens, fromTerms: fromTerms, addIDs: addIDs, fromTexts: fromTexts,
    rows: rows, needs: needs, match: match, best: best};
})());
