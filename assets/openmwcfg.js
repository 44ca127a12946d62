// Reads an openmw.cfg the way OpenMW reads one, for the setup check (setup.js). Nothing here
// touches the page or the network: OpenMWCfg.parse(text) returns what the file says.
//
// The rules, as OpenMW applies them:
// - A line ends at "\n"; spaces, tabs, "\r" and "\n" around it are trimmed.
// - A line whose first non-blank character is "#" is a comment. A "#" anywhere else is part of
//   the value: content files may have one in their name.
// - "[name]" starts a section; the keys after it are read as "name.key". OpenMW defines no
//   section, so nothing inside one is a content= or data= line.
// - "key=value" splits at the first "=", both sides trimmed. Keys repeat: each content= line
//   adds one file to the load order, in the order written.
// - Paths (data, data-local, resources, user-data, config) may be in double quotes: the quotes
//   are removed, "&" takes the next character as it is ("&&" is "&", "&\"" is "\""), and
//   anything after the closing quote is dropped. Content file names are never unquoted.
// - replace=KEY drops the KEY values read before it (replace=content, replace=data,
//   replace=config, ...). OpenMW applies it to the configuration files loaded before the one
//   that holds it; text given here is read as those files, in load order.
// - A line that is not a setting is refused by OpenMW; here it is counted and skipped.
(function (root) {
  "use strict";

  var pathKeys = { "data": true, "data-local": true, "resources": true, "user-data": true, "config": true };
  // The keys whose values the check reports, each a list in file order.
  var listKeys = ["content", "data", "data-local", "groundcover", "config"];

  function trim(s) {
    return s.replace(/^[ \t\r\n]+|[ \t\r\n]+$/g, "");
  }

  // unquotePath reads a path value: quoted with "&" escapes, or as written.
  function unquotePath(v) {
    if (v.charAt(0) !== "\"") {
      return v;
    }
    var out = "";
    for (var i = 1; i < v.length; i++) {
      var c = v.charAt(i);
      if (c === "&" && i + 1 < v.length) {
        out += v.charAt(++i);
      } else if (c === "\"") {
        return out;
      } else {
        out += c;
      }
    }
    return out; // no closing quote: what there is
  }

  // parse returns {content, data, "data-local", groundcover, config: [{value, line}] after
  // replace=; replaced: [{key, line, dropped}]; ignored: [{line, text}]; settings: count of
  // key=value lines; sawFiles: any content= or data= line at all (before replace=); binary:
  // the text holds NUL characters, so it is not a text file}. Lines are numbered from 1.
  function parse(text) {
    var r = { replaced: [], ignored: [], settings: 0, sawFiles: false, binary: text.indexOf("\u0000") >= 0 };
    listKeys.forEach(function (k) { r[k] = []; });
    if (r.binary) {
      return r;
    }
    var prefix = "";
    var lines = text.split("\n");
    for (var n = 0; n < lines.length; n++) {
      var raw = lines[n];
      var s = trim(raw);
      if (s === "" || s.charAt(0) === "#") {
        continue;
      }
      if (s.charAt(0) === "[" && s.charAt(s.length - 1) === "]") {
        prefix = s.slice(1, -1);
        if (prefix.charAt(prefix.length - 1) !== ".") {
          prefix += ".";
        }
        continue;
      }
      var eq = s.indexOf("=");
      if (eq < 0) {
        r.ignored.push({ line: n + 1, text: s });
        continue;
      }
      r.settings++;
      var key = prefix + trim(s.slice(0, eq));
      var value = trim(s.slice(eq + 1));
      if (key === "content" || key === "data") {
        r.sawFiles = true;
      }
      if (key === "replace") {
        var known = listKeys.indexOf(value) >= 0;
        r.replaced.push({ key: value, line: n + 1, dropped: known ? r[value].length : 0 });
        if (known) {
          r[value] = [];
        }
        continue;
      }
      if (listKeys.indexOf(key) < 0) {
        continue;
      }
      r[key].push({ value: pathKeys[key] ? unquotePath(value) : value, line: n + 1 });
    }
    return r;
  }

  // fold lowercases ASCII letters only, as OpenMW compares content file names (and as the
  // build folds setup.json's keys).
  function fold(s) {
    return s.replace(/[A-Z]/g, function (c) { return c.toLowerCase(); });
  }

  root.OpenMWCfg = { parse: parse, unquotePath: unquotePath, fold: fold };
})(window);
