package mem

import "fmt"

// Parse fails on anything but "ok" the way parsers often do: a panic deep
// down, recovered at the top into an error.
func Parse(s string) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = r.(error)
		}
	}()
	expect(s)
	return nil
}

func expect(s string) {
	if s != "ok" {
		panic(fmt.Errorf("want ok, got %q", s))
	}
}
