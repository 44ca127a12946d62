//go:build unix

package main

import (
	"net"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestValidateNotRegular: a FIFO with no writer, /dev/zero, a directory and a socket are each
// refused at once with a line naming the file and what it is; none is read (a FIFO would block
// forever and /dev/zero never ends). A regular file after them is still validated.
func TestValidateNotRegular(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe.json")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatalf("mkfifo: %v", err)
	}
	link := filepath.Join(dir, "link.json") // a symlink is followed: what it points at counts
	if err := os.Symlink(fifo, link); err != nil {
		t.Fatal(err)
	}
	sock := filepath.Join(dir, "s.sock")
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatalf("unix socket: %v", err)
	}
	defer l.Close()
	good := writeTemp(t, "good.json", validMinimal)
	cases := []struct{ path, what string }{
		{fifo, "a named pipe (FIFO)"},
		{link, "a named pipe (FIFO)"},
		{"/dev/zero", "a character device"},
		{dir, "a directory"},
		{sock, "a socket"},
	}
	args := []string{}
	want := ""
	for _, c := range cases {
		if _, err := os.Stat(c.path); err != nil {
			t.Fatalf("%s: %v", c.path, err)
		}
		args = append(args, c.path)
		want += c.path + ": unreadable: " + c.what + ", not a regular file: validate reads only regular files (a pipe or device can block or never end)\n"
	}
	args = append(args, good)
	want += good + alone + good + ": valid project manifest\n"

	type result struct {
		rc  int
		out string
	}
	done := make(chan result, 1)
	go func() {
		rc, out, _ := runValidateCmd(t, args...)
		done <- result{rc, out}
	}()
	select {
	case r := <-done:
		if r.rc != 1 || r.out != want {
			t.Errorf("exit %d\n%s\nwant\n%s", r.rc, r.out, want)
		}
	case <-time.After(time.Minute): // a hang detector, not a speed target: the refusal reads nothing
		t.Fatal("validate did not return: it is blocked on the FIFO or reading /dev/zero")
	}
}
