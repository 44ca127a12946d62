package site

import (
	"github.com/DreamWeave-MP/ashyams-go/site/internal/feed"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/pages/about"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/pages/claim"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/pages/lists"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/pages/sites"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/render"
	"github.com/DreamWeave-MP/ashyams-go/site/internal/sitedir"
)

const notFoundPage = sitedir.NotFoundPage

func (b *builder) renderPages() error {
	s := b.Site
	steps := []func(*render.Site) error{
		lists.Home, lists.Projects, claim.Claims, sites.Origins, lists.Releases, lists.Updates,
		sites.Conflicts, sites.Capabilities, sites.Dependencies, sites.Gaps, sites.Health, lists.Network,
		about.About, about.Join, about.SetupAndPlan, lists.Browse, feed.Projects, about.NotFound,
	}
	for _, f := range steps {
		if err := f(s); err != nil {
			return err
		}
	}
	return nil
}
