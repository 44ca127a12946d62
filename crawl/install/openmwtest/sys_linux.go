package openmwtest

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"

	"golang.org/x/sys/unix"
)

// The Xvfb the runs of one test binary share (it takes a second to start).
var (
	xvfbMu      sync.Mutex
	xvfbDisplay string        // ":N", or "" before the first start
	xvfbDone    chan struct{} // closed when that Xvfb has exited
)

// startXvfb returns the shared Xvfb's display, starting bin if none runs. Xvfb gets SIGTERM
// when its starting thread ends, which stays locked to the goroutine waiting on it: Xvfb lives
// as long as the test binary.
func startXvfb(bin string) (string, error) {
	xvfbMu.Lock()
	defer xvfbMu.Unlock()
	if xvfbDisplay != "" {
		select {
		case <-xvfbDone:
		default:
			return xvfbDisplay, nil
		}
	}
	r, w, err := os.Pipe()
	if err != nil {
		return "", err
	}
	defer r.Close()
	var stderr bytes.Buffer
	started, done := make(chan error, 1), make(chan struct{})
	go func() {
		runtime.LockOSThread()
		defer close(done)
		cmd := exec.Command(bin, "-displayfd", "3", "-screen", "0", "640x480x24", "-nolisten", "tcp")
		cmd.ExtraFiles, cmd.Stderr = []*os.File{w}, &stderr
		cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGTERM}
		err := cmd.Start()
		w.Close()
		started <- err
		if err == nil {
			cmd.Wait()
		}
	}()
	if err := <-started; err != nil {
		return "", err
	}
	// Xvfb writes its display number once it accepts clients; EOF means it exited.
	line, err := bufio.NewReader(r).ReadString('\n')
	if _, perr := strconv.Atoi(strings.TrimSpace(line)); err != nil || perr != nil {
		<-done
		return "", fmt.Errorf("no display from Xvfb (%v): %s", err, stderr.Bytes())
	}
	xvfbDisplay, xvfbDone = ":"+strings.TrimSpace(line), done
	return xvfbDisplay, nil
}

// openPTY opens a pseudo-terminal and returns its master and terminal sides.
func openPTY() (ptm, pts *os.File, err error) {
	ptm, err = os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		return nil, nil, err
	}
	fd := int(ptm.Fd())
	n, err := 0, unix.IoctlSetPointerInt(fd, unix.TIOCSPTLCK, 0)
	if err == nil {
		n, err = unix.IoctlGetInt(fd, unix.TIOCGPTN)
	}
	if err == nil {
		pts, err = os.OpenFile("/dev/pts/"+strconv.Itoa(n), os.O_RDWR|syscall.O_NOCTTY, 0)
	}
	if err != nil {
		ptm.Close()
		return nil, nil, err
	}
	return ptm, pts, nil
}
