package store_test

import (
	"testing"

	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
	"github.com/DreamWeave-MP/ashyams-go/crawl/refresh/refreshtest"
)

func init() {
	store.RefreshedState = func(tb testing.TB) (string, string) {
		n := refreshtest.New(tb)
		urls := n.Network()
		return n.State, urls[0]
	}
}
