package refresh

import (
	"context"
	"errors"
	"sync"
	"testing"
)

// parallel starts nothing once stop is done, not even work that was waiting for a slot when it
// happened; work that ran to the end is reported done, work abandoned for the stop is not, and
// neither is a failure.
func TestParallelStopsTakingWork(t *testing.T) {
	stop, cancel := context.WithCancel(context.Background())
	release := make(chan struct{})
	var mu sync.Mutex
	started := map[int]bool{}
	done, err := parallel(stop, 2, 5, func(i int) error {
		mu.Lock()
		started[i] = true
		n := len(started)
		mu.Unlock()
		if n == 2 {
			cancel() // both slots taken, task 2 waiting for one
			close(release)
		}
		<-release
		if i == 0 {
			return nil
		}
		return &stopError{reason: "stopped"}
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(started) != 2 || !started[0] || !started[1] {
		t.Errorf("started %v, want only 0 and 1", started)
	}
	if !done[0] || done[1] || done[2] {
		t.Errorf("done %v", done)
	}
	// A failure that is not the stop is returned.
	boom := errors.New("write failed")
	if _, err := parallel(context.Background(), 2, 3, func(i int) error { return boom }); !errors.Is(err, boom) {
		t.Errorf("err = %v", err)
	}
}

// After a failure parallel starts nothing more, not even work already waiting for a slot, and
// returns that failure; work that ran to the end before it is reported done.
func TestParallelStopsAfterAFailure(t *testing.T) {
	boom := errors.New("write failed")
	var mu sync.Mutex
	var started []int
	done, err := parallel(context.Background(), 1, 4, func(i int) error {
		mu.Lock()
		started = append(started, i)
		mu.Unlock()
		if i == 1 {
			return boom
		}
		return nil
	})
	if !errors.Is(err, boom) {
		t.Errorf("err = %v, want the failure", err)
	}
	if len(started) != 2 || started[0] != 0 || started[1] != 1 {
		t.Errorf("started %v, want only 0 and 1 (one slot, the second failed)", started)
	}
	if !done[0] || done[1] || done[2] || done[3] {
		t.Errorf("done %v, want only task 0", done)
	}
}
