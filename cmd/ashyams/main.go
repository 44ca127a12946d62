// Command ashyams runs the AsHyAmS index of the DreamWeave mod network: refresh (crawl),
// check, build (render), check-site, inspect, add, diff, validate, serve and demo.
//
// Usage: ashyams <command> [flags] [args]. Flags come after the command. Exit status: 0 ok,
// 1 a finding or a failure, 2 a usage error.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"github.com/DreamWeave-MP/ashyams-go/crawl"
)

// command is one subcommand. run gets the arguments after the command name and returns the
// exit status.
type command struct {
	name    string
	summary string
	run     func(env *env, args []string) int
}

// env is what a command may touch besides its arguments: injectable for tests.
type env struct {
	stdout io.Writer
	stderr io.Writer
}

var commands = map[string]command{}

// flagOutput is a flag set's output: stderr for mistakes, switched to stdout when help was
// asked for, so `ashyams build -h | less` works.
type flagOutput struct {
	io.Writer
	stdout io.Writer
}

// register adds a command; called from each command's file in init.
func register(c command) {
	if _, dup := commands[c.name]; dup {
		panic("duplicate command " + c.name)
	}
	commands[c.name] = c
}

func main() {
	os.Exit(run(&env{stdout: os.Stdout, stderr: os.Stderr}, os.Args[1:]))
}

// run dispatches args to a command and returns the exit status. Help asked for goes to stdout
// (so it can be paged); help given because of a mistake goes to stderr with status 2.
func run(e *env, args []string) int {
	if len(args) == 0 {
		usage(e.stderr)
		return 2
	}
	switch args[0] {
	case "-h", "-help", "--help":
		usage(e.stdout)
		return 0
	case "help":
		if len(args) == 1 {
			usage(e.stdout)
			return 0
		}
		if _, ok := commands[args[1]]; !ok {
			return unknown(e, args[1])
		}
		return commands[args[1]].run(e, []string{"-h"})
	case "version", "-version", "--version":
		fmt.Fprintf(e.stdout, "ashyams %s (user agent %s)\n", crawl.Version, crawl.UserAgent)
		return 0
	}
	c, ok := commands[args[0]]
	if !ok {
		return unknown(e, args[0])
	}
	return c.run(e, args[1:])
}

// unknown reports a command that does not exist, suggesting the nearest one.
func unknown(e *env, name string) int {
	fmt.Fprintf(e.stderr, "ashyams: unknown command %q", name)
	if s := suggest(name); s != "" {
		fmt.Fprintf(e.stderr, "; did you mean %q?", s)
	}
	fmt.Fprint(e.stderr, "\n\n")
	usage(e.stderr)
	return 2
}

// suggest returns the command closest to name (edit distance at most 2, or name is a prefix of
// exactly one command), or "".
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

// editDistance is the Damerau-Levenshtein (optimal string alignment) distance between a and b,
// so a swapped pair of letters ("biuld") counts as one edit.
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
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-11s %s\n", n, commands[n].summary)
	}
	fmt.Fprintf(w, "  %-11s %s\n", "help", "this list, or 'help <command>' for a command's flags")
	fmt.Fprintf(w, "  %-11s %s\n", "version", "print the version and the crawler's user agent")
	fmt.Fprintln(w, "\nRun 'ashyams <command> -h' for a command's flags.")
}

// newFlags returns a flag set for a command that reports errors to e.stderr instead of exiting.
func newFlags(e *env, name, argsUsage string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	out := &flagOutput{Writer: e.stderr, stdout: e.stdout}
	fs.SetOutput(out)
	fs.Usage = func() {
		line := "usage: ashyams " + name + " [flags]"
		if argsUsage != "" {
			line += " " + argsUsage
		}
		fmt.Fprintln(fs.Output(), line)
		fs.PrintDefaults()
	}
	return fs
}

// parseFlags parses args and returns the exit status to use when parsing ended the command:
// -1 to go on, 0 after -h, 2 after a usage error.
func parseFlags(fs *flag.FlagSet, args []string) int {
	for _, a := range args {
		if a == "--" {
			break
		}
		if a == "-h" || a == "-help" || a == "--help" {
			if o, ok := fs.Output().(*flagOutput); ok {
				o.Writer = o.stdout
			}
		}
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	return -1
}
