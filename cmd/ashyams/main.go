// Command ashyams runs the AsHyAmS index of the DreamWeave mod network. Usage: ashyams
// <command> [flags] [args]; usage() lists the commands and exit statuses.
package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strings"

	"golang.org/x/term"

	"github.com/DreamWeave-MP/ashyams-go/catalog/product"
	"github.com/DreamWeave-MP/ashyams-go/catalog/termtext"
)

// command is one subcommand; run gets the arguments after its name and returns the exit status.
type command struct {
	name    string
	summary string
	run     func(env *env, args []string) int
}

// env is what a command may touch besides its arguments: injectable for tests.
type env struct {
	stdout io.Writer
	stderr io.Writer
	// stdin is read for answers when terminal is set; barOut, when set, draws a progress bar.
	stdin    io.Reader
	terminal bool
	barOut   io.Writer
	in       *bufio.Reader
}

var commands = map[string]command{}

// flagOutput is a flag set's output: stderr, switched to stdout when help was asked for.
type flagOutput struct {
	io.Writer
	stdout io.Writer
	env    *env
}

func register(c command) {
	if _, dup := commands[c.name]; dup {
		panic("duplicate command " + c.name)
	}
	commands[c.name] = c
}

func main() {
	e := &env{stdout: os.Stdout, stderr: os.Stderr, stdin: os.Stdin, terminal: term.IsTerminal(int(os.Stdin.Fd()))}
	if term.IsTerminal(int(os.Stderr.Fd())) {
		e.barOut = os.Stderr
	}
	os.Exit(run(e, os.Args[1:]))
}

// run dispatches args to a command and returns the exit status; -h, --help and --version are
// the top-level aliases of help and version. Every command prints through a termtext.Writer.
func run(e *env, args []string) int {
	out, errw := termtext.NewWriter(e.stdout), termtext.NewWriter(e.stderr)
	defer errw.Flush()
	defer out.Flush()
	safe := *e
	safe.stdout, safe.stderr = out, errw
	e = &safe
	if len(args) == 0 {
		usage(e.stderr)
		return 2
	}
	switch args[0] {
	case "-h", "-help", "--help":
		args = append([]string{"help"}, args[1:]...)
	case "-version", "--version":
		args = append([]string{"version"}, args[1:]...)
	}
	switch args[0] {
	case "help":
		return runHelp(e, args[1:])
	case "version":
		return runVersion(e, args[1:])
	}
	c, ok := commands[args[0]]
	if !ok {
		return unknown(e, "", args[0])
	}
	return c.run(e, args[1:])
}

// runHelp is `ashyams help [COMMAND]`: the command list, or one command's usage, on stdout.
func runHelp(e *env, args []string) int {
	fs := newFlags(e, "help", "[COMMAND]")
	if rc := parseFlags(fs, args); rc >= 0 {
		return rc
	}
	switch {
	case fs.NArg() == 0:
		usage(e.stdout)
		return 0
	case fs.NArg() > 1:
		e.errorf("help", "unexpected argument %s (help takes one command)", termtext.Quote(fs.Arg(1)))
		fs.Usage()
		return 2
	}
	switch name := fs.Arg(0); name {
	case "help":
		return runHelp(e, []string{"-h"})
	case "version":
		return runVersion(e, []string{"-h"})
	default:
		c, ok := commands[name]
		if !ok {
			return unknown(e, "help", name)
		}
		return c.run(e, []string{"-h"})
	}
}

func runVersion(e *env, args []string) int {
	fs := newFlags(e, "version", "")
	if rc := parseNoArgs(e, fs, args, ""); rc >= 0 {
		return rc
	}
	fmt.Fprintf(e.stdout, "ashyams %s (user agent %s)\n", product.Version, product.UserAgent)
	return 0
}

// unknown reports a command that does not exist, suggesting the nearest one; by is the command
// that asked ("help"), or "" at the top level.
func unknown(e *env, by, name string) int {
	msg := fmt.Sprintf("unknown command %s", termtext.Quote(name))
	if s := suggest(name); s != "" {
		msg += fmt.Sprintf("; did you mean %q?", s)
	}
	if by == "" {
		fmt.Fprintln(e.stderr, "ashyams: "+msg)
	} else {
		e.errorf(by, "%s", msg)
	}
	fmt.Fprintln(e.stderr)
	usage(e.stderr)
	return 2
}

// suggest returns the command within edit distance 2 of name, or the one it prefixes, or "".
func suggest(name string) string {
	best, bestD, prefixed := "", 3, []string{}
	for n := range commands {
		if strings.HasPrefix(n, name) {
			prefixed = append(prefixed, n)
		}
		if d := editDistance(name, n); d < bestD || (d == bestD && n < best) {
			best, bestD = n, d
		}
	}
	if best == "" && len(prefixed) == 1 {
		return prefixed[0]
	}
	return best
}

// editDistance is the Damerau-Levenshtein (optimal string alignment) distance, so a swapped
// pair of letters counts as one edit.
func editDistance(a, b string) int {
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(a)][len(b)]
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: ashyams <command> [flags] [args]\n\ncommands:")
	for _, n := range slices.Sorted(maps.Keys(commands)) {
		fmt.Fprintf(w, "  %-11s %s\n", n, commands[n].summary)
	}
	fmt.Fprintf(w, "  %-11s %s\n", "help", "this list, or 'help <command>' for a command's flags (also -h, --help)")
	fmt.Fprintf(w, "  %-11s %s\n", "version", "print the version and the crawler's user agent (also --version)")
	fmt.Fprintln(w, "\nRun 'ashyams help <command>' or 'ashyams <command> -h' for a command's flags.")
	fmt.Fprintln(w, "Flags come after the command and take one dash or two: -state DIR is --state DIR.")
	fmt.Fprintln(w, "Exit status: 0 success, 1 a finding or a failure, 2 a usage error; an interrupted refresh")
	fmt.Fprintln(w, "exits 3 (--deadline), 130 (SIGINT) or 143 (SIGTERM), and 4 when it reached no source at all")
	fmt.Fprintln(w, "(nothing recorded): 'ashyams help refresh'.")
}

