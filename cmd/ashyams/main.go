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

// run dispatches args to a command and returns the exit status.
func run(e *env, args []string) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		usage(e.stderr)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	c, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(e.stderr, "ashyams: unknown command %q\n\n", args[0])
		usage(e.stderr)
		return 2
	}
	return c.run(e, args[1:])
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
	fmt.Fprintln(w, "\nRun 'ashyams <command> -h' for a command's flags.")
}

// newFlags returns a flag set for a command that reports errors to e.stderr instead of exiting.
func newFlags(e *env, name, argsUsage string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	fs.Usage = func() {
		fmt.Fprintf(e.stderr, "usage: ashyams %s [flags] %s\n", name, argsUsage)
		fs.PrintDefaults()
	}
	return fs
}

// parseFlags parses args and returns the exit status to use when parsing ended the command:
// -1 to go on, 0 after -h, 2 after a usage error.
func parseFlags(fs *flag.FlagSet, args []string) int {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	return -1
}
