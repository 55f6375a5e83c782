package htmlmarkup

import "testing"

// TestRemoveHTMLMarkup uses the inputs of the seeds' chapters on
// statistical debugging and on reducing inputs. Double-quoted text outside
// tags fails; everything else passes.
func TestRemoveHTMLMarkup(t *testing.T) {
	for _, tc := range []struct {
		name, in, want string
	}{
		{"plain_text", `abc`, `abc`},
		{"bold_text", `<b>abc</b>`, `abc`},
		{"foo_element", `<foo>bar</foo>`, `bar`},
		{"quoted_attribute", `<b color="blue">text</b>`, `text`},
		{"empty_element_with_attribute", `<b link="blue"></b>`, ``},
		{"apostrophe_in_text", `<b>Don't do this!</b>`, `Don't do this!`},
		// The defect: quotes outside tags toggle the quote state.
		{"quoted_text", `"abc"`, `"abc"`},           // returns abc
		{"quoted_foo", `"foo"`, `"foo"`},            // returns foo
		{"quoted_comparison", `"x > y"`, `"x > y"`}, // panics
	} {
		t.Run(tc.name, func(t *testing.T) {
			defer func() {
				if r := recover(); r != nil {
					t.Errorf("RemoveHTMLMarkup(%q) panicked: %v", tc.in, r)
				}
			}()
			if got := RemoveHTMLMarkup(tc.in); got != tc.want {
				t.Errorf("RemoveHTMLMarkup(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}
