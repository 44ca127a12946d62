// DreamWeave versions and constraints (SPEC section 1), the scripts' one implementation,
// mirroring catalog/version (engines_test.go compares them). A version is
// release[-pre][+build], 1 to 6 dot-separated numbers, the first without a leading zero (in
// the numeric scheme none has one). Numeric compares numbers as integers (missing ones 0);
// decimal compares later numbers as decimal fractions. Pre-releases compare as SemVer 2.0.0
// and sort below their release; build is ignored. All is linear in publisher text.
(function (api) {
  "use strict";
  if (typeof module === "object" && module.exports) {
    module.exports = api;
  } else {
    window.DreamWeaveVersion = api;
  }
})((function () {
  "use strict";
  var maxNumbers = 6;
  var operators = [">=", "<=", "!=", "=", ">", "<"]; // longest first

  function isBlank(c, ff) {
    return c === 32 || c === 9 || c === 13 || c === 10 || c === ff; // space \t \r \n
  }
  // trim removes from both ends the whitespace a constraint allows (space, tab, CR, LF, FF),
  // or, with cfg, what OpenMW's readers trim (the same but FF). The one trim of the scripts.
  function trim(s, cfg) {
    var i = 0, j = s.length, ff = cfg ? -1 : 12;
    while (i < j && isBlank(s.charCodeAt(i), ff)) {
      i++;
    }
    while (j > i && isBlank(s.charCodeAt(j - 1), ff)) {
      j--;
    }
    return i === 0 && j === s.length ? s : s.slice(i, j);
  }
  function allDigits(s) {
    if (s === "") {
      return false;
    }
    for (var i = 0; i < s.length; i++) {
      var c = s.charCodeAt(i);
      if (c < 48 || c > 57) {
        return false;
      }
    }
    return true;
  }
  // idents splits dot-separated SemVer identifiers, or null when one is empty or not
  // [0-9A-Za-z-]; pre forbids leading zeros in numeric ones.
  function idents(s, pre) {
    var ids = s.split(".");
    for (var i = 0; i < ids.length; i++) {
      var id = ids[i];
      if (id === "") {
        return null;
      }
      for (var j = 0; j < id.length; j++) {
        var c = id.charCodeAt(j);
        if (!(c >= 48 && c <= 57 || c >= 65 && c <= 90 || c >= 97 && c <= 122 || c === 45)) {
          return null;
        }
      }
      if (pre && id.length > 1 && id.charCodeAt(0) === 48 && allDigits(id)) {
        return null;
      }
    }
    return ids;
  }

  // parse reads s under scheme ("numeric" or "decimal"): {scheme, release, pre, build}, or
  // null.
  function parse(s, scheme) {
    if ((scheme !== "numeric" && scheme !== "decimal") || typeof s !== "string" || s === "") {
      return null;
    }
    var rest = s, build = "", pre = [];
    var i = rest.indexOf("+");
    if (i >= 0) {
      build = rest.slice(i + 1);
      rest = rest.slice(0, i);
      if (!idents(build, false)) {
        return null;
      }
    }
    i = rest.indexOf("-");
    if (i >= 0) {
      pre = idents(rest.slice(i + 1), true);
      rest = rest.slice(0, i);
      if (!pre) {
        return null;
      }
    }
    var dots = 0;
    for (var d = rest.indexOf("."); d >= 0 && dots < maxNumbers; d = rest.indexOf(".", d + 1)) {
      dots++;
    }
    if (dots >= maxNumbers) {
      return null;
    }
    var nums = rest.split(".");
    for (var n = 0; n < nums.length; n++) {
      var x = nums[n];
      if (!allDigits(x)) {
        return null;
      }
      if (x.length > 1 && x.charCodeAt(0) === 48 && (n === 0 || scheme === "numeric")) {
        return null;
      }
    }
    return { scheme: scheme, release: nums, pre: pre, build: build };
  }

  function cmpStr(x, y) {
    return x < y ? -1 : x > y ? 1 : 0;
  }
  // compareInt compares digit strings of any length as numbers ("" is 0).
  function compareInt(x, y) {
    var i = 0, j = 0;
    while (i < x.length && x.charCodeAt(i) === 48) {
      i++;
    }
    while (j < y.length && y.charCodeAt(j) === 48) {
      j++;
    }
    if (x.length - i !== y.length - j) {
      return x.length - i < y.length - j ? -1 : 1;
    }
    return cmpStr(x.slice(i), y.slice(j));
  }
  // trimZeros strips trailing zeros: a decimal fraction's digits.
  function trimZeros(x) {
    var j = x.length;
    while (j > 0 && x.charCodeAt(j - 1) === 48) {
      j--;
    }
    return x.slice(0, j);
  }
  function comparePre(a, b) {
    if (!a.length || !b.length) {
      return a.length === b.length ? 0 : a.length ? -1 : 1;
    }
    for (var i = 0; i < a.length && i < b.length; i++) {
      var x = a[i], y = b[i], xn = allDigits(x), yn = allDigits(y);
      var c = xn && yn ? compareInt(x, y) : xn ? -1 : yn ? 1 : cmpStr(x, y);
      if (c) {
        return c;
      }
    }
    return a.length === b.length ? 0 : a.length < b.length ? -1 : 1;
  }
  // compare orders parsed versions a and b under a's scheme: -1, 0 or 1.
  function compare(a, b) {
    var n = Math.max(a.release.length, b.release.length);
    for (var i = 0; i < n; i++) {
      var x = i < a.release.length ? a.release[i] : "", y = i < b.release.length ? b.release[i] : "";
      var c = i > 0 && a.scheme === "decimal" ? cmpStr(trimZeros(x), trimZeros(y)) : compareInt(x, y);
      if (c) {
        return c;
      }
    }
    return comparePre(a.pre, b.pre);
  }

  // parseConstraint reads "*" or comparators (= != > >= < <= and a version) joined by ",",
  // blanks allowed around parts: {any, comparators: [{op, version}]}, or null.
  function parseConstraint(s, scheme) {
    if (typeof s !== "string") {
      return null;
    }
    var t = trim(s);
    if (t === "") {
      return null;
    }
    if (t === "*") {
      return { any: true, comparators: [] };
    }
    var out = [], parts = t.split(",");
    for (var i = 0; i < parts.length; i++) {
      var p = trim(parts[i]), op = "";
      for (var k = 0; k < operators.length && !op; k++) {
        if (p.slice(0, operators[k].length) === operators[k]) {
          op = operators[k];
        }
      }
      var v = op ? parse(trim(p.slice(op.length)), scheme) : null;
      if (!v) {
        return null;
      }
      out.push({ op: op, version: v });
    }
    return { any: false, comparators: out };
  }

  // satisfies: parsed version v meets parsed constraint c, under v's scheme.
  function satisfies(c, v) {
    if (c.any) {
      return true;
    }
    if (!c.comparators.length) {
      return false;
    }
    for (var i = 0; i < c.comparators.length; i++) {
      var r = compare(v, c.comparators[i].version), op = c.comparators[i].op;
      var ok = op === "=" ? r === 0 : op === "!=" ? r !== 0 : op === ">" ? r > 0 :
        op === ">=" ? r >= 0 : op === "<" ? r < 0 : r <= 0;
      if (!ok) {
        return false;
      }
    }
    return true;
  }

  // matches: version string v meets constraint string c under scheme (null: either fails).
  function matches(c, v, scheme) {
    var pc = parseConstraint(c, scheme), pv = parse(v, scheme);
    return pc && pv ? satisfies(pc, pv) : null;
  }

  return { parse: parse, compare: compare, parseConstraint: parseConstraint, satisfies: satisfies, matches: matches, trim: trim };
})());