// newFlags returns a flag set for a command that reports errors to e.stderr instead of exiting;
// fs.Usage prints the usage line and the flags.
func newFlags(e *env, name, argsUsage string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	out := &flagOutput{Writer: e.stderr, stdout: e.stdout, env: e}
	fs.SetOutput(out)
	fs.Usage = func() {
		flags := "" // " [flags]" when the set has any
		fs.VisitAll(func(*flag.Flag) { flags = " [flags]" })
		line := "usage: ashyams " + name + flags
		if argsUsage != "" {
			line += " " + argsUsage
		}
		fmt.Fprintln(fs.Output(), line)
		fs.PrintDefaults()
	}
	return fs
}

// parseFlags parses args and returns -1 to go on, 0 after -h, 2 after a usage error.
func parseFlags(fs *flag.FlagSet, args []string) int {
	o, _ := fs.Output().(*flagOutput)
	if o == nil { // not from newFlags: the flag package's own reporting
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return 0
			}
			return 2
		}
		return -1
	}
	// Silence the flag package while parsing, so the error goes out with the command's prefix.
	usageFn := fs.Usage
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	err := fs.Parse(args)
	fs.SetOutput(o)
	fs.Usage = usageFn
	switch {
	case err == nil:
		return -1
	case errors.Is(err, flag.ErrHelp):
		o.Writer = o.stdout
		fs.Usage()
		return 0
	}
	o.env.errorf(fs.Name(), "%s", termtext.Text(err.Error())) // it quotes the flag as given
	fs.Usage()
	return 2
}

// parseNoArgs parses a command that takes flags only: -1 to go on, else the exit status.
func parseNoArgs(e *env, fs *flag.FlagSet, args []string, why string) int {
	if rc := parseFlags(fs, args); rc >= 0 {
		return rc
	}
	if fs.NArg() > 0 {
		e.errorf(fs.Name(), "unexpected argument %s%s", termtext.Quote(fs.Arg(0)), why)
		fs.Usage()
		return 2
	}
	return -1
}

// parseURLArg parses "CMD [flags] URL [flags]": the URL and -1, or "" and the exit status.
func parseURLArg(e *env, fs *flag.FlagSet, args []string) (string, int) {
	if rc := parseFlags(fs, args); rc >= 0 {
		return "", rc
	}
	rest := fs.Args()
	if len(rest) == 0 {
		e.errorf(fs.Name(), "a URL is required")
		fs.Usage()
		return "", 2
	}
	if rc := parseFlags(fs, rest[1:]); rc >= 0 {
		return "", rc
	}
	if fs.NArg() > 0 {
		e.errorf(fs.Name(), "unexpected argument %s", termtext.Quote(fs.Arg(0)))
		fs.Usage()
		return "", 2
	}
	return rest[0], -1
}

// errorf prints an error of command cmd on stderr, each line as "ashyams <cmd>: <line>" with
// the prefix exactly once (withoutPrefix), escaped by termtext.Line.
func (e *env) errorf(cmd, format string, args ...any) {
	msg := withoutPrefix(fmt.Sprintf(format, args...), cmd)
	for _, l := range strings.Split(msg, "\n") {
		fmt.Fprintln(e.stderr, termtext.Line("ashyams "+cmd+": "+l))
	}
}

// withoutPrefix strips the "ashyams <name>: " or "<name>: " labels a wrapped error starts with.
func withoutPrefix(msg string, names ...string) string {
	for again := true; again; {
		again = false
		for _, n := range names {
			for _, p := range []string{"ashyams " + n + ": ", n + ": "} {
				if rest, ok := strings.CutPrefix(msg, p); ok {
					msg, again = rest, true
				}
			}
		}
	}
	return msg
}

// stage is "<name>: <err>" for a failed stage of a command's work, without the labels err
// repeats.
func stage(cmd, name string, err error) string {
	first, _, _ := strings.Cut(name, " ") // "refresh 2" also drops a wrapped "refresh: "
	return name + ": " + withoutPrefix(err.Error(), cmd, name, first)
}

func noStateMessage(path string) string {
	return fmt.Sprintf("no state at %s: run `.github/state.sh checkout` or `ashyams refresh` first", termtext.Text(path))
}

func (e *env) requireState(cmd, path string) bool {
	st, err := os.Stat(path)
	switch {
	case errors.Is(err, os.ErrNotExist):
		e.errorf(cmd, "%s", noStateMessage(path))
	case err != nil:
		e.errorf(cmd, "the state at %s cannot be read: %v", path, err)
	case !st.IsDir():
		e.errorf(cmd, "the state at %s is not a directory", path)
	default:
		return true
	}
	return false
}

// plural is "1 word" or "N words": "2 identity conflicts", "3 matches", "2 entries".
func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %s", n, pluralWord(word))
}

func pluralWord(w string) string {
	switch {
	case strings.HasSuffix(w, "s"), strings.HasSuffix(w, "x"), strings.HasSuffix(w, "ch"), strings.HasSuffix(w, "sh"):
		return w + "es"
	case len(w) > 1 && strings.HasSuffix(w, "y") && !strings.ContainsAny(w[len(w)-2:len(w)-1], "aeiou"):
		return w[:len(w)-1] + "ies"
	}
	return w + "s"
}
