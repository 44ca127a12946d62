// Reads an openmw.cfg the way OpenMW reads one: the one reader the setup check (setup.js)
// and the plan page (plan.js) share. Nothing here touches the page or the network:
// OpenMWCfg.parse(text) returns what the file says.
//
// The rules, as OpenMW applies them:
// - A line ends at "\n"; spaces, tabs, "\r" and "\n" around it are trimmed. A byte-order mark
//   at the very start is dropped (and the result says so).
// - A line whose first non-blank character is "#" is a comment. A "#" anywhere else is part of
//   the value: content files may have one in their name.
// - "[name]" starts a section; the keys after it are read as "name.key". OpenMW defines no
//   section, so nothing inside one is a content= or data= line.
// - "key=value" splits at the first "=", both sides trimmed. Keys repeat: each content= line
//   adds one file to the load order, in the order written.
// - Paths (data, data-local, resources, user-data, config) may be in double quotes: the quotes
//   are removed, "&" takes the next character as it is ("&&" is "&", "&\"" is "\""), and
//   anything after the closing quote is dropped. File names are never unquoted.
// - fallback=KEY,VALUE splits at the first ",".
// - replace=KEY drops the KEY values read before it (replace=content, replace=data,
//   replace=config, ...). OpenMW applies it to the configuration files loaded before the one
//   that holds it; text given here is read as those files, in load order.
// - A line that is not a setting is refused by OpenMW; here it is counted and skipped.
//
// A player's file is untrusted text: every step is linear in it (trimmed by index, split by
// scanning, no regular expression that can backtrack), and keys are looked up in objects
// without a prototype, so a line such as "constructor=x" is a key like any other.
(function (api) {
  "use strict";
  if (typeof module === "object" && module.exports) {
    module.exports = api;
  } else {
    window.OpenMWCfg = api;
  }
})((function () {
  "use strict";

  function set(list) {
    var s = Object.create(null);
    list.forEach(function (k) { s[k] = true; });
    return s;
  }
  var pathKeys = set(["data", "data-local", "resources", "user-data", "config"]);
  // The keys whose values are kept, each a list in file order.
  var listKeys = ["content", "groundcover", "data", "data-local", "config", "fallback-archive", "fallback"];
  var isList = set(listKeys);

  function isBlank(c) {
    return c === 32 || c === 9 || c === 13 || c === 10; // space \t \r \n
  }
  function trim(s) {
    var i = 0, j = s.length;
    while (i < j && isBlank(s.charCodeAt(i))) {
      i++;
    }
    while (j > i && isBlank(s.charCodeAt(j - 1))) {
      j--;
    }
    return i === 0 && j === s.length ? s : s.slice(i, j);
  }

  // unquotePath reads a path value: quoted with "&" escapes, or as written.
  function unquotePath(v) {
    if (v.charAt(0) !== "\"") {
      return v;
    }
    var parts = [], from = 1;
    for (var i = 1; i < v.length; i++) {
      var c = v.charAt(i);
      if (c === "&" && i + 1 < v.length) {
        parts.push(v.slice(from, i));
        from = ++i; // the escaped character starts the next run
      } else if (c === "\"") {
        parts.push(v.slice(from, i));
        return parts.join("");
      }
    }
    parts.push(v.slice(from));
    return parts.join(""); // no closing quote: what there is
  }

  // parse returns {content, groundcover, data, "data-local", config, "fallback-archive",
  // fallback: [{value, line}] after replace= (a fallback entry also has key and val);
  // replaced: [{key, line, dropped}]; ignored: [{line, text}]; settings: count of key=value
  // lines; sawFiles: any content= or data= line at all (before replace=); bom: a byte-order
  // mark was dropped from the start; binary: the text holds NUL characters, so it is not a
  // text file}. Lines are numbered from 1, as the file numbers them.
  function parse(text) {
    var r = { replaced: [], ignored: [], settings: 0, sawFiles: false, bom: false, binary: text.indexOf("\u0000") >= 0 };
    listKeys.forEach(function (k) { r[k] = []; });
    if (r.binary) {
      return r;
    }
    var start = 0;
    if (text.charCodeAt(0) === 0xfeff) {
      r.bom = true;
      start = 1;
    }
    var prefix = "";
    for (var n = 1; start <= text.length; n++) {
      var end = text.indexOf("\n", start);
      if (end < 0) {
        end = text.length;
      }
      var s = trim(text.slice(start, end));
      start = end + 1;
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
        r.ignored.push({ line: n, text: s });
        continue;
      }
      r.settings++;
      var key = prefix + trim(s.slice(0, eq));
      var value = trim(s.slice(eq + 1));
      if (key === "content" || key === "data") {
        r.sawFiles = true;
      }
      if (key === "replace") {
        var known = isList[value] === true;
        r.replaced.push({ key: value, line: n, dropped: known ? r[value].length : 0 });
        if (known) {
          r[value] = [];
        }
        continue;
      }
      if (isList[key] !== true) {
        continue;
      }
      var entry = { value: pathKeys[key] === true ? unquotePath(value) : value, line: n };
      if (key === "fallback") {
        var comma = value.indexOf(",");
        entry.key = comma < 0 ? value : value.slice(0, comma);
        entry.val = comma < 0 ? "" : value.slice(comma + 1);
      }
      r[key].push(entry);
    }
    return r;
  }

  // fold lowercases ASCII letters only, as OpenMW compares content file names (and as the
  // build folds the setup data's keys).
  function fold(s) {
    return s.replace(/[A-Z]+/g, function (c) { return c.toLowerCase(); });
  }

  // folderName is the folder the plan page puts a project in under the player's mods folder:
  // its name's ASCII letters and digits joined by "-" (at most 40 characters), then the first
  // 8 characters of its project id, so two projects of one name get two folders and the name
  // is the same on every plan. The setup check knows a data= folder so named as the project's.
  function folderName(name, project) {
    var out = [], word = "", len = 0;
    for (var i = 0; i < name.length && len < 40; i++) {
      var code = name.charCodeAt(i);
      if (code >= 48 && code <= 57 || code >= 65 && code <= 90 || code >= 97 && code <= 122) {
        word += name.charAt(i);
      } else if (word) {
        out.push(word);
        len += word.length + 1;
        word = "";
      }
    }
    if (word) {
      out.push(word);
    }
    var joined = out.join("-").slice(0, 40);
    return (joined ? joined + "-" : "") + project.slice(0, 8);
  }

  // dirParts splits a folder path at "/" and "\\", dropping empty and "." parts.
  function dirParts(p) {
    var out = [], from = 0;
    for (var i = 0; i <= p.length; i++) {
      var c = i < p.length ? p.charCodeAt(i) : 47;
      if (c === 47 || c === 92) {
        var seg = p.slice(from, i);
        if (seg !== "" && seg !== ".") {
          out.push(seg);
        }
        from = i + 1;
      }
    }
    return out;
  }

  return { parse: parse, unquotePath: unquotePath, fold: fold, trim: trim, folderName: folderName, dirParts: dirParts };
})());
