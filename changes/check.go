package changes

import "context"

// newChecker returns the in-process build check of the candidates of
// ch on r's tree, or nil when it cannot be made.
func newChecker(ctx context.Context, r *runner, ch *Change, env []string) func(*Change, map[string]Content) bool {
	return nil
}
