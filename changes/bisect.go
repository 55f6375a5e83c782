package changes

import (
	"context"

	"github.com/culprit-go/culprit/reduce"
)

// bisection is where bisecting left the first failing commit: after
// commits[lo] (-1: GOOD) and at or before commits[hi].
type bisection struct {
	lo, hi  int
	skipped []Version
}

// bisect finds the first commit of commits (GOOD's descendants, oldest
// first, the last one BAD, which fails) that fails the same way, each
// commit's tree tested as GOOD's with the change from GOOD to it. A
// commit that does not build or fails otherwise is skipped, as git
// bisect skip does; when skipped commits surround the first failing
// one, the range is what remains.
func bisect(ctx context.Context, s *session, r *runner, repo *Repo, good Version, commits []Version, rel string) (bisection, error) {
	b := bisection{lo: -1, hi: len(commits) - 1}
	skip := map[int]bool{}
	for b.hi-b.lo > 1 {
		mid := -1
		center := (b.lo + b.hi) / 2
		for d := 0; d < b.hi-b.lo; d++ {
			for _, i := range []int{center - d, center + d} {
				if i > b.lo && i < b.hi && !skip[i] && mid < 0 {
					mid = i
				}
			}
		}
		if mid < 0 {
			break
		}
		ch, err := repo.revChange(good.Rev, commits[mid].Rev)
		if err != nil {
			return b, err
		}
		s.mu.Lock()
		s.stats.Commits++
		s.mu.Unlock()
		out := r.outcome(ctx, "bisect", ch, ch.All())
		if err := ctx.Err(); err != nil {
			return b, err
		}
		switch out {
		case reduce.Pass:
			b.lo = mid
		case reduce.Fail:
			b.hi = mid
		default:
			skip[mid] = true
		}
	}
	for i := range commits {
		if skip[i] {
			b.skipped = append(b.skipped, commits[i])
		}
	}
	return b, nil
}
