// Reads an openmw.cfg the way OpenMW reads one: the one reader the setup check (setup.js)
// and the plan page (plan.js) share. Nothing here touches the page or the network:
// OpenMWCfg.parse(text) returns what the file says.
//
// The rules, as OpenMW applies them:
// - A line ends at "\n"; spaces, tabs, "\r" and "\n" around it are trimmed. A byte-order mark
//   at the very start is not dropped: OpenMW 0.47 reads it as part of line 1, which is lost.
// - A line whose first non-blank character is "#" is a comment. A "#" anywhere else is part of
//   the value: content files may have one in their name.
// - "[name]" starts a section; the keys after it are read as "name.key". OpenMW defines no
//   section, so nothing inside one is a content= or data= line.
// - "key=value" splits at the first "=", both sides trimmed. Keys repeat: each content= line
//   adds one file to the load order, in the order written.
// - Paths (data, data-local, resources, user-data, config) may be in double quotes: the quotes
//   are removed, "&" takes the next character as it is ("&&" is "&", "&\"" is "\""), and
//   anything after the closing quote is dropped. Unquoted, a path stops at its first space or
//   tab. File names are never unquoted.
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
    module.exports = api(require("./version.js"));
  } else {
    window.OpenMWCfg = api(window.DreamWeaveVersion);
  }
})(function (V) {
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
  // lines; sawFiles: any content= or data= line at all (before replace=); bom: the text starts
  // with a byte-order mark, and lost: {line, text}, the setting of line 1 it makes OpenMW
  // lose; binary: the text holds NUL characters, so it is not a text file}. A path cut at a
  // space has cut, the value as written. Lines are numbered from 1, as the file numbers them.
  function parse(text) {
    var r = { replaced: [], ignored: [], settings: 0, sawFiles: false, bom: false, binary: text.indexOf("\u0000") >= 0 };
    listKeys.forEach(function (k) { r[k] = []; });
    if (r.binary) {
      return r;
    }
    var start = 0, prefix = "";
    r.bom = text.charCodeAt(0) === 0xfeff;
    for (var n = 1; start <= text.length; n++) {
      var end = text.indexOf("\n", start);
      if (end < 0) {
        end = text.length;
      }
      var s = V.trim(text.slice(start + (n === 1 && r.bom ? 1 : 0), end), true);
      start = end + 1;
      if (n === 1 && r.bom && s.indexOf("=") > 0 && s.charAt(0) !== "#") {
        r.lost = { line: 1, text: s };
        continue;
      }
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
      var key = prefix + V.trim(s.slice(0, eq), true);
      var value = V.trim(s.slice(eq + 1), true);
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
      var entry = { value: value, line: n }, cut = value.search(/[ \t]/);
      if (pathKeys[key] === true && value.charAt(0) === "\"") {
        entry.value = unquotePath(value);
      } else if (pathKeys[key] === true && cut > 0) {
        entry.value = value.slice(0, cut);
        entry.cut = value;
      }
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
    var out = [], from = 0, len = 0;
    for (var i = 0; i <= name.length && len < 40; i++) {
      var code = i < name.length ? name.charCodeAt(i) : 32;
      if (!(code >= 48 && code <= 57 || code >= 65 && code <= 90 || code >= 97 && code <= 122)) {
        if (i > from) {
          out.push(name.slice(from, i));
          len += i - from + 1;
        }
        from = i + 1;
      }
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

  // since is the OpenMW version a line first loads in: a config= line and a .omwscripts
  // content file (Lua) need 0.48; 0.47 ignores the first and stops at the second. "" for any.
  function since(kind, name) {
    return kind === "config" || kind === "content" && fold(name.slice(-11)) === ".omwscripts" ? "0.48" : "";
  }

  // bidiAt classifies char code c by the site's bidi rule (site/bidi.go), the one JS home of
  // the bidi control set: 1 an embedding, override, LRI or RLI (dropped), 2 FSI, 3 PDI, 0 none.
  function bidiAt(c) {
    return c >= 0x202a && c <= 0x202e || c === 0x2066 || c === 0x2067 ? 1 : c === 0x2068 ? 2 : c === 0x2069 ? 3 : 0;
  }
  // bidi applies that rule to text from publishers and from a player's file shown on a page:
  // embeddings, overrides, LRI and RLI are removed, FSI..PDI kept only in balanced pairs, so a
  // name cannot reverse the words around it.
  function bidi(s) {
    var parts = [], from = 0, open = 0;
    for (var i = 0; i < s.length; i++) {
      var k = bidiAt(s.charCodeAt(i));
      if (k === 1 || k === 3 && !open) {
        parts.push(s.slice(from, i));
        from = i + 1;
      } else if (k) {
        open += k === 2 ? 1 : -1;
      }
    }
    parts.push(s.slice(from));
    return parts.join("") + "\u2069".repeat(open);
  }

  // ---- The line writer ----
  // Every line this index gives a player (openmw.cfg, settings.cfg, SHA256SUMS, and what the
  // installer writes) is written by write, from typed values, never from text glued into a
  // line. A value the reader would take for anything else is refused, never mended.

  // control says whether char code c may not stand in a written line: a C0 or C1 control
  // (NEL is one), DEL, a line or paragraph separator, or a bidi control (it would reorder
  // the line in the player's editor).
  function control(c) {
    return c < 32 || c >= 127 && c < 160 || c === 0x2028 || c === 0x2029 || bidiAt(c) > 0;
  }
  // shown is s as a page or a comment shows a value: each such character as \uXXXX, and at
  // most 100 characters.
  function shown(s) {
    var out = [], n = Math.min(s.length, 100);
    for (var i = 0; i < n; i++) {
      var c = s.charCodeAt(i);
      out.push(control(c) ? "\\u" + (c + 0x10000).toString(16).slice(1) : s.charAt(i));
    }
    return out.join("") + (s.length > n ? "\u2026 (" + s.length + " characters)" : "");
  }
  // whyNot says why v cannot be one value of a line ("" when it can): empty, a control
  // character, or a space at either end (the readers trim it away).
  function whyNot(v) {
    if (typeof v !== "string" || v === "") {
      return "is empty";
    }
    for (var i = 0; i < v.length; i++) {
      if (control(v.charCodeAt(i))) {
        return "holds a line break or a control character";
      }
    }
    return v.charCodeAt(0) === 32 || v.charCodeAt(v.length - 1) === 32 ? "starts or ends with a space" : "";
  }
  function refuse(field, value, reason) {
    return { refused: { field: field, value: String(value), reason: reason } };
  }
  // fileName checks a file name: one name, no folder.
  function fileName(field, v) {
    var w = whyNot(v) || (v.indexOf("/") >= 0 || v.indexOf("\\") >= 0 ? "holds a path separator" : "") ||
      (v === "." || v === ".." ? "is not a file name" : "");
    return w ? refuse(field, v, w) : null;
  }
  // relParts splits a relative path as the protocol writes one (a component's path, a data
  // directory: "/" between folders, "." the folder itself) into its folder names, or refuses it.
  function relParts(field, p) {
    var w = whyNot(p) || (p.charAt(0) === "/" ? "is an absolute path" : "") ||
      (p.indexOf("\\") >= 0 ? "holds a backslash (the protocol's paths use /)" : "") ||
      (p.indexOf(":") >= 0 ? "holds a drive letter or a colon" : "");
    var segs = w ? [] : p.split("/").filter(function (x) { return x !== "" && x !== "."; });
    if (!w && segs.indexOf("..") >= 0) {
      w = "holds a \"..\" segment";
    }
    return w ? refuse(field, p, w) : { segs: segs };
  }
  // path is root (the player's mods folder, absolute: "/..." or, on Windows, "C:\\...",
  // "C:/..." or "\\\\server\\...") with the relative paths rels ([field, path] each) under
  // it, in the root's own form: backslashes throughout on Windows. {text} or {refused}.
  function path(root, rels) {
    var win = /^[A-Za-z]:[\\/]/.test(root) || root.slice(0, 2) === "\\\\";
    var w = whyNot(root) || (!win && root.charAt(0) !== "/" ? "is not an absolute path (such as /home/you/mods or C:\\Games\\Mods)" : "");
    var head = win ? (root.charAt(1) === ":" ? root.slice(0, 2) + "\\" : "\\\\") : "/";
    var segs = w ? [] : root.slice(head.length).split(win ? /[\\/]/ : "/").filter(function (x) { return x !== "" && x !== "."; });
    if (w || segs.indexOf("..") >= 0) {
      return refuse("root", root, w || "holds a \"..\" segment");
    }
    for (var i = 0; i < rels.length; i++) {
      var r = relParts(rels[i][0], rels[i][1]);
      if (r.refused) {
        return r;
      }
      segs.push.apply(segs, r.segs);
    }
    return { text: head + segs.join(win ? "\\" : "/") };
  }
  // quote writes a path as OpenMW reads a quoted one: "&" and "\"" escaped by "&".
  function quote(p) {
    return "\"" + p.replace(/[&"]/g, "&$&") + "\"";
  }

  // write writes one line of kind from the typed value v, and returns {text} (the line,
  // without its end) or {refused: {field, value, reason}}, field named as the protocol names
  // it ("root" for the player's mods folder). Kinds and values:
  //   data {root, folder, path, dir}: data="<root>/<folder>/<path>/<dir>", quoted and escaped
  //   config {root, folder, path}: config="<root>/<folder>/<path>"
  //   content, groundcover, fallback-archive {name}: content=<name>
  //   fallback {key, value}: fallback=<key>,<value>
  //   category {category}: [<category>]          setting {key, value}: <key> = <value>
  //   sum {sha256, filename}: <sha256>  <filename>  (SHA256SUMS, as sha256sum -c reads it)
  //   comment {text}: # <text>, every control character escaped: never refused.
  function write(kind, v) {
    var r, w;
    if (kind === "data" || kind === "config") {
      var rels = [["id", v.folder], ["path", v.path]];
      if (kind === "data") {
        rels.push(["data_directories", v.dir]);
      }
      r = path(v.root, rels);
      return r.refused ? r : { text: kind + "=" + quote(r.text) };
    }
    if (kind === "content" || kind === "groundcover" || kind === "fallback-archive") {
      r = fileName({ content: "content_files", groundcover: "groundcover_files" }[kind] || "fallback_archives", v.name);
      return r || { text: kind + "=" + v.name };
    }
    if (kind === "fallback") {
      w = whyNot(v.key) || (v.key.indexOf(",") >= 0 ? "holds a comma" : "");
      r = w ? refuse("fallback_entries", v.key, w) : (w = whyNot(v.value)) ? refuse("fallback_entries", v.value, w) : null;
      return r || { text: "fallback=" + v.key + "," + v.value };
    }
    if (kind === "category") {
      w = whyNot(v.category) || (v.category.indexOf("]") >= 0 ? "holds \"]\"" : "");
      return w ? refuse("settings category", v.category, w) : { text: "[" + v.category + "]" };
    }
    if (kind === "setting") {
      w = whyNot(v.key) || (v.key.indexOf("=") >= 0 ? "holds \"=\"" : "") || (v.key.charAt(0) === "[" || v.key.charAt(0) === "#" ? "starts a section or a comment" : "");
      r = w ? refuse("settings key", v.key, w) : v.value !== "" && (w = whyNot(v.value)) ? refuse("settings value", v.value, w) : null;
      return r || { text: v.key + " = " + v.value };
    }
    if (kind === "sum") {
      r = !/^[0-9a-fA-F]{64}$/.test(v.sha256) ? refuse("digests.sha256", v.sha256, "is not 64 hexadecimal digits") : fileName("filename", v.filename);
      return r || { text: v.sha256 + "  " + v.filename };
    }
    if (kind === "comment") {
      return { text: "# " + shown(v.text) };
    }
    throw new Error("no line of kind " + kind);
  }

  return { parse: parse, unquotePath: unquotePath, fold: fold, folderName: folderName, dirParts: dirParts,
    bidi: bidi, shown: shown, write: write, path: path, since: since };
});
