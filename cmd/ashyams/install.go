package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/schollz/progressbar/v3"

	"github.com/DreamWeave-MP/ashyams-go/crawl/install"
)

func init() {
	register(command{name: "install", summary: "download, verify and install a plan's mods into a mods folder, with their openmw.cfg lines", run: runInstall})
	register(command{name: "update", summary: "say what changed in the index since an install, and update it", run: runUpdate})
	register(command{name: "uninstall", summary: "take out what install wrote, and its lines", run: runUninstall})
}

// changeFlags are the flags install, update and uninstall share.
type changeFlags struct {
	mods, openmw, settings *string
	yes, dry, loop         *bool
	set                    listFlag
}

type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ",") }
func (l *listFlag) Set(s string) error { *l = append(*l, s); return nil }

func newChangeFlags(fs *flag.FlagSet, cmd string) *changeFlags {
	f := &changeFlags{mods: fs.String("mods", "", "the mods folder `DIR`: each project goes in a folder of its own inside it (required)"),
		openmw: fs.String("openmw-cfg", "", "your openmw.cfg `FILE`: the lines go in one marked block at its end and your lines stay as they are, a backup beside it (update and uninstall: the one the lock names)"),
		yes:    fs.Bool("yes", false, "go ahead without asking")}
	if cmd != "uninstall" {
		f.settings = fs.String("settings-cfg", "", "your settings.cfg `FILE`: the settings the releases ask for go in one marked block, with your consent; a setting your file has keeps your value")
		f.dry = fs.Bool("dry-run", false, "show what would be done and change nothing")
		f.loop = fs.Bool("allow-loopback", false, "read an index and downloads on 127.0.0.0/8 and ::1 too (tests only)")
		fs.Var(&f.set, "set", "choose a setting releases ask different values of: `PROJECT-ID[CATEGORY]KEY` takes that project's value (repeatable)")
	}
	return f
}

// options turns the flags into install.Options, paths made absolute; "" when --mods is missing.
func (f *changeFlags) options(e *env) (install.Options, error) {
	o := install.Options{Set: f.set, Progress: e.progress}
	if *f.mods == "" {
		return o, fmt.Errorf("--mods is required")
	}
	for _, p := range []struct {
		from *string
		to   *string
	}{{f.mods, &o.Mods}, {f.openmw, &o.OpenMWCfg}, {f.settings, &o.SettingsCfg}} {
		if p.from != nil && *p.from != "" {
			abs, err := filepath.Abs(*p.from)
			if err != nil {
				return o, err
			}
			*p.to = abs
		}
	}
	if f.loop != nil {
		o.AllowLoopback = *f.loop
	}
	cache, err := os.UserCacheDir()
	o.Cache = filepath.Join(cache, "ashyams", "artifacts")
	if e.terminal {
		o.Choose = e.choose
	}
	return o, err
}

// runInstall is `ashyams install PLAN --mods DIR [flags]`: PLAN is a plan link or a plan file.
func runInstall(e *env, args []string) int {
	fs := newFlags(e, "install", "PLAN")
	f := newChangeFlags(fs, "install")
	rest, rc := parseMixed(fs, args)
	if rc < 0 && len(rest) != 1 {
		e.errorf("install", "give one PLAN: the plan page's link (https://.../plan/#add=...) or a plan file saved from it")
		fs.Usage()
		rc = 2
	}
	if rc >= 0 {
		return rc
	}
	return e.change(fs, f, func(ctx context.Context, o install.Options) (*install.Change, error) {
		return install.Install(ctx, rest[0], o)
	})
}

// runUpdate is `ashyams update --mods DIR [flags]`: the plan the lock names, planned again.
func runUpdate(e *env, args []string) int {
	fs := newFlags(e, "update", "")
	f := newChangeFlags(fs, "update")
	if rc := parseNoArgs(e, fs, args, ""); rc >= 0 {
		return rc
	}
	return e.change(fs, f, install.Update)
}

// runUninstall is `ashyams uninstall --mods DIR [--openmw-cfg FILE] [--yes] [PROJECT...]`.
func runUninstall(e *env, args []string) int {
	fs := newFlags(e, "uninstall", "[PROJECT...]")
	f := newChangeFlags(fs, "uninstall")
	rest, rc := parseMixed(fs, args)
	if rc >= 0 {
		return rc
	}
	return e.change(fs, f, func(_ context.Context, o install.Options) (*install.Change, error) {
		return install.Uninstall(o, rest)
	})
}

// parseMixed parses flags before, between and after the arguments, which it returns in order.
func parseMixed(fs *flag.FlagSet, args []string) ([]string, int) {
	var rest []string
	for {
		if rc := parseFlags(fs, args); rc >= 0 {
			return nil, rc
		}
		if fs.NArg() == 0 {
			return rest, -1
		}
		rest, args = append(rest, fs.Arg(0)), fs.Args()[1:]
	}
}

