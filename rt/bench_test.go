package rt

import "testing"

// BenchmarkEvent measures one read event in the three states a site can
// be in: inside a muted activation (a hot function's call not sampled),
// skipped by its site's counter, and recorded.
func BenchmarkEvent(b *testing.B) {
	saveDir, saveLimit, saveCalls, saveNums := traceDir, callLimit, calls, nums
	defer func() {
		traceDir, callLimit, calls, nums = saveDir, saveLimit, saveCalls, saveNums
		w = writer{}
	}()
	traceDir, numSites, module = b.TempDir(), 4, "example.com/p"
	t := newT(1, "bench")
	x := 42
	b.Run("muted", func(b *testing.B) {
		m := t.muted
		for i := 0; i < b.N; i++ {
			x = R(m, 1, x)
		}
	})
	b.Run("skipped", func(b *testing.B) {
		callLimit, calls, nums = 1, make([]uint32, 4), make([]uint64, 4)
		for i := 0; i < b.N; i++ {
			x = R(t, 1, x)
		}
	})
	b.Run("recorded", func(b *testing.B) {
		callLimit, calls, nums = 0, make([]uint32, 4), make([]uint64, 4)
		for i := 0; i < b.N; i++ {
			x = R(t, 1, x)
			if len(w.buf) > 1<<16 {
				w.buf = w.buf[:0]
			}
		}
	})
	b.Run("call-muted", func(b *testing.B) {
		m := t.muted
		for i := 0; i < b.N; i++ {
			x = Ret(m.C(2, 0), 2, x)
		}
	})
	b.Run("call-skipped", func(b *testing.B) {
		callLimit, calls, nums = 1, make([]uint32, 4), make([]uint64, 4)
		for i := 0; i < b.N; i++ {
			x = Ret(t.C(2, 0), 2, x)
		}
	})
}
