package multiarg

import "testing"

// returns reports whether f returns without panicking, and the panic value
// if it does not.
func returns(f func()) (ok bool, panicked any) {
	defer func() {
		panicked = recover()
	}()
	f()
	return true, nil
}

// TestStringError expects StringError to return. The seed's call fails.
func TestStringError(t *testing.T) {
	for _, tc := range []struct {
		name, s1, s2 string
	}{
		{"foo_in_foobar", "foo", "foobar"}, // fails
		{"foo_not_in_bar", "foo", "bar"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if ok, p := returns(func() { StringError(tc.s1, tc.s2) }); !ok {
				t.Errorf("StringError(%q, %q) panicked: %v", tc.s1, tc.s2, p)
			}
		})
	}
}

// TestListError expects ListError to return. The seed's call fails.
func TestListError(t *testing.T) {
	for _, tc := range []struct {
		name   string
		l1, l2 []int
		maxlen int
	}{
		{"long_first_list", []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, []int{1, 2, 3}, 5}, // fails
		{"increasing_lengths", []int{1}, []int{1, 2}, 5},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if ok, p := returns(func() { ListError(tc.l1, tc.l2, tc.maxlen) }); !ok {
				t.Errorf("ListError(%v, %v, %d) panicked: %v", tc.l1, tc.l2, tc.maxlen, p)
			}
		})
	}
}
