package reduce_test

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/culprit-go/culprit/reduce"
)

// mystery fails when a '(' comes before a ')'.
func mystery(inp string) {
	x, y := strings.IndexByte(inp, '('), strings.IndexByte(inp, ')')
	if x >= 0 && y >= 0 && x < y {
		panic(errors.New("Invalid input"))
	}
}

func ExampleCall() {
	c, err := reduce.NewCall(mystery, `V"/+!aF-(V4EOz*+s/Q,7)2@0_`)
	if err != nil {
		panic(err)
	}
	args, err := c.Min(context.Background())
	if err != nil {
		panic(err)
	}
	fmt.Println(c.Format(args))
	fmt.Println(c.Failure())
	// Output:
	// mystery("()")
	// panic: *errors.errorString: Invalid input
}

func ExampleDD() {
	input := []byte(`V"/+!aF-(V4EOz*+s/Q,7)2@0_`)
	test := func(_ context.Context, c []byte) reduce.Outcome {
		s := string(c)
		x, y := strings.IndexByte(s, '('), strings.IndexByte(s, ')')
		if x >= 0 && y >= 0 && x < y {
			return reduce.Fail
		}
		return reduce.Pass
	}
	res, err := reduce.DD(context.Background(), input, test, reduce.Diff, reduce.Config{Workers: 2})
	if err != nil {
		panic(err)
	}
	fmt.Printf("pass %q\nfail %q\ndiff %q\n", res.Pass, res.Fail, res.Diff)
	// Output:
	// pass "z*+s/Q,7)2@0_"
	// fail "(z*+s/Q,7)2@0_"
	// diff "("
}
