package changes

import (
	"context"
	"sync"

	"github.com/culprit-go/culprit/reduce"
)

// dd is general delta debugging in its minimal difference mode, as
// Zeller and Hildebrandt (2002) give it for changes: at every
// granularity n it tries, for each of the n parts Δi of the difference
// between the passing set cPass and the failing set cFail, cPass ∪ Δi
// (fails: the new cFail) and cFail − Δi (passes: the new cPass), then
// the same sets the other way round (cPass ∪ Δi passes: the new cPass;
// cFail − Δi fails: the new cFail). reduce.DD tries the first two only
// at granularity 2, which suits inputs but not changes, where most
// parts do not build alone while the one that matters fails alone with
// the good side around it.
//
// Sets are sorted indices into units. With more than one worker, a
// round's candidates are tested jobs at a time, in order, and the first
// one in order that succeeds is taken, so the result does not depend on
// the number of workers.
func dd(ctx context.Context, n int, pass, fail []int, jobs int, test func(context.Context, []int) reduce.Outcome) (newPass, newFail []int, err error) {
	gran := 2
	for {
		if err := ctx.Err(); err != nil {
			return pass, fail, err
		}
		delta := difference(fail, pass)
		if len(delta) <= 1 {
			return pass, fail, nil
		}
		gran = min(gran, len(delta))
		parts := splitSet(delta, gran)
		type probe struct {
			set   []int
			want  reduce.Outcome
			fail  bool // the probe becomes cFail
			reset bool // granularity back to 2
		}
		var probes []probe
		for _, d := range parts {
			probes = append(probes, probe{union(pass, d), reduce.Fail, true, true})
			probes = append(probes, probe{difference(fail, d), reduce.Pass, false, true})
		}
		if gran > 2 {
			for _, d := range parts {
				probes = append(probes, probe{union(pass, d), reduce.Pass, false, false})
				probes = append(probes, probe{difference(fail, d), reduce.Fail, true, false})
			}
		}
		found := -1
		for i := 0; i < len(probes) && found < 0; i += max(jobs, 1) {
			batch := probes[i:min(i+max(jobs, 1), len(probes))]
			outs := make([]reduce.Outcome, len(batch))
			var wg sync.WaitGroup
			for k, p := range batch {
				wg.Add(1)
				go func() {
					defer wg.Done()
					outs[k] = test(ctx, p.set)
				}()
			}
			wg.Wait()
			if err := ctx.Err(); err != nil {
				return pass, fail, err
			}
			for k, p := range batch {
				if outs[k] == p.want {
					found = i + k
					break
				}
			}
		}
		if found < 0 {
			if gran >= len(delta) {
				return pass, fail, nil
			}
			gran = min(2*gran, len(delta))
			continue
		}
		p := probes[found]
		if p.fail {
			fail = p.set
		} else {
			pass = p.set
		}
		if p.reset {
			gran = 2
		} else {
			gran = max(gran-1, 2)
		}
	}
}

// splitSet divides a set into n nonempty consecutive parts.
func splitSet(set []int, n int) [][]int {
	k, m := len(set)/n, len(set)%n
	parts := make([][]int, n)
	for i := range parts {
		parts[i] = set[i*k+min(i, m) : (i+1)*k+min(i+1, m)]
	}
	return parts
}

// union returns the sorted union of two sorted sets.
func union(a, b []int) []int {
	out := make([]int, 0, len(a)+len(b))
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case j == len(b) || i < len(a) && a[i] < b[j]:
			out = append(out, a[i])
			i++
		case i == len(a) || b[j] < a[i]:
			out = append(out, b[j])
			j++
		default:
			out = append(out, a[i])
			i++
			j++
		}
	}
	return out
}
