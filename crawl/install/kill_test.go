package install

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/DreamWeave-MP/ashyams-go/crawl/install/installtest"
)

// steps lists the steps of installing link for a fresh player, in order.
func steps(t *testing.T, link string) []string {
	defer func() { failAt = nil }()
	var got []string
	failAt = func(s string) error { got = append(got, s); return nil }
	install(t, newPlayer(t), link)
	return got
}

func TestInstallFailureAtEachStepChangesNothing(t *testing.T) {
	n := installtest.New(t)
	n.Publish(alpha, beta)
	link := n.Link("add=" + beta.ID)
	all := steps(t, link)
	if len(all) < 7 {
		t.Fatalf("steps: %q", all)
	}
	defer func() { failAt = nil }()
	for _, at := range all {
		p := newPlayer(t)
		before := p.snap(t)
		failAt = func(s string) error {
			if s == at {
				return errors.New("injected at " + s)
			}
			return nil
		}
		c, err := Install(context.Background(), link, p.options())
		if err == nil {
			_, err = c.Apply(context.Background())
		}
		if err == nil || !strings.Contains(err.Error(), "injected at "+at) {
			t.Errorf("%s: %v", at, err)
		}
		if d := diffSnap(before, p.snap(t)); d != "" {
			t.Errorf("a failure at %q changed %s", at, d)
		}
	}
}

// TestKilledInstall kills an install in another process while it extracts, and while it moves
// folders into place: the mods folder and openmw.cfg are as they were after the first, and
// after the next run on that mods folder for the second.
func TestKilledInstall(t *testing.T) {
	if os.Getenv("ASHYAMS_KILL_AT") != "" {
		killedChild(t)
		return
	}
	if testing.Short() {
		t.Skip("-short: runs a test binary in another process")
	}
	n := installtest.New(t)
	n.Publish(alpha, beta)
	link := n.Link("add=" + beta.ID)
	for _, at := range []string{"build " + betaDir, "move in " + betaDir} {
		p := newPlayer(t)
		before := p.snap(t)
		ready := filepath.Join(t.TempDir(), "ready")
		cmd := exec.Command(os.Args[0], "-test.run=^TestKilledInstall$", "-test.v")
		cmd.Env = append(os.Environ(), "ASHYAMS_KILL_AT="+at, "ASHYAMS_KILL_READY="+ready, "ASHYAMS_KILL_LINK="+link,
			"ASHYAMS_KILL_MODS="+p.mods, "ASHYAMS_KILL_CFG="+p.cfg, "ASHYAMS_KILL_CACHE="+p.cache)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		for start := time.Now(); ; time.Sleep(20 * time.Millisecond) {
			if _, err := os.Stat(ready); err == nil {
				break
			}
			if time.Since(start) > time.Minute {
				cmd.Process.Kill()
				t.Fatalf("%s: the child never got there", at)
			}
		}
		cmd.Process.Kill()
		cmd.Wait()
		mid := p.snap(t)
		stage := false
		for k := range mid {
			if strings.HasPrefix(k, "games/"+stagePrefix) {
				stage = true
				delete(mid, k)
			}
		}
		if !stage {
			t.Errorf("%s: no stage left by the killed run", at)
		}
		switch d := diffSnap(before, mid); {
		case at == "build "+betaDir && d != "":
			t.Errorf("killed while extracting: the mods folder or openmw.cfg changed: %s", d)
		case at != "build "+betaDir && !strings.Contains(d, "+games/Mod Folder & \"Quotes\" #1 @home/"+alphaDir+"/"):
			t.Errorf("killed while moving folders in, the first is not in yet: %s", d)
		}
		if err := recoverStages(p.mods); err != nil {
			t.Fatal(err)
		}
		if d := diffSnap(before, p.snap(t)); d != "" {
			t.Errorf("killed at %q, then the next run: %s", at, d)
		}
	}
}

// killedChild installs, stopping for good at the step ASHYAMS_KILL_AT after saying so.
func killedChild(t *testing.T) {
	at, ready := os.Getenv("ASHYAMS_KILL_AT"), os.Getenv("ASHYAMS_KILL_READY")
	failAt = func(s string) error {
		if s == at {
			os.WriteFile(ready, nil, 0o644)
			time.Sleep(time.Hour)
		}
		return nil
	}
	o := Options{Mods: os.Getenv("ASHYAMS_KILL_MODS"), OpenMWCfg: os.Getenv("ASHYAMS_KILL_CFG"), Cache: os.Getenv("ASHYAMS_KILL_CACHE"), AllowLoopback: true}
	c, err := Install(context.Background(), os.Getenv("ASHYAMS_KILL_LINK"), o)
	if err == nil {
		_, err = c.Apply(context.Background())
	}
	t.Fatalf("not killed: %v", err)
}

// TestInterruptedInstallChangesNothing: an interrupt (the context cancelled) between two
// extractions stops the install, and nothing of the player's changed.
func TestInterruptedInstallChangesNothing(t *testing.T) {
	n := installtest.New(t)
	n.Publish(alpha, beta)
	p := newPlayer(t)
	before := p.snap(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer func() { failAt = nil }()
	failAt = func(s string) error {
		if s == "build "+betaDir {
			cancel()
		}
		return nil
	}
	c, err := Install(ctx, n.Link("add="+beta.ID), p.options())
	if err == nil {
		_, err = c.Apply(ctx)
	}
	if !errors.Is(err, context.Canceled) {
		t.Errorf("got %v; want the interrupt", err)
	}
	if d := diffSnap(before, p.snap(t)); d != "" {
		t.Errorf("changed: %s", d)
	}
}
