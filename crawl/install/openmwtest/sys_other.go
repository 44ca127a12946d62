//go:build !linux

package openmwtest

import (
	"errors"
	"os"
)

// Run skips before it gets here: the real engine runs only on Linux.
var errNotLinux = errors.New("the real-engine tests run on Linux only")

func startXvfb(string) (string, error) { return "", errNotLinux }

func openPTY() (*os.File, *os.File, error) { return nil, nil, errNotLinux }