func (e *env) change(fs *flag.FlagSet, f *changeFlags, prepare func(context.Context, install.Options) (*install.Change, error)) int {
	cmd := fs.Name()
	o, err := f.options(e)
	if err != nil {
		e.errorf(cmd, "%v", err)
		fs.Usage()
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	c, err := prepare(ctx, o)
	if err != nil {
		e.errorf(cmd, "%v; nothing was changed", err)
		return 1
	}
	e.show(c)
	switch {
	case f.dry != nil && *f.dry:
		fmt.Fprintln(e.stdout, "Dry run: nothing was changed.")
		return 0
	case !*f.yes && !e.terminal:
		e.errorf(cmd, "not run in a terminal: add --yes to go ahead; nothing was changed")
		return 1
	case !*f.yes && !e.confirm("Go ahead?"):
		fmt.Fprintln(e.stdout, "Nothing was changed.")
		return 1
	}
	notes, err := c.Apply(ctx)
	for _, n := range notes {
		fmt.Fprintln(e.stdout, n)
	}
	if err != nil {
		e.errorf(cmd, "%v; nothing was changed", err)
		return 1
	}
	fmt.Fprintf(e.stdout, "Done: %s is as shown above.\n", o.Mods)
	return 0
}

// show prints a change: each claim and what happens to it, what to know first, the lines.
func (e *env) show(c *install.Change) {
	w := e.stdout
	fmt.Fprintf(w, "From the index %s:\n", c.Index)
	var total int64
	for _, cl := range c.Claims {
		what := map[string]string{install.StateNew: "install", install.StateSame: "unchanged", install.StateRemove: "remove",
			install.StateKeep: "keep as installed (the index no longer lists it)"}[cl.State]
		if was := cl.Was; cl.State == install.StateUpdate {
			what = "update from " + was.Version
			if was.Version == cl.Version && was.Artifacts[0].SHA256 != cl.Artifacts[0].SHA256 {
				what = "update: its archive changed without a new version, SHA-256 " + was.Artifacts[0].SHA256 + " before"
			} else if was.Version == cl.Version {
				what = "update: its components or folder changed"
			}
		}
		fmt.Fprintf(w, "  %s %s (%s): %s, in %s\n", cl.Name, cl.Version, cl.Key, what, cl.Folder)
		if a := cl.Artifacts; cl.State == install.StateNew || cl.State == install.StateUpdate {
			var comps []string
			for _, comp := range cl.Components {
				comps = append(comps, comp.ID+" ("+comp.Path+")")
			}
			fmt.Fprintf(w, "    components %s\n    %s, %d bytes, SHA-256 %s\n", strings.Join(comps, ", "), a[0].Filename, a[0].Size, a[0].SHA256)
			total += a[0].Size
		}
	}
	if total > 0 {
		fmt.Fprintf(w, "To download: %d bytes, less what the download cache holds.\n", total)
	}
	for _, s := range c.Skipped {
		fmt.Fprintln(w, "Not installed: "+s)
	}
	for _, s := range c.Warnings {
		fmt.Fprintln(w, "Warning: "+s)
	}
	for _, s := range c.Left {
		fmt.Fprintln(w, "Left out: "+s)
	}
	for _, b := range []struct {
		name  string
		lines []install.LockLine
	}{{"openmw.cfg", c.Cfg}, {"settings.cfg", c.Settings}} {
		if len(b.lines) > 0 {
			fmt.Fprintf(w, "The %s lines:\n", b.name)
			for _, l := range b.lines {
				fmt.Fprintln(w, "  "+l.Text)
			}
		}
	}
}

func (e *env) confirm(q string) bool {
	fmt.Fprint(e.stdout, q+" [y/N] ")
	e.flush()
	l, _ := e.line()
	return strings.EqualFold(l, "y") || strings.EqualFold(l, "yes")
}

func (e *env) choose(q string, opts []string) (int, error) {
	fmt.Fprintln(e.stdout, "The plan asks: "+q)
	for i, o := range opts {
		fmt.Fprintf(e.stdout, "  %d. %s\n", i+1, o)
	}
	fmt.Fprint(e.stdout, "Choose a number: ")
	e.flush()
	l, err := e.line()
	n, perr := strconv.Atoi(l)
	if err != nil || perr != nil || n < 1 || n > len(opts) {
		return -1, fmt.Errorf("no option chosen (%q)", l)
	}
	return n - 1, nil
}

func (e *env) line() (string, error) {
	if e.in == nil {
		e.in = bufio.NewReader(e.stdin)
	}
	l, err := e.in.ReadString('\n')
	return strings.TrimSpace(l), err
}

func (e *env) flush() {
	if f, ok := e.stdout.(interface{ Flush() error }); ok {
		f.Flush()
	}
}

// progress shows a download: a bar on a terminal, otherwise a line when it starts.
func (e *env) progress(url string, size, from int64) io.WriteCloser {
	if e.barOut != nil {
		bar := progressbar.NewOptions64(size, progressbar.OptionSetWriter(e.barOut), progressbar.OptionShowBytes(true),
			progressbar.OptionSetDescription(filepath.Base(url)), progressbar.OptionOnCompletion(func() { fmt.Fprintln(e.barOut) }))
		bar.Set64(from)
		return bar
	}
	fmt.Fprintf(e.stderr, "Downloading %s (%d bytes, from byte %d)\n", url, size, from)
	return nopCloser{io.Discard}
}

type nopCloser struct{ io.Writer }

func (nopCloser) Close() error { return nil }
