// Reads an openmw.cfg as OpenMW does, for the setup check and the planner; it touches
// neither page nor network. The rules:
// - A line ends at "\n" and is trimmed of spaces, tabs, "\r" and "\n". A byte-order mark is
//   kept: OpenMW 0.47 reads it into line 1, which is lost.
// - A line starting with "#" is a comment; a "#" elsewhere is part of the value.
// - "[name]" starts a section: its keys read "name.key", so none is content= or data=.
// - "key=value" splits at the first "=", both sides trimmed; each content= line adds a file.
// - Paths (data, data-local, resources, user-data, config) may be quoted: "&" escapes the
//   next character and what follows the closing quote is dropped. Unquoted, a path stops at
//   its first space or tab. File names are never unquoted.
// - fallback=KEY,VALUE splits at the first ",".
// - replace=KEY drops the KEY values read before it.
// - A line that is not a setting is counted and skipped (OpenMW refuses it).
// A player's file is untrusted: every step is linear (no backtracking pattern), and keys
// are looked up in objects without a prototype.
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
  // fallback: [{value, line, cut?}] after replace= (fallback entries with key and val; cut:
  // a path cut at a space, as written); replaced: [{key, line, dropped}]; ignored: [{line,
  // text}]; settings: key=value lines; sawFiles: any content= or data= line; bom, and lost:
  // the line-1 setting it loses; binary: NUL characters}. Lines count from 1.
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

  // fold lowercases ASCII letters only, as OpenMW compares content file names.
  function fold(s) {
    return s.replace(/[A-Z]+/g, function (c) { return c.toLowerCase(); });
  }

  // folderName is a project's folder under the mods folder: its name's ASCII letters and
  // digits joined by "-" (at most 40), then its project id's first 8 characters, so two
  // projects of one name differ and the setup check knows the folder.
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

  // since is the OpenMW version a line needs: 0.48 for config= (0.47 ignores it) and a
  // .omwscripts file (0.47 stops at it); "" for any.
  function since(kind, name) {
    return kind === "config" || kind === "content" && fold(name.slice(-11)) === ".omwscripts" ? "0.48" : "";
  }

  // bidiAt classifies char code c by the site's bidi rule (site/bidi.go): 1 an embedding,
  // override, LRI or RLI (dropped), 2 FSI, 3 PDI, 0 none.
  function bidiAt(c) {
    return c >= 0x202a && c <= 0x202e || c === 0x2066 || c === 0x2067 ? 1 : c === 0x2068 ? 2 : c === 0x2069 ? 3 : 0;
  }
  // bidi applies that rule to shown text: FSI..PDI kept only in balanced pairs, so a name
  // cannot reverse the words around it.
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

  // ---- The line writer: every line given to a player is written from typed values; a
  // value a reader would take for anything else is refused, never mended. ----

  // control: char code c may not stand in a line (C0, C1, DEL, line or paragraph separator,
  // bidi control).
  function control(c) {
    return c < 32 || c >= 127 && c < 160 || c === 0x2028 || c === 0x2029 || bidiAt(c) > 0;
  }
  // shown is s as a page shows a value: such characters as \uXXXX, at most 100 characters.
  function shown(s) {
    var out = [], n = Math.min(s.length, 100);
    for (var i = 0; i < n; i++) {
      var c = s.charCodeAt(i);
      out.push(control(c) ? "\\u" + (c + 0x10000).toString(16).slice(1) : s.charAt(i));
    }
    return out.join("") + (s.length > n ? "\u2026 (" + s.length + " characters)" : "");
  }
  // whyNot says why v cannot be a line's value ("" when it can).
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
  // relParts splits a protocol relative path ("/" between folders, "." itself) into folder
  // names, or refuses it.
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
  // path is root (absolute: "/...", "C:\\...", "C:/..." or "\\\\server\\...") with rels
  // ([field, path] each) under it, in the root's form (backslashes on Windows): {text} or
  // {refused}.
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

  // write writes one line of kind from v: {text} or {refused: {field, value, reason}}, field
  // as the protocol names it ("root": the mods folder). Kinds and values:
  //   data {root, folder, path, dir}, config {root, folder, path}: quoted paths
  //   content, groundcover, fallback-archive {name}; fallback {key, value}
  //   category {category}: [<category>]; setting {key, value}: <key> = <value>
  //   sum {sha256, filename}: a SHA256SUMS line; comment {text}: never refused
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
